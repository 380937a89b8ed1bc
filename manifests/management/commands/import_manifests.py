from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from manifests.adapters import SynorbAdapter
from manifests.models import Manifest
from manifests.services import manifest_store
from newsroom.jsonfiles import DocumentError, expand_paths, read_json_values


class Command(BaseCommand):
    help = (
        "Load manifests with their claims from files (a JSON array of manifests, one manifest, "
        "or JSON Lines), folders of them, or - for standard input."
    )

    def add_arguments(self, parser):
        parser.add_argument("paths", nargs="+", metavar="PATH")

    def handle(self, *args, paths: list[str], **options):
        created = updated = failed = 0
        # A manifest file may hold a whole array, so allow it a larger size than one story.
        limit = settings.DESK_MAX_DOCUMENT_BYTES * 10
        for path in expand_paths(paths):
            for item in read_json_values(path, limit=limit):
                if item.error:
                    failed += 1
                    self.stderr.write(f"{item.location}: $: {item.error}")
                    continue
                values = item.value if isinstance(item.value, list) else [item.value]
                for index, value in enumerate(values):
                    location = f"{item.location}[{index}]" if isinstance(item.value, list) else item.location
                    try:
                        data = SynorbAdapter.to_manifest(value)
                        with transaction.atomic():
                            manifest, was_created = manifest_store(data=data, origin=Manifest.Origin.FILE)
                    except DocumentError as error:
                        failed += 1
                        for problem in error.problems:
                            self.stderr.write(f"{location}: {problem}")
                        continue
                    created += was_created
                    updated += not was_created
                    state = "created" if was_created else "updated"
                    self.stdout.write(f"{manifest.manifest_id}\t{len(data.claims)} claims\t{state}")
        summary = f"{created + updated} manifests imported ({created} created, {updated} updated), {failed} failed"
        if failed:
            raise CommandError(summary)
        self.stdout.write(self.style.SUCCESS(summary))
