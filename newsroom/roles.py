"""Roles per newsroom: the one rule of who may do what, asked by admin, the API, commands and services.

An **editor** of a newsroom writes its stories and submits them for checks; a **chief** may also
publish them, override failed checks with a reason, correct and retract them. A superuser is a
chief of every newsroom. A user sees nothing of a newsroom they have no role in.

Django's model permissions still decide which admin pages a staff user gets at all; each role
comes with a group holding the permissions its work needs (``grant_role`` keeps them current).
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import Group, Permission
from django.db import transaction

from .models import Membership, Newsroom, Role

# The admin pages each role needs, as "app_label.codename".
_STORY_PARTS = ("keyfact", "section", "paragraph", "cite", "image", "listitem", "relatedlink")
EDITOR_PERMISSIONS = (
    *(f"stories.{action}_story" for action in ("view", "add", "change")),
    *(f"stories.{action}_{part}" for part in _STORY_PARTS for action in ("view", "add", "change", "delete")),
    "stories.view_correction",
    "stories.view_revision",
    "stories.view_publishedversion",
    "manifests.view_manifest",
    "manifests.view_claim",
    "editions.view_edition",
    "editions.add_edition",
    "newsroom.view_newsroom",
    "newsroom.view_beat",
    "verification.view_verificationrun",
)
# A chief also manages the newsroom's webhooks (webhooks/admin.py shows only the newsrooms where
# the user is chief) and reads their delivery log.
CHIEF_PERMISSIONS = (
    *EDITOR_PERMISSIONS,
    "newsroom.view_membership",
    *(f"webhooks.{action}_webhook" for action in ("view", "add", "change", "delete")),
    "webhooks.view_webhookdelivery",
)
GROUP_NAMES = {Role.EDITOR: "Newsroom editors", Role.CHIEF: "Newsroom chiefs"}


def roles_of(user: Any) -> dict[int, str]:
    """The user's role in each newsroom they work in, by newsroom id (read once per user object).
    A superuser is chief everywhere; an anonymous or inactive user has no role."""
    if not getattr(user, "is_authenticated", False) or not user.is_active:
        return {}
    cached = getattr(user, "_newsroom_roles", None)
    if cached is None:
        if user.is_superuser:
            cached = dict.fromkeys(Newsroom.objects.values_list("pk", flat=True), Role.CHIEF)
        else:
            cached = dict(Membership.objects.filter(user=user).values_list("newsroom_id", "role"))
        user._newsroom_roles = cached
    return cached


def may_write(user: Any, newsroom_id: int) -> bool:
    """Whether the user may see, edit and submit the newsroom's stories."""
    return newsroom_id in roles_of(user) or bool(getattr(user, "is_superuser", False) and user.is_active)


def may_publish(user: Any, newsroom_id: int) -> bool:
    """Whether the user may publish, override, correct and retract the newsroom's stories."""
    if getattr(user, "is_superuser", False) and user.is_active:
        return True
    return roles_of(user).get(newsroom_id) == Role.CHIEF


def is_chief_somewhere(user: Any) -> bool:
    """Whether the user is chief of any newsroom (a superuser of any there is): who is offered a
    chief's actions at all, each then asked of its own newsroom."""
    return Role.CHIEF in roles_of(user).values()


def role_group(role: str) -> Group:
    """The group carrying the admin permissions of a role, made or brought up to date."""
    group, _ = Group.objects.get_or_create(name=GROUP_NAMES[Role(role)])
    wanted = CHIEF_PERMISSIONS if role == Role.CHIEF else EDITOR_PERMISSIONS
    by_app: dict[str, list[str]] = {}
    for name in wanted:
        app_label, codename = name.split(".")
        by_app.setdefault(app_label, []).append(codename)
    permissions = [
        permission
        for app_label, codenames in by_app.items()
        for permission in Permission.objects.filter(content_type__app_label=app_label, codename__in=codenames)
    ]
    group.permissions.set(permissions)
    return group


@transaction.atomic
def grant_role(*, user: Any, newsroom: Newsroom, role: str) -> Membership:
    """Give a user a role in a newsroom (replacing any role they had there), staff access to the
    admin, and the group of that role's admin permissions."""
    role = Role(role)
    membership, _ = Membership.objects.update_or_create(user=user, newsroom=newsroom, defaults={"role": role})
    if not user.is_staff:
        user.is_staff = True
        user.save(update_fields=["is_staff"])
    user.groups.add(role_group(role))
    if role == Role.EDITOR and not Membership.objects.filter(user=user, role=Role.CHIEF).exists():
        user.groups.remove(*Group.objects.filter(name=GROUP_NAMES[Role.CHIEF]))
    user.__dict__.pop("_newsroom_roles", None)
    return membership
