from django.apps import AppConfig


class VerificationConfig(AppConfig):
    name = "verification"

    def ready(self) -> None:
        # signals keeps the repeat index current when stories change (verification/signals.py);
        # system_checks registers the task-settings checks (verification.E001-E003).
        from newsroom.ops.metrics import scrape_time

        from . import (
            signals,  # noqa: F401
            system_checks,  # noqa: F401
        )
        from .metrics import oldest_submission

        # /metrics reports how long the oldest submission has waited for its checks.
        scrape_time.add(oldest_submission)

        # Without celery beat (make run), the serving process publishes scheduled stories itself.
        from .embedded_scheduler import start_embedded_scheduler

        start_embedded_scheduler()
