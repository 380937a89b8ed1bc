"""``manage.py create_api_token USERNAME [--expires-in DAYS] [--scope SCOPE ...]``: a bearer
token for the API.

The token is printed once and never stored: only its digest is (django-rest-knox). It acts as
its user, with the intersection of its scopes and the user's roles in each newsroom
(``api/tokens.py``); without ``--scope`` it has every scope, so it may do all its user's roles
allow. Revoke it in admin (Knox > Auth tokens).
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError, CommandParser

from api.models import Scope
from api.tokens import ROLE_SCOPES, token_create
from newsroom.roles import roles_of


class Command(BaseCommand):
    help = (
        "Make an API token for a user and print it once (only its digest is kept). It expires after "
        "--expires-in days, by default API_TOKEN_TTL_DAYS (0: never). --scope (read, submit, publish; "
        "repeat it) limits what it may do; by default it may do all its user's roles allow."
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
        parser.add_argument(
            "--scope",
            action="append",
            dest="scopes",
            choices=Scope.values,
            default=None,
            help=(
                "What the token may do: read (the desk's reads: runs, webhooks), submit (write and submit "
                "stories), publish (publish, correct, retract; manage webhooks). Repeat for several; "
                "default: all three."
            ),
        )

    def handle(
        self, *args: Any, username: str, expires_in: int | None, scopes: list[str] | None, **options: Any
    ) -> None:
        user_model = get_user_model()
        user = user_model._default_manager.filter(**{user_model.USERNAME_FIELD: username}).first()
        if user is None:
            raise CommandError(f"username: there is no user named {username!r}")
        if not user.is_active:
            raise CommandError(f"username: {username!r} is inactive; a token of theirs would be refused")
        if expires_in is not None and not 0 <= expires_in <= 3650:
            raise CommandError(f"--expires-in: must be 0 (never) to 3650 days, not {expires_in}")
        days = settings.API_TOKEN_TTL_DAYS if expires_in is None else expires_in
        instance, token = token_create(user=user, expiry=timedelta(days=days) if days else None, scopes=scopes)
        granted = instance.grant.scopes
        roles = roles_of(user)
        if not roles:
            self.stderr.write(f"warning: {username} has no role in any newsroom: the token can only read")
        else:
            allowed = {scope for role in roles.values() for scope in ROLE_SCOPES[role]}
            for scope in granted:
                if scope not in allowed:
                    self.stderr.write(
                        f"warning: {username}'s roles allow no {scope} anywhere: the scope does nothing until they do"
                    )
        expiry = instance.expiry.isoformat(timespec="seconds") if instance.expiry else "never"
        self.stderr.write(
            f"Token for {username}, scopes {' '.join(granted)}, expires {expiry}; it is shown once, keep it now:"
        )
        self.stdout.write(token)
