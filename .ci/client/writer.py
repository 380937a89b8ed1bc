"""A writer agent with the generated client: an ``AuthenticatedClient`` with its Bearer token.
It reads a live story, submits a copy of it under a new id as a desk/1 document, with an
Idempotency-Key, and polls the run until the checks are done, printing each problem's check,
place and code. Type-checked by mypy in CI (.ci/client/run).

    python writer.py BASE_URL TOKEN
"""

from __future__ import annotations

import sys
import time
import uuid

from newsroom_client import AuthenticatedClient, Client
from newsroom_client.api.runs import runs_retrieve
from newsroom_client.api.stories import stories_create, stories_list, stories_retrieve
from newsroom_client.models import Desk1Story, PaginatedStorySummaryList, Run, Submission


def a_new_story(base_url: str) -> Desk1Story | None:
    """A live story's document with a new id and address: what the agent submits."""
    reader = Client(base_url=base_url)
    page = stories_list.sync(client=reader)
    if not isinstance(page, PaginatedStorySummaryList) or not page.results:
        return None
    story = stories_retrieve.sync(page.results[0].id, client=reader)
    if not isinstance(story, Desk1Story):
        return None
    document = story.to_dict()
    number = str(900_000 + uuid.uuid4().int % 99_999)
    document["id"], document["slug"] = number, f"generated-client-{number}"
    document["url"] = str(document["url"]).replace(story.slug, document["slug"])
    document.pop("published_at", None)
    return Desk1Story.from_dict(document)


def main(base_url: str, token: str) -> int:
    story = a_new_story(base_url)
    if story is None:
        print("no live story to start from", file=sys.stderr)
        return 1
    client = AuthenticatedClient(base_url=base_url, token=token)
    submission = stories_create.sync(client=client, body=story, idempotency_key=str(uuid.uuid4()))
    if not isinstance(submission, Submission) or submission.run is None:
        print(f"the submission was refused, or checked nothing: {submission!r}", file=sys.stderr)
        return 1
    run: Run | None = None
    for _ in range(60):
        answer = runs_retrieve.sync(submission.run.id, client=client)
        if isinstance(answer, Run) and answer.finished:
            run = answer
            break
        time.sleep(0.5)
    if run is None:
        print(f"run {submission.run.id} did not finish", file=sys.stderr)
        return 1
    print(f"story {story.id}: {submission.done}; run {run.id}: {run.status}")
    for problem in run.problems:
        print(f"  {problem.check} ({problem.status}) at {problem.at}: {problem.code}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2]))
