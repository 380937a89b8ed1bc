"""Live story pages and twins answered from their stored artifact, early.

A story's page, JSON twin and Markdown twin are the most requested addresses, and what a
reader gets there was rendered when the story was published. This middleware, right after the
page cache's, answers them with one indexed query (``public.views.live_story``, with the page
cache's validators and headers), before the sessions, CSRF, users and messages middleware and
the URL resolver run: none of them changes what a live story says. Anything else at such an
address (an editor's preview of a draft, a withdrawn story's 410, a 404) goes on down the chain
to the full views.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from django.http import HttpRequest, HttpResponseBase

from .views import NotLive, live_story

# The story routes of public/urls.py: the page and its two twins.
STORY_PATH = re.compile(
    r"/stories/(?P<date>\d{4}-\d{2}-\d{2})/(?P<slug>[-a-zA-Z0-9_]+)/(?P<form>index\.json|index\.md)?\Z"
)


class LiveStoryMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        if request.method in ("GET", "HEAD") and not request.META.get("QUERY_STRING"):
            match = STORY_PATH.match(request.path_info)
            if match:
                # The check CommonMiddleware would make: a Host outside ALLOWED_HOSTS gets a 400.
                request.get_host()
                try:
                    return live_story(request, **match.groupdict(default=""))
                except NotLive:
                    pass
        return self.get_response(request)
