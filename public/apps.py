from django.apps import AppConfig


class PublicConfig(AppConfig):
    """The public site: pages, twins, listings, feeds, sitemaps, search, robots, llms.txt and
    the reuse terms. It reads published versions only."""

    name = "public"

    def ready(self) -> None:
        from . import receivers

        receivers.connect()
