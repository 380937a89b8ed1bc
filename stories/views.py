"""Public pages that show stories: the story page and its twins, home, newsroom and beat
listings with their JSON twins, search, sitemaps, robots.txt and llms.txt.

Only published stories reach readers. A logged-in staff user may preview any story at its
URL; a preview is marked private and noindex so no cache or search engine keeps it.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import date
from typing import Any

from django.conf import settings
from django.contrib.sitemaps import views as sitemap_views
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.views.decorators.http import require_safe

from newsroom.models import Beat, Newsroom, ReuseTerms
from newsroom.pagecache import last_modified, private_response, public_page

from . import desk, pages
from .jinja import page_template
from .loading import LoadedStory, load_story
from .models import Story
from .search import clean_query, search_stories
from .sitemaps import NEWS_SITEMAPS, SITEMAPS

LLMS_STORIES = 50


class StoryWithdrawn(Exception):
    """The URL named a story that was retracted: answered 410 Gone, not 404."""


def _find_story(request: HttpRequest, day: str, slug: str, *, claims: bool = True) -> tuple[LoadedStory, bool]:
    """The story at this URL with its parts, and whether it is an editor's preview of a story
    readers may not see."""
    try:
        dateline = date.fromisoformat(day)
    except ValueError:
        raise Http404("No such date") from None
    loaded = load_story(dateline=dateline, slug=slug, claims=claims)
    if loaded is None:
        raise Http404("No story at this address")
    story = loaded.story
    preview = not story.is_public
    # Only now, for a story readers may not see, look at the session: published pages never
    # depend on who asks, which is what lets them be cached for everyone.
    if preview and not (request.user.is_active and request.user.is_staff):
        if story.status == Story.Status.RETRACTED:
            raise StoryWithdrawn
        raise Http404("No published story at this address")
    return loaded, preview


def _story_response(
    request: HttpRequest,
    day: str,
    slug: str,
    build: Callable[[LoadedStory, bool], HttpResponse],
    *,
    claims: bool = True,
) -> HttpResponse:
    try:
        loaded, preview = _find_story(request, day, slug, claims=claims)
    except StoryWithdrawn:
        return render(request, "stories/withdrawn.html", status=410)
    story = loaded.story
    response = build(loaded, preview)
    url = story.absolute_url()
    # The three forms of a story point at each other, and at the page as the canonical one.
    response["Link"] = ", ".join(
        [
            f'<{url}>; rel="canonical"; type="text/html"',
            f'<{url}index.json>; rel="alternate"; type="application/json"',
            f'<{url}index.md>; rel="alternate"; type="text/markdown"',
        ]
    )
    if preview:
        return private_response(response)
    return response


@require_safe
@public_page
def story_detail(request: HttpRequest, date: str, slug: str) -> HttpResponse:
    def build(loaded: LoadedStory, preview: bool) -> HttpResponse:
        story = loaded.story
        page = pages.StoryPage(loaded, preview=preview)
        # Per-object override, as flatpages does: a template for this story, else for its
        # newsroom, else the default. Story pages are Jinja2 templates (jinja2/), the cheaper
        # engine for the page readers most often get rendered anew.
        templates = [
            f"stories/story/{story.newsroom.slug}/{story.slug}.html",
            f"stories/story/{story.newsroom.slug}.html",
            "stories/story_detail.html",
        ]
        html = page_template(templates).render({"page": page, "story": story}, request)
        return last_modified(HttpResponse(html), page.modified_at)

    return _story_response(request, date, slug, build)


@require_safe
@public_page
def story_json(request: HttpRequest, date: str, slug: str) -> HttpResponse:
    def build(loaded: LoadedStory, preview: bool) -> HttpResponse:
        story = loaded.story
        document = desk.export_story(story, loaded.manifests)
        response = HttpResponse(desk.dumps(document), content_type="application/json")
        corrections = [correction.published_at for correction in story.corrections.all()]
        return last_modified(response, max([story.updated_at, *corrections]))

    return _story_response(request, date, slug, build, claims=False)


@require_safe
@public_page
def story_markdown(request: HttpRequest, date: str, slug: str) -> HttpResponse:
    def build(loaded: LoadedStory, preview: bool) -> HttpResponse:
        page = pages.StoryPage(loaded, preview=preview)
        response = HttpResponse(pages.story_markdown(page), content_type="text/markdown; charset=utf-8")
        return last_modified(response, page.modified_at)

    return _story_response(request, date, slug, build, claims=False)


# --- Listings ----------------------------------------------------------------------------------


def _home(request: HttpRequest) -> dict[str, Any]:
    published = Story.objects.published()
    latest_key = published.order_by("-edition_id").values_list("edition_id", flat=True).first()
    recent = published.exclude(edition_id=latest_key) if latest_key else published
    page = pages.paginate(request, pages.listed(recent))
    latest = None
    if latest_key and page.number == 1:
        stories = pages.listed(published.filter(edition_id=latest_key)).order_by("newsroom__title", "-published_at")
        latest = {"key": latest_key, "path": reverse("edition", kwargs={"edition": latest_key}), "stories": stories}
    return {"page": page, "latest": latest}


@require_safe
@public_page(query=("page",))
def home(request: HttpRequest) -> HttpResponse:
    return render(request, "stories/home.html", {**_home(request), "feeds": pages.site_feeds()})


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
    return JsonResponse(document, json_dumps_params=pages.JSON_PARAMS)


def _newsroom_feeds(newsroom: Newsroom) -> dict[str, str]:
    kwargs = {"newsroom": newsroom.slug}
    return {"rss": reverse("newsroom-rss", kwargs=kwargs), "atom": reverse("newsroom-atom", kwargs=kwargs)}


def _beat_feeds(beat: Beat) -> dict[str, str]:
    kwargs = {"newsroom": beat.newsroom.slug, "beat": beat.slug}
    return {"rss": reverse("beat-rss", kwargs=kwargs), "atom": reverse("beat-atom", kwargs=kwargs)}


def _newsroom(request: HttpRequest, slug: str) -> dict[str, Any]:
    newsroom = get_object_or_404(Newsroom, slug=slug)
    published = Story.objects.published()
    beats = newsroom.beats.filter(stories__in=published).distinct().order_by("title")
    page = pages.paginate(request, pages.listed(published.filter(newsroom=newsroom)))
    return {"newsroom": newsroom, "beats": beats, "page": page, "feeds": _newsroom_feeds(newsroom)}


@require_safe
@public_page(query=("page",))
def newsroom_detail(request: HttpRequest, newsroom: str) -> HttpResponse:
    context = _newsroom(request, newsroom)
    templates = [f"stories/newsroom/{newsroom}.html", "stories/newsroom_detail.html"]
    return render(request, templates, context)


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
    return JsonResponse(document, json_dumps_params=pages.JSON_PARAMS)


def _beat(request: HttpRequest, newsroom: str, beat: str) -> dict[str, Any]:
    beat_obj = get_object_or_404(Beat.objects.select_related("newsroom"), newsroom__slug=newsroom, slug=beat)
    page = pages.paginate(request, pages.listed(Story.objects.published().filter(beat=beat_obj)))
    return {"beat": beat_obj, "newsroom": beat_obj.newsroom, "page": page, "feeds": _beat_feeds(beat_obj)}


@require_safe
@public_page(query=("page",))
def beat_detail(request: HttpRequest, newsroom: str, beat: str) -> HttpResponse:
    templates = [f"stories/beat/{newsroom}/{beat}.html", "stories/beat_detail.html"]
    return render(request, templates, _beat(request, newsroom, beat))


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
    return JsonResponse(document, json_dumps_params=pages.JSON_PARAMS)


# Search pages are not stored server-side: every distinct query would be one more entry, and
# a reader rarely repeats one. They still carry validators and CDN headers.
@require_safe
@public_page(query=("q", "page"), store=False)
def search(request: HttpRequest) -> HttpResponse:
    query = clean_query(request.GET.get("q", ""))
    page = pages.paginate(request, pages.listed(search_stories(Story.objects.published(), query))) if query else None
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
    return _without_last_modified(sitemap_views.sitemap(request, sitemaps=SITEMAPS))


@require_safe
@public_page
def news_sitemap(request: HttpRequest) -> HttpResponse:
    return _without_last_modified(
        sitemap_views.sitemap(request, sitemaps=NEWS_SITEMAPS, template_name="sitemaps/news.xml")
    )


@require_safe
@public_page
def robots_txt(request: HttpRequest) -> HttpResponse:
    return render(request, "robots.txt", content_type="text/plain; charset=utf-8")


@require_safe
@public_page
def llms_txt(request: HttpRequest) -> HttpResponse:
    published = Story.objects.published()
    context = {
        "newsrooms": Newsroom.objects.filter(stories__in=published).distinct().order_by("title"),
        "stories": published.select_related("newsroom")[:LLMS_STORIES],
        "reuse_terms_url": ReuseTerms.license_url(),
        "reuse_json_url": ReuseTerms.machine_url(),
    }
    return render(request, "llms.txt", context, content_type="text/plain; charset=utf-8")
