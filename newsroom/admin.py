from typing import Any

from django.conf import settings
from django.contrib import admin
from django.contrib.admin.widgets import AutocompleteSelect
from django.contrib.contenttypes.models import ContentType
from django.contrib.contenttypes.views import shortcut
from django.core.exceptions import ValidationError
from django.db.models import QuerySet
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect

from .cleantext import forbidden_character
from .models import Beat, Disclosure, Membership, Newsroom, ReuseTerms, RunGuide, SponsorAd
from .roles import grant_role

# The site's own name, not "Django administration".
admin.site.site_header = f"{settings.SITE_NAME} · editors' desk"
admin.site.site_title = f"{settings.SITE_NAME} desk"
admin.site.index_title = "What needs an editor"


class SafeAutocompleteSelect(AutocompleteSelect):
    """Django's autocomplete select, which looks the chosen rows up to show them again on a form
    with errors; a malformed value (not an id at all) is shown as nothing rather than raising,
    and so is a row the user's autocomplete would not offer (``shown``: another newsroom's
    edition, posted by its key, is not named back by its title)."""

    def __init__(self, *args: Any, shown: QuerySet | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.shown = shown

    def optgroups(self, name: str, value: list[Any], attr: dict[str, Any] | None = None) -> list[Any]:
        target = self.field.target_field
        valid = []
        for item in value:
            try:
                target.to_python(item)
            except ValidationError:
                continue
            if isinstance(item, str) and forbidden_character(item):
                continue
            valid.append(item)
        if valid and self.shown is not None:
            key = target.attname
            offered = {str(pk) for pk in self.shown.filter(**{f"{key}__in": valid}).values_list(key, flat=True)}
            valid = [item for item in valid if str(item) in offered]
        return super().optgroups(name, valid, attr)


class SafeAutocompleteAdmin:
    """An admin whose autocomplete fields use ``SafeAutocompleteSelect``, showing a chosen row
    again only if the field's autocomplete (the related model's admin) offers it to the user."""

    def formfield_for_foreignkey(self, db_field: Any, request: HttpRequest, **kwargs: Any) -> Any:
        if "widget" not in kwargs and db_field.name in self.get_autocomplete_fields(request):
            related = db_field.remote_field.model
            shown = None
            if self.admin_site.is_registered(related):
                shown = self.admin_site.get_model_admin(related).get_queryset(request)
            kwargs["widget"] = SafeAutocompleteSelect(db_field, self.admin_site, using=kwargs.get("using"), shown=shown)
        return super().formfield_for_foreignkey(db_field, request, **kwargs)


class InUsersNewsroomsAdmin:
    """An admin page that shows a user only the rows of the newsrooms they have a role in
    (every newsroom's for a superuser). ``newsroom_lookup`` leads from the model to its newsroom."""

    newsroom_lookup = "story__newsroom"

    def get_queryset(self, request: HttpRequest) -> QuerySet:
        mine = Newsroom.objects.for_user(request.user)
        return super().get_queryset(request).filter(**{f"{self.newsroom_lookup}__in": mine})


def view_on_site(request: HttpRequest, content_type_id: int, object_id: str) -> HttpResponse:
    """The admin's "view on site" redirect (``/admin/r/<content type>/<id>/``), for what the user
    may open in admin only: Django's own asks nothing of the user, so it would tell anyone where
    another newsroom's story is, or will be (its date and slug). Another newsroom's row, or one of
    a model without an admin page, is not found, like a row that does not exist. An admin may say
    where its rows are shown with ``address_on_site(request, obj)`` (``None``: nowhere yet)."""
    try:
        model = ContentType.objects.get_for_id(content_type_id).model_class()
    except ContentType.DoesNotExist:
        model = None
    model_admin = admin.site.get_model_admin(model) if model and admin.site.is_registered(model) else None
    obj = model_admin.get_object(request, object_id) if model_admin is not None else None
    if obj is None or not model_admin.view_on_site or not model_admin.has_view_permission(request, obj):
        raise Http404("Nothing of yours has this id")
    address = getattr(model_admin, "address_on_site", None)
    if address is None:
        return shortcut(request, content_type_id, object_id)
    url = address(request, obj)
    if url is None:
        raise Http404("Not on the site yet")
    return HttpResponseRedirect(url)


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

    def get_queryset(self, request: HttpRequest) -> QuerySet:
        return super().get_queryset(request).for_user(request.user)


@admin.register(Beat)
class BeatAdmin(InUsersNewsroomsAdmin, SafeAutocompleteAdmin, admin.ModelAdmin):
    newsroom_lookup = "newsroom"
    list_display = ["title", "slug", "newsroom"]
    list_filter = [("newsroom", admin.RelatedOnlyFieldListFilter)]
    list_select_related = ["newsroom"]
    search_fields = ["title", "slug", "newsroom__title"]
    autocomplete_fields = ["newsroom"]


@admin.register(Membership)
class MembershipAdmin(InUsersNewsroomsAdmin, SafeAutocompleteAdmin, admin.ModelAdmin):
    """Who works where, and as what. Chiefs see their newsrooms' people; superusers grant roles
    (as ``manage.py add_editor`` does)."""

    list_display = ["user", "newsroom", "role", "created_at"]
    list_filter = ["role", ("newsroom", admin.RelatedOnlyFieldListFilter)]
    list_select_related = ["user", "newsroom"]
    search_fields = ["user__username", "newsroom__title", "newsroom__slug"]
    autocomplete_fields = ["user", "newsroom"]
    newsroom_lookup = "newsroom"

    def save_model(self, request: HttpRequest, obj: Membership, form: Any, change: bool) -> None:
        # One way to give a role: it also makes the user staff and gives the role's permissions.
        obj.pk = grant_role(user=obj.user, newsroom=obj.newsroom, role=obj.role).pk


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
    list_display = ["__str__", "label", "writer", "text", "effective_from"]
    list_filter = ["label", "writer"]
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
