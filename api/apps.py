from django.apps import AppConfig


class ApiConfig(AppConfig):
    name = "api"
    verbose_name = "REST API"

    def ready(self) -> None:
        # changes records every change of a live version for the changes feed; tokens gives every
        # token made outside create_api_token (the admin's form) its scopes.
        from . import changes, tokens  # noqa: F401
