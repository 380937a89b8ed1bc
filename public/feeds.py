"""RSS and Atom feeds of published stories: the whole site, a newsroom, a beat."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.conf import settings
from django.contrib.syndication.views import Feed
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404
from django.urls import reverse
from django.utils.feedgenerator import Atom1Feed, Rss201rev2Feed
from django.utils.html import escape

from newsroom.cleantext import xml_safe
from newsroom.models import Beat, Newsroom
from newsroom.pagecache import tagged
from stories.models import PublishedVersion

FEED_SIZE = 30


def _xml_safe(value: Any) -> Any:
    if isinstance(value, str):
        return xml_safe(value)
    if isinstance(value, list | tuple):
        return [_xml_safe(item) for item in value]
    return value


class _XmlSafe:
    """A feed generator that drops what XML 1.0 cannot carry from every text it is given, so a
    control character stored before the door refused them never breaks a feed (Django's
    generator refuses it with an error, a 500)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*map(_xml_safe, args), **{key: _xml_safe(value) for key, value in kwargs.items()})

    def add_item(self, *args: Any, **kwargs: Any) -> None:
        super().add_item(*map(_xml_safe, args), **{key: _xml_safe(value) for key, value in kwargs.items()})


class RssFeed(_XmlSafe, Rss201rev2Feed):
    pass


class AtomFeed(_XmlSafe, Atom1Feed):
    pass


class StoryFeed(Feed):
    """Shared item rendering. Links are absolute from SITE_URL, never from the request's Host."""

    feed_type = RssFeed
    url_name = "site-rss"

    def __call__(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        response = super().__call__(request, *args, **kwargs)
        # The framework dates a feed by its newest item, which would move back in time when
        # that item is retracted; the page cache dates it by the last change instead.
        del response["Last-Modified"]
        return tagged(response, [self.cache_tag(**kwargs)])

    def cache_tag(self, **kwargs: str) -> str:
        """The listing this feed is (newsroom.pagecache): its page goes stale with it."""
        return "site"

    def stories(self, obj: Any) -> QuerySet[PublishedVersion]:
        return PublishedVersion.objects.live()

    def items(self, obj: Any) -> QuerySet[PublishedVersion]:
        return self.stories(obj).listed()[:FEED_SIZE]

    def feed_url(self, obj: Any) -> str:
        return settings.SITE_URL + reverse(self.url_name, kwargs=self.url_kwargs(obj))

    def url_kwargs(self, obj: Any) -> dict[str, str]:
        return {}

    def item_title(self, item: PublishedVersion) -> str:
        return item.headline

    def item_description(self, item: PublishedVersion) -> str:
        # RSS <description> and Atom <summary type="html"> are HTML to a feed reader; the dek is
        # plain text (the page shows "<script>" typed in it as text), so it goes as HTML text.
        # What was checked on this version, as its page says it, and any re-check's notice.
        shown = item.shown
        told = [f"<p><strong>{escape(shown.title)}.</strong> {escape(shown.summary())}</p>"]
        if shown.notice:
            told.append(f"<p><strong>Notice.</strong> {escape(shown.notice_text())}</p>")
        return escape(item.dek) + "".join(told)

    def item_link(self, item: PublishedVersion) -> str:
        return item.absolute_url()

    def item_guid(self, item: PublishedVersion) -> str:
        return item.absolute_url()

    def item_pubdate(self, item: PublishedVersion) -> datetime | None:
        return item.published_at

    def item_updateddate(self, item: PublishedVersion) -> datetime:
        return item.modified_at

    def item_author_name(self, item: PublishedVersion) -> str:
        return item.newsroom.title

    def item_categories(self, item: PublishedVersion) -> list[str]:
        return [item.newsroom.title, item.beat.title]


class SiteFeed(StoryFeed):
    def title(self) -> str:
        return f"{settings.SITE_NAME}: latest stories"

    def link(self) -> str:
        return settings.SITE_URL + reverse("home")

    def description(self) -> str:
        return f"The latest stories published by {settings.SITE_NAME}, each with the manifests it cites."


class SiteAtomFeed(SiteFeed):
    feed_type = AtomFeed
    url_name = "site-atom"
    subtitle = SiteFeed.description


class NewsroomFeed(StoryFeed):
    url_name = "newsroom-rss"

    def get_object(self, request: HttpRequest, newsroom: str) -> Newsroom:
        return get_object_or_404(Newsroom, slug=newsroom)

    def stories(self, obj: Newsroom) -> QuerySet[PublishedVersion]:
        return PublishedVersion.objects.live().filter(newsroom=obj)

    def url_kwargs(self, obj: Newsroom) -> dict[str, str]:
        return {"newsroom": obj.slug}

    def cache_tag(self, *, newsroom: str) -> str:
        return f"newsroom-{newsroom}"

    def title(self, obj: Newsroom) -> str:
        return f"{obj.title}: {settings.SITE_NAME}"

    def link(self, obj: Newsroom) -> str:
        return settings.SITE_URL + obj.get_absolute_url()

    def description(self, obj: Newsroom) -> str:
        return obj.description or f"The latest stories from the {obj.title} newsroom."


class NewsroomAtomFeed(NewsroomFeed):
    feed_type = AtomFeed
    url_name = "newsroom-atom"
    subtitle = NewsroomFeed.description


class BeatFeed(StoryFeed):
    url_name = "beat-rss"

    def get_object(self, request: HttpRequest, newsroom: str, beat: str) -> Beat:
        return get_object_or_404(Beat.objects.select_related("newsroom"), newsroom__slug=newsroom, slug=beat)

    def stories(self, obj: Beat) -> QuerySet[PublishedVersion]:
        return PublishedVersion.objects.live().filter(beat=obj)

    def url_kwargs(self, obj: Beat) -> dict[str, str]:
        return {"newsroom": obj.newsroom.slug, "beat": obj.slug}

    def cache_tag(self, *, newsroom: str, beat: str) -> str:
        return f"beat-{newsroom}-{beat}"

    def title(self, obj: Beat) -> str:
        return f"{obj.newsroom.title} / {obj.title}: {settings.SITE_NAME}"

    def link(self, obj: Beat) -> str:
        return settings.SITE_URL + obj.get_absolute_url()

    def description(self, obj: Beat) -> str:
        return obj.description or f"The latest stories on the {obj.title} beat of {obj.newsroom.title}."


class BeatAtomFeed(BeatFeed):
    feed_type = AtomFeed
    url_name = "beat-atom"
    subtitle = BeatFeed.description
