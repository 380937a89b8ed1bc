"""``manage.py create_api_token USERNAME [--expires-in DAYS]``: a bearer token for the API.

The token is printed once and never stored: only its digest is (django-rest-knox). It acts as
its user, with the user's roles in each newsroom. Revoke it in admin (Knox > Auth tokens).
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError, CommandParser
from knox.models import AuthToken

from newsroom.roles import roles_of


class Command(BaseCommand):
    help = (
        "Make an API token for a user and print it once (only its digest is kept). It expires after "
        "--expires-in days, by default API_TOKEN_TTL_DAYS (0: never)."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("username")
        parser.add_argument(
            "--expires-in",
            type=int,
            metavar="DAYS",
            default=None,
            help=f"Days until the token expires (default {settings.API_TOKEN_TTL_DAYS}; 0: never).",
        )

    def handle(self, *args: Any, username: str, expires_in: int | None, **options: Any) -> None:
        user_model = get_user_model()
        user = user_model._default_manager.filter(**{user_model.USERNAME_FIELD: username}).first()
        if user is None:
            raise CommandError(f"username: there is no user named {username!r}")
        if not user.is_active:
            raise CommandError(f"username: {username!r} is inactive; a token of theirs would be refused")
        if expires_in is not None and not 0 <= expires_in <= 3650:
            raise CommandError(f"--expires-in: must be 0 (never) to 3650 days, not {expires_in}")
        days = settings.API_TOKEN_TTL_DAYS if expires_in is None else expires_in
        instance, token = AuthToken.objects.create(user=user, expiry=timedelta(days=days) if days else None)
        if not roles_of(user):
            self.stderr.write(f"warning: {username} has no role in any newsroom: the token can only read")
        expiry = instance.expiry.isoformat(timespec="seconds") if instance.expiry else "never"
        self.stderr.write(f"Token for {username}, expires {expiry}; it is shown once, keep it now:")
        self.stdout.write(token)
