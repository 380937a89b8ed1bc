"""Import desk/1 stories into their working copies, and send published ones through the gate.

It lives with the workflow rather than with the stories because publishing goes through the
checks: a document with ``published_at`` is submitted, and is published when its checks pass
and its newsroom publishes automatically; otherwise it waits, verified or failed, for an editor
(or submitted, while the checks could not decide: the beat sweep runs them again).
"""

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from newsroom.jsonfiles import expand_paths, read_json_values
from stories.desk import DeskError
from stories.models import Story
from stories.services import story_import_desk
from verification.gate import run_problems
from verification.workflow import WorkflowError, story_publish_unchecked, story_submit

ACTOR = "import_desk"


class Command(BaseCommand):
    help = (
        "Import hangingcontext.desk/1 stories from files, folders of *.json, or - for standard "
        "input, into their working copies. Each story is imported whole or not at all; the same "
        "id again updates its working copy. A document with published_at is submitted for the "
        "checks and published when they pass (if its newsroom publishes automatically)."
    )

    def add_arguments(self, parser):
        parser.add_argument("paths", nargs="+", metavar="PATH")
        mode = parser.add_mutually_exclusive_group()
        mode.add_argument(
            "--draft",
            action="store_true",
            help="Import published stories as drafts: not submitted, their publication time dropped.",
        )
        mode.add_argument(
            "--unchecked",
            action="store_true",
            help="Publish without running the checks (an archive migration); needs --reason, which is recorded.",
        )
        parser.add_argument("--reason", default="", help="Why the stories are published without checks.")

    def handle(self, *args, paths: list[str], draft: bool, unchecked: bool, reason: str, **options):
        if unchecked and not reason.strip():
            raise CommandError("--unchecked needs --reason: say why these stories skip the checks")
        if reason and not unchecked:
            raise CommandError("--reason goes with --unchecked")
        created = updated = failed = 0
        for path in expand_paths(paths):
            for item in read_json_values(path, limit=settings.DESK_MAX_DOCUMENT_BYTES):
                if item.error:
                    failed += 1
                    # An error inside the document begins with its path; one about the whole
                    # document (not JSON, too big) is at "$".
                    where = "" if item.at != "$" else "$: "
                    self.stderr.write(f"{item.location}: {where}{item.error}")
                    continue
                try:
                    result = story_import_desk(document=item.value, as_draft=draft, actor=ACTOR)
                except DeskError as error:
                    failed += 1
                    for problem in error.problems:
                        self.stderr.write(f"{item.location}: {problem}")
                    continue
                created += result.created
                updated += not result.created
                story = self._publish(result.story, item.value, draft=draft, unchecked=unchecked, reason=reason)
                state = "created" if result.created else "updated"
                self.stdout.write(f"{story.desk_id}\t{story.slug}\t{state}\t{self._where(story)}")
        summary = f"{created + updated} imported ({created} created, {updated} updated), {failed} failed"
        if failed:
            raise CommandError(summary)
        if not created + updated:
            raise CommandError("no stories found in " + " ".join(paths))
        self.stdout.write(self.style.SUCCESS(summary))

    def _publish(self, story: Story, document: dict, *, draft: bool, unchecked: bool, reason: str) -> Story:
        if draft or "published_at" not in document:
            return story
        try:
            if unchecked:
                return story_publish_unchecked(story=story, actor=ACTOR, reason=reason)
            if story.is_public and not story.has_unpublished_changes:
                return story
            run = story_submit(story=story, actor=ACTOR)
            # With eager tasks the checks ran when the submission committed: read their outcome.
            run.refresh_from_db()
            if run.is_finished and run.status != run.Status.PASSED:
                problems = "; ".join(run_problems(run))
                if run.status == run.Status.REVIEW:
                    self.stderr.write(
                        f"story {story.desk_id}: imported, not published yet: parts wait on the desk's review "
                        f"({problems}); an editor confirms them in admin"
                    )
                elif run.status == run.Status.UNKNOWN:
                    self.stderr.write(
                        f"story {story.desk_id}: imported, not published yet: the checks could not decide "
                        f"({problems}); it stays submitted and they run again by themselves"
                    )
                else:
                    self.stderr.write(
                        f"story {story.desk_id}: imported, not published: checks {run.status}: {problems}"
                    )
        except WorkflowError as refusal:
            self.stderr.write(f"story {story.desk_id}: imported, not published: {refusal.message}")
        return Story.objects.get(pk=story.pk)

    @staticmethod
    def _where(story: Story) -> str:
        if story.is_public and not story.has_unpublished_changes:
            return "published"
        return story.status
