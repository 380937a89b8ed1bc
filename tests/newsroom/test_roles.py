"""Roles per newsroom: an editor writes and submits, a chief also publishes; nobody reaches a
newsroom they have no role in (lists, pages, preview). Granted by ``manage.py add_editor``."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.management import CommandError, call_command
from django.urls import reverse

from newsroom.models import Membership, Newsroom, Role
from newsroom.roles import grant_role, may_publish, may_write
from stories.models import Story
from tests.factories import NewsroomFactory, StoryFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def two_desks() -> tuple[Newsroom, Newsroom]:
    return NewsroomFactory(slug="north-desk"), NewsroomFactory(slug="south-desk")


def user(django_user_model, username: str) -> Any:
    return django_user_model.objects.create_user(username=username, password="pw")


def test_add_editor_grants_a_role_staff_access_and_the_role_s_permissions(django_user_model, two_desks, capsys):
    ada = user(django_user_model, "ada")

    call_command("add_editor", "ada", "--newsroom", "north-desk")
    ada = django_user_model.objects.get(pk=ada.pk)
    assert ada.is_staff
    assert Membership.objects.get(user=ada).role == Role.EDITOR
    assert ada.has_perm("stories.change_story")
    assert ada.has_perm("stories.add_paragraph")
    assert not ada.has_perm("newsroom.view_membership")
    assert "ada is now Editor" in capsys.readouterr().out

    call_command("add_editor", "ada", "--newsroom", "north-desk", "--role", "chief")
    ada = django_user_model.objects.get(pk=ada.pk)
    assert Membership.objects.get(user=ada).role == Role.CHIEF
    assert ada.has_perm("newsroom.view_membership")


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["nobody", "--newsroom", "north-desk"], "username: there is no user named 'nobody'; add --create"),
        (["ada", "--newsroom", "west-desk"], "--newsroom: there is no newsroom 'west-desk'"),
        (["grace", "--newsroom", "west-desk", "--create"], "--newsroom: there is no newsroom 'west-desk'"),
    ],
)
def test_add_editor_names_what_is_wrong_and_writes_nothing(django_user_model, two_desks, argv, message):
    user(django_user_model, "ada")

    with pytest.raises(CommandError, match=message):
        call_command("add_editor", *argv)
    assert not Membership.objects.exists()
    assert not django_user_model.objects.filter(username="grace").exists()


def test_add_editor_create_makes_the_user_and_prints_a_generated_password_once(
    django_user_model, two_desks, capsys, monkeypatch
):
    monkeypatch.delenv("ADD_EDITOR_PASSWORD", raising=False)

    call_command("add_editor", "grace", "--newsroom", "north-desk", "--role", "chief", "--create")

    out = capsys.readouterr().out
    password = out.split("with password: ")[1].split()[0]
    grace = django_user_model.objects.get(username="grace")
    assert grace.check_password(password)
    assert grace.is_staff
    assert not grace.is_superuser
    assert Membership.objects.get(user=grace).role == Role.CHIEF
    assert "grace is now Chief" in out

    call_command("add_editor", "grace", "--newsroom", "south-desk", "--create")  # exists: only the role
    again = capsys.readouterr().out
    assert "password" not in again
    assert django_user_model.objects.get(username="grace").check_password(password)


def test_add_editor_create_takes_the_password_from_the_environment_and_validates_it(
    django_user_model, two_desks, capsys, monkeypatch
):
    monkeypatch.setenv("ADD_EDITOR_PASSWORD", "short")
    with pytest.raises(CommandError, match="ADD_EDITOR_PASSWORD: "):
        call_command("add_editor", "grace", "--newsroom", "north-desk", "--create")
    assert not django_user_model.objects.filter(username="grace").exists()

    monkeypatch.setenv("ADD_EDITOR_PASSWORD", "a-long-enough-pass-phrase-for-grace")
    call_command("add_editor", "grace", "--newsroom", "north-desk", "--create")

    out = capsys.readouterr().out
    assert "with the password from ADD_EDITOR_PASSWORD" in out
    assert "a-long-enough-pass-phrase-for-grace" not in out
    assert django_user_model.objects.get(username="grace").check_password("a-long-enough-pass-phrase-for-grace")


def test_editor_and_chief_may_do_what_their_role_says_in_their_newsroom_only(django_user_model, two_desks):
    north, south = two_desks
    editor, chief, admin = (
        user(django_user_model, "ed"),
        user(django_user_model, "chief"),
        user(django_user_model, "root"),
    )
    grant_role(user=editor, newsroom=north, role=Role.EDITOR)
    grant_role(user=chief, newsroom=north, role=Role.CHIEF)
    admin.is_superuser = True

    assert (may_write(editor, north.pk), may_publish(editor, north.pk)) == (True, False)
    assert (may_write(chief, north.pk), may_publish(chief, north.pk)) == (True, True)
    assert (may_write(chief, south.pk), may_publish(chief, south.pk)) == (False, False)
    assert may_publish(admin, south.pk)
    assert list(Newsroom.objects.for_user(editor)) == [north]
    assert list(Newsroom.objects.for_user(editor, role=Role.CHIEF)) == []
    assert set(Newsroom.objects.for_user(admin)) == {north, south}


def test_a_user_sees_and_previews_only_their_newsroom_s_stories(client, django_user_model, two_desks):
    north, south = two_desks
    ours = StoryFactory(newsroom=north, beat__newsroom=north, headline="Ours: harbour dredging")
    theirs = StoryFactory(newsroom=south, beat__newsroom=south, headline="Theirs: glacier survey")
    editor = user(django_user_model, "ed")
    grant_role(user=editor, newsroom=north, role=Role.EDITOR)
    client.force_login(editor)

    assert list(Story.objects.for_user(editor)) == [ours]
    listing = client.get(reverse("admin:stories_story_changelist")).content.decode()
    assert "Ours: harbour dredging" in listing
    assert "Theirs: glacier survey" not in listing
    assert client.get(reverse("admin:stories_story_change", args=[ours.pk])).status_code == 200
    other = client.get(reverse("admin:stories_story_change", args=[theirs.pk]))
    assert other.status_code == 302  # Django admin's answer for an object the user cannot see
    assert "Theirs: glacier survey" not in client.get(other["Location"], follow=True).content.decode()
    assert client.get(ours.get_absolute_url()).status_code == 200  # a preview of the draft
    assert client.get(theirs.get_absolute_url()).status_code == 404


def test_a_staff_user_with_no_role_sees_no_story(client, django_user_model, two_desks):
    north, _ = two_desks
    StoryFactory(newsroom=north, beat__newsroom=north, headline="A draft of the north desk")
    stranger = django_user_model.objects.create_user(username="stranger", password="pw", is_staff=True)
    client.force_login(stranger)

    assert Story.objects.for_user(stranger).count() == 0
    assert "A draft of the north desk" not in client.get(reverse("admin:index")).content.decode()


def test_every_admin_list_of_story_records_shows_only_the_user_s_newsrooms(client, django_user_model, two_desks):
    from tests.factories import publish_story

    north, south = two_desks
    theirs = publish_story(StoryFactory(newsroom=south, beat__newsroom=south, headline="Theirs: glacier survey"))
    editor = user(django_user_model, "ed")
    grant_role(user=editor, newsroom=north, role=Role.EDITOR)
    client.force_login(editor)

    for model in ("stories_revision", "stories_publishedversion", "verification_verificationrun", "newsroom_beat"):
        response = client.get(reverse(f"admin:{model}_changelist"))
        assert response.status_code == 200, model
        assert response.context["cl"].result_count == 0, model
    assert theirs.revisions.exists()
