from django.contrib import admin

from .models import Edition


@admin.register(Edition)
class EditionAdmin(admin.ModelAdmin):
    list_display = ["key", "title", "story_count", "created_at"]
    search_fields = ["key", "title"]

    def get_queryset(self, request):
        from django.db.models import Count

        # Ordered again: a counting query drops Meta.ordering, and the autocomplete pages it.
        return super().get_queryset(request).annotate(story_total=Count("stories")).order_by("-key")

    @admin.display(description="stories", ordering="story_total")
    def story_count(self, edition: Edition) -> int:
        return edition.story_total
