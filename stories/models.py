"""A story and its ordered parts, as the hangingcontext.desk/1 format describes them.

Everything a person or an agent writes is stored here; everything derived (source counts,
publishers, the manifests ledger, URLs) is computed by ``stories.desk`` when it is needed.
"""

from __future__ import annotations

from datetime import UTC, date, datetime
from typing import Any

from django.conf import settings
from django.core.validators import RegexValidator
from django.db import models
from django.db.models import Q
from django.utils import timezone

from newsroom.models import Label, Newsroom
from newsroom.reversing import cached_reverse

from .labels import Shown

validate_desk_slug = RegexValidator(
    r"^[a-z0-9]+(?:[-_][a-z0-9]+)*\Z",
    "A slug is lower-case letters and digits joined by single hyphens or underscores.",
)


class Trust(models.TextChoices):
    REPORTED = "reported", "Reported"
    CONFIRMED = "confirmed", "Confirmed"


def trust_text(trust: str, source_count: int) -> str:
    """desk/1 ``labels.trust_text``: "Reported · 4 sources"."""
    noun = "source" if source_count == 1 else "sources"
    return f"{trust.capitalize()} \u00b7 {source_count} {noun}"


def suggest_trust(*, source_count: int, publisher_count: int) -> str:
    """The trust level that settings.TRUST_RULES suggest; an editor may set another."""
    for rule in settings.TRUST_RULES:
        if source_count >= rule["min_sources"] and publisher_count >= rule["min_publishers"]:
            return rule["level"]
    return Trust.REPORTED


class StoryQuerySet(models.QuerySet):
    def for_user(self, user: Any) -> StoryQuerySet:
        """The stories of the newsrooms the user has a role in (all of them for a superuser)."""
        if getattr(user, "is_superuser", False) and user.is_active:
            return self
        return self.filter(newsroom__in=Newsroom.objects.for_user(user))

    def published(self) -> StoryQuerySet:
        """Stories that have a live version readers may see (``PublishedVersion.objects.live()``
        is what the public routes read; this is the same set, as working copies)."""
        return self.filter(live_version__withdrawn_at__isnull=True, live_version__published_at__lte=timezone.now())

    def with_parts(self) -> StoryQuerySet:
        """Everything desk/1 export needs, in a fixed number of queries whatever the size."""
        return self.select_related(
            "newsroom", "beat", "edition", "disclosure", "reuse_terms", "run_guide", "sponsor"
        ).prefetch_related(
            "key_facts",
            "sections",
            "paragraphs",
            "cites",
            "images",
            "list_items",
            "corrections",
            "related_links",
        )


class Story(models.Model):
    class Status(models.TextChoices):
        DRAFT = "draft", "Draft"
        SUBMITTED = "submitted", "Submitted (checks queued)"
        # The checks found nothing wrong but left parts to the desk: an editor or chief confirms
        # each against its cited claims before it may publish.
        REVIEW = "review", "Needs the desk's review"
        VERIFIED = "verified", "Verified"
        FAILED = "failed", "Checks failed"
        PUBLISHED = "published", "Published"
        RETRACTED = "retracted", "Retracted"

    # desk/1 "id": a number written as a string; numeric here so "id order" is numeric order.
    desk_id = models.PositiveBigIntegerField("story id", unique=True)
    slug = models.CharField(max_length=200, validators=[validate_desk_slug])
    # The date in the story's URL. Fixed at first publication so a URL never moves.
    dateline = models.DateField(help_text="The date in the story's URL.")
    status = models.CharField(max_length=20, choices=Status.choices, default=Status.DRAFT, db_index=True)
    newsroom = models.ForeignKey("newsroom.Newsroom", on_delete=models.PROTECT, related_name="stories")
    beat = models.ForeignKey("newsroom.Beat", on_delete=models.PROTECT, related_name="stories")
    edition = models.ForeignKey("editions.Edition", on_delete=models.PROTECT, related_name="stories")
    audience = models.CharField(max_length=100, null=True, blank=True, help_text="Empty: no audience key.")
    angle = models.TextField(blank=True)
    headline = models.CharField(max_length=500)
    dek = models.TextField(blank=True)
    published_at = models.DateTimeField(null=True, blank=True, db_index=True)
    trust = models.CharField(max_length=20, choices=Trust.choices, default=Trust.REPORTED)
    writer_agent = models.CharField(max_length=100, null=True, blank=True)
    writer_run_id = models.CharField(max_length=100, blank=True)
    # SHA-256 of the written content (stories.desk.content_hash), kept current by every change;
    # a verification run records the hash it checked, so an edit makes its result stale.
    content_hash = models.CharField(max_length=64, blank=True, editable=False, db_index=True)
    # Counts the changes of the written content (optimistic locking): a save or an API update
    # that names an older number was made on content someone else has changed since.
    edit_version = models.PositiveIntegerField(default=0, editable=False)
    # A future publication: the beat task (verification.schedule) takes the story through the
    # publish gate then, with the role of whoever scheduled it. A refusal is kept in
    # schedule_problem (and a revision) and the schedule is cleared: shown, never skipped.
    publish_at = models.DateTimeField("publish at", null=True, blank=True, db_index=True)
    scheduled_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    schedule_problem = models.TextField(blank=True, editable=False)
    # Optional desk/1 keys that the source document left out, so an export leaves them out too.
    omitted_keys = models.JSONField(default=list, blank=True, editable=False)

    # The versions of the site-wide texts this story carries; pinned when it is published.
    disclosure = models.ForeignKey("newsroom.Disclosure", on_delete=models.PROTECT, null=True, blank=True)
    reuse_terms = models.ForeignKey("newsroom.ReuseTerms", on_delete=models.PROTECT, null=True, blank=True)
    run_guide = models.ForeignKey("newsroom.RunGuide", on_delete=models.PROTECT, null=True, blank=True)
    sponsor = models.ForeignKey("newsroom.SponsorAd", on_delete=models.PROTECT, null=True, blank=True)

    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    objects = StoryQuerySet.as_manager()

    class Meta:
        ordering = ["-published_at", "-desk_id"]
        verbose_name_plural = "stories"
        constraints = [
            models.UniqueConstraint(fields=["dateline", "slug"], name="story_slug_unique_on_date"),
        ]
        indexes = [
            models.Index(fields=["status", "-published_at"], name="story_status_published"),
        ]

    def __str__(self) -> str:
        return self.headline

    def get_absolute_url(self) -> str:
        viewname, kwargs = self.url_target()
        return cached_reverse(viewname, **kwargs)

    def url_target(self) -> tuple[str, dict[str, str]]:
        """The view name and arguments of the story's page: reversed alone here, or with the
        page's other addresses in one call (``stories.pages.StoryPage``)."""
        return "story", {"date": self.dateline.isoformat(), "slug": self.slug}

    @property
    def is_public(self) -> bool:
        """Whether readers get a live version of this story (whatever its working copy holds)."""
        version = self.live_version_or_none
        return version is not None and version.is_live

    @property
    def live_version_or_none(self) -> PublishedVersion | None:
        try:
            return self.live_version
        except PublishedVersion.DoesNotExist:
            return None

    @property
    def has_unpublished_changes(self) -> bool:
        """The working copy holds content readers do not get yet."""
        version = self.live_version_or_none
        return version is not None and version.content_hash != self.content_hash

    def absolute_url(self) -> str:
        return settings.SITE_URL + self.get_absolute_url()

    @staticmethod
    def dateline_for(*, published_at: datetime | None, edition_start: date) -> date:
        """Published stories live under their publication date (UTC), drafts under their edition's."""
        return published_at.astimezone(UTC).date() if published_at else edition_start


class OrderedPart(models.Model):
    """A part of a story that keeps its place among its siblings."""

    position = models.PositiveIntegerField()

    class Meta:
        abstract = True
        ordering = ["position"]


class KeyFact(OrderedPart):
    story = models.ForeignKey(Story, on_delete=models.CASCADE, related_name="key_facts")
    text = models.TextField()
    self_reported = models.BooleanField(default=False)

    class Meta(OrderedPart.Meta):
        constraints = [models.UniqueConstraint(fields=["story", "position"], name="key_fact_position_unique")]

    def __str__(self) -> str:
        return self.text[:80]


class Section(OrderedPart):
    story = models.ForeignKey(Story, on_delete=models.CASCADE, related_name="sections")
    heading = models.CharField(max_length=500)

    class Meta(OrderedPart.Meta):
        constraints = [models.UniqueConstraint(fields=["story", "position"], name="section_position_unique")]

    def __str__(self) -> str:
        return self.heading


class Paragraph(OrderedPart):
    # The story link is redundant with section.story; it lets one query fetch a story's paragraphs.
    story = models.ForeignKey(Story, on_delete=models.CASCADE, related_name="paragraphs")
    section = models.ForeignKey(Section, on_delete=models.CASCADE, related_name="paragraphs")
    markdown = models.TextField()

    class Meta(OrderedPart.Meta):
        ordering = ["section__position", "position"]
        constraints = [models.UniqueConstraint(fields=["section", "position"], name="paragraph_position_unique")]

    def __str__(self) -> str:
        return self.markdown[:80]

    def save(self, *args: Any, **kwargs: Any) -> None:
        # A paragraph belongs to its section's story, whatever a form sent: the story link is a
        # copy kept for fast reads, never a second source of truth.
        self.story_id = self.section.story_id
        super().save(*args, **kwargs)


class Cite(OrderedPart):
    """A citation ``{manifest_id, claim_ids}`` of a key fact or of a paragraph.

    Ids are kept exactly as written and need not be in the manifest store yet: checking them
    is the verification's job, not the editor's form's.
    """

    story = models.ForeignKey(Story, on_delete=models.CASCADE, related_name="cites")
    key_fact = models.ForeignKey(KeyFact, on_delete=models.CASCADE, null=True, blank=True, related_name="cites")
    paragraph = models.ForeignKey(Paragraph, on_delete=models.CASCADE, null=True, blank=True, related_name="cites")
    manifest_id = models.CharField(max_length=100, db_index=True)
    claim_ids = models.JSONField(default=list)

    class Meta(OrderedPart.Meta):
        constraints = [
            models.CheckConstraint(
                condition=Q(key_fact__isnull=False, paragraph__isnull=True)
                | Q(key_fact__isnull=True, paragraph__isnull=False),
                name="cite_belongs_to_key_fact_or_paragraph",
            ),
            models.UniqueConstraint(
                fields=["key_fact", "position"],
                condition=Q(key_fact__isnull=False),
                name="cite_position_unique_in_key_fact",
            ),
            models.UniqueConstraint(
                fields=["paragraph", "position"],
                condition=Q(paragraph__isnull=False),
                name="cite_position_unique_in_paragraph",
            ),
        ]

    def __str__(self) -> str:
        claim_ids = self.claim_ids if isinstance(self.claim_ids, list) else [self.claim_ids]
        return f"{self.manifest_id} [{', '.join(str(claim_id) for claim_id in claim_ids)}]"

    def save(self, *args: Any, **kwargs: Any) -> None:
        # A cite belongs to the story of the key fact or paragraph it supports (see Paragraph.save).
        owner = self.key_fact if self.key_fact_id else self.paragraph
        if owner is not None:
            self.story_id = owner.story_id
        super().save(*args, **kwargs)

    def as_desk(self) -> dict[str, Any]:
        return {"manifest_id": self.manifest_id, "claim_ids": list(self.claim_ids)}


class Image(OrderedPart):
    story = models.ForeignKey(Story, on_delete=models.CASCADE, related_name="images")
    url = models.URLField(max_length=1000)
    alt = models.TextField(blank=True)
    caption = models.TextField(blank=True)
    credit = models.CharField(max_length=500, blank=True)

    class Meta(OrderedPart.Meta):
        constraints = [models.UniqueConstraint(fields=["story", "position"], name="image_position_unique")]

    def __str__(self) -> str:
        return self.alt or self.url


class ListItem(OrderedPart):
    """One line of a story's plain-text lists: unresolved questions and the decision card."""

    class Kind(models.TextChoices):
        UNRESOLVED = "unresolved", "Unresolved question"
        USEFUL_FOR = "useful_for", "Useful for"
        NOT_FOR = "not_for", "Not for"
        COMPARE_AGAINST = "compare_against", "Compare against"

    story = models.ForeignKey(Story, on_delete=models.CASCADE, related_name="list_items")
    kind = models.CharField(max_length=20, choices=Kind.choices)
    text = models.TextField()

    class Meta(OrderedPart.Meta):
        ordering = ["kind", "position"]
        constraints = [models.UniqueConstraint(fields=["story", "kind", "position"], name="list_item_position_unique")]

    def __str__(self) -> str:
        return self.text[:80]


class Correction(OrderedPart):
    """An appended correction. Corrections are added, never edited away."""

    story = models.ForeignKey(Story, on_delete=models.CASCADE, related_name="corrections")
    published_at = models.DateTimeField()
    text = models.TextField()

    class Meta(OrderedPart.Meta):
        constraints = [models.UniqueConstraint(fields=["story", "position"], name="correction_position_unique")]

    def __str__(self) -> str:
        return f"{self.published_at:%Y-%m-%d}: {self.text[:60]}"


class RelatedLink(OrderedPart):
    story = models.ForeignKey(Story, on_delete=models.CASCADE, related_name="related_links")
    url = models.URLField(max_length=1000)
    headline = models.CharField(max_length=500)
    slug = models.CharField(max_length=200)

    class Meta(OrderedPart.Meta):
        constraints = [models.UniqueConstraint(fields=["story", "position"], name="related_link_position_unique")]

    def __str__(self) -> str:
        return self.headline


class Revision(models.Model):
    """A snapshot of a story's desk/1 JSON after each change: its history, never rewritten."""

    story = models.ForeignKey(Story, on_delete=models.CASCADE, related_name="revisions")
    created_at = models.DateTimeField(default=timezone.now, db_index=True)
    actor = models.CharField(max_length=200, help_text="Who or what made the change.")
    note = models.CharField(max_length=300, blank=True)
    document = models.JSONField()
    # The story's edit version once this change was recorded: a stale save links to the
    # revision of the version that overtook it.
    edit_version = models.PositiveIntegerField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-pk"]

    def __str__(self) -> str:
        return f"{self.story_id} at {self.created_at:%Y-%m-%d %H:%M:%S} by {self.actor}"


class AuditEntry(Revision):
    """The revisions as the audit log chiefs read: who did what to which story, when."""

    class Meta:
        proxy = True
        ordering = ["-created_at", "-pk"]
        verbose_name = "audit log entry"
        verbose_name_plural = "audit log"


# A version's stored artifacts, each read whole by the route that sends it: left out of listings.
ARTIFACT_FIELDS = ("document", "page_html", "markdown", "document_gzip", "page_html_gzip", "markdown_gzip")


class PublishedVersionQuerySet(models.QuerySet):
    def live(self) -> PublishedVersionQuerySet:
        """What readers may see, on every public route: live versions, never withdrawn ones."""
        return self.filter(withdrawn_at__isnull=True, published_at__lte=timezone.now())

    def citing(self, manifest_ids: list[str]) -> PublishedVersionQuerySet:
        """Versions (live or withdrawn) whose frozen document cites any of these manifests."""
        return self.filter(citations__manifest_id__in=manifest_ids).distinct()

    def listed(self) -> PublishedVersionQuerySet:
        """Ready for a listing: what a summary shows, without the stored artifacts."""
        return self.select_related("newsroom", "beat", "edition").defer(*ARTIFACT_FIELDS, "search_text")


class PublishedVersion(models.Model):
    """What readers get of a story: the checked desk/1 document and what is rendered from it
    (the page's HTML, the JSON and Markdown twins), frozen when a publish passed the gate.

    The story's rows are its working copy; editing them changes nothing here. Only the publish
    gate (``verification.gate.story_publish``, through ``stories.services.version_freeze``)
    creates or replaces a version; corrections and retractions change it at once. History
    stays in revisions: this is the live version only. Listing fields are copied out of the
    document so that listings, feeds and sitemaps never parse it.
    """

    # PROTECT: a published story leaves readers by a retraction, never by a deletion.
    story = models.OneToOneField(Story, on_delete=models.PROTECT, primary_key=True, related_name="live_version")
    desk_id = models.PositiveBigIntegerField("story id", unique=True)
    # The address, fixed at first publication: a published story's URL never moves.
    dateline = models.DateField()
    slug = models.CharField(max_length=200)
    newsroom = models.ForeignKey("newsroom.Newsroom", on_delete=models.PROTECT, related_name="live_versions")
    beat = models.ForeignKey("newsroom.Beat", on_delete=models.PROTECT, related_name="live_versions")
    edition = models.ForeignKey("editions.Edition", on_delete=models.PROTECT, related_name="live_versions")
    headline = models.CharField(max_length=500)
    dek = models.TextField(blank=True)
    trust = models.CharField(max_length=20, choices=Trust.choices)
    source_count = models.PositiveIntegerField()
    correction_count = models.PositiveIntegerField(default=0)
    published_at = models.DateTimeField()
    # When what readers get last changed: a publish, a correction, a retraction.
    modified_at = models.DateTimeField()
    # The content hash the gate opened for (the working copy's hash at that moment).
    content_hash = models.CharField(max_length=64)

    # The artifacts, exactly as served.
    document = models.TextField(help_text="The JSON twin: the desk/1 document readers get.")
    page_html = models.TextField()
    markdown = models.TextField()
    search_text = models.TextField(help_text="Headline, dek and body as plain text, for search.")
    render_format = models.PositiveIntegerField(help_text="The artifact format it was rendered in.")
    rendered_at = models.DateTimeField()
    # Each artifact's ETag, worked out when it is rendered rather than hashed again on each
    # request that reads it from here (newsroom.pagecache.etag_of: the same value either way).
    page_html_etag = models.CharField(max_length=34, editable=False)
    document_etag = models.CharField(max_length=34, editable=False)
    markdown_etag = models.CharField(max_length=34, editable=False)
    # Each artifact's gzip form (newsroom.pagecache.gzipped), made when it is rendered: sent as
    # it is to every client that takes gzip, a quarter of the bytes, compressed once. The ETag
    # of that form is derived from the artifact's (newsroom.pagecache.gzip_etag).
    page_html_gzip = models.BinaryField()
    document_gzip = models.BinaryField()
    markdown_gzip = models.BinaryField()

    gate = models.CharField(max_length=400, help_text="How the publish gate opened: the passing run, or an override.")
    published_by = models.CharField(max_length=200)
    withdrawn_at = models.DateTimeField(null=True, blank=True)
    withdrawn_reason = models.TextField(blank=True)
    # Set when a re-check after a source changed no longer passes; the story stays up, and its
    # page, twins and feeds carry a dated notice (``flagged_at``) until a chief acts.
    flag = models.TextField(blank=True)
    flagged_at = models.DateTimeField(null=True, blank=True)
    # How this version passed the gate (``stories.labels``), as its page, twins and feeds say.
    label = models.CharField(max_length=20, choices=Label.choices, default=Label.CHECKED)
    verification = models.JSONField(
        default=dict,
        blank=True,
        help_text="What readers are told was checked: the label, the run, each check's status, the reason.",
    )

    objects = PublishedVersionQuerySet.as_manager()

    class Meta:
        ordering = ["-published_at", "-desk_id"]
        constraints = [
            models.UniqueConstraint(fields=["dateline", "slug"], name="version_address_unique"),
        ]
        indexes = [
            models.Index(fields=["withdrawn_at", "-published_at"], name="version_live_published"),
        ]

    def __str__(self) -> str:
        return f"{self.headline} (live)" if self.is_live else f"{self.headline} (withdrawn)"

    def get_absolute_url(self) -> str:
        return cached_reverse("story", date=self.dateline.isoformat(), slug=self.slug)

    def absolute_url(self) -> str:
        return settings.SITE_URL + self.get_absolute_url()

    @property
    def is_live(self) -> bool:
        return self.live_at(published_at=self.published_at, withdrawn_at=self.withdrawn_at)

    @staticmethod
    def live_at(*, published_at: datetime, withdrawn_at: datetime | None) -> bool:
        """The row-level twin of ``live()``: not withdrawn, and its publication time has come."""
        return withdrawn_at is None and published_at <= timezone.now()

    @property
    def trust_text(self) -> str:
        return trust_text(self.trust, self.source_count)

    @property
    def shown(self) -> Shown:
        """What readers are told was checked on this version (``stories.labels``)."""
        return Shown(self.verification or {"state": self.label, "checks": []})

    def cache_tags(self) -> list[str]:
        """The cache tags of the pages this story appears on: its own, and the listings."""
        return [
            f"story-{self.desk_id}",
            f"newsroom-{self.newsroom.slug}",
            f"beat-{self.newsroom.slug}-{self.beat.slug}",
            f"edition-{self.edition_id}",
            "site",
        ]


class LiveCitation(models.Model):
    """A manifest a published version cites: which live stories to re-render or re-check
    when a manifest or a claim changes."""

    version = models.ForeignKey(PublishedVersion, on_delete=models.CASCADE, related_name="citations")
    manifest_id = models.CharField(max_length=100, db_index=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["version", "manifest_id"], name="live_citation_unique"),
        ]

    def __str__(self) -> str:
        return self.manifest_id
