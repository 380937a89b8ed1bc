from django.apps import AppConfig


class StoriesConfig(AppConfig):
    name = "stories"

    def ready(self) -> None:
        from . import receivers

        receivers.connect()
