"""Import throughput: 1,000 and 10,000 generated desk/1 stories, stories per second for each.

Usage: python bench/import_desk.py [--database sqlite|postgres] [--sizes 1000,10000]
Each size imports into a fresh database through the same service the command uses, after a
warm-up, and the second size must not be slower per story than the first.
"""

from __future__ import annotations

import argparse
import copy
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import BASE_DIR, fresh_database_url, setup_django

SEED = json.loads((BASE_DIR / "stories/fixtures/seeds/agent-training-stack.json").read_text())


def generated_story(number: int) -> dict:
    """A seed-sized story (5 key facts, 8 paragraphs, 13 cites) with its own id, slug and manifests."""
    document = copy.deepcopy(SEED)
    document["id"] = str(100_000 + number)
    document["slug"] = f"generated-{number}"
    document["headline"] = f"{SEED['headline']} ({number})"
    renamed = {m["manifest_id"]: f"{m['manifest_id']}{number % 500:03d}" for m in SEED["manifests"]}
    for part in [*document["key_facts"], *(p for s in document["sections"] for p in s["paragraphs"])]:
        for cite in part["cites"]:
            cite["manifest_id"] = renamed[cite["manifest_id"]]
    for manifest in document["manifests"]:
        manifest["manifest_id"] = renamed[manifest["manifest_id"]]
    cited = [renamed[m] for m in SEED["cited_manifest_ids"]]
    document["cited_manifest_ids"] = cited
    # The guide's commands follow from the ids, and every site-wide block must equal a version
    # the site knows (the bench's fresh site knows none): leave them out.
    for key in ("run_these_manifests", "sponsor", "disclosure", "reuse"):
        document.pop(key, None)
    return document


def run(sizes: list[int], database: str) -> list[float]:
    from stories.models import Story
    from stories.services import story_import_desk

    rates = []
    imported = 0
    for size in sizes:
        # One database for all sizes, emptied between them, so later sizes meet a warm process.
        Story.objects.all().delete()
        documents = [generated_story(imported + n) for n in range(size)]
        imported += size
        start = time.perf_counter()
        for document in documents:
            story_import_desk(document=document)
        elapsed = time.perf_counter() - start
        rate = size / elapsed
        rates.append(rate)
        print(f"import_desk  {database:8}  {size:>6,} stories  {elapsed:7.1f} s  {rate:7.1f} stories/s", flush=True)
    return rates


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--database", choices=["sqlite", "postgres"], default="sqlite")
    parser.add_argument("--sizes", default="1000,10000")
    options = parser.parse_args()
    setup_django(fresh_database_url(options.database, "import"))
    from stories.services import story_import_desk

    for number in range(50):  # warm-up: site texts, newsroom, caches of the ORM
        story_import_desk(document=generated_story(900_000 + number))
    rates = run([int(size) for size in options.sizes.split(",")], options.database)
    if len(rates) >= 2:
        verdict = "ok" if rates[-1] >= rates[0] * 0.9 else "SLOWER"
        print(
            f"import_desk  {options.database:8}  per-story rate at the largest size vs the smallest: "
            f"{rates[-1] / rates[0]:.2f}x ({verdict})"
        )


if __name__ == "__main__":
    main()
