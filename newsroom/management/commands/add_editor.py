"""``manage.py add_editor USERNAME --newsroom SLUG [--role chief] [--create]``: give a user a role
in a newsroom, creating the user first with ``--create``."""

from __future__ import annotations

import os
import secrets
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import transaction

from newsroom.models import Newsroom, Role
from newsroom.roles import grant_role

PASSWORD_ENV = "ADD_EDITOR_PASSWORD"


class Command(BaseCommand):
    help = (
        "Give a user a role in a newsroom: an editor writes and submits its stories; a chief also "
        "publishes, overrides failed checks, corrects and retracts. The user gets staff access to the admin. "
        f"With --create, a user of that name is created first, with the password in {PASSWORD_ENV} or, "
        "without it, a generated one printed once."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("username")
        parser.add_argument("--newsroom", required=True, help="The newsroom's slug.")
        parser.add_argument("--role", choices=[role.value for role in Role], default=Role.EDITOR.value)
        parser.add_argument(
            "--create",
            action="store_true",
            help=f"Create the user if there is none of that name (password from {PASSWORD_ENV}, else generated).",
        )

    def handle(self, *args: Any, username: str, newsroom: str, role: str, create: bool, **options: Any) -> None:
        user_model = get_user_model()
        user = user_model._default_manager.filter(**{user_model.USERNAME_FIELD: username}).first()
        if user is None and not create:
            raise CommandError(f"username: there is no user named {username!r}; add --create to create it")
        room = Newsroom.objects.filter(slug=newsroom).first()
        if room is None:
            known = ", ".join(Newsroom.objects.values_list("slug", flat=True)) or "none yet"
            raise CommandError(f"--newsroom: there is no newsroom {newsroom!r} (known: {known})")
        created, generated = user is None, None
        # One transaction: a refused password or role leaves no user behind.
        with transaction.atomic():
            if user is None:
                user, generated = self._create(user_model, username)
            membership = grant_role(user=user, newsroom=room, role=role)
        if generated:
            # Printed once: only its hash is stored.
            self.stdout.write(self.style.WARNING(f"Created user {username!r} with password: {generated}"))
        elif created:
            self.stdout.write(f"Created user {username!r} with the password from {PASSWORD_ENV}.")
        self.stdout.write(f"{username} is now {membership.get_role_display()} of {room.slug}")

    def _create(self, user_model: Any, username: str) -> tuple[Any, str | None]:
        """The new user, and its password when it was generated (to print once)."""
        password = os.getenv(PASSWORD_ENV)
        candidate = user_model(**{user_model.USERNAME_FIELD: username})
        if password:
            try:
                validate_password(password, candidate)
            except ValidationError as error:
                raise CommandError(f"{PASSWORD_ENV}: {' '.join(error.messages)}") from None
        else:
            password = secrets.token_urlsafe(12)
        user = user_model._default_manager.create_user(**{user_model.USERNAME_FIELD: username}, password=password)
        return user, None if os.getenv(PASSWORD_ENV) else password
