"""The story page's loader gives exactly what Story.objects.with_parts() gives."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.db import connection
from django.db.models import Model
from django.db.models.signals import post_init
from django.utils import timezone

from manifests.models import Manifest
from stories import desk
from stories.loading import PARTS, STORY_RELATIONS, load_story
from stories.models import Correction, Image, ListItem, Paragraph, RelatedLink, Story
from tests.factories import ClaimFactory, KeyFactFactory, StoryFactory

from .test_http_caching import big_story


def field_values(instance: Model) -> dict[str, tuple[type, Any]]:
    # With the type: False == 0 and a datetime equals nothing else, but a bool must be a bool.
    fields = instance._meta.concrete_fields
    return {field.attname: (type(value), value) for field in fields for value in [getattr(instance, field.attname)]}


def same_as_with_parts(story: Story) -> None:
    loaded = load_story(dateline=story.dateline, slug=story.slug)
    expected = Story.objects.with_parts().get(pk=story.pk)

    assert desk.export_story(loaded.story, loaded.manifests) == desk.export_story(expected)
    # The story's own fields and those of what it brings along, read back from JSON too.
    assert field_values(loaded.story) == field_values(expected)
    for relation in STORY_RELATIONS:
        related, expected_related = getattr(loaded.story, relation), getattr(expected, relation)
        assert (related and field_values(related)) == (expected_related and field_values(expected_related)), relation
    # Every field of every part, as the ORM reads it (types included: the loader reads them
    # back from JSON), in the model's ordering with ties by pk.
    for name, model in PARTS.items():
        parts = loaded.story._prefetched_objects_cache[name]
        ordered = getattr(expected, name).all().order_by(*model._meta.ordering, "pk")
        assert [field_values(part) for part in parts] == [field_values(part) for part in ordered], name
    cited = Manifest.objects.filter(manifest_id__in=desk.StoryView(expected).cited_manifest_ids())
    assert {m.manifest_id: field_values(m) for m in cited} == {
        manifest_id: field_values(manifest) for manifest_id, manifest in loaded.manifests.items()
    }


def test_the_seeds_load_as_with_parts_loads_them(demo):
    for story in demo.values():
        same_as_with_parts(story)


def test_a_story_with_every_kind_of_part_loads_as_with_parts_loads_it(db, site_url):
    story = big_story(sections=3, paragraphs=2, cites=2)
    Image.objects.create(story=story, position=0, url="https://example.org/a.png", alt="A", caption="C", credit="D")
    ListItem.objects.create(story=story, kind=ListItem.Kind.UNRESOLVED, position=0, text="Open question")
    ListItem.objects.create(story=story, kind=ListItem.Kind.NOT_FOR, position=0, text="Not for you")
    Correction.objects.create(story=story, position=0, published_at=timezone.now(), text="Fixed")
    RelatedLink.objects.create(story=story, position=0, url="https://example.org/r", headline="R", slug="r")

    same_as_with_parts(story)


def test_parts_of_a_model_with_init_receivers_are_made_by_from_db(db, site_url):
    story = big_story(sections=2, paragraphs=2, cites=1)
    initialised = []

    def receiver(*, instance: Model, **kwargs: Any) -> None:
        initialised.append(instance)

    post_init.connect(receiver, sender=Paragraph)
    try:
        loaded = load_story(dateline=story.dateline, slug=story.slug)
    finally:
        post_init.disconnect(receiver, sender=Paragraph)

    paragraphs = loaded.story._prefetched_objects_cache["paragraphs"]
    assert len(paragraphs) == 4
    assert [id(paragraph) for paragraph in initialised] == [id(paragraph) for paragraph in paragraphs]


def test_claim_texts_are_keyed_by_manifest_and_claim(db, site_url):
    story = big_story(sections=1, paragraphs=1, cites=1)
    cite = story.cites.get()
    other = ClaimFactory(text="A claim of another manifest")

    texts = load_story(dateline=story.dateline, slug=story.slug).claim_texts

    assert (cite.manifest_id, cite.claim_ids[0]) in texts
    assert (cite.manifest_id, other.claim_id) not in texts


def test_load_story_needs_the_date_and_the_slug(db):
    earlier = StoryFactory(slug="same-slug", published_at=timezone.now() - dt.timedelta(days=3))
    later = StoryFactory(slug="same-slug", published_at=timezone.now() - dt.timedelta(hours=1))
    KeyFactFactory(story=earlier, text="Said only in the earlier story")

    found = load_story(dateline=earlier.dateline, slug="same-slug")
    assert found.story.pk == earlier.pk
    # The parts are the story's at that address, not those of another with the same slug.
    assert [fact.text for fact in found.story.key_facts.all()] == ["Said only in the earlier story"]
    assert load_story(dateline=later.dateline, slug="same-slug").story.pk == later.pk
    assert list(load_story(dateline=later.dateline, slug="same-slug").story.key_facts.all()) == []
    assert load_story(dateline=earlier.dateline - dt.timedelta(days=1), slug="same-slug") is None
    assert load_story(dateline=earlier.dateline, slug="other-slug") is None


def test_a_story_without_pinned_site_texts_loads_them_as_none(db):
    story = StoryFactory()

    found = load_story(dateline=story.dateline, slug=story.slug).story

    assert found.disclosure is None
    assert found.sponsor is None
    assert found.newsroom.slug == story.newsroom.slug


def test_on_postgresql_the_page_statement_is_prepared_once_and_reused(require_postgres, demo):
    story = demo["agent-training-stack"]
    # psycopg prepares a statement on its fifth run; from then on PostgreSQL runs its plan.
    for _ in range(6):
        load_story(dateline=story.dateline, slug=story.slug)

    with connection.cursor() as cursor:
        cursor.execute("SELECT statement FROM pg_prepared_statements")
        prepared = [row[0] for row in cursor.fetchall()]
    story_statement = [statement for statement in prepared if '"stories_story"."slug" = $' in statement]
    assert any("json_agg" in statement for statement in story_statement), prepared
