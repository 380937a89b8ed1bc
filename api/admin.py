"""The admin's token pages (django-rest-knox's) with each token's scopes: shown in the list, and
chosen on a token's page once it is made (a token made here starts with every scope)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin
from django.http import HttpRequest
from knox.admin import AuthTokenAdmin
from knox.models import AuthToken

from .models import Scope, TokenGrant
from .tokens import ordered


class TokenGrantForm(forms.ModelForm):
    scopes = forms.MultipleChoiceField(choices=Scope.choices, widget=forms.CheckboxSelectMultiple, required=False)

    class Meta:
        model = TokenGrant
        fields = ["scopes"]

    def clean_scopes(self) -> list[str]:
        return ordered(self.cleaned_data["scopes"])


class TokenGrantInline(admin.StackedInline):
    model = TokenGrant
    form = TokenGrantForm
    can_delete = False
    max_num = 1
    verbose_name = verbose_name_plural = "scopes"


admin.site.unregister(AuthToken)


@admin.register(AuthToken)
class ScopedAuthTokenAdmin(AuthTokenAdmin):
    list_display = (*AuthTokenAdmin.list_display, "scopes")
    list_select_related = ("user", "grant")

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> tuple[str, ...]:
        # A made token's digest, user and times are what they are; only its scopes change here.
        return ("digest", "token_key", "user", "created", "expiry") if obj is not None else ()

    def get_inlines(self, request: HttpRequest, obj: Any = None) -> list[type]:
        # Not on the add page: saving the token gives it its row of scopes (api.tokens).
        return [TokenGrantInline] if obj is not None else []

    @admin.display(description="scopes")
    def scopes(self, token: AuthToken) -> str:
        grant = getattr(token, "grant", None)
        return " ".join(grant.scopes) if grant is not None else "none"
