"""Migrating an archive: add_site_texts records the site-wide text versions its documents carry,
so import_desk of the same files then works, with no version clicked into admin."""

import json

import pytest

from newsroom.models import Disclosure, Label, ReuseTerms, RunGuide, SponsorAd, Writer

from .helpers import SEEDS, row_counts, run_command, seed, variant

pytestmark = pytest.mark.django_db
SITE_TEXTS = (Disclosure, ReuseTerms, RunGuide, SponsorAd)


def site_text_count() -> int:
    return sum(model.objects.count() for model in SITE_TEXTS)


def test_an_archive_imports_once_its_site_texts_are_added():
    refused = run_command("import_desk", str(SEEDS))
    assert not refused.ok
    assert "disclosure: equals no version of the disclosure the site knows" in refused.stderr

    added = run_command("add_site_texts", str(SEEDS))

    assert added.ok, added.stderr
    lines = added.stdout.splitlines()
    # Each version once, named with where it came from; the second seed carries the same ones.
    assert lines[-1] == f"{len(lines) - 1} site-wide text versions added from 2 documents, 0 failed"
    assert len(lines) - 1 == site_text_count()
    assert all(line.startswith(str(SEEDS)) and "\tadded the " in line for line in lines[:-1])
    disclosure = Disclosure.objects.get()
    assert (disclosure.label, disclosure.writer) == (Label.CHECKED, Writer.AGENT)
    first_published = min(json.loads(path.read_text())["published_at"] for path in SEEDS.glob("*.json"))
    assert disclosure.effective_from.strftime("%Y-%m-%dT%H:%M:%SZ") == first_published

    imported = run_command("import_desk", str(SEEDS))
    assert imported.ok, imported.stderr
    again = run_command("add_site_texts", str(SEEDS))
    assert again.stdout.splitlines() == ["0 site-wide text versions added from 2 documents, 0 failed"]


def test_a_person_written_story_with_an_agent_disclosure_is_refused_by_name(tmp_path):
    document = variant(seed(), writer=None)
    del document["writer"]
    path = tmp_path / "by-a-person.json"
    path.write_text(json.dumps(document))
    before = row_counts()

    run = run_command("add_site_texts", str(path))

    assert not run.ok
    assert run.error == "0 site-wide text versions added from 0 documents, 1 failed"
    assert f"{path}: disclosure: A text for stories a person wrote must not say an agent wrote them." in run.stderr
    assert row_counts() == before, "a refused document adds no version, not even its other blocks"


def test_bad_input_is_named_and_adds_nothing(tmp_path):
    (tmp_path / "broken.json").write_text('{"schema": ')
    (tmp_path / "no-headline.json").write_text(json.dumps({k: v for k, v in seed().items() if k != "headline"}))

    run = run_command("add_site_texts", str(tmp_path))

    assert not run.ok
    assert run.error == "0 site-wide text versions added from 0 documents, 2 failed"
    assert f"{tmp_path / 'no-headline.json'}: headline: is required" in run.stderr
    assert f"{tmp_path / 'broken.json'}: $: " in run.stderr
    assert site_text_count() == 0
