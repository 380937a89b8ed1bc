"""Bearer tokens (django-rest-knox): ``Authorization: Bearer <token>``.

Only a digest of each token is stored; a token acts as its user, with the user's roles in each
newsroom (``newsroom.roles``). An expired token is refused (and deleted) like an unknown one.
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.extensions import OpenApiAuthenticationExtension
from knox.auth import TokenAuthentication
from rest_framework import exceptions


class BearerTokenAuthentication(TokenAuthentication):
    def authenticate_credentials(self, token: bytes) -> Any:
        # Knox decodes the header as UTF-8 and would fail on other bytes with a 500; a token is
        # always ASCII hex, so anything else is simply not one.
        try:
            text = token.decode("ascii")
        except UnicodeDecodeError:
            raise exceptions.AuthenticationFailed("Invalid token.") from None
        if not text.isalnum():
            raise exceptions.AuthenticationFailed("Invalid token.")
        return super().authenticate_credentials(token)


class BearerTokenScheme(OpenApiAuthenticationExtension):
    target_class = "api.authentication.BearerTokenAuthentication"
    name = "bearerToken"

    def get_security_definition(self, auto_schema: Any) -> dict[str, Any]:
        return {
            "type": "http",
            "scheme": "bearer",
            "description": "A token from `manage.py create_api_token USERNAME` or the admin.",
        }
