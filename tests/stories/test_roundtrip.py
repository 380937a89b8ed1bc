import io
import json
from pathlib import Path

import pytest
from django.core.management import call_command

SEEDS = Path(__file__).resolve().parents[2] / "stories" / "fixtures" / "seeds"


def seed(name: str) -> dict:
    return json.loads((SEEDS / f"{name}.json").read_text())


def import_paths(*paths: str, draft: bool = False) -> str:
    out = io.StringIO()
    call_command("import_desk", *paths, *(["--draft"] if draft else []), stdout=out, stderr=io.StringIO())
    return out.getvalue()


@pytest.mark.django_db
@pytest.mark.parametrize("name", ["agent-training-stack", "agentic-rl-production"])
def test_seed_survives_import_and_export_unchanged(site_url, seed_site_texts, name):
    import_paths(str(SEEDS / f"{name}.json"))
    out = io.StringIO()
    call_command("export_desk", "--id", seed(name)["id"], stdout=out)
    exported = json.loads(out.getvalue())
    assert exported == seed(name)
    # Key order is part of the format, at every depth (PostgreSQL's jsonb would sort keys).
    assert out.getvalue() == (SEEDS / f"{name}.json").read_text() + "\n"
