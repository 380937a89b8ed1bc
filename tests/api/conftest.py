"""The API's fixtures: the public site's demo (both seeds, published through the gate) and a
client that reads JSON."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from newsroom.models import Role
from newsroom.roles import grant_role
from tests.factories import NewsroomFactory
from tests.site.conftest import demo, empty_page_cache, hidden  # noqa: F401

TRAINING_ID = "81"  # the seeds' desk/1 ids
AGENTIC_ID = "278"


def body(response: Any) -> Any:
    assert response["Content-Type"] == "application/json", response["Content-Type"]
    return json.loads(response.content)


def results(client: Client, path: str, **params: Any) -> list[dict[str, Any]]:
    response = client.get(path, params)
    assert response.status_code == 200, response.content
    return body(response)["results"]


@pytest.fixture(autouse=True)
def generous_throttle(settings):
    """Tests make many requests from one address; the throttle's own tests lower the rate."""
    rest = dict(settings.REST_FRAMEWORK)
    settings.REST_FRAMEWORK = rest | {"DEFAULT_THROTTLE_RATES": {"anon": "100000/minute"}}


# --- The write API: users with roles, and their tokens -----------------------------------------


def bearer(token: str) -> dict[str, str]:
    return {"HTTP_AUTHORIZATION": f"Bearer {token}"}


def token_of(user: Any, **kwargs: Any) -> str:
    from knox.models import AuthToken

    return AuthToken.objects.create(user=user, **kwargs)[1]


@pytest.fixture
def people(demo):  # noqa: F811 (the fixture, imported above)
    """A chief and an editor of the seeds' newsroom, and a chief of another newsroom, with tokens."""
    from types import SimpleNamespace

    from django.contrib.auth import get_user_model

    from newsroom.models import Newsroom, Role
    from newsroom.roles import grant_role
    from tests.factories import NewsroomFactory

    ai = Newsroom.objects.get(slug="artificial-intelligence")
    other = NewsroomFactory(slug="other-desk", title="Other desk")
    users = get_user_model().objects
    chief = users.create_user("chief", password="x-unused-password")
    editor = users.create_user("editor", password="x-unused-password")
    outsider = users.create_user("outsider", password="x-unused-password")
    grant_role(user=chief, newsroom=ai, role=Role.CHIEF)
    grant_role(user=editor, newsroom=ai, role=Role.EDITOR)
    grant_role(user=outsider, newsroom=other, role=Role.CHIEF)
    return SimpleNamespace(
        ai=ai,
        other=other,
        chief=bearer(token_of(chief)),
        editor=bearer(token_of(editor)),
        outsider=bearer(token_of(outsider)),
    )


def new_document(*, desk_id: str, slug: str, like: str = "agent-training-stack", **changes: Any) -> dict[str, Any]:
    """A seed made into another story: its own id and slug (and derived addresses left out)."""
    from tests.site.conftest import seed

    document = seed(like) | {"id": desk_id, "slug": slug} | changes
    for derived in ("url", "links"):
        document.pop(derived, None)
    return document


def first_parts_only(document: dict[str, Any]) -> dict[str, Any]:
    """A seed's document cut to its first key fact and first paragraph: no near-copy of the seed,
    which the repeat check refuses whatever time it carries."""
    first = document["sections"][0]
    document["key_facts"] = document["key_facts"][:1]
    document["sections"] = [first | {"paragraphs": first["paragraphs"][:1]}]
    return document


def fresh_document(*, desk_id: str, slug: str, **changes: Any) -> dict[str, Any]:
    """A new story that passes every check beside the published seeds (``first_parts_only``).
    Its derived blocks are left for the importer to work out."""
    document = first_parts_only(new_document(desk_id=desk_id, slug=slug, **changes))
    for derived in ("cited_manifest_ids", "source_count", "publishers", "manifests", "run_these_manifests"):
        document.pop(derived, None)
    document["labels"] = {"trust": "reported"}
    return document


def post_json(client: Client, path: str, value: Any, **headers: Any) -> Any:
    data = value if isinstance(value, bytes | str) else json.dumps(value)
    return client.post(path, data=data, content_type=headers.pop("content_type", "application/json"), **headers)


from tests.ops.test_serve import serve_database  # noqa: E402, F401  (a PostgreSQL database of its own)


@pytest.fixture
def writer(db) -> dict[str, str]:
    """The Authorization header of an editor of the seeds' newsroom, as a writer agent holds it."""
    user = get_user_model().objects.create_user("writer-agent", password="x-unused-password")
    grant_role(user=user, newsroom=NewsroomFactory(slug="artificial-intelligence"), role=Role.EDITOR)
    return bearer(token_of(user))
