"""Record the versions of the site-wide texts an archive's desk/1 documents carry.

An import points a story at the version of each site-wide text (disclosure, reuse terms, run
guide, sponsor) its document carries, and refuses a block the site does not know: only an admin
adds versions. Before migrating an archive, an operator runs this on it once, instead of
clicking each version into admin; then ``import_desk`` of the same files works.
"""

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from newsroom.jsonfiles import expand_paths, read_json_values
from stories.desk import DeskError
from stories.services import site_texts_add_from


class Command(BaseCommand):
    help = (
        "Add the versions of the site-wide texts (disclosure, reuse, run_these_manifests, sponsor) "
        "that hangingcontext.desk/1 documents carry and the site lacks, each in force from its "
        "document's publication, printing each one added. Files, folders of *.json, or - for stdin."
    )

    def add_arguments(self, parser):
        parser.add_argument("paths", nargs="+", metavar="PATH")

    def handle(self, *args, paths: list[str], **options):
        added = documents = failed = 0
        for path in expand_paths(paths):
            for item in read_json_values(path, limit=settings.DESK_MAX_DOCUMENT_BYTES):
                if item.error:
                    failed += 1
                    self.stderr.write(item.error_line)
                    continue
                try:
                    versions = site_texts_add_from(item.value)
                except DeskError as error:
                    failed += 1
                    for problem in error.problems:
                        self.stderr.write(f"{item.location}: {problem}")
                    continue
                documents += 1
                for version in versions:
                    added += 1
                    self.stdout.write(f"{item.location}\tadded the {version}")
        summary = f"{added} site-wide text versions added from {documents} documents, {failed} failed"
        if failed:
            raise CommandError(summary)
        if not documents:
            raise CommandError("no documents found in " + " ".join(paths))
        self.stdout.write(self.style.SUCCESS(summary))
