"""Backups: backup_db and restore_db with each engine's tools, a drill that restores a whole
newsroom into an empty database and compares every row field by field, and export_desk naming
the stories it leaves out."""

from __future__ import annotations

import io
import json
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import psycopg
import pytest
from django.apps import apps
from django.contrib.auth.models import Group, Permission, User
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import connection, connections
from django.db.utils import load_backend

from manifests.models import Claim
from newsroom.models import Disclosure, RunGuide, SponsorAd
from stories.models import Correction, PublishedVersion, Revision, Story
from stories.services import story_add_correction, story_retract
from tests.factories import ClaimFactory, ManifestFactory, StoryFactory, publish_story
from verification.models import VerificationRun
from verification.services import story_verify

# Every app of the project that may hold rows (the rest have no models); auth's users beside.
PROJECT_APPS = ["newsroom", "manifests", "editions", "stories", "verification", "ops"]


def models_to_compare() -> list[Any]:
    project = [
        model for label in PROJECT_APPS for model in apps.get_app_config(label).get_models(include_auto_created=True)
    ]
    return [*project, User, User.groups.through, User.user_permissions.through, Group]


def snapshot(alias: str) -> dict[str, list[dict[str, Any]]]:
    """Every row of every model, as the values of all its concrete fields, in key order."""
    return {
        model._meta.label: [
            {field.attname: getattr(row, field.attname) for field in model._meta.concrete_fields}
            for row in model._base_manager.using(alias).order_by("pk")
        ]
        for model in models_to_compare()
    }


def build_newsroom() -> None:
    """Drafts, a retracted story, a corrected one, an edited claim, revisions, runs, manifests
    with claims, site-text versions and users (one in a group with a permission)."""
    chief = User.objects.create_superuser("chief", "chief@example.com", "a-long-chief-password")
    editor = User.objects.create_user("editor", "editor@example.com", "a-long-editor-password")
    desk = Group.objects.create(name="desk")
    desk.permissions.add(Permission.objects.get(codename="change_story"))
    editor.groups.add(desk)
    editor.user_permissions.add(Permission.objects.get(codename="view_story"))

    manifest = ManifestFactory(title="Harbour report")
    claim = ClaimFactory(manifest=manifest, claim_id="c-1", text="The harbour opened a ferry terminal.")
    ClaimFactory(manifest=manifest, claim_id="c-2", text="Tide gauges were installed.")
    claim.text = "The harbour opened its new ferry terminal."  # edited after it was first stored
    claim.save()

    draft = StoryFactory(status=Story.Status.DRAFT, published_at=None, headline="A draft on the harbour")
    story_verify(story=draft, started_by="backup drill")
    corrected = publish_story(StoryFactory(status=Story.Status.DRAFT, headline="Ferry terminal opens"))
    story_add_correction(story=corrected, text="The terminal opened on Tuesday, not Monday.", user=chief)
    retracted = publish_story(StoryFactory(status=Story.Status.DRAFT, headline="A story withdrawn"))
    story_retract(story=retracted, user=chief, reason="The source withdrew its report.")


@pytest.fixture
def store(transactional_db, seed_site_texts, settings) -> None:  # committed: pg_dump reads it
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    build_newsroom()


def add_database(alias: str, settings_dict: dict[str, Any]) -> None:
    """A connection made for the test, not in settings: Django's test isolation lets such
    connections be (it guards the aliases of settings.DATABASES)."""
    backend = load_backend(settings_dict["ENGINE"])
    connections[alias] = backend.DatabaseWrapper(settings_dict, alias)


def remove_database(alias: str) -> None:
    connections[alias].close()
    del connections[alias]


@pytest.fixture
def empty_sqlite(transactional_db, tmp_path) -> Iterator[str]:
    alias = "restored_sqlite"
    sqlite = {"ENGINE": "django.db.backends.sqlite3", "NAME": str(tmp_path / "restored.sqlite3"), "OPTIONS": {}}
    add_database(alias, {**connections.settings["default"], **sqlite})
    yield alias
    remove_database(alias)


def admin_connection() -> psycopg.Connection:
    params = connection.settings_dict
    return psycopg.connect(
        host=params["HOST"] or "127.0.0.1",
        port=params["PORT"] or 5432,
        user=params["USER"] or "postgres",
        password=params["PASSWORD"] or None,
        dbname="postgres",
        autocommit=True,
    )


@pytest.fixture
def empty_postgres(transactional_db, require_postgres) -> Iterator[str]:
    """A database of this test's own on the same server, created empty and dropped after."""
    alias, name = "restored_postgres", f"newsroom_restore_{uuid.uuid4().hex[:12]}"
    with admin_connection() as admin:
        admin.execute(f'CREATE DATABASE "{name}"')
    add_database(alias, {**connections.settings["default"], "NAME": name})
    try:
        yield alias
    finally:
        remove_database(alias)
        with admin_connection() as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def run(*args: str) -> str:
    out = io.StringIO()
    call_command(*args, stdout=out, stderr=io.StringIO())
    return out.getvalue()


def drill(tmp_path: Path, target: str) -> None:
    backup = tmp_path / "newsroom.backup"
    assert "Backed up" in run("backup_db", str(backup))
    assert backup.stat().st_size > 0
    assert not list(tmp_path.glob(".*.partial"))

    assert "Restored" in run("restore_db", str(backup), "--database", target)

    before, after = snapshot("default"), snapshot(target)
    for label, rows in before.items():
        assert after[label] == rows, f"{label} differs after the restore"
    # The store really held each kind of thing the drill promises to bring back.
    held = {label: len(rows) for label, rows in before.items()}
    for model in (Story, Correction, Revision, PublishedVersion, VerificationRun, Claim, User, Group):
        assert held[model._meta.label] > 0, model._meta.label
    for model in (Disclosure, RunGuide, SponsorAd):
        assert held[model._meta.label] > 0, model._meta.label
    statuses = {row["status"] for row in after["stories.Story"]}
    assert {Story.Status.DRAFT, Story.Status.PUBLISHED, Story.Status.RETRACTED} <= statuses
    restored_claims = {row["claim_id"]: row["text"] for row in after["manifests.Claim"]}
    assert restored_claims["c-1"] == "The harbour opened its new ferry terminal."
    withdrawn = [row for row in after["stories.PublishedVersion"] if row["withdrawn_at"] is not None]
    assert len(withdrawn) == 1


def test_the_backup_drill_on_sqlite(store, empty_sqlite, tmp_path):
    if connection.vendor != "sqlite":
        pytest.skip("this run is on PostgreSQL: the PostgreSQL drill covers it")
    drill(tmp_path, empty_sqlite)


def test_the_backup_drill_on_postgresql(store, empty_postgres, tmp_path):
    drill(tmp_path, empty_postgres)


# --- Refusals ----------------------------------------------------------------------------------


# Backups read committed data (pg_dump is another session), hence transactional_db below.


def test_restore_refuses_a_database_that_is_not_empty(transactional_db, tmp_path):
    backup = tmp_path / "b.backup"
    run("backup_db", str(backup))

    refusal = r"is not empty \(\d+ tables\): restore into an empty database, or pass --force"
    with pytest.raises(CommandError, match=refusal):
        run("restore_db", str(backup))


def test_backup_refuses_to_replace_a_file_unless_forced(transactional_db, tmp_path):
    backup = tmp_path / "b.backup"
    backup.write_text("an older backup")

    with pytest.raises(CommandError, match="exists already"):
        run("backup_db", str(backup))
    assert backup.read_text() == "an older backup"
    run("backup_db", str(backup), "--force")
    assert backup.read_bytes() != b"an older backup"


def test_restore_names_a_file_that_is_no_backup(tmp_path, empty_sqlite):
    not_a_backup = tmp_path / "notes.txt"
    not_a_backup.write_text("hello")

    with pytest.raises(CommandError, match=r"notes\.txt is not an SQLite backup"):
        run("restore_db", str(not_a_backup), "--database", empty_sqlite)
    with pytest.raises(CommandError, match="is not a file"):
        run("restore_db", str(tmp_path / "missing.backup"), "--database", empty_sqlite)


def test_a_failing_command_prints_a_message_and_no_traceback(tmp_path):
    import subprocess
    import sys

    result = subprocess.run(
        [sys.executable, "manage.py", "restore_db", str(tmp_path / "missing.backup")],
        cwd=Path(__file__).resolve().parents[2],
        capture_output=True,
        text=True,
        env={**__import__("os").environ, "DATABASE_URL": f"sqlite:///{tmp_path / 'empty.sqlite3'}"},
        check=False,
    )

    assert result.returncode == 1
    assert "missing.backup is not a file" in result.stderr
    assert "Traceback" not in result.stderr


# --- export_desk -------------------------------------------------------------------------------


def export(*args: str) -> tuple[list[str], str]:
    out, err = io.StringIO(), io.StringIO()
    call_command("export_desk", *args, stdout=out, stderr=err)
    text = out.getvalue()
    if text.startswith("{\n"):  # one story: one pretty-printed object
        return [json.loads(text)["id"]], err.getvalue()
    return [json.loads(line)["id"] for line in text.splitlines() if line.strip()], err.getvalue()


def test_export_desk_names_the_drafts_and_retracted_stories_it_leaves_out(db, site_url, seed_site_texts, admin_user):
    published = publish_story(StoryFactory(status=Story.Status.DRAFT, desk_id=501, slug="live"))
    draft = StoryFactory(status=Story.Status.DRAFT, published_at=None, desk_id=502, slug="draft-one")
    retracted = publish_story(StoryFactory(status=Story.Status.DRAFT, desk_id=503, slug="withdrawn"))
    story_retract(story=retracted, user=admin_user, reason="The source withdrew its report.")

    exported, said = export()

    assert exported == [str(published.desk_id)]
    assert f"left out story {draft.desk_id} (draft-one): a draft (--include-drafts exports drafts)" in said
    assert f"left out story {retracted.desk_id} (withdrawn): retracted (--include-retracted" in said

    everything, said = export("--include-drafts", "--include-retracted")
    assert everything == ["501", "502", "503"]
    assert "left out" not in said
    assert "story 503 (withdrawn) is retracted: desk/1 has no status" in said


def test_export_desk_leaves_out_a_draft_asked_for_by_id_and_says_so(db, site_url, seed_site_texts):
    StoryFactory(status=Story.Status.DRAFT, published_at=None, desk_id=602, slug="draft-two")

    exported, said = export("--id", "602")

    assert exported == []
    assert "left out story 602 (draft-two): a draft" in said
    assert export("--id", "602", "--include-drafts")[0] == ["602"]
