"""Helpers for tests that drive the desk/1 commands."""

from __future__ import annotations

import copy
import io
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from django.apps import apps
from django.core.management import CommandError, call_command

SEEDS = Path(__file__).resolve().parents[2] / "stories" / "fixtures" / "seeds"


def seed(name: str = "agent-training-stack") -> dict[str, Any]:
    return json.loads((SEEDS / f"{name}.json").read_text())


@dataclass
class CommandRun:
    ok: bool
    stdout: str
    stderr: str
    error: str = ""


def run_command(name: str, *args: str, stdin: bytes | None = None) -> CommandRun:
    out, err = io.StringIO(), io.StringIO()
    try:
        call_command(name, *args, stdout=out, stderr=err)
    except CommandError as error:
        return CommandRun(False, out.getvalue(), err.getvalue(), str(error))
    return CommandRun(True, out.getvalue(), err.getvalue())


def row_counts() -> dict[str, int]:
    """Rows in every table of the project's apps, to prove a refused import wrote nothing."""
    return {
        model._meta.label: model.objects.count()
        for app in ("newsroom", "manifests", "stories", "editions")
        for model in apps.get_app_config(app).get_models()
    }


def variant(document: dict[str, Any], **changes: Any) -> dict[str, Any]:
    changed = copy.deepcopy(document)
    changed.update(changes)
    return changed
