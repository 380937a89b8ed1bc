from django.core.management.base import BaseCommand, CommandError

from stories.desk import dumps, export_stories
from stories.labels import document_with_record
from stories.models import PublishedVersion, Story

BATCH_SIZE = 200


class Command(BaseCommand):
    help = (
        "Print stories as hangingcontext.desk/1 JSON: one story as a JSON object, several "
        "(or all, with no --id) as JSON Lines, in id order. Drafts and retracted stories are left "
        "out unless asked for, and named on standard error with the reason."
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "--id", dest="ids", action="append", default=[], metavar="ID", help="A story id; repeatable."
        )
        parser.add_argument("--include-drafts", action="store_true", help="Export drafts too.")
        parser.add_argument(
            "--include-retracted",
            action="store_true",
            help="Export retracted stories too. desk/1 has no status: importing one submits it again.",
        )

    def handle(self, *args, ids: list[str], include_drafts: bool, include_retracted: bool, **options):
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
        stories = self._leave_out(stories, include_drafts=include_drafts, include_retracted=include_retracted)
        if len(ids) == 1:
            for document in self._documents(list(stories.with_parts())):
                self.stdout.write(dumps(document))
            return
        # Batches keep memory flat for a store of any size; each batch is a fixed few queries.
        last_id = -1
        while batch := list(stories.filter(desk_id__gt=last_id).with_parts()[:BATCH_SIZE]):
            for document in self._documents(batch):
                self.stdout.write(dumps(document, pretty=False))
            last_id = batch[-1].desk_id

    @staticmethod
    def _documents(batch: list[Story]):
        """The stories' documents, each published one with how its live version passed (the
        derived ``verification`` key, absent for a plain checked version)."""
        records = dict(
            PublishedVersion.objects.filter(pk__in=[story.pk for story in batch]).values_list("pk", "verification")
        )
        for story, document in zip(batch, export_stories(batch), strict=True):
            yield document_with_record(document, records.get(story.pk) or {})

    def _leave_out(self, stories, *, include_drafts: bool, include_retracted: bool):
        """The stories to export; those left out (and retracted ones exported) are named on
        standard error. An export is what an import reads back, and desk/1 carries no status: a
        retracted story imported again would go out as a submission, a draft as a published one."""
        reasons = {}
        if not include_drafts:
            reasons[Story.Status.DRAFT] = "a draft (--include-drafts exports drafts)"
        if not include_retracted:
            reasons[Story.Status.RETRACTED] = "retracted (--include-retracted exports it; desk/1 has no status)"
        for desk_id, slug, status in stories.filter(status__in=list(reasons)).values_list("desk_id", "slug", "status"):
            self.stderr.write(f"left out story {desk_id} ({slug}): {reasons[status]}")
        if include_retracted:
            for desk_id, slug in stories.filter(status=Story.Status.RETRACTED).values_list("desk_id", "slug"):
                self.stderr.write(
                    f"story {desk_id} ({slug}) is retracted: desk/1 has no status, so importing this "
                    "export would submit it again"
                )
        return stories.exclude(status__in=list(reasons))
