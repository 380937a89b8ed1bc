"""not_repeat: near-duplicates of recent published stories, found through the repeat index."""

from __future__ import annotations

import pytest
from django.core.management import call_command

from stories.models import Story
from stories.signals import story_changed
from verification import repeat
from verification.checks import checkable, not_repeat
from verification.models import StorySignature, StorySignatureKey

from .conftest import story_document

pytestmark = pytest.mark.django_db

M1, M2, M3 = "m-harbour", "m-budget", "m-league"
FERRY = [
    (
        "The harbour authority will replace its ageing diesel ferries with six battery-electric vessels "
        "by 2028, cutting the crossing's fuel bill and local air pollution.",
        [(M1, ["c1"])],
    ),
    (
        "Each vessel carries 400 passengers and charges at the quay in twelve minutes between crossings. "
        "Shipyards in three countries bid for the contract, which the authority values at 180 million euros.",
        [(M1, ["c2"])],
    ),
    (
        "Commuters' groups welcomed the plan but asked for the timetable to keep its late-night sailings "
        "during the changeover.",
        [(M1, ["c3"])],
    ),
]
BUDGET = [
    (
        "The city council approved a budget that freezes property taxes for a second year and adds money "
        "for road repairs and library opening hours.",
        [(M2, ["c1"])],
    ),
    ("Opposition councillors said the plan relies on one-off land sales to balance the books.", [(M2, ["c2"])]),
]


def publish(import_story, *, story_id, slug, paragraphs, published_at="2026-10-16T12:00:00Z", headline=None):
    return import_story(
        story_document(
            story_id=story_id,
            slug=slug,
            published_at=published_at,
            headline=headline or slug.replace("-", " ").capitalize(),
            paragraphs=paragraphs,
        )
    )


def test_it_passes_a_story_unlike_any_recent_one_and_still_names_the_closest(import_story):
    publish(import_story, story_id="1", slug="council-budget", paragraphs=BUDGET)
    ferry = publish(
        import_story, story_id="2", slug="electric-ferries", paragraphs=FERRY, published_at="2026-10-17T09:00:00Z"
    )

    result = not_repeat(ferry)

    assert result.status == "pass"
    assert result.problems == []


def test_it_fails_a_near_copy_and_names_the_story_it_repeats_with_the_scores(import_story, site_url):
    first = publish(import_story, story_id="1", slug="electric-ferries", paragraphs=FERRY)
    edited = [
        (FERRY[0][0].replace("six", "six new"), FERRY[0][1]),
        FERRY[1],
        (FERRY[2][0].replace("welcomed", "praised"), FERRY[2][1]),
    ]
    again = publish(
        import_story,
        story_id="2",
        slug="harbour-goes-electric",
        paragraphs=edited,
        published_at="2026-10-18T09:00:00Z",
        headline="Electric ferries",
    )

    result = not_repeat(again)

    assert result.status == "fail"
    [problem] = result.problems
    assert problem.at == "$"
    assert problem.message.startswith(
        f"repeats story 1 'electric-ferries' ({site_url}/stories/2026-10-16/electric-ferries/), published 2026-10-16: "
        "text similarity 0."
    )
    assert "cited-manifest overlap 1.00" in problem.message
    assert result.details["closest"]["id"] == "1"
    assert result.details["closest"]["url"] == first.absolute_url()
    assert result.details["scores"]["text"] >= 0.7


def test_it_catches_a_rewrite_on_the_same_sources_by_the_combined_score(import_story):
    publish(import_story, story_id="1", slug="electric-ferries", paragraphs=FERRY)
    rewrite = [
        (
            "Six battery-electric vessels will replace the harbour authority's ageing diesel ferries by 2028, "
            "cutting fuel bills and local air pollution on the crossing.",
            [(M1, ["c1"])],
        ),
        (
            "Shipyards in three countries bid for the 180 million euro contract; each vessel carries 400 "
            "passengers and charges at the quay in twelve minutes.",
            [(M1, ["c2"])],
        ),
    ]
    again = publish(
        import_story, story_id="2", slug="ferries-rewrite", paragraphs=rewrite, published_at="2026-10-18T09:00:00Z"
    )

    result = not_repeat(again)

    assert result.status == "fail"
    assert result.details["scores"]["manifests"] == 1.0
    assert result.details["scores"]["text"] < 0.7  # not a copy: caught because it rests on the same source


def test_a_follow_up_on_the_same_source_with_new_text_passes(import_story):
    publish(import_story, story_id="1", slug="electric-ferries", paragraphs=FERRY)
    follow_up = [
        (
            "A Norwegian yard won the harbour's electric ferry order after a second tender round; unions asked "
            "for crew retraining before the first hull is delivered.",
            [(M1, ["c4"])],
        )
    ]
    story = publish(
        import_story, story_id="2", slug="ferry-yard-chosen", paragraphs=follow_up, published_at="2026-10-20T09:00:00Z"
    )

    result = not_repeat(story)

    assert result.status == "pass"
    assert result.details["closest"]["slug"] == "electric-ferries"
    assert result.details["scores"]["manifests"] == 1.0


def test_only_stories_published_in_the_window_around_it_count(import_story, settings):
    publish(import_story, story_id="1", slug="ferries-old", paragraphs=FERRY, published_at="2026-10-01T12:00:00Z")
    publish(import_story, story_id="2", slug="ferries-later", paragraphs=FERRY, published_at="2026-10-31T12:00:00Z")
    story = publish(
        import_story, story_id="3", slug="ferries-now", paragraphs=FERRY, published_at="2026-10-16T12:00:00Z"
    )

    assert not_repeat(story).status == "pass"  # 15 days after one, 15 days before the other
    settings.REPEAT_WINDOW_DAYS = 20
    assert not_repeat(story).status == "fail"


def test_a_copy_dated_before_its_original_still_repeats_it(import_story):
    # The original is published first; the copy, written after it, carries an earlier time.
    original = publish(import_story, story_id="1", slug="electric-ferries", paragraphs=FERRY)
    copy = publish(
        import_story, story_id="2", slug="ferries-backdated", paragraphs=FERRY, published_at="2026-10-10T12:00:00Z"
    )

    result = not_repeat(copy)

    assert result.status == "fail"
    assert "repeats story 1 'electric-ferries'" in result.problems[0].message
    assert not_repeat(original).status == "pass"  # written first: the copy does not count against it


def test_a_live_story_edited_into_a_copy_of_a_story_written_after_it_is_a_repeat(import_story):
    # Its edited content is not out yet: it is judged as any new story, against every one out.
    live = publish(import_story, story_id="1", slug="council-budget", paragraphs=BUDGET)
    publish(import_story, story_id="2", slug="ferries-earlier", paragraphs=FERRY, published_at="2026-10-10T12:00:00Z")
    assert not_repeat(live).status == "pass"

    edited = import_story(story_document(story_id="1", slug="council-budget", paragraphs=FERRY), as_draft=True)

    assert edited.pk == live.pk
    assert edited.content_hash != live.content_hash
    result = not_repeat(edited)
    assert result.status == "fail"
    assert "repeats story 2 'ferries-earlier'" in result.problems[0].message


def test_another_newsrooms_story_scheduled_for_later_is_neither_compared_nor_named(import_story, time_machine):
    import datetime as dt

    time_machine.move_to(dt.datetime(2026, 10, 16, 12, 30, tzinfo=dt.UTC))
    # Scheduled: published through the gate, dated two days on, so no reader sees it yet.
    scheduled = story_document(story_id="1", slug="ferries-embargoed", paragraphs=FERRY)
    import_story(scheduled | {"newsroom": "other-desk", "published_at": "2026-10-18T12:00:00Z"})
    draft = import_story(story_document(story_id="2", slug="ferries-draft", paragraphs=FERRY), as_draft=True)

    result = not_repeat(draft)
    assert result.status == "pass"
    assert "ferries-embargoed" not in str(result.details)
    # Its own newsroom's scheduled story it does repeat: the desk knows what it has coming.
    own = publish(import_story, story_id="3", slug="ferries-own", paragraphs=FERRY, published_at="2026-10-18T12:00:00Z")
    assert own.newsroom_id == draft.newsroom_id
    result = not_repeat(draft)
    assert result.status == "fail"
    assert "repeats story 3 'ferries-own'" in result.problems[0].message


def test_a_copy_stamped_with_the_same_publication_time_repeats_the_story_written_first(import_story):
    # Writer agents often stamp a batch, or an edition's stories, with one time: a copy carrying
    # its original's very time is still a repeat of it.
    first = publish(import_story, story_id="1", slug="electric-ferries", paragraphs=FERRY)
    copy = publish(import_story, story_id="2", slug="ferries-again", paragraphs=FERRY)
    assert copy.published_at == first.published_at

    result = not_repeat(copy)

    assert result.status == "fail"
    assert "repeats story 1 'electric-ferries'" in result.problems[0].message
    # The first is still the original: checked again, it repeats nothing written before it.
    assert not_repeat(first).status == "pass"


def test_drafts_and_retracted_stories_are_not_repeated_by_anything(import_story, django_capture_on_commit_callbacks):
    draft = import_story(story_document(story_id="1", slug="ferry-draft", paragraphs=FERRY), as_draft=True)
    retracted = publish(import_story, story_id="2", slug="ferries-retracted", paragraphs=FERRY)
    with django_capture_on_commit_callbacks(execute=True):
        Story.objects.filter(pk=retracted.pk).update(status=Story.Status.RETRACTED)
        story_changed.send(sender=Story, story=retracted, action="retracted")
    story = publish(import_story, story_id="3", slug="ferries", paragraphs=FERRY, published_at="2026-10-17T12:00:00Z")

    assert not StorySignature.objects.filter(story_id__in=[draft.pk, retracted.pk]).exists()
    assert not StorySignatureKey.objects.filter(story_id__in=[draft.pk, retracted.pk]).exists()
    assert not_repeat(story).status == "pass"


def test_an_unpublished_story_is_compared_with_the_window_before_now(import_story, time_machine):
    import datetime as dt

    time_machine.move_to(dt.datetime(2026, 10, 20, tzinfo=dt.UTC))
    publish(import_story, story_id="1", slug="electric-ferries", paragraphs=FERRY)
    draft = import_story(story_document(story_id="2", slug="ferries-draft", paragraphs=FERRY, published_at=None))

    result = not_repeat(draft)

    assert result.status == "fail"
    assert "repeats story 1 'electric-ferries'" in result.problems[0].message


def test_it_is_unknown_when_published_stories_in_the_window_are_not_indexed(import_story):
    publish(import_story, story_id="1", slug="electric-ferries", paragraphs=FERRY)
    StorySignature.objects.all().delete()
    StorySignatureKey.objects.all().delete()
    story = publish(
        import_story, story_id="2", slug="council-budget", paragraphs=BUDGET, published_at="2026-10-17T09:00:00Z"
    )

    result = not_repeat(story)

    assert result.status == "unknown"
    assert "not in the repeat index; run 'manage.py index_story_signatures'" in result.problems[0].message

    call_command("index_story_signatures", verbosity=0)
    assert not_repeat(story).status == "pass"


def test_it_is_unknown_for_a_story_with_no_text_to_compare(import_story):
    story = import_story(story_document(headline="The", dek="", paragraphs=[("Of the.", [(M1, ["c1"])])]))

    result = not_repeat(story)

    assert result.status == "unknown"
    assert result.problems[0].message == "the story has no text to compare with other stories"


def test_an_edit_of_a_published_story_updates_its_signature(import_story):
    story = publish(import_story, story_id="1", slug="electric-ferries", paragraphs=FERRY)
    before = StorySignature.objects.get(story=story)
    keys_before = set(StorySignatureKey.objects.filter(story=story).values_list("key", flat=True))

    publish(import_story, story_id="1", slug="electric-ferries", paragraphs=BUDGET)

    after = StorySignature.objects.get(story=story)
    assert after.content_hash != before.content_hash
    assert after.manifest_ids == [M2]
    keys_after = set(StorySignatureKey.objects.filter(story=story).values_list("key", flat=True))
    assert keys_after != keys_before
    assert repeat.manifest_key(M2) in keys_after


def test_the_index_command_builds_signatures_and_removes_those_of_unpublished_stories(import_story):
    story = publish(import_story, story_id="1", slug="electric-ferries", paragraphs=FERRY)
    StorySignature.objects.all().delete()
    StorySignatureKey.objects.all().delete()
    other = publish(import_story, story_id="2", slug="council-budget", paragraphs=BUDGET)
    Story.objects.filter(pk=other.pk).update(status=Story.Status.RETRACTED)  # no signal: a stale entry

    call_command("index_story_signatures", verbosity=0)

    assert list(StorySignature.objects.values_list("story_id", flat=True)) == [story.pk]
    assert set(StorySignatureKey.objects.values_list("story_id", flat=True)) == {story.pk}


def test_it_reads_a_fixed_number_of_rows_and_queries_whatever_the_store_holds(import_story, django_assert_num_queries):
    for number in range(40):
        publish(
            import_story,
            story_id=str(100 + number),
            slug=f"other-{number}",
            paragraphs=[
                (f"Unrelated report number {number} about {word} and {word}s.", [(f"m-{number}", ["c"])])
                for word in ("tariffs", "orchards", "satellites")
            ],
        )
    publish(import_story, story_id="1", slug="electric-ferries", paragraphs=FERRY)
    story = checkable().get(
        pk=publish(
            import_story, story_id="2", slug="ferries-again", paragraphs=FERRY, published_at="2026-10-17T09:00:00Z"
        ).pk
    )

    with django_assert_num_queries(2):
        result = not_repeat(story)

    assert result.status == "fail"
    assert result.details["candidates"] == 1
