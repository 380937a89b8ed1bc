"""Import writes a story whole, in place by id, in a fixed number of queries; export reads it back."""

import io
import json
import sys

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from manifests.models import Manifest
from newsroom.models import Disclosure, Newsroom, RunGuide, SponsorAd
from stories.desk import content_hash, export_story
from stories.models import Cite, Paragraph, Revision, Story
from stories.services import story_import_desk

from .helpers import SEEDS, run_command, seed, variant

# The seeds carry site-wide texts; the site must know their versions before an import.
pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("seed_site_texts")]


def sized_story(story_id: str, slug: str, *, sections: int, paragraphs: int, cites: int) -> dict:
    """The seed, resized: every part present, any number of sections, paragraphs and cites."""
    document = variant(seed(), id=story_id, slug=slug)
    template = document["sections"][0]["paragraphs"][0]
    manifest_ids = [m["manifest_id"] for m in document["manifests"]]
    document["sections"] = [
        {
            "heading": f"Section {s}",
            "paragraphs": [
                {
                    "markdown": template["markdown"],
                    "cites": [
                        {"manifest_id": manifest_ids[(s + c) % 4], "claim_ids": [f"{s}-{p}-{c}"]} for c in range(cites)
                    ],
                }
                for p in range(paragraphs)
            ],
        }
        for s in range(sections)
    ]
    document["corrections"] = [{"published_at": "2026-10-17T00:00:00Z", "text": "A correction."}]
    document["images"] = [{"url": "https://example.org/i.png", "alt": "alt", "caption": "cap", "credit": "me"}]
    for key in ("cited_manifest_ids", "source_count", "publishers", "labels", "run_these_manifests", "manifests"):
        document.pop(key, None)
    document["labels"] = {"trust": "reported"}
    return document


def import_queries(document: dict) -> int:
    with CaptureQueriesContext(connection) as queries:
        story_import_desk(document=document)
    return len(queries)


def test_import_costs_a_fixed_number_of_queries_whatever_the_size():
    story_import_desk(document=seed())  # the site texts and manifests now exist
    small = import_queries(sized_story("1", "small", sections=1, paragraphs=1, cites=1))
    large = import_queries(sized_story("2", "large", sections=40, paragraphs=10, cites=5))
    assert Cite.objects.filter(story__desk_id=2).count() == 40 * 10 * 5 + 5  # and the key facts' 5
    assert small == large
    # Updating in place deletes and rewrites the parts, still in a fixed number of queries.
    small_again = import_queries(sized_story("1", "small", sections=1, paragraphs=1, cites=1))
    large_again = import_queries(sized_story("2", "large", sections=40, paragraphs=10, cites=5))
    assert small_again == large_again
    # An update also reads the corrections it must keep and the live version whose address it keeps.
    assert (small, small_again) == (24, 34)


def test_importing_the_same_story_again_updates_it_in_place():
    first = story_import_desk(document=seed())
    changed = seed()
    changed["headline"] = "A new headline"
    changed["sections"] = changed["sections"][:2]
    second = story_import_desk(document=changed)
    assert first.created
    assert not second.created
    assert second.story.pk == first.story.pk
    assert Story.objects.count() == 1
    assert Story.objects.get().headline == "A new headline"
    assert Paragraph.objects.filter(story=first.story).count() == 4
    assert Revision.objects.filter(story=first.story).count() == 2


def test_an_import_writes_a_working_copy_that_keeps_its_publication_time_unless_a_draft():
    archived = story_import_desk(document=seed()).story
    assert archived.status == Story.Status.DRAFT
    assert archived.published_at.isoformat() == "2026-10-16T00:39:10+00:00"
    draft = story_import_desk(document=seed("agentic-rl-production"), as_draft=True).story
    assert draft.status == Story.Status.DRAFT
    assert draft.published_at is None
    # Readers get nothing until a publish passes the gate.
    assert list(Story.objects.published()) == []


def test_a_document_without_published_at_is_a_draft():
    document = seed()
    del document["published_at"]
    story = story_import_desk(document=document).story
    assert story.status == Story.Status.DRAFT
    assert story.dateline.isoformat() == "2026-10-16"  # its edition's date until it is published


def test_import_from_standard_input(monkeypatch):
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(json.dumps(seed()).encode())))
    run = run_command("import_desk", "-")
    assert run.ok
    # Submitted for its checks, which a worker runs after the import commits.
    assert run.stdout.splitlines()[0] == "81\tagent-training-stack\tcreated\tsubmitted"
    assert run.stdout.splitlines()[-1] == "1 imported (1 created, 0 updated, 0 unchanged), 0 failed"


def test_import_command_prints_a_line_per_story_and_a_summary():
    run = run_command("import_desk", str(SEEDS))
    assert run.ok
    assert run.stdout.splitlines() == [
        "81\tagent-training-stack\tcreated\tsubmitted",
        "278\tagentic-rl-production\tcreated\tsubmitted",
        "2 imported (2 created, 0 updated, 0 unchanged), 0 failed",
    ]
    again = run_command("import_desk", str(SEEDS / "agent-training-stack.json"), "--draft")
    assert again.stdout.splitlines()[0] == "81\tagent-training-stack\tupdated\tdraft"


def test_imported_manifests_block_seeds_the_store_without_overwriting_it():
    Manifest.objects.create(
        manifest_id="1792067182956183080", title="Stored title", source_name="stored-publisher", origin="file"
    )
    story_import_desk(document=seed())
    assert Manifest.objects.count() == 4
    assert Manifest.objects.get(manifest_id="1792067182956183080").title == "Stored title"
    assert Manifest.objects.get(manifest_id="1792043738156041460").origin == Manifest.Origin.STORY_IMPORT


def test_each_seed_points_at_the_site_text_versions_of_its_day(seed_site_texts):
    story_import_desk(document=seed())
    story_import_desk(document=seed("agentic-rl-production"))
    # The seeds share their disclosure and reuse terms but not their guide step 1 or sponsor ad;
    # the import found the versions the site had and added none.
    assert (Disclosure.objects.count(), RunGuide.objects.count(), SponsorAd.objects.count()) == (1, 2, 2)
    older, newer = Story.objects.order_by("published_at")
    for story in (older, newer):
        pinned = {field: getattr(story, field) for field in seed_site_texts[story.slug]}
        assert pinned == seed_site_texts[story.slug]
    assert older.run_guide != newer.run_guide
    assert older.sponsor != newer.sponsor
    assert RunGuide.objects.in_force() == newer.run_guide


def test_a_new_newsroom_takes_its_title_from_the_document():
    story_import_desk(document=seed())
    assert Newsroom.objects.get(slug="artificial-intelligence").title == "Artificial Intelligence"


def test_export_prints_one_object_for_one_id_and_json_lines_in_id_order(site_url):
    run_command("import_desk", str(SEEDS))
    one = run_command("export_desk", "--id", "278")
    assert json.loads(one.stdout) == seed("agentic-rl-production")
    many = run_command("export_desk")
    assert [json.loads(line)["id"] for line in many.stdout.splitlines()] == ["81", "278"]
    both = run_command("export_desk", "--id", "278", "--id", "81")
    assert [json.loads(line) for line in both.stdout.splitlines()] == [seed(), seed("agentic-rl-production")]


def test_export_refuses_unknown_and_malformed_ids():
    assert run_command("export_desk", "--id", "404").error == "--id: no story with id 404"
    assert run_command("export_desk", "--id", "abc").error == "--id: abc is not a story id (a whole number)"


def test_an_imported_story_hashes_the_same_as_its_export():
    story = story_import_desk(document=seed()).story
    exported = export_story(Story.objects.with_parts().get(pk=story.pk))
    assert story.content_hash == content_hash(exported)
    assert Story.objects.get(pk=story.pk).content_hash == story.content_hash


def test_an_edit_of_the_content_changes_the_hash_and_a_correction_does_not():
    original = content_hash(seed())
    edited = seed()
    edited["sections"][0]["paragraphs"][0]["markdown"] += " More."
    corrected = seed()
    corrected["corrections"] = [{"published_at": "2026-10-17T00:00:00Z", "text": "Fixed a name."}]
    assert content_hash(edited) != original
    assert content_hash(corrected) == original
