"""A NUL (%00) in any path or query parameter of any route is a 404 or a 400, never a 500, on
whatever database is configured (PostgreSQL cannot store it; CI runs this on PostgreSQL too)."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator

import pytest
from django.urls import URLPattern, URLResolver, get_resolver

NUL = "%00"
# <int:id>, <slug:newsroom>, <object_id>: a route's converters; (?P<name>...): a regex's groups.
CONVERTER = re.compile(r"<(?:[^>:]+:)?[^>]+>")
GROUP = re.compile(r"\(\?P<\w+>(?:[^()]|\([^()]*\))*\)")


def _route(pattern: str) -> str:
    """A regex route written as a path: its anchors and escapes gone, its bare wildcards a value."""
    # An alternation is written as its first branch ("api(?:/|$)" is "api/").
    pattern = re.sub(r"\(\?:([^|()]*)\|[^()]*\)", r"\1", pattern)
    return pattern.replace("^", "").replace("$", "").replace("\\", "").replace(".*", "x")


def routes(patterns=None, prefix: str = "") -> Iterator[str]:
    """Every URL pattern of the site, as one path string with its converters and groups kept."""
    for pattern in get_resolver().url_patterns if patterns is None else patterns:
        if isinstance(pattern, URLResolver):
            yield from routes(pattern.url_patterns, prefix + str(pattern.pattern))
        elif isinstance(pattern, URLPattern):
            yield prefix + str(pattern.pattern)


def holes(route: str) -> list[re.Match[str]]:
    return [*CONVERTER.finditer(route), *GROUP.finditer(route)]


def filled(route: str, value: str, *, only: int | None = None) -> str:
    """The route with every converter or group given ``value`` (or only the one at ``only``,
    the others a harmless "1")."""
    parts, last = [], 0
    for index, hole in enumerate(sorted(holes(route), key=lambda match: match.start())):
        parts += [_route(route[last : hole.start()]), value if only in (None, index) else "1"]
        last = hole.end()
    return "/" + "".join([*parts, _route(route[last:])])


def cases() -> Iterator[tuple[str, int]]:
    for route in sorted(set(routes())):
        count = len(holes(route))
        for index in range(count):
            yield filled(route, NUL, only=index), 404
        path = filled(route, "1")
        yield path.rstrip("/") + NUL + ("/" if path.endswith("/") else ""), 404
        yield path + f"?q={NUL}&page=1", 400
        yield path + f"?{NUL}=1", 400


ALL = list(cases())


def test_the_walk_reaches_every_part_of_the_site():
    paths = {path for path, _ in ALL}
    for expected in ("/admin/stories/story/%00/change/", "/api/v1/stories/%00/", "/n/%00/rss.xml"):
        assert expected in paths
    assert len(paths) > 500


@pytest.mark.django_db
def test_a_nul_anywhere_in_an_address_is_a_404_or_400_and_never_a_500(admin_client):
    wrong = []
    for path, status in ALL:
        response = admin_client.get(path)  # an exception here (a 500) fails the test too
        if response.status_code != status:
            wrong.append((path, response.status_code))
        elif path.startswith("/api/"):
            answer = json.loads(response.content)
            assert set(answer) == {"error", "message", "problems"}, path
            assert answer["error"] == ("not_found" if status == 404 else "invalid"), path
    assert wrong == []


@pytest.mark.django_db
def test_the_api_names_the_parameter_holding_a_nul(client):
    response = client.get("/api/v1/stories/?trust=reported%00")

    assert response.status_code == 400
    assert json.loads(response.content)["problems"] == [
        {"at": "trust", "message": "must not contain U+0000 NULL (a control character, which readers cannot see)"}
    ]
