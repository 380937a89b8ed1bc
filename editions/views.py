"""The public edition page: an edition's published stories, grouped by newsroom."""

from __future__ import annotations

from itertools import groupby
from typing import Any

from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, render
from django.views.decorators.http import require_safe

from newsroom.pagecache import public_page
from stories import pages
from stories.models import Story

from .models import Edition


def _edition(request: HttpRequest, key: str) -> dict[str, Any]:
    edition = get_object_or_404(Edition, key=key)
    stories = pages.listed(Story.objects.published().filter(edition=edition)).order_by(
        "newsroom__title", "-published_at", "-desk_id"
    )
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
    return render(request, templates, context)


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
    return JsonResponse(document, json_dumps_params=pages.JSON_PARAMS)
