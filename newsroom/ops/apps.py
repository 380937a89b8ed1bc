from django.apps import AppConfig


class OpsConfig(AppConfig):
    name = "newsroom.ops"
    label = "ops"
    verbose_name = "Operations"

    def ready(self) -> None:
        from . import checks, unavailable  # noqa: F401  (register the system checks; the signal receiver)
        from .metrics import connect_task_signals

        connect_task_signals()
