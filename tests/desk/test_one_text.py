"""The story page's one-text mode: key facts and sections written as one Markdown text with cite
markers, parsed on save into the same rows the rows mode edits, errors on their line, nothing
written when there is one."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse
from django.utils.html import escape

from manifests.models import Manifest
from stories import bodytext, desk
from stories.forms import claim_label, manifest_label
from stories.models import Cite, KeyFact, Paragraph, Section, Story

from .helpers import errors_of, page_fields, story_url
from .test_story_page import desk_setup  # noqa: F401  (shared fixture)

# ruff: noqa: F811  (the shared fixture, named as a test's argument)

pytestmark = pytest.mark.django_db


def body_of(story: Story) -> dict[str, Any]:
    return desk.story_body(story)


def new_story_fields(client: Any, setup: dict[str, Any], body: str, **changes: Any) -> dict[str, Any]:
    data = page_fields(client, story_url(rows=False))
    data.update(
        {
            "headline": "Harbour dredging ends",
            "slug": "harbour-dredging-ends",
            "newsroom": str(setup["newsroom"].pk),
            "beat": str(setup["beat"].pk),
            "edition": setup["edition"].key,
            "angle": "An angle.",
            "body": body,
            "_save": "Save",
            **changes,
        }
    )
    return data


def test_a_new_story_is_written_as_one_text_into_the_same_rows(client, editor, desk_setup):
    m = desk_setup["manifest"].manifest_id
    client.force_login(editor)
    body = (
        f"- The authority dredged 4 berths. [^{m}: h-1]\n"
        f"- [self-reported] Ferry traffic rose 12% after it. [^{m}: h-2]\n"
        "\n## What happened\n\n"
        f"The authority dredged 4 berths in March. [^{m}: h-1]\n"
        "\n## What it means\n\n"
        f"Ferry traffic rose 12% after it. [^{m}: h-2]\n\n"
        f"Both are **facts** from the authority. [^{m}: h-2, h-1]\n"
    )

    response = client.post(story_url(rows=False), new_story_fields(client, desk_setup, body))

    assert response.status_code == 302, errors_of(response)
    story = Story.objects.get(headline="Harbour dredging ends")
    assert body_of(story) == {
        "key_facts": [
            {
                "text": "The authority dredged 4 berths.",
                "self_reported": False,
                "cites": [{"manifest_id": m, "claim_ids": ["h-1"]}],
            },
            {
                "text": "Ferry traffic rose 12% after it.",
                "self_reported": True,
                "cites": [{"manifest_id": m, "claim_ids": ["h-2"]}],
            },
        ],
        "sections": [
            {
                "heading": "What happened",
                "paragraphs": [
                    {
                        "markdown": "The authority dredged 4 berths in March.",
                        "cites": [{"manifest_id": m, "claim_ids": ["h-1"]}],
                    }
                ],
            },
            {
                "heading": "What it means",
                "paragraphs": [
                    {
                        "markdown": "Ferry traffic rose 12% after it.",
                        "cites": [{"manifest_id": m, "claim_ids": ["h-2"]}],
                    },
                    {
                        "markdown": "Both are **facts** from the authority.",
                        "cites": [{"manifest_id": m, "claim_ids": ["h-2", "h-1"]}],
                    },
                ],
            },
        ],
    }
    assert story.revisions.count() == 1
    assert story.content_hash == desk.content_hash(desk.export_story(Story.objects.with_parts().get(pk=story.pk)))
    # The page opens again with the text it was written as.
    assert page_fields(client, story_url(story, rows=False))["body"] == body


def test_the_page_opens_as_one_text_with_no_row_of_any_part(client, editor, stories):
    story = stories.good()
    client.force_login(editor)

    html = client.get(story_url(story, rows=False)).content.decode()
    fields = page_fields(client, story_url(story, rows=False))

    assert fields["body"] == bodytext.body_text(desk.story_body(story))
    assert fields["body"].startswith("- ")
    assert "sections-TOTAL_FORMS" not in fields
    assert "key_facts-TOTAL_FORMS" not in fields
    assert 'class="desk-body"' in html
    assert "admin/desk/bodytext.js" in html
    assert "Edit key facts and sections as rows" in html


def test_an_edit_of_the_text_replaces_the_parts_and_is_recorded_once(client, editor, stories):
    story = stories.good()
    client.force_login(editor)
    data = page_fields(client, story_url(story, rows=False))
    revisions, version = story.revisions.count(), story.edit_version
    data["body"] = data["body"].replace("\n## ", "\n## Now ", 1) + "\nA new paragraph, cited by nothing yet.\n"

    response = client.post(story_url(story, rows=False), data)

    assert response.status_code == 302, errors_of(response)
    body = body_of(story)
    assert body["sections"][0]["heading"].startswith("Now ")
    assert body["sections"][-1]["paragraphs"][-1] == {"markdown": "A new paragraph, cited by nothing yet.", "cites": []}
    story.refresh_from_db()
    assert story.revisions.count() == revisions + 1
    assert story.edit_version == version + 1


def test_saving_the_text_unchanged_leaves_every_part_s_row_as_it_was(client, editor, stories):
    story = stories.good()
    client.force_login(editor)
    rows = {
        model: set(model.objects.filter(story=story).values_list("pk", flat=True))
        for model in (KeyFact, Section, Paragraph, Cite)
    }
    data = page_fields(client, story_url(story, rows=False))
    # As a browser sends a textarea: its line breaks as CR LF.
    data |= {"body": data["body"].replace("\n", "\r\n"), "headline": "A new headline"}

    response = client.post(story_url(story, rows=False), data)

    assert response.status_code == 302, errors_of(response)
    assert Story.objects.get(pk=story.pk).headline == "A new headline"
    for model, pks in rows.items():
        assert set(model.objects.filter(story=story).values_list("pk", flat=True)) == pks, model


@pytest.mark.parametrize(
    ("line", "error"),
    [
        ("A new paragraph. [^{m}: h-9]", "h-9 is not a claim of manifest {m}"),
        (
            "A new paragraph. [^not-in-the-store: c-1]",
            "manifest not-in-the-store is not in the store; pick one with “Insert cite”, or cite it from the rows "
            "editor with “not in the store yet”",
        ),
        ("A new paragraph [^{m} h-1] with a broken cite.", "a cite is written [^manifest id: claim id, claim id]"),
        ("[^{m}: h-1]", "a paragraph needs its text, not only cites"),
    ],
    ids=["claim of another manifest", "manifest not in the store", "broken marker", "cites only"],
)
def test_a_wrong_line_is_named_and_nothing_is_written(client, editor, stories, desk_setup, line, error):
    story = stories.good()
    m = desk_setup["manifest"].manifest_id
    client.force_login(editor)
    data = page_fields(client, story_url(story, rows=False))
    before, revisions = body_of(story), story.revisions.count()
    last_line = data["body"].count("\n") + 2
    data |= {"body": data["body"] + "\n" + line.format(m=m) + "\n", "headline": "Not saved either"}

    response = client.post(story_url(story, rows=False), data)

    assert response.status_code == 200
    section = len(before["sections"])
    paragraph = len(before["sections"][-1]["paragraphs"]) + 1
    where = f"Line {last_line}, section {section}, paragraph {paragraph}"
    assert any(message.startswith(where) and error.format(m=m) in message for message in errors_of(response)), (
        where,
        errors_of(response),
    )
    assert body_of(story) == before
    assert Story.objects.get(pk=story.pk).headline != "Not saved either"
    assert story.revisions.count() == revisions


@pytest.mark.parametrize(
    ("character", "error"),
    [
        ("\x07", "Line {line}: the text must not contain U+0007 BELL"),
        ("\x1f", "Line {line}: the text must not contain U+001F"),
        ("\u202e", "Line {line}: the text must not contain U+202E RIGHT-TO-LEFT OVERRIDE"),
        ("\t", "Line {line}, section 1: the heading must not contain U+0009"),
    ],
    ids=["bell", "unit separator", "right-to-left override", "tab"],
)
def test_a_forbidden_character_is_refused_by_name_on_its_line(client, editor, stories, character, error):
    story = stories.good()
    client.force_login(editor)
    data = page_fields(client, story_url(story, rows=False))
    line = data["body"].split("\n").index(next(line for line in data["body"].split("\n") if line.startswith("## "))) + 1
    data["body"] = data["body"].replace("\n## ", f"\n## Bell{character} ", 1)
    before = body_of(story)

    response = client.post(story_url(story, rows=False), data)

    assert response.status_code == 200
    assert any(message.startswith(error.format(line=line)) for message in errors_of(response)), errors_of(response)
    assert body_of(story) == before


def test_a_cite_the_story_already_has_is_kept_though_the_store_lacks_its_manifest(client, editor, stories):
    story = stories.good()
    Cite.objects.filter(story=story, key_fact__isnull=False).update(manifest_id="m-gone", claim_ids=["c-1"])
    client.force_login(editor)
    data = page_fields(client, story_url(story, rows=False))
    assert "[^m-gone: c-1]" in data["body"]
    data["body"] = data["body"].replace("\n## ", "\n## Edited ", 1)

    response = client.post(story_url(story, rows=False), data)

    assert response.status_code == 302, errors_of(response)
    assert body_of(story)["key_facts"][0]["cites"] == [{"manifest_id": "m-gone", "claim_ids": ["c-1"]}]


def test_rows_are_kept_for_the_session_once_chosen_and_one_text_comes_back_when_asked(client, editor, stories):
    story = stories.good()
    client.force_login(editor)
    url = reverse("admin:stories_story_change", args=[story.pk])

    assert 'name="body"' in client.get(url).content.decode()
    assert 'name="body"' not in client.get(url, {"mode": "rows"}).content.decode()
    rows = client.get(url).content.decode()
    assert 'name="body"' not in rows
    assert "sections-TOTAL_FORMS" in rows
    assert "Edit key facts and sections as one text" in rows
    assert 'name="body"' in client.get(url, {"mode": "text"}).content.decode()


def test_a_story_one_text_cannot_give_back_is_edited_as_rows(client, editor, stories):
    story = stories.good()
    Paragraph.objects.filter(story=story).update(markdown="One paragraph.\n\nHolding a blank line.")
    client.force_login(editor)

    html = client.get(story_url(story, rows=False)).content.decode()

    assert 'name="body"' not in html
    assert "sections-TOTAL_FORMS" in html
    assert "Edit key facts and sections as one text" not in html


def test_the_page_says_in_words_what_each_cited_manifest_and_claim_is(client, editor, stories):
    story = stories.good()
    cite = Cite.objects.filter(story=story).first()
    manifest = Manifest.objects.get(manifest_id=cite.manifest_id)
    client.force_login(editor)

    html = client.get(story_url(story, rows=False)).content.decode()

    cited = html[html.index('<details class="desk-cited">') :]
    assert f"<dt>{escape(manifest_label(manifest))}</dt>" in cited
    for claim in manifest.claims.filter(claim_id__in=cite.claim_ids):
        assert f"<dd>{escape(claim_label(claim))}</dd>" in cited
