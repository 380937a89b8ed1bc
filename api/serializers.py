"""What API clients get of each resource: published content only, with absolute site URLs."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from rest_framework import serializers

from editions.models import Edition
from manifests.models import Claim, Manifest
from newsroom.models import Beat, Label, Newsroom
from newsroom.reversing import cached_reverse
from stories.desk import format_utc
from stories.models import Trust


def site_url(path: str) -> str:
    return settings.SITE_URL + path


class NewsroomSerializer(serializers.ModelSerializer):
    url = serializers.SerializerMethodField(help_text="The newsroom's page on the site.")

    class Meta:
        model = Newsroom
        fields = ["slug", "title", "description", "url"]

    def get_url(self, newsroom: Newsroom) -> str:
        return site_url(newsroom.get_absolute_url())


class BeatSerializer(serializers.ModelSerializer):
    newsroom = serializers.SlugRelatedField(slug_field="slug", read_only=True)
    url = serializers.SerializerMethodField(help_text="The beat's page on the site.")

    class Meta:
        model = Beat
        fields = ["id", "newsroom", "slug", "title", "description", "url"]

    def get_url(self, beat: Beat) -> str:
        return site_url(beat.get_absolute_url())


class EditionSerializer(serializers.ModelSerializer):
    id = serializers.CharField(source="key", help_text="The edition's key, its UTC hour: 2026-10-16T00.")
    starts_at = serializers.DateTimeField()
    url = serializers.SerializerMethodField(help_text="The edition's page on the site.")

    class Meta:
        model = Edition
        fields = ["id", "title", "starts_at", "url"]

    def get_url(self, edition: Edition) -> str:
        return site_url(edition.get_absolute_url())


class ClaimSerializer(serializers.ModelSerializer):
    class Meta:
        model = Claim
        fields = ["claim_id", "position", "text", "type", "confidence"]


class ManifestSerializer(serializers.ModelSerializer):
    claims = ClaimSerializer(many=True, read_only=True)

    class Meta:
        model = Manifest
        fields = [
            "manifest_id",
            "title",
            "source_name",
            "source_url",
            "published_date",
            "brief_headline",
            "brief_summary",
            "is_illustrative",
            "claims",
        ]


class StorySummarySerializer(serializers.Serializer):
    """A story in a list: what a reader needs to choose it. The whole story is its desk/1
    document, at /api/v1/stories/{id}/."""

    id = serializers.CharField(help_text="The desk/1 story id, as a string (ids are opaque).")
    slug = serializers.CharField()
    url = serializers.URLField(help_text="The story's page on the site.")
    headline = serializers.CharField()
    dek = serializers.CharField()
    newsroom = serializers.CharField(help_text="The newsroom's slug.")
    beat = serializers.CharField(help_text="The beat's slug, within its newsroom.")
    edition = serializers.CharField(help_text="The edition's key: 2026-10-16T00.")
    trust = serializers.ChoiceField(choices=Trust.choices)
    source_count = serializers.IntegerField()
    correction_count = serializers.IntegerField()
    published_at = serializers.DateTimeField(help_text="UTC, as in the desk/1 document.")
    verification = serializers.ChoiceField(
        choices=Label.choices,
        help_text=(
            "How this version passed the server-side checks: checked, confirmed (some support "
            "confirmed by the desk), overridden (published over failed checks, with a reason) or "
            "unchecked. The document's `verification` key has the details; only checked and "
            "confirmed versions carry the checks' promise."
        ),
    )
    notice_at = serializers.DateTimeField(
        allow_null=True,
        help_text="When a re-check after a cited claim changed no longer passed (null: no notice).",
    )
    updated_at = serializers.DateTimeField(
        help_text="UTC: when what readers get of the story last changed (a publication, a correction, a re-render). "
        "Filter with updated_after to sync."
    )

    # What the list reads of each live version: plain rows, not models (a page holds up to 100).
    source_fields = (
        "desk_id",
        "dateline",
        "slug",
        "headline",
        "dek",
        "newsroom__slug",
        "beat__slug",
        "edition_id",
        "trust",
        "source_count",
        "correction_count",
        "published_at",
        "label",
        "flagged_at",
        "modified_at",
    )

    def to_representation(self, row: dict[str, Any]) -> dict[str, Any]:
        # Built directly rather than field by field: the per-field machinery cost more than the
        # query. The declared fields above describe the result, for the schema.
        url = cached_reverse("story", date=row["dateline"].isoformat(), slug=row["slug"])
        return {
            "id": str(row["desk_id"]),
            "slug": row["slug"],
            "url": settings.SITE_URL + url,
            "headline": row["headline"],
            "dek": row["dek"],
            "newsroom": row["newsroom__slug"],
            "beat": row["beat__slug"],
            "edition": row["edition_id"],
            "trust": row["trust"],
            "source_count": row["source_count"],
            "correction_count": row["correction_count"],
            "published_at": format_utc(row["published_at"]),
            "verification": row["label"],
            "notice_at": format_utc(row["flagged_at"]) if row["flagged_at"] else None,
            "updated_at": format_utc(row["modified_at"]),
        }


class ChangeSerializer(serializers.Serializer):
    """One entry of the changes feed."""

    cursor = serializers.CharField(help_text="Pass as after= to get the changes since this one.")
    event = serializers.ChoiceField(choices=["story.published", "story.corrected", "story.updated", "story.retracted"])
    id = serializers.CharField(help_text="The desk/1 story id.")
    occurred_at = serializers.DateTimeField(help_text="UTC: when the change became public.")
    story = StorySummarySerializer(
        allow_null=True,
        help_text="The story's summary after the change, as the story list gives it; null for a retraction.",
    )
    tombstone = serializers.BooleanField(help_text="True for a retraction: drop the story from a mirror.")
    reason = serializers.CharField(required=False, help_text="A retraction's reason.")


class ChangesPageSerializer(serializers.Serializer):
    results = ChangeSerializer(many=True)
    cursor = serializers.CharField(
        allow_null=True, help_text="The last change's cursor (or the one sent): pass as after= next time."
    )
    next = serializers.URLField(help_text="The changes after this page; poll it when results is empty.")
