from django.apps import AppConfig


class VerificationConfig(AppConfig):
    name = "verification"

    def ready(self) -> None:
        # signals keeps the repeat index current when stories change (verification/signals.py);
        # system_checks registers the task-settings checks (verification.E001-E003).
        from . import (
            signals,  # noqa: F401
            system_checks,  # noqa: F401
        )
