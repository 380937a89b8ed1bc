"""The reuse terms, for people (/terms/reuse/) and for machines (/.well-known/reuse.json)."""

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.views.decorators.http import require_safe

from .models import ReuseTerms
from .pagecache import last_modified, public_page


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
    return last_modified(response, terms.effective_from)


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
    return last_modified(response, terms.effective_from)
