from typing import Any

from django.conf import settings
from django.http import HttpRequest


def site(request: HttpRequest) -> dict[str, Any]:
    """The site's name and base URL, for every template (the 404 page included)."""
    return {"site_name": settings.SITE_NAME, "site_url": settings.SITE_URL}
