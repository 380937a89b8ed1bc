"""The docs pages: Swagger UI and Redoc from this site's static files, under a CSP."""

from __future__ import annotations

import re

import pytest
from django.contrib.staticfiles import finders

from .conftest import body


def assets(html: str) -> list[str]:
    return re.findall(r'(?:src|href)="([^"]+)"', html)


@pytest.mark.parametrize("path", ["/api/v1/docs/", "/api/v1/redoc/"])
def test_the_docs_load_only_this_sites_files_under_a_policy(client, db, settings, path):
    response = client.get(path)

    html = response.content.decode()
    policy = response["Content-Security-Policy"]
    assert "script-src 'self';" in policy
    assert "default-src 'none'" in policy
    assert "<script>" not in html  # no inline script: script-src 'self' allows none
    urls = assets(html)
    assert urls
    for url in urls:
        assert not url.startswith(("http:", "https:", "//")), url
    static = [url for url in urls if url.startswith(settings.STATIC_URL)]
    assert static
    for url in static:
        path_in_static = url.removeprefix(settings.STATIC_URL).split("?")[0]
        assert finders.find(path_in_static), url  # served by staticfiles, shipped by the sidecar


def test_swagger_uis_start_up_script_is_its_own_file(client, db):
    html = client.get("/api/v1/docs/").content.decode()
    [script] = [url for url in assets(html) if "script" in url and "static" not in url]

    response = client.get(script.replace("&amp;", "&"))

    assert response.status_code == 200
    assert response["Content-Type"].startswith("application/javascript")
    assert "/api/v1/schema/" in response.content.decode()


def test_a_throttled_schema_request_is_a_json_error(client, db, settings):
    settings.REST_FRAMEWORK = settings.REST_FRAMEWORK | {"DEFAULT_THROTTLE_RATES": {"anon": "1/minute"}}
    from django.core.cache import cache

    cache.clear()
    client.get("/api/v1/schema/")
    response = client.get("/api/v1/schema/")

    assert response.status_code == 429
    assert body(response)["error"] == "throttled"
    assert set(body(response)) == {"error", "message", "problems"}
