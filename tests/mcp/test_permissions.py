"""``api.permissions.require``: the one question the MCP door asks of a token's holder."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AnonymousUser
from rest_framework import exceptions

from api.errors import InsufficientScope
from api.permissions import Caller, require
from api.tokens import token_create
from newsroom.models import Role
from newsroom.roles import grant_role
from tests.factories import NewsroomFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def newsrooms():
    return NewsroomFactory(slug="ours"), NewsroomFactory(slug="theirs")


def caller(username, newsroom=None, role=None, scopes=None):
    user = get_user_model().objects.create_user(username, password="x-unused-password")
    if newsroom is not None:
        grant_role(user=user, newsroom=newsroom, role=role)
    token, _ = token_create(user=user, expiry=None, scopes=scopes)
    return Caller(user=user, token=token)


def test_an_editor_submits_in_their_newsroom_but_does_not_publish(newsrooms):
    ours, theirs = newsrooms
    editor = caller("editor", ours, Role.EDITOR)

    require(editor, "read")
    require(editor, "submit", ours.pk)
    with pytest.raises(exceptions.PermissionDenied):
        require(editor, "publish", ours.pk)
    with pytest.raises(exceptions.PermissionDenied):
        require(editor, "submit", theirs.pk)


def test_a_chief_publishes_only_in_their_newsroom(newsrooms):
    ours, theirs = newsrooms
    chief = caller("chief", ours, Role.CHIEF)

    require(chief, "publish", ours.pk)
    with pytest.raises(exceptions.PermissionDenied):
        require(chief, "publish", theirs.pk)


def test_no_user_or_an_inactive_one_may_do_nothing(newsrooms):
    ours, _ = newsrooms
    inactive = caller("gone", ours, Role.CHIEF)
    inactive.user.is_active = False

    with pytest.raises(exceptions.NotAuthenticated):
        require(Caller(user=AnonymousUser(), token=None), "read")
    with pytest.raises(exceptions.NotAuthenticated):
        require(inactive, "publish", ours.pk)


def test_an_unknown_action_is_a_mistake_in_the_code():
    with pytest.raises(ValueError, match="Unknown action"):
        require(Caller(user=AnonymousUser(), token=None), "delete")  # type: ignore[arg-type]


def test_a_token_acts_with_its_scopes_and_its_user_s_roles_together(newsrooms):
    ours, _ = newsrooms
    reader = caller("chief-reading", ours, Role.CHIEF, scopes=["read"])

    require(reader, "read")  # published content asks no scope
    require(reader, "read", ours.pk)  # a story's runs
    with pytest.raises(InsufficientScope, match="'submit'"):
        require(reader, "submit", ours.pk)
    with pytest.raises(InsufficientScope, match="'publish'"):
        require(reader, "publish", ours.pk)
    # The scope is no role: an editor's token with publish still does not publish.
    editor = caller("editor-publishing", ours, Role.EDITOR, scopes=["read", "submit", "publish"])
    with pytest.raises(exceptions.PermissionDenied):
        require(editor, "publish", ours.pk)
