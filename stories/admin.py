"""The story admin: one page for the whole story, every part of its working copy in order.

Sections hold their paragraphs and paragraphs their cites, nested on the story's page
(django-nested-admin); story parts have no pages of their own. Every save edits the working
copy only and records the change as every other path does (one revision, a fresh content
hash): readers keep the live version until a publish passes the gate. The live versions
themselves are shown read-only.
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Callable
from functools import cached_property
from typing import Any

import nested_admin
from django.conf import settings
from django.contrib import admin
from django.core.exceptions import PermissionDenied
from django.db import IntegrityError, transaction
from django.db.models import F, Prefetch, Q
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.urls import path, reverse
from django.utils.html import format_html, format_html_join
from django.utils.module_loading import import_string
from django.utils.safestring import SafeString
from nested_admin.formsets import NestedInlineFormSet

from manifests.models import Manifest
from newsroom.admin import InUsersNewsroomsAdmin, SafeAutocompleteAdmin
from newsroom.cleantext import CleanTextModelForm
from newsroom.dberrors import unique_violation
from newsroom.models import Beat, Newsroom
from newsroom.pagecache import private_response
from newsroom.roles import roles_of

from . import desk
from .bodytext import LineError, read_back
from .diffing import document_diff
from .forms import BodyTextForm, CiteForm, ManifestLookup, OrderedPartForm, StoryForm, claim_label, manifest_label
from .models import (
    Cite,
    Correction,
    Image,
    KeyFact,
    ListItem,
    Paragraph,
    PublishedVersion,
    RelatedLink,
    Revision,
    Section,
    Story,
)
from .paths import describe_path, part_of
from .services import story_record_change, story_replace_body


class RecordsStoryChange:
    """Admin pages that edit any part of a story record the change like every other path; the
    working copy changes, what readers get does not."""

    def story_of(self, obj):
        return obj if isinstance(obj, Story) else obj.story

    def record(self, request, story: Story, note: str) -> None:
        story_record_change(story=story, actor=request.user.get_username(), note=note)

    def save_related(self, request, form, formsets, change):
        super().save_related(request, form, formsets, change)
        self.record(request, self.story_of(form.instance), "edited in admin")

    def delete_queryset(self, request, queryset):
        # The bulk "delete selected" action: every story it touched records its change.
        stories = {}
        for obj in queryset:
            story = self.story_of(obj)
            stories[story.pk] = story
        super().delete_queryset(request, queryset)
        if queryset.model is not Story:
            for story in stories.values():
                self.record(request, story, f"{queryset.model._meta.verbose_name_plural} deleted in admin")

    def delete_model(self, request, obj):
        story = self.story_of(obj)
        super().delete_model(request, obj)
        if not isinstance(obj, Story):
            self.record(request, story, f"{obj._meta.verbose_name} deleted in admin")


# Positions are moved out of the way by this much while a formset renumbers its rows.
POSITION_OFFSET = 1_000_000
AUTOCOMPLETE_PAGE = 20


# How an editor edits key facts and sections: "text" (one Markdown text) or "rows" (inlines).
BODY_MODES = ("text", "rows")
BODY_MODE_KEY = "desk_body_mode"


class DeskPage:
    """What one request's story page shows beside the text: the last run's problems by the key
    fact or paragraph they concern, and the manifests its cites name, each read once."""

    def __init__(self, story_pk: int | None, problems: Callable[[], list[tuple[str, str]]], urls: dict[str, str]):
        self.story_pk = story_pk
        self._problem_source = problems
        self.urls = urls
        self.lookup = ManifestLookup()
        if story_pk is not None:
            self.lookup.preload_story(story_pk)

    @cached_property
    def problems(self) -> dict[str, list[str]]:
        """Problems in an editor's words, by the part they concern ("$" for the rest)."""
        by_part: dict[str, list[str]] = defaultdict(list)
        for at, message in self._problem_source():
            by_part[part_of(at) or "$"].append(f"{describe_path(at)}: {message}")
        return dict(by_part)

    @cached_property
    def paths(self) -> dict[tuple[str, int], str]:
        """Each key fact's and paragraph's desk/1 path, by (model name, pk)."""
        if self.story_pk is None or not self.problems:
            return {}
        found: dict[tuple[str, int], str] = {}
        for number, pk in enumerate(KeyFact.objects.filter(story_id=self.story_pk).values_list("pk", flat=True)):
            found[("keyfact", pk)] = f"key_facts[{number}]"
        sections = {
            pk: number
            for number, pk in enumerate(Section.objects.filter(story_id=self.story_pk).values_list("pk", flat=True))
        }
        counters: dict[int, int] = defaultdict(int)
        for pk, section_pk in Paragraph.objects.filter(story_id=self.story_pk).values_list("pk", "section_id"):
            found[("paragraph", pk)] = f"sections[{sections[section_pk]}].paragraphs[{counters[section_pk]}]"
            counters[section_pk] += 1
        return found

    @cached_property
    def body(self) -> dict[str, Any]:
        """The story's key facts and sections in desk/1's shape (none for a new story)."""
        if self.story_pk is None:
            return {"key_facts": [], "sections": []}
        return desk.story_body(Story(pk=self.story_pk))

    def decide_mode(self, request: HttpRequest) -> None:
        """One text, unless the editor chose rows (``?mode=rows``, kept for their session until
        ``?mode=text``) or the story holds what one text cannot give back (a paragraph with a
        blank line in it, say)."""
        asked = request.GET.get("mode")
        if asked in BODY_MODES and request.session.get(BODY_MODE_KEY) != asked:
            request.session[BODY_MODE_KEY] = asked
        # The text read back once for the page: whether it fits, and the line of each part.
        self.read_back = read_back(self.body)
        self.text_fits = self.read_back is not None
        wanted = request.session.get(BODY_MODE_KEY, "text")
        if request.method == "POST":
            # A save is read as the page it came from was shown, whatever another tab chose since.
            wanted = "text" if "body" in request.POST else "rows" if "sections-TOTAL_FORMS" in request.POST else wanted
        self.text_mode = wanted == "text" and self.text_fits

    def body_problems(self) -> list[str]:
        """The last run's problems in the one text's words: "Line 14, section 2, paragraph 1: …"."""
        found = []
        for at, message in self._problem_source():
            line = self.read_back.line_of(at) if self.read_back is not None and at not in ("", "$") else None
            found.append(str(LineError(line, at, message)) if line else f"{describe_path(at)}: {message}")
        return found

    def problems_of(self, obj: Any) -> list[str]:
        if obj is None or obj.pk is None or not self.problems:
            return []
        return self.problems.get(self.paths.get((obj._meta.model_name, obj.pk), ""), [])


def _story_pk_of(instance: Any) -> int | None:
    return instance.pk if isinstance(instance, Story) else getattr(instance, "story_id", None)


class OrderedFormSet(NestedInlineFormSet):
    """The parts of one story under one parent, kept in order.

    - Only rows of this story can be named by a posted id, so no form edits another story's part.
    - Positions are renumbered 0, 1, 2… in the order the editor gave on save; rows that move
      step aside first, so a reordering never trips the unique position.
    - On a page, the rows come from the parent's prefetched parts: no query per section or
      paragraph (see ``SectionInline.get_queryset``).
    """

    scope: dict[str, Any] = {}

    def _story_rows(self) -> Any:
        story_pk = _story_pk_of(self.instance)
        if story_pk is None:
            return self.model._default_manager.none()
        return self.model._default_manager.filter(story_id=story_pk, **self.scope)

    def get_queryset(self) -> Any:
        if not hasattr(self, "_desk_rows"):
            if self.data:
                # nested-admin finds rows by the posted ids (a part may move to another section).
                self._desk_rows = super().get_queryset().filter(story_id=_story_pk_of(self.instance), **self.scope)
            elif self.instance.pk is not None and not isinstance(self.instance, Story):
                rows = getattr(self.instance, self.fk.remote_field.get_accessor_name()).all()
                self._desk_rows = [row for row in rows if all(getattr(row, k) == v for k, v in self.scope.items())]
            else:
                self._desk_rows = super().get_queryset()
        return self._desk_rows

    @cached_property
    def _pk_choices(self) -> Any:
        # One queryset for every form's id field, built once: a long story's page has hundreds
        # of forms, and filtering a queryset anew for each was a good part of its time.
        return self._story_rows()

    def add_fields(self, form: Any, index: int | None) -> None:
        super().add_fields(form, index)
        pk_field = form.fields.get(self.model._meta.pk.name)
        if pk_field is not None and hasattr(pk_field, "queryset"):
            pk_field.queryset = self._pk_choices

    @cached_property
    def empty_form(self) -> Any:
        # Django builds the empty form anew on every access, and nested-admin reaches it several
        # times per formset (media, fields, the rows themselves): once per page is enough.
        return super().empty_form

    def validate_unique(self) -> None:
        # Every unique rule of a story part is about its position, which save renumbers.
        return

    def process_forms_pre_save(self, forms: list[Any]) -> list[Any]:
        forms = super().process_forms_pre_save(forms)
        moving = [
            form.instance.pk
            for form in forms
            if form._is_initial
            and form.instance.pk
            and (self._should_delete_form(form) or form.initial.get("position") != form.instance.position)
        ]
        if moving:
            self._story_rows().filter(pk__in=moving).update(position=F("position") + POSITION_OFFSET)
        return forms

    def save_new(self, form: Any, commit: bool = True) -> Any:
        for name, value in self.scope.items():
            setattr(form.instance, name, value)
        return super().save_new(form, commit=commit)


class DeskInline:
    """A part of the story on its page: ordered by dragging (or its position), and aware of
    the request's ``DeskPage`` for what it shows beside the text."""

    formset = OrderedFormSet
    form = OrderedPartForm
    extra = 0
    sortable_field_name = "position"
    desk: DeskPage | None = None

    def get_inline_instances(self, request: HttpRequest, obj: Any = None) -> list[Any]:
        instances = super().get_inline_instances(request, obj)
        for inline in instances:
            inline.desk = getattr(request, "desk_page", None)
        return instances

    @admin.display(description="checks")
    def checks(self, obj: Any) -> SafeString | str:
        problems = self.desk.problems_of(obj) if self.desk is not None else []
        if not problems:
            return "—"
        return format_html(
            '<ul class="desk-problems">{}</ul>', format_html_join("", "<li>{}</li>", ((p,) for p in problems))
        )


class DeskStackedInline(DeskInline, nested_admin.NestedStackedInline):
    # nested-admin's own templates without their indentation: the story page repeats them for
    # every part (each key fact, paragraph and cite of a long story's rows), and the indentation
    # made much of the page.
    template = "admin/stories/story/rows/stacked.html"
    fieldset_template = "admin/stories/story/rows/fieldset.html"


class DeskTabularInline(DeskInline, nested_admin.NestedTabularInline):
    template = "admin/stories/story/rows/tabular.html"


class CiteInline(DeskTabularInline):
    model = Cite
    form = CiteForm
    fields = ["position", "manifest_id", "claim_ids", "not_in_store"]
    verbose_name = "cite"

    def get_formset(self, request: HttpRequest, obj: Any = None, **kwargs: Any) -> Any:
        # The page's manifests and the autocomplete's addresses, for every cite form on it.
        page = getattr(request, "desk_page", None)
        attrs = {"lookup": page.lookup if page else ManifestLookup(), "urls": page.urls if page else {}}
        kwargs["form"] = type(CiteForm.__name__, (self.form,), attrs)
        return super().get_formset(request, obj, **kwargs)


class KeyFactCiteInline(CiteInline):
    fk_name = "key_fact"


class ParagraphCiteInline(CiteInline):
    fk_name = "paragraph"


class KeyFactInline(DeskStackedInline):
    model = KeyFact
    fields = ["position", "text", "self_reported", "checks"]
    readonly_fields = ["checks"]
    inlines = [KeyFactCiteInline]

    def get_queryset(self, request: HttpRequest) -> Any:
        return super().get_queryset(request).prefetch_related("cites")


class ParagraphInline(DeskStackedInline):
    model = Paragraph
    fk_name = "section"
    fields = ["position", "markdown", "rendered", "checks"]
    readonly_fields = ["rendered", "checks"]
    inlines = [ParagraphCiteInline]

    @admin.display(description="preview")
    def rendered(self, paragraph: Paragraph) -> SafeString | str:
        if not paragraph.markdown:
            return "—"
        # The renderer of the public page, so the preview is what readers will get.
        html = import_string(settings.STORY_MARKDOWN_RENDERER)(paragraph.markdown)
        return format_html('<div class="desk-preview">{}</div>', html)


class SectionInline(DeskStackedInline):
    model = Section
    fields = ["position", "heading"]
    inlines = [ParagraphInline]

    def get_queryset(self, request: HttpRequest) -> Any:
        # Every paragraph and cite of the story in two more queries, whatever its size.
        paragraphs = Paragraph.objects.order_by("position").prefetch_related("cites")
        return super().get_queryset(request).prefetch_related(Prefetch("paragraphs", queryset=paragraphs))


class ImageForm(OrderedPartForm):
    class Meta:
        model = Image
        fields = ["position", "url", "alt", "caption", "credit"]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # Readers who cannot see the image get its alt text: it is not optional here.
        self.fields["alt"].required = True


class ImageInline(DeskStackedInline):
    model = Image
    form = ImageForm


class RelatedLinkInline(DeskTabularInline):
    model = RelatedLink
    fields = ["position", "headline", "url", "slug"]


def _list_inline(kind: ListItem.Kind, plural: str) -> type:
    """One of the story's plain lists (unresolved questions, the decision card's three)."""
    formset = type(f"{kind.name.title()}FormSet", (OrderedFormSet,), {"scope": {"kind": kind}})

    class ListInline(DeskTabularInline):
        model = ListItem
        fields = ["position", "text"]
        verbose_name = kind.label.lower()
        verbose_name_plural = plural

        def get_queryset(self, request: HttpRequest) -> Any:
            return super().get_queryset(request).filter(kind=kind)

    ListInline.formset = formset
    ListInline.__name__ = ListInline.__qualname__ = f"{kind.name.title().replace('_', '')}Inline"
    return ListInline


UnresolvedInline = _list_inline(ListItem.Kind.UNRESOLVED, "unresolved questions")
UsefulForInline = _list_inline(ListItem.Kind.USEFUL_FOR, "decision card: useful for")
NotForInline = _list_inline(ListItem.Kind.NOT_FOR, "decision card: not for")
CompareAgainstInline = _list_inline(ListItem.Kind.COMPARE_AGAINST, "decision card: compare against")


class CorrectionInline(nested_admin.NestedTabularInline):
    model = Correction
    form = CleanTextModelForm
    extra = 0
    is_sortable = False
    fields = ["position", "published_at", "text"]


class RevisionInline(nested_admin.NestedTabularInline):
    model = Revision
    extra = 0
    fields = ["created_at", "actor", "note"]
    readonly_fields = fields
    can_delete = False
    is_sortable = False

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False


class LostRace(Exception):
    """Another save took this story's id or address after the form was validated."""

    def __init__(self, field: str, message: str):
        super().__init__(message)
        self.field = field
        self.message = message


def _lost_race(error: IntegrityError, story: Story, form: Any) -> LostRace:
    """The error for the field whose unique rule the database enforced; any other integrity
    error is raised as it is."""
    taken = unique_violation(error, Story)
    if taken == ("desk_id",):
        if form.picked_desk_id:
            return LostRace(
                "desk_id",
                f"The next free id, {story.desk_id}, was taken a moment ago by a story saved at the same "
                "time, so nothing was saved. Save again to be given the next one.",
            )
        return LostRace(
            "desk_id",
            f"Story id {story.desk_id} was taken a moment ago by a story saved at the same time, so nothing "
            "was saved. Choose another id, or leave it empty to be given the next free one.",
        )
    if "slug" in taken:
        return LostRace(
            "slug",
            f"The slug “{story.slug}” was taken for {story.dateline} a moment ago by a story saved at the "
            "same time, so nothing was saved. Choose another slug.",
        )
    raise error


@admin.register(Story)
class StoryAdmin(RecordsStoryChange, SafeAutocompleteAdmin, nested_admin.NestedModelAdmin):
    form = StoryForm
    list_display = ["desk_id", "headline", "newsroom", "beat", "edition", "status", "trust", "published_at"]
    # Each relation's filter offers only what the user's own stories use: the plain filter would
    # list every newsroom, beat and edition, another newsroom's too.
    list_filter = [
        "status",
        "trust",
        ("newsroom", admin.RelatedOnlyFieldListFilter),
        ("beat", admin.RelatedOnlyFieldListFilter),
        ("edition", admin.RelatedOnlyFieldListFilter),
    ]
    list_select_related = ["newsroom", "beat", "edition"]
    search_fields = ["headline", "slug", "=desk_id", "dek"]
    date_hierarchy = "published_at"
    autocomplete_fields = ["newsroom", "beat", "edition"]
    prepopulated_fields = {"slug": ("headline",)}
    readonly_fields = [
        "status",
        "created_at",
        "updated_at",
        "disclosure",
        "reuse_terms",
        "run_guide",
        "sponsor",
        "live_version_summary",
        "live_diff",
    ]
    fieldsets = [
        ("Story", {"fields": ["headline", "slug", "dek", "angle", "trust", "audience"]}),
        ("Placement", {"fields": [("newsroom", "beat"), ("edition", "dateline"), "desk_id"]}),
        ("What readers get", {"fields": ["status", "published_at", "live_version_summary", "live_diff"]}),
        ("Writer", {"fields": ["writer_agent", "writer_run_id"], "classes": ["collapse"]}),
        (
            "Site-wide texts carried",
            {"fields": ["disclosure", "reuse_terms", "run_guide", "sponsor"], "classes": ["collapse"]},
        ),
        ("History", {"fields": ["created_at", "updated_at"], "classes": ["collapse"]}),
    ]
    inlines = [
        KeyFactInline,
        SectionInline,
        UnresolvedInline,
        UsefulForInline,
        NotForInline,
        CompareAgainstInline,
        ImageInline,
        RelatedLinkInline,
        CorrectionInline,
        RevisionInline,
    ]

    class Media:
        css = {
            "all": [
                "admin/css/vendor/select2/select2.min.css",
                "admin/css/autocomplete.css",
                "admin/desk/desk.css",
            ]
        }
        js = [
            "admin/js/vendor/jquery/jquery.min.js",
            "admin/js/vendor/select2/select2.full.min.js",
            "admin/js/jquery.init.js",
            "admin/desk/cites.js",
            "admin/desk/bodytext.js",
            "admin/desk/words.js",
        ]

    # --- The page ----------------------------------------------------------------------------

    def get_readonly_fields(self, request, obj=None):
        fields = list(super().get_readonly_fields(request, obj))
        if obj is not None and obj.live_version_or_none is not None:
            # A published story's address is fixed: its URL never moves.
            fields += ["slug", "dateline"]
        return fields

    def address_on_site(self, request: HttpRequest, story: Story) -> str:
        """Where "view on site" leads (``newsroom.admin.view_on_site``): a published story's page;
        for a story never published, its preview, not the address it would have."""
        if story.live_version_or_none is None:
            return reverse("admin:stories_story_preview", args=[story.pk])
        return story.get_absolute_url()

    def get_prepopulated_fields(self, request, obj=None):
        # A slug shown read-only (a published story's) is not suggested again.
        if obj is not None and obj.live_version_or_none is not None:
            return {}
        return super().get_prepopulated_fields(request, obj)

    def formfield_for_foreignkey(self, db_field, request, **kwargs):
        # Only the user's newsrooms and their beats are offered, or accepted from a form.
        if db_field.name == "newsroom":
            kwargs["queryset"] = Newsroom.objects.for_user(request.user)
        elif db_field.name == "beat":
            kwargs["queryset"] = Beat.objects.filter(newsroom__in=Newsroom.objects.for_user(request.user))
        return super().formfield_for_foreignkey(db_field, request, **kwargs)

    def get_inline_instances(self, request, obj=None):
        instances = super().get_inline_instances(request, obj)
        for inline in instances:
            inline.desk = getattr(request, "desk_page", None)
        return instances

    def check_problems(self, story_pk: int) -> list[tuple[str, str]]:
        """The last check run's problems as (desk/1 path, message); the verification room's
        admin, which knows the runs, supplies them."""
        return []

    def changeform_view(self, request, object_id=None, form_url="", extra_context=None):
        story_pk = int(object_id) if object_id and str(object_id).isdigit() else None
        if story_pk is not None and not self.get_queryset(request).filter(pk=story_pk).exists():
            story_pk = None  # another newsroom's story: Django's own answer follows, nothing read for it
        request.desk_page = page = DeskPage(
            story_pk,
            problems=(lambda: self.check_problems(story_pk)) if story_pk is not None else list,
            urls={
                "manifests": reverse("admin:stories_story_manifests"),
                "claims": reverse("admin:stories_story_claims"),
            },
        )
        page.decide_mode(request)
        context = dict(extra_context or {})
        if page.text_mode:
            context["body_mode"] = {"url": "?mode=rows", "label": "Edit key facts and sections as rows"}
        elif page.text_fits:
            context["body_mode"] = {"url": "?mode=text", "label": "Edit key facts and sections as one text"}
        if story_pk is not None:
            context["preview_url"] = reverse("admin:stories_story_preview", args=[story_pk])
        try:
            return super().changeform_view(request, object_id, form_url, context)
        except LostRace as lost:
            # The admin's transaction is rolled back: nothing of this save was written. The page
            # is shown again, the editor's input kept, with the error on its field (``get_form``).
            request.story_lost_race = (lost.field, lost.message)
            return super().changeform_view(request, object_id, form_url, context)

    # --- Key facts and sections: one text, or rows --------------------------------------------

    def _text_mode(self, request: HttpRequest) -> bool:
        page = getattr(request, "desk_page", None)
        return page is not None and page.text_mode

    def get_inlines(self, request, obj):
        inlines = super().get_inlines(request, obj)
        if self._text_mode(request):
            return [inline for inline in inlines if inline not in (KeyFactInline, SectionInline)]
        return inlines

    def get_fieldsets(self, request, obj=None):
        fieldsets = list(super().get_fieldsets(request, obj))
        if self._text_mode(request):
            at = next((index + 1 for index, (name, _) in enumerate(fieldsets) if name == "Placement"), 0)
            fieldsets.insert(at, ("Key facts and sections", {"fields": ["body"]}))
        return fieldsets

    def get_form(self, request, obj=None, change=False, **kwargs):
        if self._text_mode(request):
            page = request.desk_page
            base = kwargs.pop("form", None) or self.form
            attrs = {
                "current_body": page.body,
                "lookup": page.lookup,
                "urls": page.urls,
                "body_help": self._body_help(page),
            }
            kwargs["form"] = type(base.__name__, (BodyTextForm, base), attrs)
        form = super().get_form(request, obj, change, **kwargs)
        lost_race = getattr(request, "story_lost_race", None)
        if lost_race is not None:
            form = type(form.__name__, (form,), {"lost_race": lost_race})
        return form

    def _body_help(self, page: DeskPage) -> SafeString:
        problems = page.body_problems() if page.story_pk is not None else []
        checks = (
            format_html(
                '<p>The last checks found:</p><ul class="desk-problems">{}</ul>',
                format_html_join("", "<li>{}</li>", ((problem,) for problem in problems)),
            )
            if problems
            else ""
        )
        return format_html(
            "{}{}<p>Key facts first, one line each beginning with “- ” (“- [self-reported] ” for a "
            "claim the source makes of itself); a line “## heading” starts each section; a blank "
            "line between paragraphs. A cite ends its key fact or paragraph: "
            "<code>[^manifest id: claim id, claim id]</code>. <strong>Insert cite</strong> (or "
            "Ctrl+K) finds a manifest by its title and its claims by their words; "
            "<strong>Same cite as above</strong> repeats the last cite before the cursor. "
            '<a href="?mode=rows">Edit as rows</a> instead.</p>',
            checks,
            self._cited(page),
        )

    def _cited(self, page: DeskPage) -> SafeString | str:
        """What the text's cite markers name, in words: each manifest and the claims of it cited."""
        claims_by_manifest: dict[str, list[str]] = {}
        for _, cite in desk.cites_in_order(page.body):
            cited = claims_by_manifest.setdefault(cite["manifest_id"], [])
            cited += [claim_id for claim_id in cite["claim_ids"] if claim_id not in cited]
        if not claims_by_manifest:
            return ""
        entries = []
        for manifest_id, claim_ids in claims_by_manifest.items():
            manifest = page.lookup.get(manifest_id)
            texts = {claim.claim_id: claim_label(claim) for claim in manifest.claims.all()} if manifest else {}
            entries.append(
                format_html(
                    "<dt>{}</dt>{}",
                    manifest_label(manifest) if manifest else f"{manifest_id} (not in the store)",
                    format_html_join("", "<dd>{}</dd>", ((texts.get(claim_id, claim_id),) for claim_id in claim_ids)),
                )
            )
        return format_html(
            '<details class="desk-cited"><summary>What the cites name ({} manifests)</summary><dl>{}</dl></details>',
            len(entries),
            format_html_join("", "{}", ((entry,) for entry in entries)),
        )

    def save_related(self, request, form, formsets, change):
        # The one text's key facts and sections, when they changed, before the change is recorded.
        if getattr(form, "body_parts", None) is not None:
            story_replace_body(story=form.instance, body=form.body_parts)
        super().save_related(request, form, formsets, change)

    def save_model(self, request, obj, form, change):
        # Two editors may both pass the form's unique checks for the same id (or address) and
        # save at once; the database lets one through. A savepoint, so the loser's refusal is
        # an exception ``changeform_view`` turns into a form error, not a broken transaction.
        try:
            with transaction.atomic():
                super().save_model(request, obj, form, change)
        except IntegrityError as error:
            raise _lost_race(error, obj, form) from None

    @admin.display(description="live version")
    def live_version_summary(self, story: Story) -> str:
        version = story.live_version_or_none
        if version is None:
            return "Not published: readers get nothing yet."
        state = "withdrawn (410)" if version.withdrawn_at else "live"
        parts = [f"{state}; published {version.published_at:%Y-%m-%d %H:%M} UTC; gate: {version.gate}"]
        if story.has_unpublished_changes:
            parts.append("the working copy has changes readers do not get until it is published again")
        else:
            parts.append("the working copy is what readers get")
        if version.flag:
            parts.append(f"FLAGGED: {version.flag}")
        return ". ".join(parts)

    @admin.display(description="changes since publication")
    def live_diff(self, story: Story) -> SafeString | str:
        version = story.live_version_or_none
        if version is None or not story.pk:
            return "—"
        if not story.has_unpublished_changes:
            return "None: the working copy is what readers get."
        working = desk.export_story(Story.objects.with_parts().get(pk=story.pk))
        return document_diff(json.loads(version.document), working)

    # --- Cites: manifests and claims from the store ----------------------------------------------

    def get_urls(self):
        wrap = self.admin_site.admin_view
        return [
            path("manifests/", wrap(self.manifests_view), name="stories_story_manifests"),
            path("manifests/claims/", wrap(self.claims_view), name="stories_story_claims"),
            path("<path:object_id>/preview/", wrap(self.preview_view), name="stories_story_preview"),
            *super().get_urls(),
        ]

    def _may_cite(self, request: HttpRequest) -> None:
        # Whoever may write a story of some newsroom may look manifests up to cite them.
        if not (self.has_change_permission(request) or self.has_add_permission(request)) or not roles_of(request.user):
            raise PermissionDenied

    def manifests_view(self, request: HttpRequest) -> JsonResponse:
        """select2's answer: manifests matching ``term`` by id, title or publisher, newest first."""
        self._may_cite(request)
        term = request.GET.get("term", "").strip()[:200]
        try:
            page = max(1, int(request.GET.get("page", "1")))
        except ValueError:
            page = 1
        found = Manifest.objects.all()
        if term:
            found = found.filter(
                Q(manifest_id__istartswith=term) | Q(title__icontains=term) | Q(source_name__icontains=term)
            )
        start = (page - 1) * AUTOCOMPLETE_PAGE
        rows = list(found.order_by("-published_date", "manifest_id")[start : start + AUTOCOMPLETE_PAGE + 1])
        return JsonResponse(
            {
                "results": [
                    {"id": manifest.manifest_id, "text": manifest_label(manifest)}
                    for manifest in rows[:AUTOCOMPLETE_PAGE]
                ],
                "pagination": {"more": len(rows) > AUTOCOMPLETE_PAGE},
            }
        )

    def claims_view(self, request: HttpRequest) -> JsonResponse:
        """The claims of one manifest, with their text, for the cite's claim list."""
        self._may_cite(request)
        manifest = Manifest.objects.filter(manifest_id=request.GET.get("manifest_id", "")).first()
        if manifest is None:
            return JsonResponse({"found": False, "results": []})
        return JsonResponse(
            {
                "found": True,
                "manifest": manifest_label(manifest),
                "results": [
                    {"id": claim.claim_id, "text": claim_label(claim)} for claim in manifest.claims.order_by("position")
                ],
            }
        )

    # --- Preview ---------------------------------------------------------------------------------

    def preview_view(self, request: HttpRequest, object_id: str) -> HttpResponse:
        """The working copy exactly as readers would get it; only for who may see the story,
        never cached nor indexed."""
        story = self.get_object(request, object_id)
        if story is None:
            raise Http404("No story of yours has this id")
        if not self.has_view_permission(request, story):
            raise PermissionDenied
        document = desk.export_story(Story.objects.with_parts().get(pk=story.pk))
        if story.has_unpublished_changes:
            status = "with changes readers do not get yet"
        else:
            status = story.get_status_display().lower()
        html = import_string(settings.STORY_PREVIEW_RENDERER)(document, status_text=status)
        return private_response(HttpResponse(html))


@admin.register(Revision)
class RevisionAdmin(InUsersNewsroomsAdmin, admin.ModelAdmin):
    list_display = ["story", "created_at", "actor", "note"]
    list_select_related = ["story"]
    search_fields = ["story__headline", "actor", "note"]
    readonly_fields = ["story", "created_at", "actor", "note", "document"]

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False


@admin.register(Correction)
class CorrectionAdmin(InUsersNewsroomsAdmin, admin.ModelAdmin):
    """Corrections are history: listed and read here, added only through the story's action."""

    list_display = ["__str__", "story", "published_at"]
    list_select_related = ["story"]
    date_hierarchy = "published_at"
    search_fields = ["text", "story__headline"]
    readonly_fields = ["story", "position", "published_at", "text"]

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(PublishedVersion)
class PublishedVersionAdmin(InUsersNewsroomsAdmin, admin.ModelAdmin):
    """What readers get: made only by the publish gate, changed only by corrections and
    retractions, so read-only here."""

    newsroom_lookup = "newsroom"
    list_display = ["headline", "desk_id", "newsroom", "published_at", "modified_at", "live", "gate", "flag"]
    list_select_related = ["newsroom"]
    list_filter = [("newsroom", admin.RelatedOnlyFieldListFilter), ("withdrawn_at", admin.EmptyFieldListFilter)]
    search_fields = ["headline", "=desk_id", "slug"]
    date_hierarchy = "published_at"
    fields = [
        "story",
        "desk_id",
        "dateline",
        "slug",
        "headline",
        "published_at",
        "modified_at",
        "gate",
        "published_by",
        "flag",
        "withdrawn_at",
        "withdrawn_reason",
        "render_format",
        "rendered_at",
        "document",
    ]
    readonly_fields = fields

    @admin.display(boolean=True, description="live")
    def live(self, version: PublishedVersion) -> bool:
        return version.withdrawn_at is None

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False
