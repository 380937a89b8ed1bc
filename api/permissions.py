"""What a token's holder may do, asked in one place by the MCP door (``api/mcp_server.py``).

A token acts with the intersection of its scopes (``api.tokens``) and its user's roles in each
newsroom (``newsroom.roles``), as in the REST API: ``read`` without a newsroom is published
content, public anyway, and asks no scope (as the API's anonymous reads); ``read`` in a newsroom
(a story's runs) needs the scope and any role there; ``submit`` the scope, and any role in the
newsroom written to; ``publish`` the scope and the chief role there.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from rest_framework import exceptions

from newsroom.roles import may_publish, may_write

from .errors import InsufficientScope
from .tokens import scopes_of

Action = Literal["read", "submit", "publish"]
ACTIONS: tuple[Action, ...] = ("read", "submit", "publish")


@dataclass(frozen=True)
class Caller:
    """Who is asking: the token's user, and the token itself (knox's ``AuthToken``)."""

    user: Any
    token: Any


def require(caller: Caller, action: Action, newsroom_id: int | None = None) -> None:
    """Refuse (``PermissionDenied``, the API's ``permission_denied``) unless ``caller`` may do
    ``action``, in ``newsroom_id`` when one is named.

    Without a newsroom only what the token allows is asked (a submission's newsroom is known once
    its document is read: the service asks the role then). Finding the story first, among those
    the user may see, is the caller's part: a story elsewhere is not found, never forbidden.
    """
    if action not in ACTIONS:
        raise ValueError(f"Unknown action {action!r}")
    user = caller.user
    if not getattr(user, "is_authenticated", False) or not user.is_active:
        raise exceptions.NotAuthenticated()
    if action == "read" and newsroom_id is None:
        return
    scopes = scopes_of(caller.token)
    if action not in scopes:
        raise InsufficientScope(action, scopes)
    if newsroom_id is None:
        return
    if action in ("read", "submit") and not may_write(user, newsroom_id):
        raise exceptions.PermissionDenied("This needs a role in the story's newsroom.")
    if action == "publish" and not may_publish(user, newsroom_id):
        raise exceptions.PermissionDenied("Publishing a story needs the chief role in the story's newsroom.")
