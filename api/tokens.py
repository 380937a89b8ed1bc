"""Token scopes: what a token may do (``read``, ``submit``, ``publish``), chosen when it is made.

A token acts with the intersection of its scopes and its user's roles (``newsroom.roles``): a
role says what the user may do in a newsroom, a scope what this token may do of it. Every view
that acts with a token names the scope it needs (``HasScope``); the services then ask the role.

- ``read``: the desk's reads (a story's verification runs, a newsroom's webhooks and deliveries).
- ``submit``: write desk/1 documents into working copies and submit them for the checks.
- ``publish``: publish, correct and retract; register, delete, ping and redeliver webhooks (a
  chief's work).

A token made without naming scopes (the default of ``create_api_token``, the admin, and every
token made before scopes) has all three, so it may do whatever its user's roles allow, now and
as they change.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import timedelta
from typing import Any

from django.db import transaction
from django.db.models.signals import post_save
from knox.models import AuthToken
from rest_framework.permissions import BasePermission
from rest_framework.request import Request

from newsroom.models import Role

from .errors import InsufficientScope
from .models import Scope, TokenGrant

# What each role may do, in scopes: the most a token of a user with that role can do there.
ROLE_SCOPES = {
    Role.EDITOR: (Scope.READ, Scope.SUBMIT),
    Role.CHIEF: (Scope.READ, Scope.SUBMIT, Scope.PUBLISH),
}


def ordered(scopes: Iterable[str]) -> list[str]:
    """Scopes in their one order (read, submit, publish), each once."""
    given = set(scopes)
    return [scope for scope in Scope.values if scope in given]


@transaction.atomic
def token_create(*, user: Any, expiry: timedelta | None, scopes: Iterable[str] | None = None) -> tuple[AuthToken, str]:
    """A new token of the user with these scopes (all of them when None), and its text, which
    is returned once and never stored (only its digest is)."""
    chosen = Scope.values if scopes is None else ordered(Scope(scope) for scope in scopes)
    instance, token = AuthToken.objects.create(user=user, expiry=expiry)
    TokenGrant.objects.update_or_create(token=instance, defaults={"scopes": chosen})
    return instance, token


def scopes_of(token: Any) -> list[str]:
    """The scopes of a token (``request.auth``), read once per token object. A token without a
    grant row has none: every way of making a token gives it one."""
    cached = getattr(token, "_scopes", None)
    if cached is None:
        stored = TokenGrant.objects.filter(token_id=token.pk).values_list("scopes", flat=True).first()
        cached = token._scopes = ordered(stored or [])
    return cached


def scopes_in(token: Any, role: str) -> list[str]:
    """What the token may do in a newsroom where its user has this role: the intersection."""
    return [scope for scope in scopes_of(token) if scope in ROLE_SCOPES[Role(role)]]


class HasScope(BasePermission):
    """The token has the scope the view needs for the request's method: the view's
    ``token_scopes``, e.g. ``{"POST": Scope.PUBLISH}``. A method not named needs none."""

    def has_permission(self, request: Request, view: Any) -> bool:
        needed = getattr(view, "token_scopes", {}).get(request.method)
        if needed is None:
            return True
        scopes = scopes_of(request.auth)
        if needed not in scopes:
            raise InsufficientScope(needed, scopes)
        return True


def _grant_every_scope(sender: Any, instance: AuthToken, created: bool, raw: bool = False, **kwargs: Any) -> None:
    # A token made outside token_create (the admin's form) gets every scope, as before scopes.
    if created and not raw:
        TokenGrant.objects.get_or_create(token=instance)


post_save.connect(_grant_every_scope, sender=AuthToken, dispatch_uid="api-token-every-scope")
