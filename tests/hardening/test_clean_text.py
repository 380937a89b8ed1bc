"""Text is clean at the door: control characters and bidirectional overrides are refused with
the field and the character named, by the API, the importer, the manifest adapter and admin
forms; and what was stored before never breaks a feed or a sitemap."""

from __future__ import annotations

import json
import unicodedata
import xml.etree.ElementTree as ET

import pytest
from django.utils import timezone

from manifests.adapters import SynorbAdapter
from newsroom.cleantext import (
    _CONTROL_NAMES,
    CleanTextModelForm,
    character_name,
    forbidden_character,
    strip_forbidden,
    xml_safe,
)
from newsroom.jsonfiles import DocumentError
from stories import desk
from stories.models import Correction, PublishedVersion, Story
from tests.api.conftest import body, new_document, post_json
from tests.api.conftest import writer as writer  # a fixture
from tests.site.conftest import demo  # noqa: F401 (a fixture)
from tests.stories.helpers import row_counts, run_command, seed, variant

STORIES = "/api/v1/stories/"


def test_every_control_character_has_its_unicode_name():
    for code, name in _CONTROL_NAMES.items():
        # U+0007 keeps its ISO 6429 name; Unicode gave "BELL" to U+1F514 and calls it ALERT.
        assert unicodedata.lookup(name) == chr(code) or (code, unicodedata.lookup("ALERT")) == (7, "\x07")
    assert set(_CONTROL_NAMES) == {*range(0x20), 0x7F, *range(0x80, 0xA0)}
    assert character_name("\u0007") == "U+0007 BELL"
    assert character_name("\u202e") == "U+202E RIGHT-TO-LEFT OVERRIDE"
    assert character_name("\u2068") == "U+2068 FIRST STRONG ISOLATE"


@pytest.mark.parametrize(
    ("text", "multiline", "found"),
    [
        ("plain, with é, — and 中文", False, None),
        ("a\tb", False, "U+0009 CHARACTER TABULATION"),
        ("a\nb", False, "U+000A LINE FEED"),
        ("a\tb\r\nc", True, None),
        ("a\x1bb", True, "U+001B ESCAPE"),
        ("a\x85b", True, "U+0085 NEXT LINE"),
        ("a\x7fb", False, "U+007F DELETE"),
        ("evil\u202etxt.exe", True, "U+202E RIGHT-TO-LEFT OVERRIDE"),
        ("\u2066isolated\u2069", False, "U+2066 LEFT-TO-RIGHT ISOLATE"),
        ("\u200fmark", False, None),  # a right-to-left mark is text that Arabic and Hebrew need
    ],
)
def test_one_function_decides_which_characters_are_refused(text, multiline, found):
    assert forbidden_character(text, multiline=multiline) == found


def test_stripping_keeps_line_breaks_only_where_a_field_is_multi_line():
    assert strip_forbidden("a\x07b\u202ec\nd") == "abcd"
    assert strip_forbidden("a\x07b\u202ec\nd", multiline=True) == "abc\nd"
    assert xml_safe("a\x00b\x07c\td\ufffe") == "abc\td"


@pytest.mark.parametrize(
    ("changes", "at", "name"),
    [
        ({"headline": "Bell \u0007 rings"}, "headline", "U+0007 BELL"),
        ({"headline": "gnp.exe\u202e"}, "headline", "U+202E RIGHT-TO-LEFT OVERRIDE"),
        ({"dek": "a \x9b dek"}, "dek", "U+009B CONTROL SEQUENCE INTRODUCER"),
    ],
)
def test_the_api_refuses_a_control_character_naming_the_json_path_and_the_character(client, writer, changes, at, name):
    document = new_document(desk_id="9101", slug="clean-text") | changes

    response = post_json(client, STORIES, document, **writer)

    assert response.status_code == 400, response.content
    answer = body(response)
    assert answer["problems"] == [{"at": at, "message": answer["problems"][0]["message"]}]
    assert name in answer["problems"][0]["message"]
    assert f"$.{at} must not contain {name}" in answer["message"]
    assert not Story.objects.exists()


def test_the_api_refuses_a_line_break_in_a_one_line_field_but_not_in_a_paragraph(client, writer):
    document = new_document(desk_id="9102", slug="clean-lines", headline="Two\nlines")

    response = post_json(client, STORIES, document, **writer)

    assert response.status_code == 400
    assert {"at": "headline", "message": desk_message("U+000A LINE FEED")} in body(response)["problems"]
    assert not Story.objects.exists()


def desk_message(name: str) -> str:
    return f"must not contain {name} (a control character, which readers cannot see)"


@pytest.mark.django_db
@pytest.mark.usefixtures("seed_site_texts")
@pytest.mark.parametrize(
    ("changes", "expected"),
    [
        ({"headline": "Bell \u0007 rings"}, "headline: must not contain U+0007 BELL"),
        ({"headline": "abc\u202edef"}, "headline: must not contain U+202E RIGHT-TO-LEFT OVERRIDE"),
    ],
)
def test_import_desk_refuses_a_control_character_and_writes_nothing(tmp_path, changes, expected):
    path = tmp_path / "story.json"
    path.write_text(json.dumps(variant(seed(), **changes)))
    before = row_counts()

    run = run_command("import_desk", str(path))

    assert not run.ok  # a CommandError: the command exits non-zero
    assert "0 imported" in run.error
    assert expected in run.stderr
    assert row_counts() == before


def test_a_paragraph_keeps_its_line_breaks_and_tabs():
    document = seed()
    document["sections"][0]["paragraphs"][0]["markdown"] += "\n\n\tindented"
    assert desk.validate_document(document) is document


def test_the_manifest_adapter_refuses_a_bidirectional_override_in_a_claim():
    payload = {
        "manifest_id": "m1",
        "title": "A title",
        "source": {"name": "Wire", "url": "https://example.org/m1", "published_date": "2026-10-01"},
        "brief": {"headline": "h", "summary": "Two\nlines are fine here."},
        "signal": {"claims": [{"claim_id": "c1", "text": "Revenue rose \u202e30%", "type": "fact"}]},
    }

    with pytest.raises(DocumentError) as refused:
        SynorbAdapter.to_manifest(payload)

    assert [str(problem) for problem in refused.value.problems] == [
        "signal.claims[0].text: must not contain U+202E RIGHT-TO-LEFT OVERRIDE "
        "(a bidirectional control, which readers cannot see)"
    ]


@pytest.mark.django_db
def test_an_admin_form_refuses_a_control_character_in_a_line_and_keeps_a_textarea_multi_line():
    class CorrectionForm(CleanTextModelForm):
        class Meta:
            model = Correction
            fields = ["text"]

    refused = CorrectionForm(data={"text": "Fixed \x07 now"})
    kept = CorrectionForm(data={"text": "Fixed.\r\nAnd again."})

    assert not refused.is_valid()
    assert "U+0007 BELL" in refused.errors["text"][0]
    assert kept.is_valid(), kept.errors


FEEDS = ["/rss.xml", "/atom.xml", "/sitemap.xml", "/news-sitemap.xml", "/n/artificial-intelligence/rss.xml"]


@pytest.mark.usefixtures("demo")
@pytest.mark.parametrize("path", FEEDS)
def test_a_control_character_stored_before_never_breaks_a_feed_or_sitemap(client, path):
    # Written past every door, as data from before the rule would be.
    # (No NUL: PostgreSQL cannot store one, so no database of ours holds it.)
    headline = "Stored \x07 bell \x01 soh \u202e and \x1b escape"
    PublishedVersion.objects.update(headline=headline, dek="dek \x0b\x0c", published_at=timezone.now())
    Story.objects.update(headline=headline)

    response = client.get(path)

    assert response.status_code == 200
    root = ET.fromstring(response.content)  # raises on XML that is not well-formed
    if "sitemap" not in path or "news" in path:
        texts = [element.text or "" for element in root.iter()]
        assert any("Stored  bell  soh \u202e and  escape" in text for text in texts)


@pytest.mark.django_db
def test_the_migration_cleans_what_was_stored_before_and_says_what_it_changed(capsys):
    from importlib import import_module

    from django.apps import apps

    from manifests.models import Claim, Manifest
    from tests.factories import ParagraphFactory, SectionFactory, StoryFactory

    migration = import_module("manifests.migrations.0002_clean_stored_text")
    story = StoryFactory(headline="Clean")
    section = SectionFactory(story=story, position=0, heading="A heading")
    paragraph = ParagraphFactory(section=section, story=story, position=0, markdown="One\n\n\tTwo")
    manifest = Manifest.objects.create(manifest_id="m-dirty", title="Title", source_name="Wire")
    claim = Claim.objects.create(manifest=manifest, position=0, claim_id="c1", text="Rose 30%")
    # Written past every door, as data from before the rule would be.
    Story.objects.filter(pk=story.pk).update(headline="Bell \x07 and \u202eover\nride", dek="a\x1bdek")
    Manifest.objects.filter(pk=manifest.pk).update(title="T\x85itle", brief_summary="Two\nlines\x0c")
    Claim.objects.filter(pk=claim.pk).update(text="Rose \u2066 30%")

    migration.clean_stored_text(apps, None)

    story.refresh_from_db()
    manifest.refresh_from_db()
    claim.refresh_from_db()
    paragraph.refresh_from_db()
    assert (story.headline, story.dek) == ("Bell  and over ride", "adek")
    assert (manifest.title, manifest.brief_summary) == ("Title", "Two\nlines")
    assert claim.text == "Rose  30%"
    assert paragraph.markdown == "One\n\n\tTwo"  # a paragraph's lines are its own
    printed = capsys.readouterr().out
    assert f"cleaned stories.Story #{story.pk} headline: removed U+0007, U+000A, U+202E" in printed
    assert f"cleaned manifests.Claim #{claim.pk} text: removed U+2066" in printed
    assert "cleaned 3 row(s)" in printed


def test_the_api_names_every_field_holding_a_forbidden_character_at_once(client, writer):
    document = new_document(desk_id="9103", slug="clean-all", headline="Bell \u0007 rings", dek="gnp.exe\u202e")
    document["sections"][0]["paragraphs"][1]["markdown"] += " \x9b"

    response = post_json(client, STORIES, document, **writer)

    assert response.status_code == 400, response.content
    answer = body(response)
    assert [problem["at"] for problem in answer["problems"]] == [
        "headline",
        "dek",
        "sections[0].paragraphs[1].markdown",
    ]
    assert "U+202E RIGHT-TO-LEFT OVERRIDE" in answer["problems"][1]["message"]
    assert answer["message"].startswith("The request body is not acceptable JSON: $.headline must not contain U+0007")
    assert answer["message"].endswith("(2 more: see problems)")
    assert not Story.objects.exists()
