from django.apps import AppConfig


class WebhooksConfig(AppConfig):
    name = "webhooks"

    def ready(self) -> None:
        # receivers turns published, corrected and retracted stories into deliveries.
        from . import receivers  # noqa: F401
