"""The forms of the story page in admin: the story itself, its ordered parts, and cites chosen
from the manifest store rather than typed."""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.db.models import Max, Prefetch

from manifests.models import Claim, Manifest
from newsroom.cleantext import CleanTextForm, text_problem

from . import bodytext
from .desk import cites_in_order
from .models import Cite, Section, Story

ID_MAX = 100
HEADING_MAX = Section._meta.get_field("heading").max_length


class ManifestLookup:
    """The manifests (with their claims) that one admin page needs, read once for the page."""

    def __init__(self) -> None:
        self._manifests: dict[str, Manifest | None] = {}

    def preload(self, manifest_ids: Iterable[str]) -> None:
        wanted = {manifest_id for manifest_id in manifest_ids if manifest_id not in self._manifests}
        if not wanted:
            return
        found = Manifest.objects.filter(manifest_id__in=wanted).prefetch_related(
            Prefetch("claims", queryset=Claim.objects.order_by("position"))
        )
        self._manifests.update(dict.fromkeys(wanted))
        self._manifests.update({manifest.manifest_id: manifest for manifest in found})

    def preload_story(self, story_pk: int) -> None:
        """Every manifest the story's cites name, in two queries whatever the story's size."""
        found = Manifest.objects.filter(
            manifest_id__in=Cite.objects.filter(story_id=story_pk).values("manifest_id")
        ).prefetch_related(Prefetch("claims", queryset=Claim.objects.order_by("position")))
        self._manifests.update({manifest.manifest_id: manifest for manifest in found})
        self._complete = True

    def get(self, manifest_id: str) -> Manifest | None:
        if manifest_id not in self._manifests and not getattr(self, "_complete", False):
            self.preload([manifest_id])
        return self._manifests.get(manifest_id)


def manifest_label(manifest: Manifest) -> str:
    """How a manifest is offered: "title — publisher, date (id)"."""
    date = manifest.published_date.isoformat() if manifest.published_date else "no date"
    return f"{manifest.title} — {manifest.source_name}, {date} ({manifest.manifest_id})"


def claim_label(claim: Claim) -> str:
    text = claim.text if len(claim.text) <= 160 else claim.text[:159] + "…"
    return f"{claim.claim_id}: {text}"


class ManifestSelect(forms.Select):
    """A select that the manifest autocomplete fills (static/admin/desk/cites.js); it renders
    only the chosen manifest, so a page never lists the whole store."""

    def __init__(self, attrs: dict[str, Any] | None = None) -> None:
        super().__init__(attrs={"class": "desk-manifest", **(attrs or {})})
        self.labels: dict[str, str] = {}

    def optgroups(self, name: str, value: list[Any], attrs: dict[str, Any] | None = None) -> list[Any]:
        self.choices = [("", "")] + [(item, self.labels.get(item, item)) for item in value if item]
        return super().optgroups(name, value, attrs)


class ClaimIdsField(forms.MultipleChoiceField):
    """Claim ids as a list of strings. Any id is accepted here; the form checks it against the
    chosen manifest, so the error can name the manifest."""

    def valid_value(self, value: Any) -> bool:
        return True

    def to_python(self, value: Any) -> list[str]:
        if not value:
            return []
        if isinstance(value, (str, int)):
            # One bare id, as a hand-written value may be: a list of one, never a TypeError.
            value = [value]
        elif not isinstance(value, (list, tuple)):
            raise ValidationError("Claim ids are a list of ids.", code="invalid_list")
        return [str(item).strip() for item in value if str(item).strip()]


class PositionInput(forms.NumberInput):
    """A part's position. nested-admin sorts a page shown again with errors by the raw value it
    was sent, so a value that is no whole number reaches the form as -1: a form error, not a crash."""

    def value_from_datadict(self, data: Any, files: Any, name: str) -> Any:
        value = super().value_from_datadict(data, files, name)
        if value in (None, "") or re.fullmatch(r"-?\d{1,18}", str(value).strip()):
            return value
        return "-1"


class OrderedPartForm(CleanTextForm, forms.ModelForm):
    """A part that keeps its place: positions are renumbered on save (``OrderedFormSet``), so a
    reordering never collides with the rows it passes."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if "position" in self.fields:
            self.fields["position"].widget = PositionInput(attrs={"min": 0})

    def validate_unique(self) -> None:
        exclude = self._get_validation_exclusions()
        exclude.add("position")
        try:
            self.instance.validate_unique(exclude=exclude)
            self.instance.validate_constraints(exclude=exclude)
        except ValidationError as error:
            self._update_errors(error)


class CiteForm(OrderedPartForm):
    """A cite: a manifest chosen by autocomplete from the store, and claims of that manifest."""

    manifest_id = forms.CharField(label="manifest", max_length=ID_MAX, widget=ManifestSelect())
    claim_ids = ClaimIdsField(
        label="claims",
        widget=forms.SelectMultiple(attrs={"class": "desk-claims"}),
        error_messages={"required": "Choose at least one claim of the manifest."},
    )
    not_in_store = forms.BooleanField(
        label="not in the store yet",
        required=False,
        help_text="Cite a manifest the store lacks; its claim ids are typed and the checks fetch it.",
    )

    # Set per page by the admin (``CiteInline.get_formset``).
    lookup: ManifestLookup = ManifestLookup()
    urls: dict[str, str] = {}

    class Meta:
        model = Cite
        fields = ["position", "manifest_id", "claim_ids"]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        manifest_field, claims_field = self.fields["manifest_id"], self.fields["claim_ids"]
        manifest_field.widget.attrs["data-autocomplete-url"] = self.urls.get("manifests", "")
        claims_field.widget.attrs["data-claims-url"] = self.urls.get("claims", "")
        chosen = self._value("manifest_id")
        manifest = self.lookup.get(chosen) if isinstance(chosen, str) and chosen else None
        manifest_field.widget.labels = {chosen: manifest_label(manifest)} if manifest else {}
        labels = {claim.claim_id: claim_label(claim) for claim in manifest.claims.all()} if manifest else {}
        chosen_claims = self._value("claim_ids")
        if not isinstance(chosen_claims, (list, tuple)):
            chosen_claims = [chosen_claims] if chosen_claims not in (None, "") else []
        chosen_claims = [str(item) for item in chosen_claims]
        # Only the chosen claims, in the cite's order (a browser sends them in the page's order,
        # and the order is the writer's). The manifest's other claims are fetched when the box is
        # first focused or opened (static/admin/desk/cites.js): listed in every row of a long
        # story, they were much of its page's size and time.
        claims_field.choices = [
            (item, labels.get(item, f"{item} (not a claim of this manifest)")) for item in chosen_claims
        ]
        if not self.is_bound and self.instance.pk and chosen and manifest is None:
            self.initial["not_in_store"] = True

    def _value(self, name: str) -> Any:
        if self.is_bound:
            field = self.fields[name]
            return field.widget.value_from_datadict(self.data, self.files, self.add_prefix(name))
        return self.initial.get(name)

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        manifest_id, claim_ids = data.get("manifest_id"), data.get("claim_ids")
        if not manifest_id or (self.instance.pk and not {"manifest_id", "claim_ids"} & set(self.changed_data)):
            # A cite saved before is left as it is (the checks judge it); what is chosen now is checked.
            return data
        manifest = self.lookup.get(manifest_id)
        if manifest is None:
            if not data.get("not_in_store"):
                self.add_error(
                    "manifest_id",
                    f"manifest {manifest_id} is not in the store; choose one from the list, or tick "
                    "“not in the store yet” to cite it anyway (the checks will fetch it from the provider)",
                )
        elif claim_ids:
            known = {claim.claim_id for claim in manifest.claims.all()}
            unknown = [claim_id for claim_id in claim_ids if claim_id not in known]
            if unknown:
                self.add_error(
                    "claim_ids",
                    f"{', '.join(unknown)} {'is not a claim' if len(unknown) == 1 else 'are not claims'} "
                    f"of manifest {manifest_id}",
                )
        if claim_ids and any(len(claim_id) > ID_MAX for claim_id in claim_ids):
            self.add_error("claim_ids", f"A claim id is at most {ID_MAX} characters.")
        return data


class StoryForm(CleanTextForm, forms.ModelForm):
    """The story's own fields: its id is the next free one when none is given, its dateline
    its edition's day when none is given, and its beat must be one of its newsroom's."""

    # Set by the admin on the form of a page shown again because another save took this
    # story's id or address between this form's validation and its insert: (field, message).
    lost_race: tuple[str, str] | None = None
    # Whether the id was picked here (none typed), so a lost race can say to save again.
    picked_desk_id = False

    class Meta:
        model = Story
        fields = [
            "headline",
            "slug",
            "dek",
            "angle",
            "trust",
            "audience",
            "newsroom",
            "beat",
            "edition",
            "dateline",
            "desk_id",
            "writer_agent",
            "writer_run_id",
        ]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if "desk_id" in self.fields:
            self.fields["desk_id"].required = False
            self.fields["desk_id"].help_text = "Left empty, the next free id is given."
        if "dateline" in self.fields:
            self.fields["dateline"].required = False
            self.fields["dateline"].help_text = "The date in the story's URL; left empty, its edition's day."

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        newsroom, beat = data.get("newsroom"), data.get("beat")
        if newsroom is not None and beat is not None and beat.newsroom_id != newsroom.pk:
            self.add_error("beat", f"The beat “{beat}” belongs to another newsroom, not to “{newsroom}”.")
        if "dateline" in self.fields and not data.get("dateline") and data.get("edition") is not None:
            data["dateline"] = data["edition"].starts_at.date()
            self.instance.dateline = data["dateline"]
        if "desk_id" in self.fields and not data.get("desk_id") and not self.instance.desk_id:
            data["desk_id"] = next_desk_id()
            self.instance.desk_id = data["desk_id"]
            self.picked_desk_id = True
        if self.lost_race is not None:
            field, message = self.lost_race
            self.add_error(field if field in self.fields else None, message)
        return data


def next_desk_id() -> int:
    """The next free story id: one more than the highest."""
    return (Story.objects.aggregate(highest=Max("desk_id"))["highest"] or 0) + 1


def _cite_key(cite: dict[str, Any]) -> tuple[str, tuple[str, ...]]:
    return cite["manifest_id"], tuple(cite["claim_ids"])


class BodyTextField(forms.CharField):
    # Its form names each forbidden character on its line (``BodyTextForm.clean_body``).
    checks_its_own_text = True


class BodyTextForm(forms.Form):
    """What the story form gains in the one-text mode: its key facts and sections as one
    Markdown text (``stories.bodytext``), parsed and checked on save, each error on its line. A
    cite the story already has is left as it is (the checks judge it); a new one must name a
    manifest of the store and claims of that manifest, as the cite picker offers them. Put it
    first among the story form's bases."""

    body = BodyTextField(
        label="Key facts and sections",
        required=False,
        strip=False,
        widget=forms.Textarea(attrs={"class": "desk-body", "spellcheck": "true"}),
    )

    # Set per page by the admin (``StoryAdmin.get_form``): what the story holds now, the page's
    # manifests, the cite picker's addresses and what the field says under it.
    current_body: dict[str, Any] = {"key_facts": [], "sections": []}
    lookup: ManifestLookup = ManifestLookup()
    urls: dict[str, str] = {}
    body_help: str = ""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.initial["body"] = bodytext.body_text(self.current_body)
        self.body_parts: dict[str, Any] | None = None
        field = self.fields["body"]
        field.help_text = self.body_help
        field.widget.attrs.update(
            {
                "data-manifests-url": self.urls.get("manifests", ""),
                "data-claims-url": self.urls.get("claims", ""),
                "rows": min(40, max(12, self.initial["body"].count("\n") + 3)),
            }
        )

    def clean_body(self) -> str:
        text = (self.cleaned_data.get("body") or "").replace("\r\n", "\n")
        unclean = [
            f"Line {number}: the text {problem}"
            for number, line in enumerate(text.split("\n"), start=1)
            if (problem := text_problem(line, multiline=True))
        ]
        if unclean:
            raise ValidationError(unclean, code="unclean_text")
        body = bodytext.parse_body(text)
        errors = body.errors + self._part_errors(body)
        if not errors:
            errors = self._cite_errors(body)
        if errors:
            raise ValidationError([str(error) for error in errors], code="body")
        if body.parts() != self.current_body:
            self.body_parts = body.parts()
        return text

    def _part_errors(self, body: bodytext.Body) -> list[bodytext.LineError]:
        errors = []

        def refuse(at: str, message: str) -> None:
            errors.append(bodytext.LineError(body.line_of(at) or 1, at, message))

        # Every line is clean of what no text may hold (``clean_body``); a tab, which a
        # paragraph may hold, is still refused in an id, a key fact or a heading.
        def refuse_unclean(at: str, what: str, text: str) -> None:
            problem = text_problem(text)
            if problem:
                refuse(at, f"{what} {problem}")

        for at, cite in cites_in_order(body.parts()):
            for claim_id in [cite["manifest_id"], *cite["claim_ids"]]:
                refuse_unclean(at, "an id", claim_id)
        for index, fact in enumerate(body.key_facts):
            refuse_unclean(f"key_facts[{index}]", "the key fact", fact["text"])
        for s_index, section in enumerate(body.sections):
            at = f"sections[{s_index}]"
            refuse_unclean(at, "the heading", section["heading"])
            if len(section["heading"]) > HEADING_MAX:
                refuse(at, f"a heading is at most {HEADING_MAX} characters")
            for p_index, paragraph in enumerate(section["paragraphs"]):
                if not paragraph["markdown"].strip():
                    refuse(f"{at}.paragraphs[{p_index}]", "a paragraph needs its text, not only cites")
        return errors

    def _cite_errors(self, body: bodytext.Body) -> list[bodytext.LineError]:
        kept = {_cite_key(cite) for _, cite in cites_in_order(self.current_body)}
        new = [(at, cite) for at, cite in cites_in_order(body.parts()) if _cite_key(cite) not in kept]
        self.lookup.preload(cite["manifest_id"] for _, cite in new)
        errors = []
        for at, cite in new:
            line, manifest_id = body.line_of(at) or 1, cite["manifest_id"]
            if len(manifest_id) > ID_MAX or any(len(claim_id) > ID_MAX for claim_id in cite["claim_ids"]):
                errors.append(bodytext.LineError(line, at, f"an id is at most {ID_MAX} characters"))
                continue
            manifest = self.lookup.get(manifest_id)
            if manifest is None:
                errors.append(
                    bodytext.LineError(
                        line,
                        at,
                        f"manifest {manifest_id} is not in the store; pick one with “Insert cite”, or cite it "
                        "from the rows editor with “not in the store yet”",
                    )
                )
                continue
            known = {claim.claim_id for claim in manifest.claims.all()}
            unknown = [claim_id for claim_id in cite["claim_ids"] if claim_id not in known]
            if unknown:
                errors.append(
                    bodytext.LineError(
                        line,
                        at,
                        f"{', '.join(unknown)} {'is not a claim' if len(unknown) == 1 else 'are not claims'} "
                        f"of manifest {manifest_id}",
                    )
                )
        return errors
