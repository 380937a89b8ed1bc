"""Manifests (source documents) and their numbered claims.

Ids are opaque strings: they are stored and compared exactly as written, never as numbers.
"""

from __future__ import annotations

from django.db import models


class Manifest(models.Model):
    class Origin(models.TextChoices):
        STORY_IMPORT = "story_import", "Story import (no claim texts)"
        PROVIDER = "provider", "Manifest provider"
        FILE = "file", "Manifest file import"
        EDITOR = "editor", "Editor"

    manifest_id = models.CharField(max_length=100, unique=True)
    title = models.CharField(max_length=500)
    source_name = models.CharField("publisher channel", max_length=200, db_index=True)
    source_url = models.URLField(max_length=1000, blank=True)
    published_date = models.DateField(null=True, blank=True)
    brief_headline = models.CharField(max_length=500, blank=True)
    brief_summary = models.TextField(blank=True)
    origin = models.CharField(max_length=20, choices=Origin.choices, default=Origin.EDITOR)
    is_illustrative = models.BooleanField(
        default=False,
        help_text="Demo data: the claim texts are illustrative, not the source's real claims.",
    )
    fetched_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-published_date", "manifest_id"]

    def __str__(self) -> str:
        return f"{self.manifest_id}: {self.title}"


class Claim(models.Model):
    manifest = models.ForeignKey(Manifest, on_delete=models.CASCADE, related_name="claims")
    claim_id = models.CharField(max_length=100)
    position = models.PositiveIntegerField()
    text = models.TextField()
    type = models.CharField(max_length=50, blank=True)
    confidence = models.FloatField(null=True, blank=True)

    class Meta:
        ordering = ["manifest", "position"]
        constraints = [
            models.UniqueConstraint(fields=["manifest", "claim_id"], name="claim_id_unique_in_manifest"),
            models.UniqueConstraint(fields=["manifest", "position"], name="claim_position_unique_in_manifest"),
        ]

    def __str__(self) -> str:
        return self.claim_id
