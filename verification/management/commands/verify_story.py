import json

from django.core.management.base import BaseCommand, CommandError

from stories.models import Story
from verification.models import VerificationRun
from verification.services import story_verify

# Exit statuses: 0 every check passed, 1 some check failed, 3 none failed but some could not
# decide (or another worker is still running the checks), 4 nothing failed or was undecided but
# some parts wait on the desk's review.
EXIT_STATUS = {VerificationRun.Status.PASSED: 0, VerificationRun.Status.FAILED: 1, VerificationRun.Status.REVIEW: 4}
EXIT_UNDECIDED = 3
# A bad or unknown id: not 1, which says a check failed.
EXIT_USAGE = 2
MARKS = {"pass": "pass", "fail": "FAIL", "unknown": "unknown", "review": "review"}


class Command(BaseCommand):
    help = (
        "Run the five checks on a story now and print them. ID is the story's desk/1 id. A passed or "
        "failed run for the story's current content is reused unless --again. Exit status: 0 all checks "
        "pass, 1 some check fails, 3 none fails but some could not decide, 4 parts wait on the desk's "
        "review, 2 no such story."
    )

    def add_arguments(self, parser):
        parser.add_argument("story_id", metavar="ID", help="the story's desk/1 id, e.g. 81")
        parser.add_argument("--json", action="store_true", help="print the result as JSON")
        parser.add_argument(
            "--again", action="store_true", help="run the checks even if this content already has a verdict"
        )

    def handle(self, *args, story_id: str, json: bool, again: bool, **options):
        if not story_id.isdigit():
            raise CommandError(f"ID: a story id is a whole number, like 81; got {story_id!r}", returncode=EXIT_USAGE)
        story = Story.objects.filter(desk_id=int(story_id)).first()
        if story is None:
            raise CommandError(f"ID: there is no story with id {story_id}", returncode=EXIT_USAGE)
        run = story_verify(story=story, started_by="manage.py verify_story", force=again)
        if json:
            self.stdout.write(self._as_json(story, run))
        else:
            self._print(story, run)
        code = EXIT_STATUS.get(run.status, EXIT_UNDECIDED)
        if code:
            raise CommandError(self._summary(story, run), returncode=code)

    def _as_json(self, story: Story, run: VerificationRun) -> str:
        document = {
            "story": str(story.desk_id),
            "status": run.status,
            "content_hash": run.content_hash,
            "checks": [
                {
                    "name": check["name"],
                    "status": check["status"],
                    "problems": [
                        {
                            "at": problem["at"],
                            "message": problem["message"],
                            # Runs recorded before problems had codes carry neither.
                            "code": problem.get("code", ""),
                            "status": problem.get("status", check["status"]),
                        }
                        for problem in check["problems"]
                    ],
                }
                for check in run.checks
            ],
        }
        return json_dumps(document)

    def _summary(self, story: Story, run: VerificationRun) -> str:
        if not run.is_finished:
            return f"story {story.desk_id}: run {run.pk} is {run.status} in another worker (since {run.started_at})"
        failed = [check["name"] for check in run.checks if check["status"] == "fail"]
        unknown = [check["name"] for check in run.checks if check["status"] == "unknown"]
        if failed:
            return f"story {story.desk_id}: {len(failed)} check(s) failed: {', '.join(failed)}"
        if run.status == VerificationRun.Status.REVIEW:
            parts = sum(len(check["problems"]) for check in run.checks if check["status"] == "review")
            return f"story {story.desk_id}: {parts} part(s) wait on the desk's review before it may publish"
        return f"story {story.desk_id}: {len(unknown)} check(s) could not decide: {', '.join(unknown)}"

    def _print(self, story: Story, run: VerificationRun) -> None:
        took = f", {run.duration_ms:.0f} ms" if run.duration_ms is not None else ""
        self.stdout.write(
            f"Story {story.desk_id} '{story.slug}': {run.status} "
            f"(run {run.pk}, content {run.content_hash[:12] or '-'}{took})"
        )
        for check in run.checks:
            line = f"  {MARKS.get(check['status'], check['status']):<8} {check['name']}"
            details = check.get("details", {})
            if details.get("closest"):
                closest, scores = details["closest"], details["scores"]
                line += f"  (closest: story {closest['id']} '{closest['slug']}', score {scores['combined']:.2f})"
            elif "closest" in details:
                line += "  (no similar story published in the window)"
            style = {"pass": self.style.SUCCESS, "fail": self.style.ERROR}.get(check["status"], self.style.WARNING)
            self.stdout.write(style(line))
            for problem in check["problems"]:
                code = f" [{problem['code']}]" if problem.get("code") else ""
                self.stdout.write(f"           {problem['at']}: {problem['message']}{code}")


def json_dumps(document: dict) -> str:
    return json.dumps(document, ensure_ascii=False)
