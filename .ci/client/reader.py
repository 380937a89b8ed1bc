"""A reader, as a consumer writes one with the client openapi-python-client generates from the
live schema: no token, plain ``Client``. Lists the live stories, opens the first, prints its
headline and how many paragraphs cite claims. Type-checked by mypy in CI (.ci/client/run).

    python reader.py BASE_URL
"""

from __future__ import annotations

import sys

from newsroom_client import Client
from newsroom_client.api.stories import stories_list, stories_retrieve
from newsroom_client.models import Desk1Story, PaginatedStorySummaryList


def main(base_url: str) -> int:
    client = Client(base_url=base_url)
    page = stories_list.sync(client=client)
    if not isinstance(page, PaginatedStorySummaryList) or not page.results:
        print(f"no story list: {page!r}", file=sys.stderr)
        return 1
    first = page.results[0]
    story = stories_retrieve.sync(first.id, client=client)
    if not isinstance(story, Desk1Story):
        print(f"story {first.id} did not come back as a desk/1 story: {story!r}", file=sys.stderr)
        return 1
    paragraphs = [paragraph for section in story.sections for paragraph in section.paragraphs]
    print(f"{story.id}\t{story.headline}\t{len(paragraphs)} paragraphs, {len(story.key_facts)} key facts")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
