"""Public pages: the story page and its twins, home, newsroom, beat and edition listings with
their JSON twins, search, sitemaps, robots.txt, llms.txt and the reuse terms.

Every route reads published versions only (``PublishedVersion.objects.live()``): what the
publish gate froze. A story page is the stored artifact, found by one indexed query. An
editor who may view stories gets a preview of a story's working copy at its URL while readers
get nothing there yet; a preview is never cached nor indexed.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import date
from itertools import groupby
from typing import Any

from django.conf import settings
from django.contrib.sitemaps import views as sitemap_views
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.views.decorators.http import require_safe

from editions.models import Edition
from newsroom.models import Beat, Newsroom, ReuseTerms
from newsroom.pagecache import (
    ReadyPage,
    accepts_gzip,
    last_modified,
    private_response,
    public_page,
    tag_headers,
    tagged,
)
from stories import desk
from stories.models import PublishedVersion, Story
from stories.stored import Stored, stored_at

from . import pages
from .artifacts import render_preview
from .search import clean_query, search_versions
from .sitemaps import NEWS_SITEMAPS, SITEMAPS

LLMS_STORIES = 50
PREVIEW_PERMISSION = "stories.view_story"


def _version_at(day: str, slug: str, field: str, *, compressed: bool = False) -> Stored | None:
    try:
        dateline = date.fromisoformat(day)
    except ValueError:
        raise Http404("No such date") from None
    return stored_at(dateline=dateline, slug=slug, artifact=field, compressed=compressed)


def _preview(request: HttpRequest, day: str, slug: str) -> Story | None:
    """The working copy at this address, for an editor allowed to view stories; else None.
    Only asked when readers get nothing here, so published pages never depend on who asks."""
    user = request.user
    if not (user.is_active and user.is_staff and user.has_perm(PREVIEW_PERMISSION)):
        return None
    try:
        dateline = date.fromisoformat(day)
    except ValueError:
        return None
    # Only the newsrooms the user has a role in: another newsroom's draft is a 404 to them.
    return Story.objects.for_user(user).with_parts().filter(dateline=dateline, slug=slug).first()


def _link_header(url: str) -> str:
    # The three forms of a story point at each other, and at the page as the canonical one.
    return ", ".join(
        [
            f'<{url}>; rel="canonical"; type="text/html"',
            f'<{url}index.json>; rel="alternate"; type="application/json"',
            f'<{url}index.md>; rel="alternate"; type="text/markdown"',
        ]
    )


def _links(response: HttpResponse, url: str) -> HttpResponse:
    response["Link"] = _link_header(url)
    return response


# A story's three forms: the stored artifact each one sends, and its content type.
FORMS = {
    "": ("page_html", "text/html; charset=utf-8"),
    "index.json": ("document", "application/json"),
    "index.md": ("markdown", "text/markdown; charset=utf-8"),
}


class NotLive(Exception):
    """No live version at this address (``version``: a withdrawn one, or None)."""

    def __init__(self, version: Stored | None):
        super().__init__("no live version at this address")
        self.version = version


@public_page
def live_story(request: HttpRequest, date: str, slug: str, form: str = "") -> ReadyPage:
    """A live story's page or twin, exactly as stored when it was published, with the ETag
    stored beside it; in the gzip form stored beside it for a client that takes gzip. Raises
    NotLive.

    Answered for every reader alike, so it reads nothing of the request but its address and
    whether it takes gzip: ``public.middleware.LiveStoryMiddleware`` calls it before sessions
    and users are set up."""
    field, content_type = FORMS[form]
    compressed = accepts_gzip(request)
    version = _version_at(date, slug, field, compressed=compressed)
    if version is None or not version.is_live:
        raise NotLive(version)
    tag = f"story-{version.desk_id}"
    headers = (("Content-Type", content_type), ("Link", _link_header(version.absolute_url())), *tag_headers([tag]))
    if compressed:
        headers += (("Content-Encoding", "gzip"),)
    return ReadyPage(version.artifact, headers, version.etag, int(version.modified_at.timestamp()), tag)


def _story_response(
    request: HttpRequest, day: str, slug: str, form: str, preview: Callable[[Story], HttpResponse]
) -> HttpResponse:
    try:
        return live_story(request, day, slug, form)
    except NotLive as not_live:
        version = not_live.version
    story = _preview(request, day, slug)
    if story is not None and (version is None or version.withdrawn_at is None):
        return private_response(_links(preview(story), story.absolute_url()))
    if version is not None and version.withdrawn_at is not None:
        response = render(request, "stories/withdrawn.html", status=410)
        return tagged(response, [f"story-{version.desk_id}"])
    raise Http404("No published story at this address")


def _status_text(story: Story) -> str:
    if story.has_unpublished_changes:
        return "with changes readers do not get yet"
    return story.get_status_display().lower()


@require_safe
def story_detail(request: HttpRequest, date: str, slug: str) -> HttpResponse:
    return _story_response(
        request,
        date,
        slug,
        "",
        lambda story: HttpResponse(render_preview(desk.export_story(story), status_text=_status_text(story))),
    )


@require_safe
def story_json(request: HttpRequest, date: str, slug: str) -> HttpResponse:
    return _story_response(
        request,
        date,
        slug,
        "index.json",
        lambda story: HttpResponse(desk.dumps(desk.export_story(story)), content_type="application/json"),
    )


@require_safe
def story_markdown(request: HttpRequest, date: str, slug: str) -> HttpResponse:
    return _story_response(
        request,
        date,
        slug,
        "index.md",
        lambda story: HttpResponse(
            pages.story_markdown(pages.StoryPage(desk.export_story(story), preview=True)),
            content_type="text/markdown; charset=utf-8",
        ),
    )


# --- Listings ----------------------------------------------------------------------------------


def _home(request: HttpRequest) -> dict[str, Any]:
    published = pages.live_listed()
    latest_key = published.order_by("-edition_id").values_list("edition_id", flat=True).first()
    recent = published.exclude(edition_id=latest_key) if latest_key else published
    page = pages.paginate(request, recent)
    latest = None
    if latest_key and page.number == 1:
        stories = published.filter(edition_id=latest_key).order_by("newsroom__title", "-published_at")
        latest = {"key": latest_key, "path": reverse("edition", kwargs={"edition": latest_key}), "stories": stories}
    return {"page": page, "latest": latest}


@require_safe
@public_page(query=("page",))
def home(request: HttpRequest) -> HttpResponse:
    return tagged(render(request, "stories/home.html", {**_home(request), "feeds": pages.site_feeds()}), ["site"])


@require_safe
@public_page(query=("page",))
def home_json(request: HttpRequest) -> JsonResponse:
    context = _home(request)
    latest = context["latest"]
    latest_block = None
    if latest:
        latest_block = {
            "id": latest["key"],
            "url": pages.absolute(latest["path"]),
            "json": pages.absolute(latest["path"] + "index.json"),
            "stories": [pages.story_summary(story) for story in latest["stories"]],
        }
    document = pages.listing_document(
        kind="home",
        title=f"{settings.SITE_NAME}: latest stories",
        html_path=reverse("home"),
        page=context["page"],
        feeds=pages.site_feeds(),
        latest_edition=latest_block,
    )
    return tagged(JsonResponse(document, json_dumps_params=pages.JSON_PARAMS), ["site"])


def _newsroom_feeds(newsroom: Newsroom) -> dict[str, str]:
    kwargs = {"newsroom": newsroom.slug}
    return {"rss": reverse("newsroom-rss", kwargs=kwargs), "atom": reverse("newsroom-atom", kwargs=kwargs)}


def _beat_feeds(beat: Beat) -> dict[str, str]:
    kwargs = {"newsroom": beat.newsroom.slug, "beat": beat.slug}
    return {"rss": reverse("beat-rss", kwargs=kwargs), "atom": reverse("beat-atom", kwargs=kwargs)}


def _newsroom(request: HttpRequest, slug: str) -> dict[str, Any]:
    newsroom = get_object_or_404(Newsroom, slug=slug)
    beats = newsroom.beats.filter(live_versions__in=PublishedVersion.objects.live()).distinct().order_by("title")
    page = pages.paginate(request, pages.live_listed().filter(newsroom=newsroom))
    return {"newsroom": newsroom, "beats": beats, "page": page, "feeds": _newsroom_feeds(newsroom)}


@require_safe
@public_page(query=("page",))
def newsroom_detail(request: HttpRequest, newsroom: str) -> HttpResponse:
    context = _newsroom(request, newsroom)
    templates = [f"stories/newsroom/{newsroom}.html", "stories/newsroom_detail.html"]
    return tagged(render(request, templates, context), [f"newsroom-{newsroom}"])


@require_safe
@public_page(query=("page",))
def newsroom_json(request: HttpRequest, newsroom: str) -> JsonResponse:
    context = _newsroom(request, newsroom)
    newsroom_obj = context["newsroom"]
    document = pages.listing_document(
        kind="newsroom",
        title=newsroom_obj.title,
        html_path=newsroom_obj.get_absolute_url(),
        page=context["page"],
        feeds=context["feeds"],
        newsroom=newsroom_obj.slug,
        description=newsroom_obj.description,
        beats=[
            {"slug": beat.slug, "title": beat.title, "url": pages.absolute(beat.get_absolute_url())}
            for beat in context["beats"]
        ],
    )
    return tagged(JsonResponse(document, json_dumps_params=pages.JSON_PARAMS), [f"newsroom-{newsroom}"])


def _beat(request: HttpRequest, newsroom: str, beat: str) -> dict[str, Any]:
    beat_obj = get_object_or_404(Beat.objects.select_related("newsroom"), newsroom__slug=newsroom, slug=beat)
    page = pages.paginate(request, pages.live_listed().filter(beat=beat_obj))
    return {"beat": beat_obj, "newsroom": beat_obj.newsroom, "page": page, "feeds": _beat_feeds(beat_obj)}


@require_safe
@public_page(query=("page",))
def beat_detail(request: HttpRequest, newsroom: str, beat: str) -> HttpResponse:
    templates = [f"stories/beat/{newsroom}/{beat}.html", "stories/beat_detail.html"]
    return tagged(render(request, templates, _beat(request, newsroom, beat)), [f"beat-{newsroom}-{beat}"])


@require_safe
@public_page(query=("page",))
def beat_json(request: HttpRequest, newsroom: str, beat: str) -> JsonResponse:
    context = _beat(request, newsroom, beat)
    beat_obj = context["beat"]
    document = pages.listing_document(
        kind="beat",
        title=f"{beat_obj.newsroom.title} / {beat_obj.title}",
        html_path=beat_obj.get_absolute_url(),
        page=context["page"],
        feeds=context["feeds"],
        newsroom=beat_obj.newsroom.slug,
        beat=beat_obj.slug,
        description=beat_obj.description,
    )
    return tagged(JsonResponse(document, json_dumps_params=pages.JSON_PARAMS), [f"beat-{newsroom}-{beat}"])


# PostgreSQL refuses text holding NUL (a 500 for "?q=%00"), and no story holds a control
# character: in a query they separate words, as a space does.
_QUERY_CONTROLS = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")


# Search pages are not stored server-side: every distinct query would be one more entry, and
# a reader rarely repeats one. They still carry validators and CDN headers.
@require_safe
@public_page(query=("q", "page"), store=False)
def search(request: HttpRequest) -> HttpResponse:
    query = clean_query(_QUERY_CONTROLS.sub(" ", request.GET.get("q", "")))
    page = pages.paginate(request, search_versions(pages.live_listed(), query)) if query else None
    return render(request, "stories/search.html", {"query": query, "page": page})


# --- Discovery ---------------------------------------------------------------------------------


def _without_last_modified(response: HttpResponse) -> HttpResponse:
    # The sitemap view dates itself by its newest entry, which moves back in time when that
    # entry is retracted; the page cache dates it by the last change instead.
    response.render()
    del response["Last-Modified"]
    return response


@require_safe
@public_page
def sitemap(request: HttpRequest) -> HttpResponse:
    return tagged(_without_last_modified(sitemap_views.sitemap(request, sitemaps=SITEMAPS)), ["site"])


@require_safe
@public_page
def news_sitemap(request: HttpRequest) -> HttpResponse:
    response = sitemap_views.sitemap(request, sitemaps=NEWS_SITEMAPS, template_name="sitemaps/news.xml")
    return tagged(_without_last_modified(response), ["site"])


@require_safe
@public_page
def robots_txt(request: HttpRequest) -> HttpResponse:
    return tagged(render(request, "robots.txt", content_type="text/plain; charset=utf-8"), ["site"])


@require_safe
@public_page
def llms_txt(request: HttpRequest) -> HttpResponse:
    published = PublishedVersion.objects.live()
    context = {
        "newsrooms": Newsroom.objects.filter(live_versions__in=published).distinct().order_by("title"),
        "stories": published.listed()[:LLMS_STORIES],
        "reuse_terms_url": ReuseTerms.license_url(),
        "reuse_json_url": ReuseTerms.machine_url(),
    }
    return tagged(render(request, "llms.txt", context, content_type="text/plain; charset=utf-8"), ["site"])


# --- Editions ---------------------------------------------------------------------------------


def _edition(request: HttpRequest, key: str) -> dict[str, Any]:
    edition = get_object_or_404(Edition, key=key)
    stories = pages.live_listed().filter(edition=edition).order_by("newsroom__title", "-published_at", "-desk_id")
    page = pages.paginate(request, stories)
    if page.paginator.count == 0:
        # An edition is public through its published stories; until one is, it is not there.
        raise Http404("No published stories in this edition")
    groups = [
        (newsroom, list(items)) for newsroom, items in groupby(page.object_list, key=lambda story: story.newsroom)
    ]
    return {"edition": edition, "page": page, "groups": groups}


@require_safe
@public_page(query=("page",))
def edition_detail(request: HttpRequest, edition: str) -> HttpResponse:
    context = _edition(request, edition)
    templates = [f"editions/edition/{edition}.html", "editions/edition_detail.html"]
    return tagged(render(request, templates, context), [f"edition-{edition}"])


@require_safe
@public_page(query=("page",))
def edition_json(request: HttpRequest, edition: str) -> JsonResponse:
    context = _edition(request, edition)
    edition_obj = context["edition"]
    document = pages.listing_document(
        kind="edition",
        title=f"Edition {edition_obj}",
        html_path=edition_obj.get_absolute_url(),
        page=context["page"],
        edition=edition_obj.key,
        newsrooms=[
            {
                "slug": newsroom.slug,
                "title": newsroom.title,
                "url": pages.absolute(newsroom.get_absolute_url()),
                "story_ids": [str(story.desk_id) for story in stories],
            }
            for newsroom, stories in context["groups"]
        ],
    )
    return tagged(JsonResponse(document, json_dumps_params=pages.JSON_PARAMS), [f"edition-{edition}"])


# --- The reuse terms, for people (/terms/reuse/) and for machines (/.well-known/reuse.json) -----


def _terms_in_force() -> ReuseTerms:
    terms = ReuseTerms.objects.in_force()
    if terms is None:
        raise Http404("No reuse terms have been published yet.")
    return terms


@require_safe
@public_page
def reuse_terms(request: HttpRequest) -> HttpResponse:
    terms = _terms_in_force()
    response = render(request, "newsroom/reuse_terms.html", {"terms": terms})
    return tagged(last_modified(response, terms.effective_from), ["site"])


@require_safe
@public_page
def reuse_json(request: HttpRequest) -> JsonResponse:
    terms = _terms_in_force()
    response = JsonResponse(
        {
            **terms.content(),
            "license_url": terms.license_url(),
            "machine_url": terms.machine_url(),
            "site": settings.SITE_URL,
        },
        json_dumps_params={"ensure_ascii": False, "indent": 2},
    )
    return tagged(last_modified(response, terms.effective_from), ["site"])
