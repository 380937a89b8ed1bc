from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render

from .models import ReuseTerms


def _terms_in_force() -> ReuseTerms:
    terms = ReuseTerms.objects.in_force()
    if terms is None:
        raise Http404("No reuse terms have been published yet.")
    return terms


def reuse_terms(request: HttpRequest) -> HttpResponse:
    return render(request, "newsroom/reuse_terms.html", {"terms": _terms_in_force()})


def reuse_json(request: HttpRequest) -> JsonResponse:
    terms = _terms_in_force()
    return JsonResponse(
        {
            **terms.content(),
            "license_url": terms.license_url(),
            "machine_url": terms.machine_url(),
            "site": settings.SITE_URL,
        },
        json_dumps_params={"ensure_ascii": False, "indent": 2},
    )
