"""factory_boy factories for the models; each builds a valid object with sensible defaults."""

from __future__ import annotations

import datetime as dt
from typing import Any

import factory
from django.utils import timezone

from editions.models import Edition
from manifests.models import Claim, Manifest
from newsroom.models import Beat, Newsroom, SiteText
from stories.desk import site_text_versions
from stories.models import Cite, KeyFact, Paragraph, Section, Story


class NewsroomFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Newsroom
        django_get_or_create = ["slug"]

    slug = factory.Sequence(lambda n: f"newsroom-{n}")
    title = factory.LazyAttribute(lambda o: o.slug.replace("-", " ").title())


class BeatFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Beat
        django_get_or_create = ["newsroom", "slug"]

    newsroom = factory.SubFactory(NewsroomFactory)
    slug = factory.Sequence(lambda n: f"beat-{n}")
    title = factory.LazyAttribute(lambda o: o.slug.replace("-", " ").title())


class EditionFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Edition
        django_get_or_create = ["key"]

    key = factory.LazyFunction(lambda: timezone.now().strftime("%Y-%m-%dT%H"))


class StoryFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Story

    desk_id = factory.Sequence(lambda n: 10_000 + n)
    slug = factory.Sequence(lambda n: f"story-{n}")
    newsroom = factory.SubFactory(NewsroomFactory)
    beat = factory.SubFactory(BeatFactory, newsroom=factory.SelfAttribute("..newsroom"))
    edition = factory.SubFactory(EditionFactory)
    headline = factory.Sequence(lambda n: f"Headline number {n}")
    dek = "A dek."
    angle = "An angle."
    status = Story.Status.PUBLISHED
    published_at = factory.LazyFunction(lambda: timezone.now() - dt.timedelta(hours=1))
    dateline = factory.LazyAttribute(
        lambda o: Story.dateline_for(published_at=o.published_at, edition_start=timezone.now().date())
    )
    writer_agent = "muse"
    writer_run_id = "run-1"


class KeyFactFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = KeyFact

    story = factory.SubFactory(StoryFactory)
    position = factory.Sequence(lambda n: n)
    text = "A key fact."
    self_reported = False


class SectionFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Section

    story = factory.SubFactory(StoryFactory)
    position = factory.Sequence(lambda n: n)
    heading = "A section"


class ParagraphFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Paragraph

    section = factory.SubFactory(SectionFactory)
    story = factory.SelfAttribute("section.story")
    position = factory.Sequence(lambda n: n)
    markdown = "A paragraph."


class CiteFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Cite

    paragraph = factory.SubFactory(ParagraphFactory)
    story = factory.SelfAttribute("paragraph.story")
    position = factory.Sequence(lambda n: n)
    manifest_id = "1000"
    claim_ids = factory.LazyFunction(lambda: ["2000"])


class ManifestFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Manifest
        django_get_or_create = ["manifest_id"]

    manifest_id = factory.Sequence(lambda n: str(1_790_000_000_000_000_000 + n))
    title = factory.Sequence(lambda n: f"Manifest {n}")
    source_name = "example-publisher"
    source_url = "https://example.org/source"
    published_date = factory.LazyFunction(lambda: timezone.now().date())
    origin = Manifest.Origin.FILE


class ClaimFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Claim

    manifest = factory.SubFactory(ManifestFactory)
    claim_id = factory.Sequence(lambda n: str(1_800_000_000_000_000_000 + n))
    position = factory.Sequence(lambda n: n)
    text = "A claim."
    type = "fact"
    confidence = 0.9


def publish_story(story: Story, *, reason: str = "test fixture: published without its checks") -> Story:
    """Publish a factory-built story the one way there is: record its content (factories write
    rows directly), then open the gate by its recorded exception, an unchecked publication.
    Tests of the checks themselves go through ``story_submit`` and ``story_publish`` instead."""
    from stories.services import story_record_change
    from verification.gate import story_publish_unchecked

    story_record_change(story=story, actor="test")
    return story_publish_unchecked(story=story, actor="test", reason=reason)


def add_site_texts(document: dict[str, Any], *, effective_from: dt.datetime | None = None) -> dict[str, SiteText]:
    """Add, as an admin would before an import, the versions of the site-wide texts a desk/1
    document carries: an import only points at versions the site knows. A version the site
    has already is kept as it is. Returns the stored versions by the story's field name."""
    stored = {}
    for field, version in site_text_versions(document, effective_from=effective_from).items():
        known = type(version).objects.filter(fingerprint=version.fingerprint).first()
        if known is None:
            version.save()
        stored[field] = known or version
    return stored
