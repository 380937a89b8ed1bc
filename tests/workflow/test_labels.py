"""Readers are told exactly what was checked on the version in front of them: ``checked``,
``confirmed``, ``overridden``, ``unchecked``, and a notice when a re-check after publication
failed. Each state is read off every place a reader or a machine reads it: the page, both
twins, the JSON-LD, the feeds and the API; only checked and confirmed versions carry the
promise, and a story a person wrote never says an agent wrote it.
"""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from datetime import timedelta
from typing import Any

import pytest
from django.core.cache import caches

from manifests.models import Claim
from newsroom.models import PROMISE_WORDS, Disclosure, Label, Writer
from stories.desk import DeskError, dumps, export_story
from stories.models import PublishedVersion, Story
from stories.services import story_import_desk, version_rerender
from tests.stories.helpers import run_command
from verification.services import live_version_recheck
from verification.workflow import story_publish, story_publish_unchecked, story_review_decide

from .conftest import member
from .test_review import PARAGRAPH, submitted, two_parts
from .test_review import left_for_review as left_for_review  # a fixture

pytestmark = pytest.mark.django_db

AGENT_PROMISE = f"Written by an agent from the Manifests listed here and published after checks: {PROMISE_WORDS}."
TEXTS = {
    (Label.CHECKED, Writer.AGENT): AGENT_PROMISE,
    (Label.CONFIRMED, Writer.AGENT): f"Written by an agent; {PROMISE_WORDS}, some support confirmed by the desk.",
    (Label.OVERRIDDEN, Writer.AGENT): "Written by an agent; published although some checks did not pass.",
    (Label.UNCHECKED, Writer.AGENT): "Written by an agent; published without checks.",
    (Label.CHECKED, Writer.PERSON): f"Written by the newsroom and published after checks: {PROMISE_WORDS}.",
}


@pytest.fixture
def disclosures(db) -> dict[tuple[str, str], Disclosure]:
    made = {}
    for (label, writer), text in TEXTS.items():
        version = Disclosure(text=text, label=label, writer=writer)
        version.full_clean()
        version.save()
        made[label, writer] = version
    return made


def by_agent(story: Story) -> Story:
    Story.objects.filter(pk=story.pk).update(writer_agent="muse", writer_run_id="r1")
    document = export_story(Story.objects.with_parts().get(pk=story.pk))
    return story_import_desk(document=document, as_draft=True, actor="test").story


def told(client, story: Story) -> dict[str, Any]:
    """What each place says of the story's live version."""
    # Publishing purges the cached pages after commit, which these tests do not run: start cold.
    for cache in caches.all():
        cache.clear()
    version = PublishedVersion.objects.get(pk=story.pk)
    url = version.get_absolute_url()
    page = client.get(url).content.decode()
    json_ld = json.loads(re.search(r'<script type="application/ld\+json">(.*?)</script>', page, re.S).group(1))
    rss = ET.fromstring(client.get("/rss.xml").content)
    item = next(i for i in rss.iter("item") if i.findtext("link").endswith(url))
    api = client.get("/api/v1/stories/").json()
    summary = next(s for s in api["results"] if s["id"] == str(version.desk_id))
    return {
        "page": page,
        "document": json.loads(client.get(url + "index.json").content),
        "api_document": json.loads(client.get(f"/api/v1/stories/{version.desk_id}/").content),
        "markdown": client.get(url + "index.md").content.decode(),
        "backstory": json_ld["backstory"],
        "feed": item.findtext("description"),
        "summary": summary,
    }


def promise_nowhere(places: dict[str, Any]) -> None:
    for name in ("page", "markdown", "backstory", "feed"):
        assert PROMISE_WORDS not in places[name], name
    assert PROMISE_WORDS not in json.dumps(places["document"]), "document"


def test_a_checked_version_carries_the_promise_and_its_document_is_plain_desk1(
    client, stories, disclosures, django_capture_on_commit_callbacks
):
    story = by_agent(stories.good())
    submitted(story, django_capture_on_commit_callbacks)
    story_publish(story=story, actor="editor")

    places = told(client, story)
    assert "verification" not in places["document"]  # the desk/1 document exactly as written
    assert places["api_document"] == places["document"]
    assert places["document"]["disclosure"] == AGENT_PROMISE
    assert '<p class="verification verification-checked" role="note"><strong>Checked.</strong>' in places["page"]
    assert AGENT_PROMISE in places["page"]
    assert places["page"].count('<p class="evidence">checked</p>') == 2  # the key fact and the paragraph
    assert "confirmed by the desk" not in places["page"]
    assert 'verification: "checked"' in places["markdown"]
    assert places["backstory"] == "Every server-side check passed on this version."
    assert "<strong>Checked.</strong>" in places["feed"]
    assert (places["summary"]["verification"], places["summary"]["notice_at"]) == ("checked", None)


def test_a_story_a_person_wrote_never_says_an_agent_wrote_it(
    client, stories, disclosures, django_capture_on_commit_callbacks
):
    story = stories.good()  # no writer agent
    submitted(story, django_capture_on_commit_callbacks)
    story_publish(story=story, actor="editor")

    places = told(client, story)
    assert places["document"]["disclosure"] == TEXTS[Label.CHECKED, Writer.PERSON]
    for name in ("page", "markdown"):
        assert "by an agent" not in places[name].lower(), name
        assert "Written by the newsroom" in places[name]
    assert "Written by the agent" not in places["page"]


def test_an_overridden_version_names_the_failed_check_and_the_reason_and_never_promises(
    client, stories, disclosures, django_user_model, django_capture_on_commit_callbacks
):
    chief = member(django_user_model, "chief", "chief")
    story = by_agent(stories.bad())  # cites a claim id its manifest does not have
    submitted(story, django_capture_on_commit_callbacks)
    result = story_publish(story=story, actor="chief", user=chief, override_reason="The source fixed its ids late.")
    assert result.overridden

    places = told(client, story)
    promise_nowhere(places)
    record = places["document"]["verification"]
    assert record["state"] == "overridden"
    assert record["reason"] == "The source fixed its ids late."
    assert {"name": "claims_belong", "status": "fail"} in record["checks"]
    assert record["run_id"] == str(result.run.pk)
    assert "chief" not in json.dumps(record)  # no names on public pages
    assert places["document"]["disclosure"] == TEXTS[Label.OVERRIDDEN, Writer.AGENT]
    sentence = "every cited claim id belongs to its manifest: failed"
    for name in ("page", "markdown", "backstory", "feed"):
        assert sentence in places[name], name
        assert "The source fixed its ids late." in places[name], name
    assert "Published over failed checks" in places["page"]
    assert 'class="evidence"' not in places["page"]  # no part is "checked" on this version
    assert places["summary"]["verification"] == "overridden"


def test_an_unchecked_import_says_so_with_its_reason(client, stories, disclosures, tmp_path):
    story = by_agent(stories.good())
    document = export_story(Story.objects.with_parts().get(pk=story.pk))
    document["published_at"] = "2026-10-01T00:00:00Z"
    path = tmp_path / "archive.json"
    path.write_text(dumps(document))

    result = run_command("import_desk", str(path), "--unchecked", "--reason", "Archive of the old site")
    assert result.ok, result.stderr

    places = told(client, story)
    promise_nowhere(places)
    record = places["document"]["verification"]
    assert (record["state"], record["reason"], record["run_id"], record["checks"]) == (
        "unchecked",
        "Archive of the old site",
        None,
        [],
    )
    for name in ("page", "markdown", "backstory", "feed"):
        assert "Published without server-side checks. The reason: Archive of the old site" in places[name], name
    assert places["summary"]["verification"] == "unchecked"


def test_a_confirmed_version_shows_which_parts_the_desk_confirmed(
    client, stories, disclosures, left_for_review, django_user_model, django_capture_on_commit_callbacks
):
    editor = member(django_user_model, "editor", "editor")
    story = by_agent(two_parts(stories))
    submitted(story, django_capture_on_commit_callbacks)
    story_review_decide(story=story, at=PARAGRAPH, verdict="confirmed", user=editor)
    story_publish(story=story, actor="editor")

    places = told(client, story)
    record = places["document"]["verification"]
    assert (record["state"], record["confirmed"]) == ("confirmed", [PARAGRAPH])
    assert places["document"]["disclosure"] == TEXTS[Label.CONFIRMED, Writer.AGENT]
    assert places["page"].count('<p class="evidence">confirmed by the desk</p>') == 1
    assert places["page"].count('<p class="evidence">checked</p>') == 1  # the key fact
    assert "editor" not in json.dumps(record)
    assert "the desk confirmed the support of 1 part" in places["backstory"]
    assert "(confirmed by the desk)" in places["markdown"]
    assert places["summary"]["verification"] == "confirmed"


def test_a_failed_recheck_puts_a_dated_notice_everywhere(
    client, stories, disclosures, django_capture_on_commit_callbacks
):
    story = by_agent(stories.good())
    submitted(story, django_capture_on_commit_callbacks)
    story_publish(story=story, actor="editor")
    version = PublishedVersion.objects.get(pk=story.pk)
    manifest_id = json.loads(version.document)["cited_manifest_ids"][0]
    Claim.objects.filter(manifest__manifest_id=manifest_id).update(text="Nothing of the kind happened at 99%.")

    with django_capture_on_commit_callbacks(execute=True):
        flag = live_version_recheck(version=version)
    assert flag

    version.refresh_from_db()
    assert version.flagged_at is not None
    day = version.flagged_at.date().isoformat()
    places = told(client, story)
    notice = f"Re-checked on {day}: a claim this story cites changed after publication, and this no longer passes: "
    for name in ("page", "markdown", "backstory", "feed"):
        assert notice in places[name], name
        assert "each paragraph is supported by the claims it cites" in places[name], name
    assert places["document"]["verification"]["notice"]["failed"] == ["paragraphs_supported"]
    assert places["summary"]["notice_at"] is not None
    # No part is still said to be checked, and the pass is told as what it was at publication.
    assert 'class="evidence"' not in places["page"]
    assert "(checked)" not in places["markdown"]
    assert places["backstory"].startswith("When it was published, every server-side check passed on this version.")
    assert "When it was published, every server-side check passed" in places["feed"]


def test_an_export_with_its_label_imports_again_here_and_is_refused_where_it_did_not_happen(
    stories, disclosures, django_user_model, django_capture_on_commit_callbacks
):
    chief = member(django_user_model, "chief", "chief")
    story = by_agent(stories.bad())
    submitted(story, django_capture_on_commit_callbacks)
    story_publish(story=story, actor="chief", user=chief, override_reason="Ids fixed late.")

    exported = run_command("export_desk", "--id", str(story.desk_id))
    document = json.loads(exported.stdout)
    assert document["verification"]["state"] == "overridden"
    again = story_import_desk(document=document, actor="test")
    assert not again.created
    assert json.loads(run_command("export_desk", "--id", str(story.desk_id)).stdout) == document

    # The same key on a story this site never published that way: refused by name, nothing written.
    other = stories.good()
    forged = export_story(Story.objects.with_parts().get(pk=other.pk))
    forged["verification"] = document["verification"]
    forged["headline"] = "A new headline"
    with pytest.raises(DeskError) as refusal:
        story_import_desk(document=forged, actor="test")
    assert str(refusal.value.problems[0]).startswith("verification: says this version was published overridden")
    assert Story.objects.get(pk=other.pk).headline != "A new headline"


def test_publishing_unchecked_a_story_that_was_checked_replaces_its_label(
    client, stories, disclosures, django_capture_on_commit_callbacks
):
    story = by_agent(stories.good())
    submitted(story, django_capture_on_commit_callbacks)
    story_publish(story=story, actor="editor")
    assert "verification" not in told(client, story)["document"]
    Story.objects.filter(pk=story.pk).update(headline="A headline edited outside the checks")
    document = export_story(Story.objects.with_parts().get(pk=story.pk))
    edited = story_import_desk(document=document, actor="test").story
    # After commit, the change reaches the pages every process keeps (newsroom.localpages).
    with django_capture_on_commit_callbacks(execute=True):
        story_publish_unchecked(story=edited, actor="operator", reason="Restored from backup")

    places = told(client, story)
    assert places["document"]["verification"]["state"] == "unchecked"
    promise_nowhere(places)


def test_a_version_from_before_labels_loses_the_promise_it_did_not_keep_when_rendered_again(
    client, stories, disclosures, django_user_model, django_capture_on_commit_callbacks
):
    chief = member(django_user_model, "chief", "chief")
    story = by_agent(stories.bad())
    submitted(story, django_capture_on_commit_callbacks)
    story_publish(story=story, actor="chief", user=chief, override_reason="Ids fixed late.")
    # As the migration leaves an override published before labels: its frozen document still
    # carries the promise of the one disclosure the site then had.
    version = PublishedVersion.objects.get(pk=story.pk)
    legacy = {**json.loads(version.document), "disclosure": AGENT_PROMISE}
    PublishedVersion.objects.filter(pk=story.pk).update(document=dumps(legacy))

    with django_capture_on_commit_callbacks(execute=True):
        assert version_rerender(version=version)

    places = told(client, story)
    promise_nowhere(places)
    assert "disclosure" not in places["document"]
    assert places["document"]["verification"]["state"] == "overridden"


def test_a_draft_carries_the_disclosure_a_checked_story_of_its_writer_would(stories, disclosures):
    # The newest text is another label's: a draft's preview and export never show it.
    Disclosure.objects.filter(pk=disclosures[Label.OVERRIDDEN, Writer.AGENT].pk).update(
        effective_from=disclosures[Label.CHECKED, Writer.AGENT].effective_from + timedelta(seconds=1)
    )
    by_agent_draft = by_agent(stories.good())
    by_person_draft = stories.good()
    Story.objects.filter(pk__in=[by_agent_draft.pk, by_person_draft.pk]).update(disclosure=None)

    for draft, expected in ((by_agent_draft, AGENT_PROMISE), (by_person_draft, TEXTS[Label.CHECKED, Writer.PERSON])):
        assert export_story(Story.objects.with_parts().get(pk=draft.pk))["disclosure"] == expected
