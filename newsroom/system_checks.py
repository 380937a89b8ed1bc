"""System checks for the admin: mistakes that would show a user another newsroom's rows.

- newsroom.E001: a list filter on a relation, given by its name alone (``"newsroom"``) or with
  Django's ``RelatedFieldListFilter``, offers every row of the related model (every newsroom,
  beat, edition), whatever the list itself shows the user; so does one on a field beyond a
  relation (``"newsroom__title"``: every newsroom's title). ``RelatedOnlyFieldListFilter``
  offers only what the rows the user may see use. Django's own admins (users, groups) are
  superusers' pages and belong to no newsroom.
"""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.contrib.admin.filters import (
    AllValuesFieldListFilter,
    RelatedFieldListFilter,
    RelatedOnlyFieldListFilter,
)
from django.contrib.admin.utils import NotRelationField, get_fields_from_path
from django.core.checks import Error, Tags, register
from django.core.exceptions import FieldDoesNotExist
from django.db import models


def _unscoped(model: Any, item: Any) -> str | None:
    """The field path of a list filter item that offers every related row, or None."""
    if isinstance(item, str):
        path, filter_class = item, None
    elif isinstance(item, (list, tuple)) and len(item) == 2 and isinstance(item[0], str):
        path, filter_class = item
    else:
        return None  # a SimpleListFilter chooses its own lookups
    try:
        fields = get_fields_from_path(model, path)
    except (FieldDoesNotExist, NotRelationField):
        return None  # Django's own admin checks report a path that leads nowhere
    last = fields[-1]
    crosses = any(field.is_relation for field in fields[:-1])
    if filter_class is None:
        # What Django would choose: a relation's filter lists its every row; a plain field's
        # beyond a relation lists the values of every row there (AllValuesFieldListFilter).
        fixed = last.choices or isinstance(last, (models.BooleanField, models.DateField))
        unscoped = last.is_relation or (crosses and not fixed)
    elif issubclass(filter_class, RelatedOnlyFieldListFilter):
        unscoped = False
    else:
        unscoped = issubclass(filter_class, RelatedFieldListFilter) or (
            crosses and issubclass(filter_class, AllValuesFieldListFilter)
        )
    return path if unscoped else None


@register(Tags.admin)
def check_admin_filters_are_scoped(app_configs: Any = None, site: admin.AdminSite = admin.site, **kwargs: Any):
    errors = []
    for model, model_admin in site._registry.items():
        if model._meta.app_config.name.startswith("django."):
            continue  # Django's own (users and groups): superusers' pages, of no newsroom
        for item in model_admin.list_filter:
            path = _unscoped(model, item)
            if path is not None:
                errors.append(
                    Error(
                        f"{type(model_admin).__name__} filters {model._meta.label} by {path!r} with every "
                        "related row on offer, another newsroom's too.",
                        hint=f'Use ("{path}", admin.RelatedOnlyFieldListFilter), which offers only what the '
                        "rows the user may see use.",
                        obj=model_admin,
                        id="newsroom.E001",
                    )
                )
    return errors
