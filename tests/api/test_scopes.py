"""Token scopes: chosen when a token is made, shown by /me/, and enforced wherever a token acts,
within what its user's roles allow (the intersection)."""

from __future__ import annotations

import datetime as dt
import importlib
import io

import pytest
from django.apps import apps
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command
from django.utils import timezone
from knox.models import AuthToken

from api.models import TokenGrant
from api.tokens import token_create
from stories.models import Story
from verification.models import VerificationRun

from .conftest import TRAINING_ID, bearer, body, new_document, post_json


def make_token(*args: str) -> tuple[str, str]:
    out, err = io.StringIO(), io.StringIO()
    call_command("create_api_token", *args, stdout=out, stderr=err)
    return out.getvalue().strip(), err.getvalue()


def scoped(username: str, *scopes: str) -> dict[str, str]:
    user = get_user_model().objects.get(username=username)
    return bearer(token_create(user=user, expiry=None, scopes=scopes)[1])


def run_url() -> str:
    return f"/api/v1/runs/{VerificationRun.objects.filter(story__desk_id=81).first().pk}/"


def publish(client, who, story=TRAINING_ID):
    return post_json(client, f"/api/v1/stories/{story}/publish/", {}, **who)


def submit(client, who, desk_id="9300"):
    return post_json(client, "/api/v1/stories/", new_document(desk_id=desk_id, slug=f"story-{desk_id}"), **who)


def test_the_command_makes_a_token_with_the_scopes_asked(people, client):
    token, said = make_token("chief", "--scope", "submit", "--scope", "read", "--expires-in", "3")

    assert "scopes read submit" in said
    assert TokenGrant.objects.get(token__token_key=token[:15]).scopes == ["read", "submit"]
    me = body(client.get("/api/v1/me/", **bearer(token)))
    assert me["token"]["scopes"] == ["read", "submit"]
    expires = dt.datetime.fromisoformat(me["token"]["expires_at"].replace("Z", "+00:00"))
    assert abs(expires - (timezone.now() + dt.timedelta(days=3))) < dt.timedelta(minutes=1)
    # What it may do in each newsroom: its scopes the chief's role allows.
    assert [(room["newsroom"], room["role"], room["scopes"]) for room in me["newsrooms"]] == [
        ("artificial-intelligence", "chief", ["read", "submit"])
    ]


def test_without_scopes_a_token_may_do_all_its_users_roles_allow(people, client):
    token, said = make_token("editor")

    assert "scopes read submit publish" in said
    me = body(client.get("/api/v1/me/", **bearer(token)))
    assert me["token"]["scopes"] == ["read", "submit", "publish"]
    # An editor's role allows no publishing, whatever the token says.
    assert [room["scopes"] for room in me["newsrooms"]] == [["read", "submit"]]


def test_the_command_warns_of_a_scope_the_users_roles_allow_nowhere(people):
    _, said = make_token("editor", "--scope", "publish")

    assert "editor's roles allow no publish anywhere" in said


def test_the_command_refuses_a_scope_it_does_not_know(people):
    with pytest.raises(CommandError, match="invalid choice: 'admin'"):
        make_token("editor", "--scope", "admin")


def test_a_token_without_publish_cannot_publish_even_for_a_chief(people, client):
    response = publish(client, scoped("chief", "read", "submit"))

    assert response.status_code == 403
    said = "This needs a token with the scope 'publish'; this token has read, submit."
    assert body(response) == {
        "error": "insufficient_scope",
        "message": said,
        "problems": [{"at": "Authorization", "message": said}],
    }
    assert response["WWW-Authenticate"] == 'Bearer error="insufficient_scope", scope="publish"'
    assert publish(client, scoped("chief", "publish")).status_code == 200


@pytest.mark.parametrize("action", ["corrections", "retract"])
def test_correcting_and_retracting_need_publish_too(people, client, action):
    response = post_json(client, f"/api/v1/stories/{TRAINING_ID}/{action}/", {}, **scoped("chief", "read", "submit"))

    assert response.status_code == 403
    assert body(response)["error"] == "insufficient_scope"
    assert "'publish'" in body(response)["message"]


def test_publish_on_an_editors_token_publishes_nothing(people, client):
    response = publish(client, scoped("editor", "publish"))

    assert response.status_code == 403
    assert body(response)["error"] == "permission_denied"


def test_a_submission_needs_submit(people, client, django_capture_on_commit_callbacks):
    refused = submit(client, scoped("editor", "read", "publish"))

    assert refused.status_code == 403
    assert body(refused)["error"] == "insufficient_scope"
    assert "'submit'" in body(refused)["message"]
    assert not Story.objects.filter(desk_id=9300).exists()
    with django_capture_on_commit_callbacks(execute=True):
        assert submit(client, scoped("editor", "submit")).status_code == 202


def test_reading_a_run_needs_read(people, client):
    refused = client.get(run_url(), **scoped("editor", "submit"))

    assert refused.status_code == 403
    assert body(refused)["error"] == "insufficient_scope"
    assert "'read'" in body(refused)["message"]
    assert client.get(run_url(), **scoped("editor", "read")).status_code == 200


def test_any_token_may_ask_who_it_is(people, client):
    response = client.get("/api/v1/me/", **scoped("editor"))

    assert response.status_code == 200
    assert body(response)["token"]["scopes"] == []
    assert body(response)["newsrooms"][0]["scopes"] == []


def test_a_token_made_in_admin_has_every_scope(people):
    editor = get_user_model().objects.get(username="editor")

    instance, _ = AuthToken.objects.create(user=editor)  # what the admin's form saves

    assert instance.grant.scopes == ["read", "submit", "publish"]


def test_the_migration_gives_tokens_made_before_scopes_every_scope(people):
    migration = importlib.import_module("api.migrations.0003_token_scopes")
    TokenGrant.objects.all().delete()

    migration.every_scope_for_existing_tokens(apps, None)

    grants = list(TokenGrant.objects.values_list("token_id", "scopes"))
    assert sorted(digest for digest, _ in grants) == sorted(AuthToken.objects.values_list("pk", flat=True))
    assert all(scopes == ["read", "submit", "publish"] for _, scopes in grants)


def test_the_schema_documents_scopes(client, db):
    import yaml

    schema = yaml.safe_load(client.get("/api/v1/schema/").content)

    token = schema["components"]["schemas"]["Token"]["properties"]
    assert set(token) == {"scopes", "created_at", "expires_at"}
    assert "insufficient_scope" in schema["components"]["schemas"]["ErrorEnum"]["enum"]
    publish_doc = schema["paths"]["/api/v1/stories/{id}/publish/"]["post"]
    assert "token scope publish" in publish_doc["description"]
    assert "403" in schema["paths"]["/api/v1/runs/{id}/"]["get"]["responses"]


def test_a_superuser_sees_and_narrows_a_tokens_scopes_in_admin(people, client):
    admin = get_user_model().objects.create_superuser("root", password="x-unused-password")
    token = AuthToken.objects.get(user__username="chief")
    client.force_login(admin)

    listing = client.get("/admin/knox/authtoken/").content.decode()
    page = f"/admin/knox/authtoken/{token.pk}/change/"
    response = client.post(
        page,
        {
            "grant-TOTAL_FORMS": "1",
            "grant-INITIAL_FORMS": "1",
            "grant-MIN_NUM_FORMS": "0",
            "grant-MAX_NUM_FORMS": "1",
            "grant-0-token": token.pk,
            "grant-0-scopes": ["publish", "read"],
        },
    )

    assert "read submit publish" in listing
    assert response.status_code == 302, response.content.decode()
    token.grant.refresh_from_db()
    assert token.grant.scopes == ["read", "publish"]
