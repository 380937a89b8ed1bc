from collections.abc import Callable

from django.urls import path, register_converter
from django.views.decorators.http import require_safe

from newsroom.pagecache import public_page

from . import feeds, views


class IsoDateConverter:
    regex = r"\d{4}-\d{2}-\d{2}"

    def to_python(self, value: str) -> str:
        return value

    def to_url(self, value: str) -> str:
        return value


register_converter(IsoDateConverter, "isodate")


def feed(feed_class: type[feeds.StoryFeed]) -> Callable:
    # A feed is a public page like any other: validators, CDN headers, the page cache.
    return require_safe(public_page(feed_class()))


story = "stories/<isodate:date>/<slug:slug>/"
newsroom = "n/<slug:newsroom>/"
beat = "n/<slug:newsroom>/<slug:beat>/"
edition = "editions/<str:edition>/"

# Story pages first: they are most of the traffic, and the resolver tries patterns in order.
urlpatterns = [
    path(story, views.story_detail, name="story"),
    path(story + "index.json", views.story_json, name="story-json"),
    path(story + "index.md", views.story_markdown, name="story-markdown"),
    path("", views.home, name="home"),
    path("index.json", views.home_json, name="home-json"),
    path("rss.xml", feed(feeds.SiteFeed), name="site-rss"),
    path("atom.xml", feed(feeds.SiteAtomFeed), name="site-atom"),
    path("search/", views.search, name="search"),
    path("sitemap.xml", views.sitemap, name="sitemap"),
    path("news-sitemap.xml", views.news_sitemap, name="news-sitemap"),
    path("robots.txt", views.robots_txt, name="robots-txt"),
    path("llms.txt", views.llms_txt, name="llms-txt"),
    path(newsroom, views.newsroom_detail, name="newsroom"),
    path(newsroom + "index.json", views.newsroom_json, name="newsroom-json"),
    path(newsroom + "rss.xml", feed(feeds.NewsroomFeed), name="newsroom-rss"),
    path(newsroom + "atom.xml", feed(feeds.NewsroomAtomFeed), name="newsroom-atom"),
    path(beat, views.beat_detail, name="beat"),
    path(beat + "index.json", views.beat_json, name="beat-json"),
    path(beat + "rss.xml", feed(feeds.BeatFeed), name="beat-rss"),
    path(beat + "atom.xml", feed(feeds.BeatAtomFeed), name="beat-atom"),
    path(edition, views.edition_detail, name="edition"),
    path(edition + "index.json", views.edition_json, name="edition-json"),
    path("terms/reuse/", views.reuse_terms, name="reuse-terms"),
    path(".well-known/reuse.json", views.reuse_json, name="reuse-json"),
]
