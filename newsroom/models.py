"""Newsrooms, their beats, and the versioned site-wide texts every story carries.

Site-wide texts (disclosure, reuse terms, the "run these manifests" guide, the sponsor house
ad) change over time, and a published story keeps the version that was in force when it was
published. So each text is a row with an ``effective_from`` time, and stories point at rows.
"""

from __future__ import annotations

import hashlib
import json
from datetime import datetime
from typing import Any, Self

from django.conf import settings
from django.core.validators import validate_slug
from django.db import models
from django.utils import timezone

from .reversing import cached_reverse


class Newsroom(models.Model):
    slug = models.SlugField(max_length=100, unique=True)
    title = models.CharField(max_length=200)
    description = models.TextField(blank=True)
    auto_publish = models.BooleanField(
        default=False,
        help_text="Publish a submitted story automatically when every check passes.",
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["title"]

    def __str__(self) -> str:
        return self.title

    def get_absolute_url(self) -> str:
        return cached_reverse("newsroom", newsroom=self.slug)


class Beat(models.Model):
    newsroom = models.ForeignKey(Newsroom, on_delete=models.PROTECT, related_name="beats")
    slug = models.SlugField(max_length=100, validators=[validate_slug])
    title = models.CharField(max_length=200)
    description = models.TextField(blank=True)

    class Meta:
        ordering = ["newsroom__title", "title"]
        constraints = [models.UniqueConstraint(fields=["newsroom", "slug"], name="beat_slug_unique_in_newsroom")]

    def __str__(self) -> str:
        return f"{self.newsroom.title} / {self.title}"

    def get_absolute_url(self) -> str:
        return cached_reverse("beat", newsroom=self.newsroom.slug, beat=self.slug)


def fingerprint_of(content: dict[str, Any]) -> str:
    """A stable hash of a text's content, so an identical version is found, not duplicated."""
    canonical = json.dumps(content, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(canonical.encode()).hexdigest()


class SiteTextQuerySet(models.QuerySet):
    def in_force(self, at: datetime | None = None) -> SiteText | None:
        """The version in force at ``at`` (default: now): the latest that had started."""
        return self.filter(effective_from__lte=at or timezone.now()).order_by("-effective_from", "-pk").first()


class SiteText(models.Model):
    """One version of a site-wide text. Versions are added, never edited once stories use them."""

    effective_from = models.DateTimeField(default=timezone.now, db_index=True)
    fingerprint = models.CharField(max_length=64, unique=True, editable=False)
    created_at = models.DateTimeField(auto_now_add=True)

    objects = SiteTextQuerySet.as_manager()

    # The model fields that make up the text, in desk/1 order; set by each subclass.
    content_fields: tuple[str, ...] = ()

    class Meta:
        abstract = True
        ordering = ["-effective_from"]

    def __str__(self) -> str:
        return f"{self._meta.verbose_name} from {self.effective_from:%Y-%m-%d %H:%M}"

    def save(self, *args: Any, **kwargs: Any) -> None:
        self.fingerprint = fingerprint_of(self.content())
        super().save(*args, **kwargs)

    def content(self) -> dict[str, Any]:
        return {name: getattr(self, name) for name in self.content_fields}

    @classmethod
    def from_content(cls, content: dict[str, Any], *, effective_from: datetime) -> Self:
        text = cls(effective_from=effective_from, **content)
        text.fingerprint = fingerprint_of(text.content())
        return text


class Disclosure(SiteText):
    text = models.TextField()

    content_fields = ("text",)

    class Meta(SiteText.Meta):
        pass


class ReuseTerms(SiteText):
    version = models.CharField(max_length=20)
    summary = models.TextField()
    attribution = models.CharField(max_length=500)
    link_rule = models.TextField()
    keep_ids_rule = models.TextField()
    no_endorsement = models.TextField()

    content_fields = ("version", "summary", "attribution", "link_rule", "keep_ids_rule", "no_endorsement")

    class Meta(SiteText.Meta):
        verbose_name = "reuse terms"
        verbose_name_plural = "reuse terms"

    @staticmethod
    def license_url() -> str:
        return settings.SITE_URL + cached_reverse("reuse-terms")

    @staticmethod
    def machine_url() -> str:
        return settings.SITE_URL + cached_reverse("reuse-json")


class RunGuide(SiteText):
    """The "Run these manifests yourself" guide: a template filled with a story's manifest ids."""

    title = models.CharField(max_length=500)
    summary = models.TextField()
    steps = models.JSONField(help_text='A list of {"n", "title", "text"} objects, in order.')
    mcp_url = models.URLField(max_length=1000)
    connect_url = models.URLField(max_length=1000)
    request_method = models.CharField(max_length=10, default="GET")
    request_url_template = models.CharField(max_length=500, help_text="A URL containing {manifest_id}.")
    # A list of [name, value] pairs, not an object: PostgreSQL's jsonb sorts an object's keys,
    # and the headers must come back in the order they were written.
    request_headers = models.JSONField(
        default=list,
        help_text='A list of [name, value] pairs; a value may name a secret as <NAME>, e.g. "Bearer <KEY>".',
    )

    content_fields = (
        "title",
        "summary",
        "steps",
        "mcp_url",
        "connect_url",
        "request_method",
        "request_url_template",
        "request_headers",
    )

    class Meta(SiteText.Meta):
        verbose_name = "run-these-manifests guide"

    def ordered_steps(self) -> list[dict[str, Any]]:
        """The steps with their keys in desk/1 order (jsonb keeps no key order)."""
        return [{"n": step["n"], "title": step["title"], "text": step["text"]} for step in self.steps]

    def request_url(self, manifest_id: str) -> str:
        return self.request_url_template.replace("{manifest_id}", manifest_id)

    def curl_headers(self) -> str:
        # "Bearer <SYNORB_KEY>" becomes "Bearer $SYNORB_KEY": the reader's shell fills it in.
        flags = []
        for name, value in self.request_headers:
            shell_value = value.replace("<", "$").replace(">", "")
            flags.append(f'-H "{name}: {shell_value}"')
        return " ".join(flags)

    def commands(self, manifest_ids: list[str]) -> dict[str, str]:
        if not manifest_ids:
            return {"one": "", "all": ""}
        curl = f"curl -s {self.curl_headers()}"
        return {
            "one": f"{curl} {self.request_url(manifest_ids[0])}",
            "all": f'for id in {" ".join(manifest_ids)}; do\n  {curl} "{self.request_url("$id")}"\ndone',
        }


class SponsorAd(SiteText):
    """A house ad shown on stories, always marked as an ad."""

    label = models.CharField(max_length=500)
    title = models.CharField(max_length=500)
    text = models.TextField()
    cta_label = models.CharField("call-to-action label", max_length=500)
    cta_url = models.URLField("call-to-action URL", max_length=1000)
    note = models.TextField()

    content_fields = ("label", "title", "text", "cta_label", "cta_url", "note")

    class Meta(SiteText.Meta):
        verbose_name = "sponsor house ad"
