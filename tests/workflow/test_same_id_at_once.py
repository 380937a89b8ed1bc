"""Two writers create a story with the same id at the same moment: both pass the checks for a
free id (the form's unique validation, the importer's look-up), and the database lets one
insert through. The other gets the clean error of its path, naming the id, and nothing of it
is written: a form error on the id field in admin, a 400 at ``id`` from the API, a message
naming the id from ``import_desk``.

The race is made deterministic: the other writer's story is stored just before this save's
insert, after every check in front of it (a ``pre_save`` receiver). On any database it is
stored in this test's own transaction; on PostgreSQL it is also committed by a connection of
its own, as another request would, and must be left intact.
"""

from __future__ import annotations

import datetime as dt
import io
import json
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from django.core.management import CommandError, call_command
from django.db import connection
from django.db.models.signals import pre_save

from stories.models import KeyFact, Revision, Story
from tests.api.conftest import bearer, body, post_json, token_of
from tests.desk.helpers import errors_of, new_story, page_fields, story_url
from tests.factories import BeatFactory, EditionFactory, NewsroomFactory, StoryFactory
from tests.workflow.conftest import StoryMaker

from .conftest import passing_texts

pytestmark = pytest.mark.usefixtures("eager")

TAKEN_ID = 88_001
WINNER_SLUG = "the-other-writers-story"


def the_other_writers_story() -> Story:
    """Another newsroom's draft with the contested id, on a day of its own (no address clash)."""
    newsroom = NewsroomFactory()
    return StoryFactory(
        desk_id=TAKEN_ID,
        slug=WINNER_SLUG,
        headline="The other writer's story",
        newsroom=newsroom,
        beat=BeatFactory(newsroom=newsroom),
        edition=EditionFactory(key="2020-01-01T00"),
        status=Story.Status.DRAFT,
        published_at=None,
        dateline=dt.date(2020, 1, 1),
    )


def in_its_own_connection(make: Callable[[], Story]) -> None:
    """Run ``make`` in a thread, on a connection of its own that commits as it goes."""
    failed: list[BaseException] = []

    def run() -> None:
        try:
            make()
        except BaseException as error:
            failed.append(error)
        finally:
            connection.close()

    thread = threading.Thread(target=run)
    thread.start()
    thread.join(timeout=30)
    assert not thread.is_alive()
    assert not failed, failed


@contextmanager
def taken_just_before_the_insert(*, committed: bool = False) -> Iterator[list[bool]]:
    """Store the other writer's story when a new story with TAKEN_ID is about to be inserted."""
    taken: list[bool] = []

    def take(sender: Any, instance: Story, **kwargs: Any) -> None:
        if taken or not instance._state.adding or instance.desk_id != TAKEN_ID:
            return
        taken.append(True)  # first: storing the other story sends pre_save too
        if committed:
            in_its_own_connection(the_other_writers_story)
        else:
            the_other_writers_story()

    pre_save.connect(take, sender=Story, weak=False, dispatch_uid="same-id-at-once")
    try:
        yield taken
    finally:
        pre_save.disconnect(sender=Story, dispatch_uid="same-id-at-once")


def nothing_of_the_loser_is_written(headline: str) -> None:
    assert not Story.objects.filter(headline=headline).exists()
    assert not KeyFact.objects.filter(text__startswith=headline).exists()
    assert not Revision.objects.filter(story__headline=headline).exists()


def the_winner_is_intact() -> None:
    story = Story.objects.get(desk_id=TAKEN_ID)
    assert (story.slug, story.headline) == (WINNER_SLUG, "The other writer's story")


# --- The three paths -----------------------------------------------------------------------------

LOSER = "The losing writer's story"


def admin_add(client: Any, made: Story, **fields: Any) -> Any:
    """The add page, filled in and saved, in the newsroom, beat and edition of ``made`` (the
    editor's), citing its manifest."""
    cite = made.key_facts.get().cites.get()
    data = new_story(
        page_fields(client, story_url()),
        newsroom=made.newsroom,
        beat=made.beat,
        edition=made.edition_id,
        headline=LOSER,
        slug="the-losing-writers-story",
        key_facts=[(f"{LOSER}: a fact.", [(cite.manifest_id, cite.claim_ids)])],
        sections=[("The news", [(f"{LOSER}: a paragraph.", [(cite.manifest_id, cite.claim_ids)])])],
        **fields,
    )
    return client.post(story_url(), data)


def api_create(client: Any, stories: StoryMaker, user: Any) -> Any:
    return post_json(client, "/api/v1/stories/", loser_document(stories), **bearer(token_of(user)))


def loser_document(stories: StoryMaker) -> dict[str, Any]:
    claim, _, _ = passing_texts(1)
    manifest = stories.manifest({"c-loser": claim})
    document = stories.document(number=8_001, manifest_id=manifest.manifest_id, claim_ids=["c-loser"], text=claim)
    return document | {"id": str(TAKEN_ID), "headline": LOSER}


def import_desk(stories: StoryMaker, tmp_path: Any) -> tuple[str, str]:
    path = tmp_path / "story.json"
    path.write_text(json.dumps(loser_document(stories)))
    out, err = io.StringIO(), io.StringIO()
    with pytest.raises(CommandError, match="0 imported"):
        call_command("import_desk", str(path), stdout=out, stderr=err)
    return out.getvalue(), err.getvalue()


def test_admin_a_typed_id_taken_before_the_insert_is_a_form_error_on_the_id(client, stories, editor):
    client.force_login(editor)

    with taken_just_before_the_insert() as taken:
        response = admin_add(client, stories.good(), desk_id=str(TAKEN_ID))

    assert taken
    assert response.status_code == 200  # the page again, not a 500
    errors = response.context["adminform"].form.errors
    assert list(errors) == ["desk_id"], errors_of(response)
    assert f"Story id {TAKEN_ID} was taken a moment ago by a story saved at the same time" in errors["desk_id"][0]
    # The editor's input is still on the page.
    assert LOSER in response.content.decode()
    nothing_of_the_loser_is_written(LOSER)


def test_admin_a_next_free_id_taken_before_the_insert_asks_to_save_again(client, stories, editor):
    client.force_login(editor)
    made = stories.good()
    Story.objects.filter(pk=made.pk).update(desk_id=TAKEN_ID - 1)  # so TAKEN_ID is the next free one

    with taken_just_before_the_insert() as taken:
        response = admin_add(client, made, desk_id="")

    assert taken
    assert response.status_code == 200
    errors = response.context["adminform"].form.errors
    assert f"The next free id, {TAKEN_ID}, was taken a moment ago" in errors["desk_id"][0]
    assert "Save again to be given the next one." in errors["desk_id"][0]
    nothing_of_the_loser_is_written(LOSER)


def test_api_an_id_taken_before_the_insert_is_a_400_at_id(client, stories, editor):
    with taken_just_before_the_insert() as taken:
        response = api_create(client, stories, editor)

    assert taken
    assert response.status_code == 400, response.content
    answer = body(response)
    assert answer["error"] == "invalid"
    [problem] = answer["problems"]
    assert problem["at"] == "id"
    assert f"story {TAKEN_ID} was created by someone else a moment ago" in problem["message"]
    nothing_of_the_loser_is_written(LOSER)


def test_import_an_id_taken_before_the_insert_is_named_and_nothing_is_written(stories, tmp_path):
    with taken_just_before_the_insert() as taken:
        out, err = import_desk(stories, tmp_path)

    assert taken
    assert f"id: story {TAKEN_ID} was created by someone else a moment ago" in err
    assert "Traceback" not in err
    assert out == ""
    nothing_of_the_loser_is_written(LOSER)


def test_a_slug_taken_before_the_insert_is_still_reported_as_the_slug(stories):
    """The other unique rule of a story, its address, keeps its own message."""
    from stories.desk import DeskError
    from stories.services import story_import_desk

    document = loser_document(stories)
    document["id"] = "88002"

    def take(sender: Any, instance: Story, **kwargs: Any) -> None:
        if instance._state.adding and instance.desk_id == 88_002:
            pre_save.disconnect(sender=Story, dispatch_uid="same-slug-at-once")
            StoryFactory(slug=instance.slug, dateline=instance.dateline, status=Story.Status.DRAFT)

    pre_save.connect(take, sender=Story, weak=False, dispatch_uid="same-slug-at-once")
    try:
        with pytest.raises(DeskError) as refused:
            story_import_desk(document=document, actor="test")
    finally:
        pre_save.disconnect(sender=Story, dispatch_uid="same-slug-at-once")

    [problem] = refused.value.problems
    assert problem.at == "slug"
    assert "is already used on" in problem.message


# --- PostgreSQL: the other writer commits on a connection of its own ---------------------------


@pytest.fixture
def other_connection(transactional_db, require_postgres) -> None:
    """The other writer commits through its own connection while this save's transaction is open."""


@pytest.mark.postgres
def test_postgres_admin_loses_to_a_committed_story_with_a_form_error(other_connection, client, stories, editor):
    client.force_login(editor)

    with taken_just_before_the_insert(committed=True) as taken:
        response = admin_add(client, stories.good(), desk_id=str(TAKEN_ID))

    assert taken
    assert response.status_code == 200
    assert "was taken a moment ago" in response.context["adminform"].form.errors["desk_id"][0]
    nothing_of_the_loser_is_written(LOSER)
    the_winner_is_intact()


@pytest.mark.postgres
def test_postgres_api_loses_to_a_committed_story_with_a_400_at_id(other_connection, client, stories, editor):
    with taken_just_before_the_insert(committed=True) as taken:
        response = api_create(client, stories, editor)

    assert taken
    assert response.status_code == 400, response.content
    assert body(response)["problems"][0]["at"] == "id"
    nothing_of_the_loser_is_written(LOSER)
    the_winner_is_intact()


@pytest.mark.postgres
def test_postgres_import_loses_to_a_committed_story_naming_the_id(other_connection, stories, tmp_path):
    with taken_just_before_the_insert(committed=True) as taken:
        _, err = import_desk(stories, tmp_path)

    assert taken
    assert f"id: story {TAKEN_ID} was created by someone else a moment ago" in err
    nothing_of_the_loser_is_written(LOSER)
    the_winner_is_intact()
