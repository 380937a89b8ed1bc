from django.apps import AppConfig


class VerificationConfig(AppConfig):
    name = "verification"

    def ready(self) -> None:
        # Keeps the repeat index current when stories change; see verification/signals.py.
        from . import signals  # noqa: F401
