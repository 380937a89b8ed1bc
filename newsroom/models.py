"""Newsrooms, their beats, and the versioned site-wide texts every story carries.

Site-wide texts (disclosure, reuse terms, the "run these manifests" guide, the sponsor house
ad) change over time, and a published story keeps the version that was in force when it was
published. So each text is a row with an ``effective_from`` time, and stories point at rows.
"""

from __future__ import annotations

import hashlib
import json
import re
import shlex
from datetime import datetime
from typing import Any, Self

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import URLValidator, validate_slug
from django.db import models
from django.utils import timezone

from .reversing import cached_reverse


class NewsroomQuerySet(models.QuerySet):
    def for_user(self, user: Any, *, role: str | None = None) -> NewsroomQuerySet:
        """The newsrooms a user works in (every one for a superuser), optionally only those
        where the user holds ``role`` or a higher one."""
        if not getattr(user, "is_authenticated", False) or not user.is_active:
            return self.none()
        if user.is_superuser:
            return self
        memberships = Membership.objects.filter(user=user)
        if role == Role.CHIEF:
            memberships = memberships.filter(role=Role.CHIEF)
        return self.filter(pk__in=memberships.values("newsroom_id"))


class Newsroom(models.Model):
    slug = models.SlugField(max_length=100, unique=True)
    title = models.CharField(max_length=200)
    description = models.TextField(blank=True)
    auto_publish = models.BooleanField(
        default=False,
        help_text="Publish a submitted story automatically when every check passes.",
    )
    created_at = models.DateTimeField(auto_now_add=True)

    objects = NewsroomQuerySet.as_manager()

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


class Role(models.TextChoices):
    # Ordered: a chief may do everything an editor may.
    EDITOR = "editor", "Editor (writes and submits)"
    CHIEF = "chief", "Chief (also publishes, overrides, corrects and retracts)"


class Membership(models.Model):
    """A user's role in one newsroom: what they may see and change there, and nowhere else."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="newsroom_memberships")
    newsroom = models.ForeignKey(Newsroom, on_delete=models.CASCADE, related_name="memberships")
    role = models.CharField(max_length=10, choices=Role.choices, default=Role.EDITOR)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["newsroom__title", "user__username"]
        constraints = [models.UniqueConstraint(fields=["user", "newsroom"], name="membership_unique_per_newsroom")]

    def __str__(self) -> str:
        return f"{self.user} is {self.get_role_display().split(' (')[0].lower()} of {self.newsroom}"


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

    def clean(self) -> None:
        # The fingerprint is no form field, so a form's uniqueness check never sees it: an
        # identical version is refused here, by name, rather than by the database's constraint.
        self.fingerprint = fingerprint_of(self.content())
        twin = type(self).objects.filter(fingerprint=self.fingerprint).exclude(pk=self.pk).first()
        if twin is not None:
            raise ValidationError(f"This text is identical to the {twin}; a new version must differ from it.")

    def validate_unique(self, exclude: Any = None) -> None:
        # clean() reports an identical version in words; the constraint's message would repeat it.
        super().validate_unique(exclude={*(exclude or ()), "fingerprint"})

    def content(self) -> dict[str, Any]:
        return {name: getattr(self, name) for name in self.content_fields}

    @classmethod
    def from_content(cls, content: dict[str, Any], *, effective_from: datetime | None = None) -> Self:
        text = cls(effective_from=effective_from or timezone.now(), **content)
        text.fingerprint = fingerprint_of(text.content())
        return text


class Label(models.TextChoices):
    """How a published version passed the gate, which its page, twins, feeds and API say."""

    CHECKED = "checked", "Checked: every check passed"
    CONFIRMED = "confirmed", "Checked, some support confirmed by the desk"
    OVERRIDDEN = "overridden", "Published over failed checks"
    UNCHECKED = "unchecked", "Published without checks"


# Only these carry the promise: every check passed on the version readers get.
PROMISE_LABELS = frozenset({Label.CHECKED, Label.CONFIRMED})


class Writer(models.TextChoices):
    AGENT = "agent", "An agent"
    PERSON = "person", "A person"


class DisclosureQuerySet(SiteTextQuerySet):
    def for_label(self, label: str, writer: str) -> DisclosureQuerySet:
        """The versions written for stories of this label and this kind of writer."""
        return self.filter(label=label, writer=writer)


class Disclosure(SiteText):
    """How a story was made, in the site's words. Each text is for one label and one kind of
    writer: only a checked or confirmed story's may promise the checks, and only an agent's
    may say an agent wrote it. A story with no text for its pair carries none."""

    text = models.TextField()
    label = models.CharField(
        max_length=20,
        choices=Label.choices,
        default=Label.CHECKED,
        help_text="The stories this text is for: how they passed the checks.",
    )
    writer = models.CharField(
        max_length=10,
        choices=Writer.choices,
        default=Writer.AGENT,
        help_text="Who wrote the stories this text is for: an agent, or a person.",
    )

    # The fingerprint is the text's: one text is written for one label and one kind of writer.
    content_fields = ("text",)

    objects = DisclosureQuerySet.as_manager()

    class Meta(SiteText.Meta):
        pass

    def __str__(self) -> str:
        return f"{super().__str__()} ({self.label}, {self.writer})"

    def clean(self) -> None:
        super().clean()
        if self.label not in PROMISE_LABELS and PROMISE_WORDS in self.text:
            raise ValidationError(
                {"text": f"A text for {self.get_label_display().lower()} stories must not make the checks' promise."}
            )
        if self.writer == Writer.PERSON and "by an agent" in self.text.lower():
            raise ValidationError({"text": "A text for stories a person wrote must not say an agent wrote them."})


# The words of the promise every checked story carries (DESIGN.md), which no other text repeats.
PROMISE_WORDS = "every cited Manifest id exists and is recent"


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


# The run guide's request is printed as shell commands for readers to copy and paste, so what an
# admin types into it is held to characters that mean nothing to a shell. These are the
# characters shlex.quote leaves bare (and that a URL path may hold); a header value may add
# spaces and name a secret as <NAME>, which the commands turn into the reader's $NAME.
_SHELL_INERT = r"A-Za-z0-9_@%+=:,./\-"
_SHELL_INERT_TEXT = re.compile(rf"[{_SHELL_INERT} ]*")
_UNSAFE_IN_URL = re.compile(rf"[^{_SHELL_INERT}]")
_UNSAFE_IN_HEADER_VALUE = re.compile(rf"[^{_SHELL_INERT} ]")
_HEADER_NAME = re.compile(r"[A-Za-z0-9-]+")
_SECRET_REFERENCE = re.compile(r"<([A-Za-z_][A-Za-z0-9_]*)>")
_NAME_CHARACTER = re.compile(r"[A-Za-z0-9_]")
MANIFEST_ID_PLACEHOLDER = "{manifest_id}"


def _listed(characters: set[str]) -> str:
    return " ".join(repr(character) for character in sorted(characters))


def validate_request_url_template(value: str) -> None:
    """An https URL with its {manifest_id} placeholder and no character a shell would act on."""
    if MANIFEST_ID_PLACEHOLDER not in value:
        raise ValidationError("must contain the placeholder {manifest_id}, where each cited manifest id goes.")
    rest = value.replace(MANIFEST_ID_PLACEHOLDER, "")
    unsafe = set(_UNSAFE_IN_URL.findall(rest))
    if unsafe:
        raise ValidationError(
            f"must not contain {_listed(unsafe)}: readers run this URL in a shell. Use only letters, "
            "digits and _ @ % + = : , . / - besides {manifest_id}."
        )
    if not value.startswith("https://"):
        raise ValidationError("must be an https:// URL.")
    URLValidator(schemes=["https"], message="must be a valid https:// URL.")(
        value.replace(MANIFEST_ID_PLACEHOLDER, "1")
    )


def validate_request_headers(value: Any) -> None:
    """A list of [name, value] pairs, each printed in the commands, so each shell-inert."""
    if not isinstance(value, list):
        raise ValidationError('must be a list of [name, value] pairs, e.g. [["Authorization", "Bearer <KEY>"]].')
    for number, pair in enumerate(value, start=1):
        if not (isinstance(pair, list) and len(pair) == 2 and all(isinstance(part, str) for part in pair)):
            raise ValidationError(f"header {number} must be a [name, value] pair of two strings.")
        name, text = pair
        if not _HEADER_NAME.fullmatch(name):
            raise ValidationError(f"header {number}: the name {name!r} may hold only letters, digits and -.")
        unsafe = set(_UNSAFE_IN_HEADER_VALUE.findall(_SECRET_REFERENCE.sub("", text)))
        if unsafe:
            raise ValidationError(
                f"header {number} ({name}): the value must not contain {_listed(unsafe)}: readers run it in a "
                "shell. Use letters, digits, spaces and _ @ % + = : , . / -, and name a secret as <NAME>."
            )


def validate_request_method(value: str) -> None:
    if not re.fullmatch(r"[A-Z]+", value):
        raise ValidationError("must be an HTTP method in capitals, e.g. GET.")


def validate_steps(value: Any) -> None:
    shape = 'must be a list of {"n": 1, "title": "...", "text": "..."} objects'
    if not isinstance(value, list):
        raise ValidationError(shape + ".")
    for number, step in enumerate(value, start=1):
        if not (
            isinstance(step, dict)
            and set(step) == {"n", "title", "text"}
            and isinstance(step["n"], int)
            and not isinstance(step["n"], bool)
            and isinstance(step["title"], str)
            and isinstance(step["text"], str)
        ):
            raise ValidationError(f"{shape}; step {number} is not one.")


def _shell_word(text: str, *, variable: str | None = None) -> str:
    """``text`` as one shell word. ``variable`` names a shell variable standing for each
    {manifest_id}; otherwise only <NAME> secret references are left to the reader's shell.

    A value that holds nothing but shell-inert characters and references is written in double
    quotes, so ``$NAME`` expands; anything else is single-quoted whole by shlex.quote, so it
    is never run, whatever it holds (a version saved without validation included).
    """
    if variable is not None:
        pieces, references = text.split(MANIFEST_ID_PLACEHOLDER), [variable] * text.count(MANIFEST_ID_PLACEHOLDER)
    else:
        split = _SECRET_REFERENCE.split(text)
        pieces, references = split[::2], split[1::2]
    if not references:
        return shlex.quote(text)
    if not all(_SHELL_INERT_TEXT.fullmatch(piece) for piece in pieces):
        if variable is None:
            return shlex.quote(text)
        # The URL's own characters are quoted apart from the variable, which expands.
        return f'"${{{variable}}}"'.join(shlex.quote(piece) if piece else "" for piece in pieces)
    word = pieces[0]
    for name, piece in zip(references, pieces[1:], strict=True):
        # "$KEYabc" would name the variable KEYabc: braces keep the name apart from what follows.
        word += (f"${{{name}}}" if _NAME_CHARACTER.match(piece[:1]) else f"${name}") + piece
    return f'"{word}"'


class RunGuide(SiteText):
    """The "Run these manifests yourself" guide: a template filled with a story's manifest ids."""

    title = models.CharField(max_length=500)
    summary = models.TextField()
    steps = models.JSONField(
        help_text='A list of {"n", "title", "text"} objects, in order.', validators=[validate_steps]
    )
    mcp_url = models.URLField(max_length=1000)
    connect_url = models.URLField(max_length=1000)
    request_method = models.CharField(max_length=10, default="GET", validators=[validate_request_method])
    request_url_template = models.CharField(
        max_length=500,
        help_text="An https URL containing {manifest_id}; letters, digits and _ @ % + = : , . / - only.",
        validators=[validate_request_url_template],
    )
    # A list of [name, value] pairs, not an object: PostgreSQL's jsonb sorts an object's keys,
    # and the headers must come back in the order they were written.
    request_headers = models.JSONField(
        default=list,
        blank=True,
        help_text='A list of [name, value] pairs; a value may name a secret as <NAME>, e.g. "Bearer <KEY>".',
        validators=[validate_request_headers],
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
        return self.request_url_template.replace(MANIFEST_ID_PLACEHOLDER, manifest_id)

    def curl_headers(self) -> str:
        # "Bearer <SYNORB_KEY>" becomes "Bearer $SYNORB_KEY": the reader's shell fills it in.
        return " ".join(f"-H {_shell_word(f'{name}: {value}')}" for name, value in self.request_headers)

    def commands(self, manifest_ids: list[str]) -> dict[str, str]:
        """The copy-paste commands that fetch the manifests; every value in them is shell-quoted."""
        if not manifest_ids:
            return {"one": "", "all": ""}
        curl = " ".join(filter(None, ["curl -s", self.curl_headers()]))
        ids = " ".join(shlex.quote(manifest_id) for manifest_id in manifest_ids)
        return {
            "one": f"{curl} {shlex.quote(self.request_url(manifest_ids[0]))}",
            "all": f"for id in {ids}; do\n  {curl} {_shell_word(self.request_url_template, variable='id')}\ndone",
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
