"""The story admin: every part of a story's working copy visible and editable in order.

Every page here edits the working copy only, and records the change as every other path does
(a revision, a fresh content hash): readers keep the live version until a publish passes the
gate. The live versions themselves are shown read-only.
"""

from django.contrib import admin

from newsroom.admin import InUsersNewsroomsAdmin

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
from .services import story_record_change


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


class KeyFactInline(admin.StackedInline):
    model = KeyFact
    extra = 0
    fields = ["position", "text", "self_reported", "cite_summary"]
    readonly_fields = ["cite_summary"]
    show_change_link = True

    @admin.display(description="cites")
    def cite_summary(self, fact: KeyFact) -> str:
        return "; ".join(str(cite) for cite in fact.cites.all()) or "—"


class SectionInline(admin.TabularInline):
    model = Section
    extra = 0
    fields = ["position", "heading", "paragraph_count"]
    readonly_fields = ["paragraph_count"]
    show_change_link = True

    @admin.display(description="paragraphs")
    def paragraph_count(self, section: Section) -> int:
        return section.paragraphs.count()


class ImageInline(admin.TabularInline):
    model = Image
    extra = 0


class ListItemInline(admin.TabularInline):
    model = ListItem
    extra = 0
    verbose_name = "unresolved question or decision-card item"
    verbose_name_plural = "unresolved questions and decision card"


class CorrectionInline(admin.TabularInline):
    model = Correction
    extra = 0


class RelatedLinkInline(admin.TabularInline):
    model = RelatedLink
    extra = 0


class RevisionInline(admin.TabularInline):
    model = Revision
    extra = 0
    fields = ["created_at", "actor", "note"]
    readonly_fields = fields
    can_delete = False
    show_change_link = True

    def has_add_permission(self, request, obj=None):
        return False


@admin.register(Story)
class StoryAdmin(RecordsStoryChange, admin.ModelAdmin):
    list_display = ["desk_id", "headline", "newsroom", "beat", "edition", "status", "trust", "published_at"]
    list_filter = ["status", "trust", "newsroom", "beat", "edition"]
    list_select_related = ["newsroom", "beat", "edition"]
    search_fields = ["headline", "slug", "=desk_id", "dek"]
    date_hierarchy = "published_at"
    autocomplete_fields = ["newsroom", "beat", "edition"]
    readonly_fields = [
        "status",
        "created_at",
        "updated_at",
        "disclosure",
        "reuse_terms",
        "run_guide",
        "sponsor",
        "live_version_summary",
    ]
    fieldsets = [
        (None, {"fields": ["desk_id", "slug", "dateline", "status", "published_at", "trust"]}),
        ("What readers get", {"fields": ["live_version_summary"]}),
        ("Placement", {"fields": ["newsroom", "beat", "edition", "audience"]}),
        ("Text", {"fields": ["headline", "dek", "angle"]}),
        ("Writer", {"fields": ["writer_agent", "writer_run_id"]}),
        ("Site-wide texts carried", {"fields": ["disclosure", "reuse_terms", "run_guide", "sponsor"]}),
        ("History", {"fields": ["created_at", "updated_at"]}),
    ]

    def get_readonly_fields(self, request, obj=None):
        fields = list(super().get_readonly_fields(request, obj))
        if obj is not None and obj.live_version_or_none is not None:
            # A published story's address is fixed: its URL never moves.
            fields += ["slug", "dateline"]
        return fields

    @admin.display(description="live version")
    def live_version_summary(self, story: Story) -> str:
        version = story.live_version_or_none
        if version is None:
            return "Not published: readers get nothing yet."
        state = "withdrawn (410)" if version.withdrawn_at else "live"
        parts = [f"{state}; published {version.published_at:%Y-%m-%d %H:%M} UTC; gate: {version.gate}"]
        if story.has_unpublished_changes:
            parts.append("the working copy has changes readers do not get until it is published again")
        if version.flag:
            parts.append(f"FLAGGED: {version.flag}")
        return ". ".join(parts)

    inlines = [
        KeyFactInline,
        SectionInline,
        ImageInline,
        ListItemInline,
        CorrectionInline,
        RelatedLinkInline,
        RevisionInline,
    ]


class CiteInline(admin.TabularInline):
    model = Cite
    extra = 0
    fields = ["position", "manifest_id", "claim_ids"]


class ParagraphInline(admin.StackedInline):
    model = Paragraph
    extra = 0
    fields = ["position", "markdown"]
    show_change_link = True


@admin.register(Section)
class SectionAdmin(InUsersNewsroomsAdmin, RecordsStoryChange, admin.ModelAdmin):
    list_display = ["heading", "story", "position"]
    list_select_related = ["story"]
    search_fields = ["heading", "story__headline"]
    autocomplete_fields = ["story"]
    inlines = [ParagraphInline]


@admin.register(Paragraph)
class ParagraphAdmin(InUsersNewsroomsAdmin, RecordsStoryChange, admin.ModelAdmin):
    list_display = ["__str__", "section", "position"]
    list_select_related = ["section"]
    search_fields = ["markdown"]
    autocomplete_fields = ["story", "section"]
    inlines = [CiteInline]

    def save_formset(self, request, form, formset, change):
        # A cite also points at its story, so one query finds all of a story's cites.
        for cite in formset.save(commit=False):
            cite.story_id = form.instance.story_id
            cite.save()
        formset.save_m2m()
        for cite in formset.deleted_objects:
            cite.delete()


@admin.register(KeyFact)
class KeyFactAdmin(InUsersNewsroomsAdmin, RecordsStoryChange, admin.ModelAdmin):
    list_display = ["__str__", "story", "self_reported"]
    list_filter = ["self_reported"]
    list_select_related = ["story"]
    search_fields = ["text"]
    autocomplete_fields = ["story"]
    inlines = [CiteInline]
    save_formset = ParagraphAdmin.save_formset


@admin.register(Cite)
class CiteAdmin(InUsersNewsroomsAdmin, RecordsStoryChange, admin.ModelAdmin):
    list_display = ["manifest_id", "claim_ids", "story", "key_fact", "paragraph"]
    list_select_related = ["story", "key_fact", "paragraph"]
    search_fields = ["manifest_id", "story__headline"]
    raw_id_fields = ["story", "key_fact", "paragraph"]


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


@admin.register(Image)
class ImageAdmin(InUsersNewsroomsAdmin, RecordsStoryChange, admin.ModelAdmin):
    list_display = ["__str__", "story", "credit", "position"]
    list_select_related = ["story"]
    search_fields = ["alt", "caption", "credit", "story__headline"]
    autocomplete_fields = ["story"]


@admin.register(ListItem)
class ListItemAdmin(InUsersNewsroomsAdmin, RecordsStoryChange, admin.ModelAdmin):
    list_display = ["__str__", "kind", "story", "position"]
    list_filter = ["kind"]
    list_select_related = ["story"]
    search_fields = ["text", "story__headline"]
    autocomplete_fields = ["story"]


@admin.register(RelatedLink)
class RelatedLinkAdmin(InUsersNewsroomsAdmin, RecordsStoryChange, admin.ModelAdmin):
    list_display = ["headline", "story", "url", "position"]
    list_select_related = ["story"]
    search_fields = ["headline", "slug", "story__headline"]
    autocomplete_fields = ["story"]


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
    list_filter = ["newsroom", ("withdrawn_at", admin.EmptyFieldListFilter)]
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
