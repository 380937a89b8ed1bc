"""How fast the desk's story page opens: server time, HTML size and queries of the admin change
page for the seed story and for a story of 320 paragraphs and 20 key facts.

    .venv/bin/python bench/desk.py                        # a temporary SQLite database
    .venv/bin/python bench/desk.py --database postgres    # a fresh PostgreSQL database, bench_desk

A throwaway database gets the demo newsroom (``load_demo``) and the big story, imported through
the importer from the seed's own parts repeated (its cites are the seed's, so each cite offers
its manifest's claims as the seed's do). A signed-in chief opens each page through Django's test
client, in this process: what is timed is the server's work on the request, no network, no
browser. Median of several loads after a warm-up, of the page as it opens (key facts and sections
as one text) and of its rows mode (every part a row of inline forms). Targets (issue "The desk at the speed of
writing"): the seed story in 250 ms and 150 KiB, the 320-paragraph story in 2.5 s and 2 MiB.
"""

from __future__ import annotations

import argparse
import copy
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import fresh_database_url, setup_django

SEED_ID = "81"
BIG_ID = "990320"
TARGETS = {"seed": (250, 150 * 1024), "big": (2500, 2 * 1024 * 1024)}


def big_document(seed: dict) -> dict:
    """The seed with 16 sections of 20 paragraphs and 20 key facts, its parts repeated."""
    document = copy.deepcopy(seed)
    document["id"], document["slug"] = BIG_ID, "the-desk-bench-long-story"
    document["url"] = seed["url"].replace(seed["slug"], document["slug"])
    document.pop("published_at", None)
    paragraphs = [paragraph for section in seed["sections"] for paragraph in section["paragraphs"]]
    document["sections"] = [
        {
            **seed["sections"][0],
            "heading": f"Part {number + 1}",
            "paragraphs": [copy.deepcopy(paragraphs[(number * 20 + index) % len(paragraphs)]) for index in range(20)],
        }
        for number in range(16)
    ]
    document["key_facts"] = [copy.deepcopy(seed["key_facts"][index % len(seed["key_facts"])]) for index in range(20)]
    return document


def measure(client, url: str, loads: int) -> tuple[float, int, int]:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    client.get(url)  # warm-up: templates compiled, caches filled
    times, size, queries = [], 0, 0
    for _ in range(loads):
        with CaptureQueriesContext(connection) as captured:
            start = time.perf_counter()
            response = client.get(url)
            times.append((time.perf_counter() - start) * 1000)
        assert response.status_code == 200, response.status_code
        size, queries = len(response.content), len(captured)
    return statistics.median(times), size, queries


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--database", choices=["sqlite", "postgres"], default="sqlite")
    parser.add_argument("--loads", type=int, default=7, help="loads of the seed story's page (the big one: 3)")
    options = parser.parse_args(argv)
    setup_django(fresh_database_url(options.database, "desk"))

    from django.conf import settings
    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from django.test import Client
    from django.urls import reverse

    from newsroom.models import Role
    from newsroom.roles import grant_role
    from stories import desk
    from stories.models import Story
    from stories.services import story_import_desk

    call_command("load_demo", stdout=open(os.devnull, "w"))  # noqa: SIM115
    seed = Story.objects.with_parts().get(desk_id=int(SEED_ID))
    big = story_import_desk(document=big_document(desk.export_story(seed)), as_draft=True, actor="bench").story
    chief = get_user_model().objects.create_user("bench-chief", password="a-long-bench-password")
    grant_role(user=chief, newsroom=seed.newsroom, role=Role.CHIEF)
    named = [host for host in settings.ALLOWED_HOSTS if host != "*" and not host.startswith(".")]
    host = named[0] if named else "localhost"
    client = Client(HTTP_HOST=host, secure=True)
    client.force_login(chief)

    load = os.getloadavg()
    averages = ", ".join(f"{value:.1f}" for value in load)
    print(f"desk bench on {options.database}; load average {averages} on {os.cpu_count()} CPUs")
    for name, story, loads, shape in (
        ("seed", seed, options.loads, "5 key facts, 8 paragraphs"),
        ("big", big, 3, "20 key facts, 320 paragraphs"),
    ):
        story.refresh_from_db()
        parts = story.cites.count()
        page = reverse("admin:stories_story_change", args=[story.pk])
        target_ms, target_size = TARGETS[name]
        # The page as it opens (key facts and sections as one text), then as rows, its other mode.
        for mode, label in (("text", "one text"), ("rows", "rows    ")):
            ms, size, queries = measure(client, f"{page}?mode={mode}", loads)
            target = f"(target <= {target_ms} ms and <= {target_size // 1024} KiB)" if mode == "text" else ""
            print(
                f"change page  {options.database:8}  {label}  {name:4} story ({shape}, {parts} cites)  "
                f"median {ms:7.0f} ms  {size / 1024:7.0f} KiB  {queries} queries  {target}"
            )


if __name__ == "__main__":
    main()
