"""The admin sends a Content-Security-Policy (one setting) whose scripts are the site's own."""

from __future__ import annotations

import pytest
from django.urls import reverse

from stories.models import Story
from tests.factories import StoryFactory

ADMIN_PAGES = ["admin:index", "admin:stories_story_changelist", "admin:stories_story_add", "admin:password_change"]


def policy_parts(header: str) -> dict[str, str]:
    return {part.split()[0]: part.strip() for part in header.split(";") if part.strip()}


@pytest.mark.parametrize("name", ADMIN_PAGES)
def test_admin_pages_load_with_the_admin_policy(admin_client, settings, name):
    response = admin_client.get(reverse(name))

    assert response.status_code == 200
    assert response["Content-Security-Policy"] == settings.ADMIN_CONTENT_SECURITY_POLICY
    parts = policy_parts(response["Content-Security-Policy"])
    assert parts["script-src"] == "script-src 'self'"  # no inline script, no eval, nothing from elsewhere
    assert parts["object-src"] == "object-src 'none'"
    assert parts["frame-ancestors"] == "frame-ancestors 'none'"


def test_the_change_form_of_a_story_loads_with_it(admin_client, settings, db):
    story = StoryFactory(status=Story.Status.DRAFT, published_at=None)

    response = admin_client.get(reverse("admin:stories_story_change", args=[story.pk]))

    assert response.status_code == 200
    assert response["Content-Security-Policy"] == settings.ADMIN_CONTENT_SECURITY_POLICY
    # Django's admin puts its data in data- attributes of script elements, never inline code.
    html = response.content.decode()
    assert "<script>" not in html


def test_the_sign_in_page_has_it_too(client, settings, db):
    response = client.get(reverse("admin:login"))

    assert response["Content-Security-Policy"] == settings.ADMIN_CONTENT_SECURITY_POLICY


def test_public_pages_keep_their_own_stricter_policy(client, db):
    response = client.get("/")

    assert "script-src 'none'" in response["Content-Security-Policy"]


def test_the_policy_is_one_setting(admin_client, settings):
    settings.ADMIN_CONTENT_SECURITY_POLICY = "default-src 'self'"

    assert admin_client.get(reverse("admin:index"))["Content-Security-Policy"] == "default-src 'self'"
