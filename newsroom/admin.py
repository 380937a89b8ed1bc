from django.contrib import admin

from .models import Beat, Disclosure, Newsroom, ReuseTerms, RunGuide, SponsorAd


class BeatInline(admin.TabularInline):
    model = Beat
    extra = 0
    prepopulated_fields = {"slug": ("title",)}


@admin.register(Newsroom)
class NewsroomAdmin(admin.ModelAdmin):
    list_display = ["title", "slug", "auto_publish", "created_at"]
    list_filter = ["auto_publish"]
    search_fields = ["title", "slug"]
    prepopulated_fields = {"slug": ("title",)}
    inlines = [BeatInline]


@admin.register(Beat)
class BeatAdmin(admin.ModelAdmin):
    list_display = ["title", "slug", "newsroom"]
    list_filter = ["newsroom"]
    list_select_related = ["newsroom"]
    search_fields = ["title", "slug", "newsroom__title"]
    autocomplete_fields = ["newsroom"]


class SiteTextAdmin(admin.ModelAdmin):
    """Versions are history: a new version is added, and one that stories carry is not edited.

    Site-wide texts belong to the site: adding a version needs the model's add permission,
    which superusers hold and editors are not given; an import never adds one.
    """

    list_display = ["__str__", "effective_from", "created_at"]
    date_hierarchy = "effective_from"
    readonly_fields = ["fingerprint", "created_at"]

    def get_readonly_fields(self, request, obj=None):
        fields = list(super().get_readonly_fields(request, obj))
        if obj is not None and obj.story_set.exists():
            fields += [field for field in obj.content_fields if field not in fields]
        return fields

    def has_delete_permission(self, request, obj=None):
        # The permission first: a version no story carries is deletable only by who may delete.
        return super().has_delete_permission(request, obj) and (obj is None or not obj.story_set.exists())


@admin.register(Disclosure)
class DisclosureAdmin(SiteTextAdmin):
    list_display = ["__str__", "text", "effective_from"]
    search_fields = ["text"]


@admin.register(ReuseTerms)
class ReuseTermsAdmin(SiteTextAdmin):
    list_display = ["__str__", "version", "effective_from"]
    search_fields = ["summary", "version"]


@admin.register(RunGuide)
class RunGuideAdmin(SiteTextAdmin):
    list_display = ["__str__", "title", "effective_from"]
    search_fields = ["title", "summary"]


@admin.register(SponsorAd)
class SponsorAdAdmin(SiteTextAdmin):
    list_display = ["__str__", "title", "label", "effective_from"]
    search_fields = ["title", "text"]
