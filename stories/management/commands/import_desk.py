from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from newsroom.jsonfiles import expand_paths, read_json_values
from stories.desk import DeskError
from stories.services import story_import_desk


class Command(BaseCommand):
    help = (
        "Import hangingcontext.desk/1 stories from files, folders of *.json, or - for standard "
        "input. Each story is imported whole or not at all; the same id again updates it."
    )

    def add_arguments(self, parser):
        parser.add_argument("paths", nargs="+", metavar="PATH")
        parser.add_argument(
            "--draft",
            action="store_true",
            help="Import published stories as drafts, to be checked before publication.",
        )

    def handle(self, *args, paths: list[str], draft: bool, **options):
        created = updated = failed = 0
        for path in expand_paths(paths):
            for item in read_json_values(path, limit=settings.DESK_MAX_DOCUMENT_BYTES):
                if item.error:
                    failed += 1
                    self.stderr.write(f"{item.location}: $: {item.error}")
                    continue
                try:
                    result = story_import_desk(document=item.value, as_draft=draft, actor="import_desk")
                except DeskError as error:
                    failed += 1
                    for problem in error.problems:
                        self.stderr.write(f"{item.location}: {problem}")
                    continue
                story = result.story
                created += result.created
                updated += not result.created
                state = "created" if result.created else "updated"
                self.stdout.write(f"{story.desk_id}\t{story.slug}\t{state}\t{story.status}")
        summary = f"{created + updated} imported ({created} created, {updated} updated), {failed} failed"
        if failed:
            raise CommandError(summary)
        if not created + updated:
            raise CommandError("no stories found in " + " ".join(paths))
        self.stdout.write(self.style.SUCCESS(summary))
