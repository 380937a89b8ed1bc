"""Editions: the hourly runs that stories are published in, keyed like ``2026-10-16T00``."""

from __future__ import annotations

from datetime import UTC, datetime

from django.core.validators import RegexValidator
from django.db import models
from django.urls import reverse

EDITION_KEY_FORMAT = "%Y-%m-%dT%H"
validate_edition_key = RegexValidator(r"^\d{4}-\d{2}-\d{2}T\d{2}\Z", "An edition id looks like 2026-10-16T00.")


def parse_edition_key(key: str) -> datetime:
    """The UTC hour an edition key names; ValueError when it names no real hour."""
    return datetime.strptime(key, EDITION_KEY_FORMAT).replace(tzinfo=UTC)


class Edition(models.Model):
    # The key is the public id and the URL part, so it is the primary key too. Keys sort by time.
    key = models.CharField(max_length=13, primary_key=True, validators=[validate_edition_key])
    title = models.CharField(max_length=200, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-key"]

    def __str__(self) -> str:
        return self.title or self.key

    def get_absolute_url(self) -> str:
        return reverse("edition", kwargs={"edition": self.key})

    @property
    def starts_at(self) -> datetime:
        return parse_edition_key(self.key)
