"""newsroom.E001: no admin list filter offers every row of a related model."""

from __future__ import annotations

from django.contrib import admin

from newsroom.models import Beat
from newsroom.system_checks import check_admin_filters_are_scoped


def site_with(list_filter: list) -> admin.AdminSite:
    site = admin.AdminSite(name="checked")
    site.register(Beat, type("CheckedBeatAdmin", (admin.ModelAdmin,), {"list_filter": list_filter}))
    return site


def test_the_project_s_admin_filters_offer_only_what_the_user_s_rows_use():
    assert check_admin_filters_are_scoped() == []


def test_it_reports_a_filter_on_a_relation_by_its_name_or_with_the_plain_related_filter():
    for item in [
        "newsroom",
        ("newsroom", admin.RelatedFieldListFilter),
        "newsroom__title",
        ("newsroom__slug", admin.AllValuesFieldListFilter),
    ]:
        errors = check_admin_filters_are_scoped(site=site_with([item]))

        assert [error.id for error in errors] == ["newsroom.E001"], item
        assert "'newsroom" in errors[0].msg
        assert "RelatedOnlyFieldListFilter" in errors[0].hint


def test_it_accepts_the_related_only_filter_and_filters_on_plain_fields():
    site = site_with(
        [
            ("newsroom", admin.RelatedOnlyFieldListFilter),
            "title",
            ("slug", admin.AllValuesFieldListFilter),
            "newsroom__auto_publish",  # yes or no: nothing of any newsroom's
        ]
    )

    assert check_admin_filters_are_scoped(site=site) == []


def test_django_runs_it_with_the_admin_s_checks():
    from django.core.checks import Tags, registry

    assert check_admin_filters_are_scoped in registry.registry.get_checks()
    assert Tags.admin in check_admin_filters_are_scoped.tags
