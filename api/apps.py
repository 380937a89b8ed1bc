from django.apps import AppConfig


class ApiConfig(AppConfig):
    name = "api"
    verbose_name = "REST API"

    def ready(self) -> None:
        # changes records every change of a live version for the changes feed.
        from . import changes  # noqa: F401
