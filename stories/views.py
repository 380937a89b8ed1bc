"""Public pages. Only published stories are ever shown to readers."""

from datetime import date

from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, render

from newsroom.models import Beat, Newsroom

from . import desk
from .models import Story


def _published_story(day: str, slug: str) -> Story:
    try:
        dateline = date.fromisoformat(day)
    except ValueError:
        raise Http404("No such date") from None
    return get_object_or_404(Story.objects.published().with_parts(), dateline=dateline, slug=slug)


def home(request: HttpRequest) -> HttpResponse:
    stories = Story.objects.published().select_related("newsroom", "edition")[:50]
    return render(request, "stories/home.html", {"stories": stories})


def story_detail(request: HttpRequest, date: str, slug: str) -> HttpResponse:
    story = _published_story(date, slug)
    return render(request, "stories/story_detail.html", {"story": story, "view": desk.StoryView(story)})


def story_json(request: HttpRequest, date: str, slug: str) -> JsonResponse:
    story = _published_story(date, slug)
    return JsonResponse(desk.export_story(story), json_dumps_params={"ensure_ascii": False, "indent": 2})


def newsroom_detail(request: HttpRequest, newsroom: str) -> HttpResponse:
    newsroom_obj = get_object_or_404(Newsroom, slug=newsroom)
    stories = newsroom_obj.stories.published().select_related("edition")[:50]
    return render(request, "stories/newsroom_detail.html", {"newsroom": newsroom_obj, "stories": stories})


def beat_detail(request: HttpRequest, newsroom: str, beat: str) -> HttpResponse:
    beat_obj = get_object_or_404(Beat.objects.select_related("newsroom"), newsroom__slug=newsroom, slug=beat)
    stories = beat_obj.stories.published().select_related("edition")[:50]
    return render(
        request, "stories/newsroom_detail.html", {"newsroom": beat_obj.newsroom, "beat": beat_obj, "stories": stories}
    )
