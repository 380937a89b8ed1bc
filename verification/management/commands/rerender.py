"""Render every published version again: at a release whose render format changed, or after
a site-frame change (the site's name, its header and footer, its stylesheet's address)."""

from django.core.management.base import BaseCommand

from stories.models import PublishedVersion
from stories.services import current_render_format, version_rerender


class Command(BaseCommand):
    help = (
        "Render the stored page and twins of published stories again, from their frozen "
        "documents and what the stores now say of their manifests. What was checked stays as it "
        "was checked. By default only versions rendered in an older format; --all for every one."
    )

    def add_arguments(self, parser):
        parser.add_argument("--all", action="store_true", help="Every version, whatever format it was rendered in.")

    def handle(self, *args, all: bool, **options):
        versions = PublishedVersion.objects.order_by("pk")
        if not all:
            versions = versions.exclude(render_format=current_render_format())
        changed = total = 0
        for version in versions.iterator(chunk_size=200):
            total += 1
            changed += version_rerender(version=version)
        self.stdout.write(f"{total} versions rendered again, {changed} changed for readers")
