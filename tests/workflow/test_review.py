"""The desk's review: parts the support check left for review, confirmed or refused by an
editor or chief, and what the gate, auto-publish and the sweep make of it.

The support check's own verdicts (which passages it sends to review) are tested with real text
in ``tests/verification``; here the check is told which parts it cannot vouch for, so these
tests are about what the desk's decisions do, whatever the rules say this year.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.urls import reverse
from django.utils import timezone

from manifests.models import Claim
from newsroom.models import Role
from stories.desk import export_story
from stories.models import PublishedVersion, Story
from stories.services import story_import_desk
from verification.checks import CHECKS, _Findings
from verification.models import ReviewDecision, VerificationRun
from verification.review import review_items, run_allows_publication
from verification.workflow import (
    PublishRefused,
    WorkflowError,
    WorkflowPermissionDenied,
    story_publish,
    story_review_decide,
    story_submit,
)

from .conftest import member

pytestmark = pytest.mark.django_db

FACT = "key_facts[0]"
PARAGRAPH = "sections[0].paragraphs[0]"


@pytest.fixture
def left_for_review(monkeypatch) -> set[str]:
    """The parts the support check cannot vouch for (add paths to it); every other check is real."""
    paths: set[str] = {PARAGRAPH}

    def support(story: Story) -> Any:
        findings = _Findings("paragraphs_supported")
        for at in sorted(paths):
            findings.review(at, "'began dredging' is not said in the cited claims", code="new_predicate")
        return findings.result()

    monkeypatch.setattr("verification.services.CHECKS", (*CHECKS[:4], ("paragraphs_supported", support)))
    return paths


def submitted(story: Story, django_capture_on_commit_callbacks) -> VerificationRun:
    with django_capture_on_commit_callbacks(execute=True):
        run = story_submit(story=story, actor="test")
    run.refresh_from_db()
    return run


def reimport(story: Story, change: Any) -> Story:
    """The story imported again as a draft with ``change(document)`` applied: an edit."""
    document = export_story(Story.objects.get(pk=story.pk))
    change(document)
    document.pop("published_at", None)
    return story_import_desk(document=document, as_draft=True, actor="test").story


def two_parts(stories) -> Story:
    """A passing story whose key fact and paragraph say different things (one decision covers
    every part that reads the same beside the same claims)."""

    def shorten(document: dict[str, Any]) -> None:
        document["key_facts"][0]["text"] = document["key_facts"][0]["text"].replace(" this week", "")

    return reimport(stories.good(), shorten)


def test_a_run_left_for_review_lists_each_part_beside_its_cited_claims(
    stories, left_for_review, django_capture_on_commit_callbacks, django_assert_num_queries
):
    story = stories.good()
    run = submitted(story, django_capture_on_commit_callbacks)

    assert run.status == VerificationRun.Status.REVIEW
    assert Story.objects.get(pk=story.pk).status == Story.Status.REVIEW
    with django_assert_num_queries(7):
        (item,) = review_items(run)
    claim = Claim.objects.get(manifest__manifest_id=story.cites.get(paragraph__isnull=False).manifest_id)
    assert (item.at, item.where, item.state) == (PARAGRAPH, "Section 1, paragraph 1", "open")
    assert item.passage == story.paragraphs.get().markdown
    assert [(cited.claim_id, cited.text) for cited in item.claims] == [(claim.claim_id, claim.text)]
    assert item.reasons == [("new_predicate", "'began dredging' is not said in the cited claims")]


def test_confirming_every_part_lets_the_gate_publish_without_an_override(
    stories, left_for_review, editor, chief, django_capture_on_commit_callbacks
):
    left_for_review.add(FACT)
    story = two_parts(stories)
    run = submitted(story, django_capture_on_commit_callbacks)
    with pytest.raises(PublishRefused, match="cannot be published"):
        story_publish(story=story, actor="chief", user=chief)

    story = story_review_decide(story=story, at=PARAGRAPH, verdict="confirmed", user=editor)
    assert story.status == Story.Status.REVIEW
    assert not run_allows_publication(run)

    story = story_review_decide(story=story, at=FACT, verdict="confirmed", user=chief)
    assert story.status == Story.Status.VERIFIED
    result = story_publish(story=story, actor="chief", user=chief)

    assert result.published
    assert not result.overridden
    assert result.run.pk == run.pk
    assert (
        PublishedVersion.objects.get(pk=story.pk).gate == f"checks passed, 2 parts confirmed by the desk (run {run.pk})"
    )
    decisions = ReviewDecision.objects.filter(story=story).order_by("at")
    assert [(d.at, d.verdict, d.decided_by_name) for d in decisions] == [
        (FACT, "confirmed", "chief"),
        (PARAGRAPH, "confirmed", "editor"),
    ]
    notes = list(story.revisions.values_list("note", flat=True))
    assert f"confirmed the support of Section 1, paragraph 1 (run {run.pk})" in notes


def test_not_supported_fails_the_story_and_the_gate_refuses_it(
    stories, left_for_review, editor, chief, django_capture_on_commit_callbacks
):
    story = stories.good()
    submitted(story, django_capture_on_commit_callbacks)

    story = story_review_decide(story=story, at=PARAGRAPH, verdict="not_supported", user=editor)

    assert story.status == Story.Status.FAILED
    with pytest.raises(PublishRefused, match="paragraphs_supported \\(review\\)"):
        story_publish(story=story, actor="chief", user=chief)
    # A chief may reverse it: the editor's word is replaced, not added to.
    story = story_review_decide(story=story, at=PARAGRAPH, verdict="confirmed", user=chief)
    assert story.status == Story.Status.VERIFIED
    assert ReviewDecision.objects.filter(story=story).count() == 1


def test_an_edit_of_the_passage_makes_its_confirmation_stale(
    stories, left_for_review, editor, django_capture_on_commit_callbacks
):
    story = stories.good()
    submitted(story, django_capture_on_commit_callbacks)
    story_review_decide(story=story, at=PARAGRAPH, verdict="confirmed", user=editor)

    def reword(document: dict[str, Any]) -> None:
        paragraph = document["sections"][0]["paragraphs"][0]
        paragraph["markdown"] = paragraph["markdown"].replace("this week", "on Monday")

    story = reimport(story, reword)
    run = submitted(story, django_capture_on_commit_callbacks)

    assert run.status == VerificationRun.Status.REVIEW
    assert [item.state for item in review_items(run)] == ["open"]
    assert Story.objects.get(pk=story.pk).status == Story.Status.REVIEW


def test_a_confirmation_holds_through_an_edit_of_another_part(
    stories, left_for_review, editor, django_capture_on_commit_callbacks
):
    story = stories.good()
    submitted(story, django_capture_on_commit_callbacks)
    story_review_decide(story=story, at=PARAGRAPH, verdict="confirmed", user=editor)

    def retitle(document: dict[str, Any]) -> None:
        document["headline"] += " (updated)"

    story = reimport(story, retitle)
    run = submitted(story, django_capture_on_commit_callbacks)

    assert [item.state for item in review_items(run)] == ["confirmed"]
    assert Story.objects.get(pk=story.pk).status == Story.Status.VERIFIED


def test_a_change_of_a_cited_claims_text_makes_its_confirmation_stale(
    stories, left_for_review, editor, chief, django_capture_on_commit_callbacks
):
    story = stories.good()
    run = submitted(story, django_capture_on_commit_callbacks)
    story_review_decide(story=story, at=PARAGRAPH, verdict="confirmed", user=editor)
    assert run_allows_publication(run)

    claim = Claim.objects.get(manifest__manifest_id=story.cites.get(paragraph__isnull=False).manifest_id)
    claim.text = claim.text.replace("this week", "last year")
    claim.save()

    assert [item.state for item in review_items(run)] == ["open"]
    assert not run_allows_publication(run)
    with pytest.raises(PublishRefused):
        story_publish(story=story, actor="chief", user=chief)


def test_auto_publish_waits_for_the_last_confirmation_then_publishes(
    stories, auto_publish, left_for_review, editor, django_capture_on_commit_callbacks
):
    left_for_review.add(FACT)
    story = two_parts(stories)
    submitted(story, django_capture_on_commit_callbacks)
    assert not PublishedVersion.objects.filter(pk=story.pk).exists()

    story = story_review_decide(story=story, at=FACT, verdict="confirmed", user=editor)
    assert story.status == Story.Status.REVIEW
    assert not PublishedVersion.objects.filter(pk=story.pk).exists()

    story = story_review_decide(story=story, at=PARAGRAPH, verdict="confirmed", user=editor)

    assert story.status == Story.Status.PUBLISHED
    assert PublishedVersion.objects.get(pk=story.pk).published_by == "auto-publish"


def test_only_the_desk_of_the_storys_newsroom_decides(
    stories, left_for_review, django_user_model, django_capture_on_commit_callbacks
):
    story = stories.good()
    submitted(story, django_capture_on_commit_callbacks)
    stranger = member(django_user_model, "elsewhere", Role.CHIEF, newsroom_slug="another-desk")
    nobody = django_user_model.objects.create_user(username="nobody", password="pw")

    for user in (stranger, nobody, None):
        with pytest.raises(WorkflowPermissionDenied, match="editor or chief role"):
            story_review_decide(story=story, at=PARAGRAPH, verdict="confirmed", user=user)
    assert not ReviewDecision.objects.exists()


def test_a_decision_names_what_is_wrong_and_writes_nothing(
    stories, left_for_review, editor, django_capture_on_commit_callbacks
):
    story = stories.good()
    with pytest.raises(WorkflowError, match="no check run of its current content waiting on review"):
        story_review_decide(story=story, at=PARAGRAPH, verdict="confirmed", user=editor)
    submitted(story, django_capture_on_commit_callbacks)
    with pytest.raises(WorkflowError, match=rf"Key fact 1 of story {story.desk_id} does not wait on review"):
        story_review_decide(story=story, at=FACT, verdict="confirmed", user=editor)
    with pytest.raises(WorkflowError, match="verdict: 'maybe' is not one of confirmed, not_supported"):
        story_review_decide(story=story, at=PARAGRAPH, verdict="maybe", user=editor)
    assert not ReviewDecision.objects.exists()


def test_the_sweep_never_asks_again_for_a_run_left_for_review(
    stories, left_for_review, django_capture_on_commit_callbacks
):
    story = stories.good()
    run = submitted(story, django_capture_on_commit_callbacks)

    assert run.retry_at is None
    assert not VerificationRun.objects.retry_due(timezone.now() + timedelta(days=30)).exists()


def test_in_admin_the_story_page_leads_to_the_review_and_a_click_confirms(
    client, stories, left_for_review, editor, django_capture_on_commit_callbacks
):
    story = stories.good()
    submitted(story, django_capture_on_commit_callbacks)
    client.force_login(editor)
    review_url = reverse("admin:stories_story_review", args=[story.pk])

    page = client.get(reverse("admin:stories_story_change", args=[story.pk])).content.decode()
    assert f'<a href="{review_url}">Review 1 part</a>' in page
    page = client.get(review_url).content.decode()
    assert 'data-at="sections[0].paragraphs[0]" data-state="open"' in page
    assert "&#x27;began dredging&#x27; is not said in the cited claims <code>new_predicate</code>" in page
    assert Claim.objects.get(manifest__manifest_id=story.cites.first().manifest_id).text in page

    response = client.post(review_url, {"at": PARAGRAPH, "verdict": "confirmed"}, follow=True)

    assert "Every part is confirmed: the story may be published." in response.content.decode()
    assert 'data-state="confirmed"' in response.content.decode()
    assert Story.objects.get(pk=story.pk).status == Story.Status.VERIFIED


def test_in_admin_a_bad_decision_is_an_error_message_and_nothing_is_written(
    client, stories, left_for_review, editor, django_capture_on_commit_callbacks
):
    story = stories.good()
    submitted(story, django_capture_on_commit_callbacks)
    client.force_login(editor)

    response = client.post(
        reverse("admin:stories_story_review", args=[story.pk]),
        {"at": "key_facts[7]", "verdict": "confirmed"},
        follow=True,
    )

    assert "Key fact 8 of story" in response.content.decode()
    assert not ReviewDecision.objects.exists()


def test_real_text_the_rules_cannot_show_waits_on_the_desk_then_publishes_once_confirmed(
    stories, editor, chief, django_capture_on_commit_callbacks
):
    # No check is told anything here: the support check itself cannot show the reporter's verb.
    manifest = stories.manifest({"c-court": "Alder Health sued Corvin Labs over the patent."})
    document = stories.document(
        number=990,
        manifest_id=manifest.manifest_id,
        claim_ids=["c-court"],
        text="Alder Health sued Corvin Labs over the patent.",
    )
    document["sections"][0]["paragraphs"][0]["markdown"] = "Alder Health took Corvin Labs to court over the patent."
    story = story_import_desk(document=document, as_draft=True, actor="test").story

    run = submitted(story, django_capture_on_commit_callbacks)

    assert run.status == VerificationRun.Status.REVIEW
    (item,) = review_items(run)
    assert item.at == PARAGRAPH
    assert "verb_not_in_claims" in {code for code, _ in item.reasons}
    story = story_review_decide(story=story, at=PARAGRAPH, verdict="confirmed", user=editor)
    assert story_publish(story=story, actor="chief", user=chief).published
