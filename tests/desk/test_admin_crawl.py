"""No 500 from any admin page: every list, add and change page of every registered model, as a
chief and as an editor, answers 200, 302 or 403; every admin form posted with empty, oversized
and malformed values answers with form errors (or a refusal), never a server error.

The test client raises any exception a view lets through, so a 500 fails the test loudly."""

from __future__ import annotations

from contextlib import suppress
from typing import Any

import pytest
from django.contrib import admin
from django.test import RequestFactory
from django.urls import NoReverseMatch, reverse

from newsroom.models import Newsroom, Role
from newsroom.roles import grant_role
from tests.publishing.forms import form_fields
from tests.stories.helpers import run_command

pytestmark = pytest.mark.django_db

OK = (200, 302, 403)
OVERSIZED = "x" * 5_001  # longer than any field's limit (URLs take 1,000)
MALFORMED = ("\x00<b>'\"[1, {", "-1.5e999")


@pytest.fixture
def demo() -> None:
    assert run_command("load_demo").ok


def user_with(django_user_model: Any, role: str) -> Any:
    user = django_user_model.objects.create_user(username=f"crawl-{role}", password="pw")
    for newsroom in Newsroom.objects.all():
        grant_role(user=user, newsroom=newsroom, role=role)
    return django_user_model.objects.get(pk=user.pk)


@pytest.fixture(params=[Role.CHIEF, Role.EDITOR])
def desk_user(request, django_user_model, demo) -> Any:
    """A chief or an editor of the demo site's newsrooms."""
    return user_with(django_user_model, request.param)


@pytest.fixture(params=[Role.CHIEF, Role.EDITOR])
def small_desk_user(request, django_user_model, stories, chief, django_capture_on_commit_callbacks) -> Any:
    """A chief or an editor of a small desk: a checked story, a published one, a draft (every
    form is posted many times, so its pages are kept small)."""
    from verification.workflow import story_publish, story_submit

    published = stories.good()
    with django_capture_on_commit_callbacks(execute=True):
        story_submit(story=published, actor="chief", user=chief)
    story_publish(story=published, actor="chief", user=chief)
    stories.bad()
    return user_with(django_user_model, request.param)


def admin_pages(user: Any) -> list[tuple[str, str, str | None]]:
    """(model label, page, url) for every registered model's list, add and change page."""
    request = RequestFactory().get("/admin/")
    request.user = user
    pages = []
    for model, model_admin in admin.site._registry.items():
        info = (model._meta.app_label, model._meta.model_name)
        label = model._meta.label
        pages.append((label, "list", reverse("admin:{}_{}_changelist".format(*info))))
        pages.append((label, "add", reverse("admin:{}_{}_add".format(*info))))
        # One of the user's own rows, if any; else any row, which they must not reach.
        obj = model_admin.get_queryset(request).order_by("pk").first() or model.objects.order_by("pk").first()
        if obj is not None:
            pages.append((label, "change", reverse("admin:{}_{}_change".format(*info), args=[obj.pk])))
            with suppress(NoReverseMatch):
                pages.append((label, "history", reverse("admin:{}_{}_history".format(*info), args=[obj.pk])))
    return pages


def test_every_admin_page_answers_without_a_server_error(client, desk_user):
    client.force_login(desk_user)
    answers = {}

    for label, page, url in admin_pages(desk_user):
        answers[(label, page)] = client.get(url).status_code

    assert {key: status for key, status in answers.items() if status not in OK} == {}
    # The desk's own pages are open to both roles.
    assert answers[("stories.Story", "list")] == 200
    assert answers[("stories.Story", "change")] == 200
    assert answers[("stories.Story", "add")] == 200


def _variants(fields: dict[str, Any]) -> dict[str, dict[str, Any]]:
    editable = [name for name in fields if name != "csrfmiddlewaretoken"]
    variants: dict[str, dict[str, Any]] = {"empty": {}}
    variants["oversized"] = {
        **fields,
        **{name: OVERSIZED for name in editable if not name.endswith(("_FORMS", "-id"))},
    }
    for number, value in enumerate(MALFORMED):
        variants[f"malformed {number}"] = {**fields, **dict.fromkeys(editable, value)}
    return variants


def test_every_admin_form_posted_with_bad_values_answers_with_errors_never_a_500(client, small_desk_user):
    client.force_login(small_desk_user)
    answers = {}
    for label, page, url in admin_pages(small_desk_user):
        if page not in ("add", "change"):
            continue
        shown = client.get(url)
        if shown.status_code != 200 or b'id="' not in shown.content:
            continue
        fields = form_fields(shown.content.decode())
        for name, data in _variants(fields).items():
            response = client.post(url, {**data, "_save": "Save"})
            answers[(label, page, name)] = response.status_code

    assert answers
    assert {key: status for key, status in answers.items() if status not in OK} == {}
    # The story form was really tried, and refused bad values with errors, not a save.
    assert answers[("stories.Story", "add", "empty")] == 200
    assert answers[("stories.Story", "add", "oversized")] == 200
    assert answers[("stories.Story", "change", "malformed 0")] == 200
