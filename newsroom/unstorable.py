"""Input PostgreSQL cannot hold is refused at the edge: a NUL (``%00``) in a path is a 404, in a
query parameter's name or value a 400, on every route, never a 500.

PostgreSQL text cannot hold U+0000, and a lookup with it raises (``ValueError`` in psycopg) deep
inside whichever view reads the value; SQLite takes it. Refusing it once, before any view, gives
every route the same answer on every database, and the API its JSON error shape. Nothing else
is refused here: Django already turns bytes that are not UTF-8 into text (``%FF`` stays
``%FF`` in a path, a replacement character in a parameter), which any database stores.
"""

from __future__ import annotations

from collections.abc import Callable

from django.core.exceptions import BadRequest
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse

UNSTORABLE = "\x00"
API_PREFIX = "/api/"


def _api(request: HttpRequest) -> bool:
    return request.path_info.startswith(API_PREFIX)


def _bad_parameter(request: HttpRequest) -> str | None:
    for name, values in request.GET.lists():
        if UNSTORABLE in name or any(UNSTORABLE in value for value in values):
            return name.replace(UNSTORABLE, "\\u0000")
    return None


class UnstorableInputMiddleware:
    """A 404 for a path, a 400 for a query parameter, holding a character no database may store."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if UNSTORABLE in request.path_info:
            message = "No page has an address holding the NUL character (U+0000)."
            if _api(request):
                return JsonResponse({"error": "not_found", "message": message, "problems": []}, status=404)
            raise Http404(message)  # the site's own 404 page, as for any other unknown address
        # No query string, no parameters: most requests are spared parsing one.
        parameter = _bad_parameter(request) if request.META.get("QUERY_STRING") else None
        if parameter is not None:
            message = "must not contain U+0000 NULL (a control character, which readers cannot see)"
            if _api(request):
                body = {
                    "error": "invalid",
                    "message": "The request has 1 problem: see problems.",
                    "problems": [{"at": parameter, "message": message}],
                }
                return JsonResponse(body, status=400)
            raise BadRequest(f"The query parameter {parameter!r} {message}.")  # the site's 400 page
        return self.get_response(request)
