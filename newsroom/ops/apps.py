from django.apps import AppConfig


class OpsConfig(AppConfig):
    name = "newsroom.ops"
    label = "ops"
    verbose_name = "Operations"

    def ready(self) -> None:
        from . import checks  # noqa: F401  (registers the system checks)
