"""``manage.py add_editor USERNAME --newsroom SLUG [--role chief]``: give a user a role in a newsroom."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError, CommandParser

from newsroom.models import Newsroom, Role
from newsroom.roles import grant_role


class Command(BaseCommand):
    help = (
        "Give an existing user a role in a newsroom: an editor writes and submits its stories; a chief also "
        "publishes, overrides failed checks, corrects and retracts. The user gets staff access to the admin."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("username")
        parser.add_argument("--newsroom", required=True, help="The newsroom's slug.")
        parser.add_argument("--role", choices=[role.value for role in Role], default=Role.EDITOR.value)

    def handle(self, *args: Any, username: str, newsroom: str, role: str, **options: Any) -> None:
        user_model = get_user_model()
        user = user_model._default_manager.filter(**{user_model.USERNAME_FIELD: username}).first()
        if user is None:
            raise CommandError(f"username: there is no user named {username!r}; create one first (createsuperuser)")
        room = Newsroom.objects.filter(slug=newsroom).first()
        if room is None:
            known = ", ".join(Newsroom.objects.values_list("slug", flat=True)) or "none yet"
            raise CommandError(f"--newsroom: there is no newsroom {newsroom!r} (known: {known})")
        membership = grant_role(user=user, newsroom=room, role=role)
        self.stdout.write(f"{username} is now {membership.get_role_display()} of {room.slug}")
