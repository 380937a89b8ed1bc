"""Import desk/1 stories into their working copies, and send published ones through the gate.

It lives with the workflow rather than with the stories because publishing goes through the
checks: a document with ``published_at`` is submitted, and is published when its checks pass
and its newsroom publishes automatically; otherwise it waits, verified or failed, for an editor
(or submitted, while the checks could not decide: the beat sweep runs them again).

An import that stops part way (killed, the machine restarted) is resumed by running the same
command on the same input again: each story is written in one transaction, a story already
published with the same document is left as it is ("unchanged"), and the one that was cut off is
imported and submitted again. Each line is flushed as it is written, so the output shows how far
it got.
"""

from collections import Counter

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
        states: Counter[str] = Counter()
        failed = 0
        location = ""
        try:
            for path in expand_paths(paths):
                for item in read_json_values(path, limit=settings.DESK_MAX_DOCUMENT_BYTES):
                    location = item.location
                    if item.error:
                        failed += 1
                        self._say(self.stderr, item.error_line)
                        continue
                    try:
                        result = story_import_desk(document=item.value, as_draft=draft, actor=ACTOR)
                    except DeskError as error:
                        failed += 1
                        for problem in error.problems:
                            self._say(self.stderr, f"{item.location}: {problem}")
                        continue
                    state = "created" if result.created else "updated" if result.changed else "unchanged"
                    states[state] += 1
                    story = self._publish(result.story, item.value, draft=draft, unchecked=unchecked, reason=reason)
                    self._say(self.stdout, f"{story.desk_id}\t{story.slug}\t{state}\t{self._where(story)}")
        except KeyboardInterrupt:
            raise CommandError(
                f"interrupted at {location or 'the start'}: run the same command again to resume; "
                "what was imported stays, and stories already published with the same document are left as they are"
            ) from None
        imported = sum(states.values())
        summary = (
            f"{imported} imported ({states['created']} created, {states['updated']} updated, "
            f"{states['unchanged']} unchanged), {failed} failed"
        )
        if failed:
            raise CommandError(summary)
        if not imported:
            raise CommandError("no stories found in " + " ".join(paths))
        self._say(self.stdout, self.style.SUCCESS(summary))

    @staticmethod
    def _say(out, line: str) -> None:
        """Write a line and flush it, so whoever watches (or a log) sees how far the import got."""
        out.write(line)
        out.flush()

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
                problems = "; ".join(run_problems(run, paths=True))
                if run.status == run.Status.REVIEW:
                    self._say(
                        self.stderr,
                        f"story {story.desk_id}: imported, not published yet: parts wait on the desk's review "
                        f"({problems}); an editor confirms them in admin",
                    )
                elif run.status == run.Status.UNKNOWN:
                    self._say(
                        self.stderr,
                        f"story {story.desk_id}: imported, not published yet: the checks could not decide "
                        f"({problems}); it stays submitted and they run again by themselves",
                    )
                else:
                    self._say(
                        self.stderr, f"story {story.desk_id}: imported, not published: checks {run.status}: {problems}"
                    )
        except WorkflowError as refusal:
            self._say(self.stderr, f"story {story.desk_id}: imported, not published: {refusal.message}")
        return Story.objects.get(pk=story.pk)

    @staticmethod
    def _where(story: Story) -> str:
        if story.is_public and not story.has_unpublished_changes:
            return "published"
        return story.status
