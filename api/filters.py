"""Query parameters of the API's lists; a value that cannot be used is a 400 naming it."""

from __future__ import annotations

from django.core.validators import RegexValidator
from django.db.models import QuerySet
from django_filters import rest_framework as filters

from newsroom.models import Beat
from public.search import MAX_QUERY_LENGTH, search_versions
from stories.desk import edition_pattern
from stories.models import PublishedVersion, Trust


class StoryFilter(filters.FilterSet):
    newsroom = filters.CharFilter(field_name="newsroom__slug", help_text="A newsroom's slug.")
    beat = filters.CharFilter(field_name="beat__slug", help_text="A beat's slug (with newsroom, one beat).")
    edition = filters.CharFilter(
        field_name="edition_id",
        help_text="An edition's key: 2026-10-16T00.",
        # A value that is no edition's key is a mistake to point out, not an empty list.
        validators=[RegexValidator(edition_pattern(), "Must be an edition's key, its UTC hour: 2026-10-16T00.")],
    )
    trust = filters.ChoiceFilter(choices=Trust.choices)
    published_after = filters.IsoDateTimeFilter(
        field_name="published_at", lookup_expr="gte", help_text="ISO 8601; published at or after."
    )
    published_before = filters.IsoDateTimeFilter(
        field_name="published_at", lookup_expr="lt", help_text="ISO 8601; published before."
    )
    updated_after = filters.IsoDateTimeFilter(
        field_name="modified_at",
        lookup_expr="gte",
        help_text="ISO 8601; changed at or after (its updated_at): to sync, pass the latest updated_at you have.",
    )
    cites = filters.CharFilter(field_name="citations__manifest_id", help_text="A manifest id the story cites.")
    q = filters.CharFilter(
        method="search",
        max_length=MAX_QUERY_LENGTH,
        help_text='Full-text search: words, "quoted phrases", -exclusions; every term must match.',
    )

    class Meta:
        model = PublishedVersion
        fields: list[str] = []

    def search(self, queryset: QuerySet[PublishedVersion], name: str, value: str) -> QuerySet[PublishedVersion]:
        return search_versions(queryset, value)


class BeatFilter(filters.FilterSet):
    newsroom = filters.CharFilter(field_name="newsroom__slug", help_text="A newsroom's slug.")

    class Meta:
        model = Beat
        fields: list[str] = []
