from django.contrib import admin

from newsroom.admin import SafeAutocompleteAdmin
from newsroom.cleantext import CleanTextModelForm

from .models import Claim, Manifest


class ClaimInline(admin.TabularInline):
    model = Claim
    form = CleanTextModelForm
    extra = 0
    fields = ["position", "claim_id", "text", "type", "confidence"]


@admin.register(Manifest)
class ManifestAdmin(admin.ModelAdmin):
    form = CleanTextModelForm
    list_display = ["manifest_id", "title", "source_name", "published_date", "origin", "is_illustrative", "claim_count"]
    list_filter = ["origin", "is_illustrative", "source_name", "published_date"]
    search_fields = ["manifest_id", "title", "source_name", "claims__claim_id"]
    date_hierarchy = "published_date"
    readonly_fields = ["origin", "fetched_at", "created_at", "updated_at"]
    fieldsets = [
        (None, {"fields": ["manifest_id", "title", "source_name", "source_url", "published_date"]}),
        ("Brief", {"fields": ["brief_headline", "brief_summary"]}),
        ("Provenance", {"fields": ["is_illustrative", "origin", "fetched_at", "created_at", "updated_at"]}),
    ]
    inlines = [ClaimInline]

    def get_queryset(self, request):
        from django.db.models import Count

        # Ordered again: a counting query drops Meta.ordering, and the autocomplete pages it.
        return super().get_queryset(request).annotate(claim_total=Count("claims")).order_by(*Manifest._meta.ordering)

    @admin.display(description="claims", ordering="claim_total")
    def claim_count(self, manifest: Manifest) -> int:
        return manifest.claim_total

    def change_view(self, request, object_id, form_url="", extra_context=None):
        manifest = self.get_object(request, object_id)
        if manifest is not None and manifest.is_illustrative:
            self.message_user(
                request,
                "Demo data: this manifest's claim texts are illustrative, written for the demo, "
                "not the source's real claims.",
                level="WARNING",
            )
        return super().change_view(request, object_id, form_url, extra_context)


@admin.register(Claim)
class ClaimAdmin(SafeAutocompleteAdmin, admin.ModelAdmin):
    form = CleanTextModelForm
    list_display = ["claim_id", "manifest", "type", "confidence", "short_text"]
    list_filter = ["type"]
    list_select_related = ["manifest"]
    search_fields = ["claim_id", "text", "manifest__manifest_id"]
    autocomplete_fields = ["manifest"]

    @admin.display(description="text")
    def short_text(self, claim: Claim) -> str:
        return claim.text[:100]
