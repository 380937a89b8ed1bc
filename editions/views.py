from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render

from .models import Edition


def edition_detail(request: HttpRequest, edition: str) -> HttpResponse:
    edition_obj = get_object_or_404(Edition, key=edition)
    stories = edition_obj.stories.published().select_related("newsroom").order_by("newsroom__title", "-published_at")
    return render(request, "editions/edition_detail.html", {"edition": edition_obj, "stories": stories})
