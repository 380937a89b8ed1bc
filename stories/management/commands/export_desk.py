from django.core.management.base import BaseCommand, CommandError

from stories.desk import dumps, export_stories
from stories.models import Story

BATCH_SIZE = 200


class Command(BaseCommand):
    help = (
        "Print stories as hangingcontext.desk/1 JSON: one story as a JSON object, several "
        "(or all, with no --id) as JSON Lines, in id order."
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "--id", dest="ids", action="append", default=[], metavar="ID", help="A story id; repeatable."
        )

    def handle(self, *args, ids: list[str], **options):
        stories = Story.objects.order_by("desk_id")
        if ids:
            bad = [story_id for story_id in ids if not story_id.isdigit()]
            if bad:
                raise CommandError(f"--id: {', '.join(bad)} is not a story id (a whole number)")
            wanted = {int(story_id) for story_id in ids}
            found = set(stories.filter(desk_id__in=wanted).values_list("desk_id", flat=True))
            if missing := wanted - found:
                raise CommandError(f"--id: no story with id {', '.join(map(str, sorted(missing)))}")
            stories = stories.filter(desk_id__in=wanted)
            if len(wanted) == 1:
                (document,) = export_stories(stories.with_parts())
                self.stdout.write(dumps(document))
                return
        # Batches keep memory flat for a store of any size; each batch is a fixed few queries.
        last_id = -1
        while batch := list(stories.filter(desk_id__gt=last_id).with_parts()[:BATCH_SIZE]):
            for document in export_stories(batch):
                self.stdout.write(dumps(document, pretty=False))
            last_id = batch[-1].desk_id
