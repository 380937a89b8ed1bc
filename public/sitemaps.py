"""Sitemaps: every public page, and a news sitemap of the last two days' stories."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any
from urllib.parse import urlsplit

from django.conf import settings
from django.contrib.sitemaps import Sitemap
from django.db.models import Max, QuerySet
from django.urls import reverse
from django.utils import timezone

from newsroom.models import Beat, Newsroom
from stories.models import PublishedVersion

NEWS_WINDOW = timedelta(days=2)


class SiteSitemap(Sitemap):
    """Absolute URLs from SITE_URL, never from the request's Host header."""

    def get_protocol(self, protocol: str | None = None) -> str:
        return urlsplit(settings.SITE_URL).scheme

    def get_domain(self, site: Any = None) -> str:
        return urlsplit(settings.SITE_URL).netloc


class StorySitemap(SiteSitemap):
    changefreq = "weekly"

    def items(self) -> QuerySet[PublishedVersion]:
        return PublishedVersion.objects.live().only("dateline", "slug", "published_at", "modified_at")

    def lastmod(self, story: PublishedVersion) -> datetime:
        return story.modified_at


class NewsSitemap(StorySitemap):
    """Google's news sitemap: stories of the last two days, at most 1000."""

    limit = 1000

    def items(self) -> QuerySet[PublishedVersion]:
        since = timezone.now() - NEWS_WINDOW
        return (
            PublishedVersion.objects.live()
            .filter(published_at__gte=since)
            .only("dateline", "slug", "headline", "published_at", "modified_at")
        )


class ListingSitemap(SiteSitemap):
    """Home, then newsrooms, beats and editions that have published stories."""

    changefreq = "hourly"

    def items(self) -> list[tuple[str, dict[str, str], datetime | None]]:
        published = PublishedVersion.objects.live()
        items: list[tuple[str, dict[str, str], datetime | None]] = [
            ("home", {}, published.aggregate(latest=Max("published_at"))["latest"])
        ]
        for newsroom in Newsroom.objects.filter(live_versions__in=published).annotate(
            latest=Max("live_versions__published_at")
        ):
            items.append(("newsroom", {"newsroom": newsroom.slug}, newsroom.latest))
        beats = Beat.objects.filter(live_versions__in=published).select_related("newsroom")
        for beat in beats.annotate(latest=Max("live_versions__published_at")):
            items.append(("beat", {"newsroom": beat.newsroom.slug, "beat": beat.slug}, beat.latest))
        editions = published.order_by("-edition_id").values("edition_id").annotate(latest=Max("published_at"))
        for edition in editions:
            items.append(("edition", {"edition": edition["edition_id"]}, edition["latest"]))
        return items

    def location(self, item: tuple[str, dict[str, str], datetime | None]) -> str:
        name, kwargs, _ = item
        return reverse(name, kwargs=kwargs)

    def lastmod(self, item: tuple[str, dict[str, str], datetime | None]) -> datetime | None:
        return item[2]


SITEMAPS = {"pages": ListingSitemap, "stories": StorySitemap}
NEWS_SITEMAPS = {"news": NewsSitemap}
