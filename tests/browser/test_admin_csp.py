"""The admin works under its Content-Security-Policy in a real browser: its scripts run, and
chromium reports no violation."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User

from stories.models import Story
from tests.factories import StoryFactory

pytestmark = pytest.mark.browser


def test_the_admin_runs_its_scripts_under_its_policy(transactional_db, settings, request):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    User.objects.create_superuser("csp-admin", "csp@example.com", "a-long-password-for-csp")
    story = StoryFactory(status=Story.Status.DRAFT, published_at=None)
    browser = request.getfixturevalue("browser")  # after the data: see tests/browser/conftest.py
    page = browser.page()
    violations: list[str] = []
    page.on("console", lambda message: "Content Security Policy" in message.text and violations.append(message.text))
    missing: list[str] = []
    page.on("response", lambda response: response.status >= 400 and missing.append(response.url))

    page.goto(browser.url("/admin/login/"))
    page.fill("#id_username", "csp-admin")
    page.fill("#id_password", "a-long-password-for-csp")
    page.click("input[type=submit]")
    page.wait_for_url(browser.url("/admin/"))
    page.goto(browser.url(f"/admin/stories/story/{story.pk}/change/"))

    # Django's admin scripts (jQuery and its init, the form's constants) ran.
    assert page.evaluate("typeof django !== 'undefined' && typeof django.jQuery") == "function"
    page.goto(browser.url("/admin/stories/story/"))
    assert page.evaluate("typeof django !== 'undefined' && typeof django.jQuery") == "function"
    assert violations == []
    # Every script and stylesheet loaded (a browser's own guess at /favicon.ico aside).
    assert [url for url in missing if not url.endswith("/favicon.ico")] == []
    assert [error for error in browser.console_errors if "404" not in error] == []
