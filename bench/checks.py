"""How fast the checks are: not_repeat against 1,000 / 10,000 / 100,000 published stories, and
all five checks on a story of 40 paragraphs citing 200 claims (no provider involved).

    .venv/bin/python bench/checks.py                        # a temporary SQLite database
    .venv/bin/python bench/checks.py --database postgres    # a fresh PostgreSQL database, bench_checks
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/bench_x .venv/bin/python bench/checks.py
                                                            # the database given (emptied first)

The stories in the window, dated either side of the checked story's time (the repeat window
reaches both ways), are written straight into the tables (bulk inserts of Story rows and of their
repeat signatures and index keys), not through the importer. Their signatures are real
MinHash signatures, computed with the same hash as the check, of synthetic feature sets drawn
from a Zipf-distributed vocabulary, so unrelated stories share common features (and now and
then an LSH band) the way stories on one beat do. Each story cites 5 manifests from a pool of
one per story, so a manifest is cited by about 5 stories in the window; the manifests the
checked story cites are in that pool too, so each is cited by 5 to 15 other stories.

The checked story is the seed ``agent-training-stack`` imported through the importer, with a
copy of it published the day before (so the check finds a real repeat and scores it). Times are
of the check itself, on a story whose parts are loaded once, as a verification run loads them.
"""

from __future__ import annotations

import argparse
import copy
import json
import os
import random
import sys
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import fresh_database_url, median_ms, setup_django

BASE_DIR = Path(__file__).resolve().parent.parent
SIZES = (1_000, 10_000, 100_000)
CHECKED_AT = datetime(2026, 10, 16, 0, 39, 10, tzinfo=UTC)  # the seed's publication time
VOCABULARY = 100_000
FEATURES_PER_STORY = 200
MANIFESTS_PER_STORY = 5


# --- Database set-up -----------------------------------------------------------------------


def database_url(kind: str | None) -> tuple[str, str]:
    """(URL, label) of the database to fill: DATABASE_URL as given, else a fresh one of ``kind``."""
    given = os.getenv("DATABASE_URL", "")
    if given and kind is None:
        return given, "postgres" if given.startswith("postgres") else "sqlite"
    kind = kind or "sqlite"
    return fresh_database_url(kind, "checks"), kind


def empty_tables() -> None:
    """Start from nothing, even in a database a previous run filled."""
    from django.db import connection

    from stories.models import Story

    tables = ["verification_storysignaturekey", "verification_storysignature", "verification_verificationrun"]
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute(f"TRUNCATE {', '.join(tables)}, stories_story, manifests_manifest CASCADE")
        else:
            for table in tables:
                cursor.execute(f"DELETE FROM {table}")
            Story.objects.all().delete()
            cursor.execute("DELETE FROM manifests_claim")
            cursor.execute("DELETE FROM manifests_manifest")


# --- Filling the window --------------------------------------------------------------------


class Filler:
    """Adds published stories with signatures and index keys straight into the tables."""

    def __init__(self, cited_by_checked: list[str], seed: int = 20261016):
        from verification import repeat

        self.repeat = repeat
        # The first ids of the manifest pool are the ones the checked story cites, so other
        # stories in the window cite them too (about five more per fill) and the check has
        # candidates to read, as on a busy beat.
        self.hot = cited_by_checked
        self.random = random.Random(seed)
        # Every vocabulary feature's bin and value, hashed once: a story's signature is then the
        # per-bin minimum over its features, exactly what repeat.minhash computes for the set.
        self.bins, self.values = [], []
        for number in range(VOCABULARY):
            value = repeat._hash64(f"w{number}".encode())
            self.bins.append(value % repeat.SIGNATURE_BINS)
            self.values.append((value >> 6) & repeat._MASK32)
        self.added = 0

    def features(self) -> set[int]:
        # Ranks with density about 1/rank (Zipf, s=1): a few features are in most stories,
        # most features in few.
        draw = self.random.random
        return {int(VOCABULARY ** draw()) - 1 for _ in range(FEATURES_PER_STORY)}

    def signature(self) -> list[int]:
        repeat = self.repeat
        bins = [repeat._EMPTY] * repeat.SIGNATURE_BINS
        for feature in self.features():
            index = self.bins[feature]
            if self.values[feature] < bins[index]:
                bins[index] = self.values[feature]
        for index, value in enumerate(bins):
            if value == repeat._EMPTY:
                distance = 1
                while bins[(index + distance) % repeat.SIGNATURE_BINS] == repeat._EMPTY:
                    distance += 1
                borrowed = bins[(index + distance) % repeat.SIGNATURE_BINS]
                bins[index] = (borrowed + distance * 0x9E3779B1) & repeat._MASK32
        return bins

    def add(self, count: int, *, template: Any) -> None:
        """``count`` more published stories like ``template`` (same newsroom, beat, edition)."""
        from django.db import connection, transaction

        from stories.models import Story

        fields = [field for field in Story._meta.concrete_fields if not field.primary_key]
        columns = [field.column for field in fields]
        varying = {name: columns.index(Story._meta.get_field(name).column) for name in (
            "desk_id", "slug", "dateline", "headline", "published_at", "content_hash"
        )}  # fmt: skip
        base = [field.get_db_prep_save(field.pre_save(template, add=True), connection) for field in fields]
        window = (timedelta(days=13, hours=23) - timedelta(minutes=1)).total_seconds()
        numbers = range(self.added, self.added + count)
        stories = []
        for number in numbers:
            # Either side of the checked story's time, as the repeat window reaches both ways.
            side = self.random.choice((-1, 1))
            published = CHECKED_AT + side * timedelta(seconds=60 + self.random.uniform(0, window))
            row = list(base)
            row[varying["desk_id"]] = 1_000_000 + number
            row[varying["slug"]] = f"filler-{number}"
            row[varying["dateline"]] = published.date()
            row[varying["headline"]] = f"Filler story {number}"
            row[varying["published_at"]] = published
            row[varying["content_hash"]] = f"{number:064x}"
            stories.append(row)
        pool = max(1, self.added + count)
        sqlite = connection.vendor == "sqlite"
        if sqlite:
            # A throwaway database: a big page cache and no fsync make the fill fast. Both are
            # set back before anything is measured.
            with connection.cursor() as cursor:
                cursor.execute("PRAGMA cache_size = -262144")
                cursor.execute("PRAGMA synchronous = OFF")
        with transaction.atomic():
            _insert("stories_story", columns, stories)
            created = Story.objects.filter(desk_id__gte=1_000_000 + self.added).values_list("pk", "published_at")
            signatures, keys = [], []
            now = datetime.now(UTC)
            for story_id, published in created:
                signature = self.signature()
                drawn = [self.random.randrange(pool) for _ in range(MANIFESTS_PER_STORY)]
                manifests = [self.hot[n] if n < len(self.hot) else f"bench-m{n}" for n in drawn]
                packed = self.repeat.pack(signature)
                signatures.append((story_id, f"{story_id:064x}", published, packed, json.dumps(manifests), now))
                keys.extend((story_id, key, published) for key in self.repeat.index_keys(signature, manifests))
            _insert(
                "verification_storysignature",
                ["story_id", "content_hash", "published_at", "minhash", "manifest_ids", "updated_at"],
                signatures,
            )
            _insert("verification_storysignaturekey", ["story_id", "key", "published_at"], keys)
        with connection.cursor() as cursor:
            if sqlite:
                cursor.execute("PRAGMA cache_size = -2000")
                cursor.execute("PRAGMA synchronous = NORMAL")
            # Fresh statistics, as autovacuum / a routine ANALYZE would give a live database.
            cursor.execute("ANALYZE")
        self.added += count


def _insert(table: str, columns: list[str], rows: list[Any]) -> None:
    """Many rows at once: COPY on PostgreSQL, one prepared statement on SQLite."""
    from django.db import connection

    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            with cursor.cursor.copy(f"COPY {table} ({', '.join(columns)}) FROM STDIN") as copy_in:
                for row in rows:
                    copy_in.write_row(row)
        else:
            marks = ", ".join(["%s"] * len(columns))
            cursor.executemany(f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({marks})", rows)


# --- The stories checked -------------------------------------------------------------------


def import_document(document: dict[str, Any], *, publish: bool = False) -> Any:
    from stories.models import Story
    from stories.services import story_import_desk
    from verification.gate import story_publish_unchecked
    from verification.services import story_signature_refresh

    story = story_import_desk(document=document).story
    if publish:
        # An import writes a working copy; the repeat check compares with published stories.
        story = story_publish_unchecked(story=story, actor="bench", reason="the bench's earlier story")
    # Outside a transaction the signal's on_commit has run already; refreshing again is a no-op
    # then, and makes the bench independent of it.
    story_signature_refresh(story=story)
    return Story.objects.get(pk=story.pk)


def seed_story() -> Any:
    """The seed and, published the day before, a copy of it under another id and slug."""
    seed = json.loads((BASE_DIR / "stories/fixtures/seeds/agent-training-stack.json").read_text())
    earlier = copy.deepcopy(seed)
    earlier.update(id="900001", slug="agent-training-stack-earlier", published_at="2026-10-15T00:39:10Z")
    for key in ("url", "links", "reuse", "run_these_manifests", "sponsor", "disclosure"):
        earlier.pop(key, None)
        seed.pop(key, None)
    import_document(earlier, publish=True)
    return import_document(seed)


def big_story() -> Any:
    """40 paragraphs citing 200 claims of 20 stored manifests, every paragraph backed."""
    from datetime import date

    from manifests.adapters import ClaimData, ManifestData
    from manifests.models import Manifest
    from manifests.services import manifest_store

    subjects = ["solar", "wind", "grid", "battery", "hydrogen", "nuclear", "tidal", "geothermal"]
    paragraphs = []
    for m in range(20):
        claims = []
        for c in range(10):
            subject = subjects[(m + c) % len(subjects)]
            claims.append(
                ClaimData(
                    claim_id=f"bench-claim-{m}-{c}",
                    text=f"Operator {m} added {100 + c * 7} megawatts of {subject} capacity in region {c}, "
                    f"raising its {subject} share to {10 + c}.{m}% of supply.",
                )
            )
        manifest_store(
            data=ManifestData(
                manifest_id=f"bench-manifest-{m}",
                title=f"Energy report {m}",
                source_name=f"publisher-{m % 4}",
                published_date=date(2026, 10, 14),
                claims=claims,
            ),
            origin=Manifest.Origin.FILE,
        )
    for p in range(40):
        m, first = p // 2, (p % 2) * 5
        cites = [
            {"manifest_id": f"bench-manifest-{m}", "claim_ids": [f"bench-claim-{m}-{first + c}" for c in range(5)]}
        ]
        sentences = []
        for c in range(first, first + 5):
            subject = subjects[(m + c) % len(subjects)]
            sentences.append(
                f"Operator {m} added {100 + c * 7} megawatts of {subject} capacity in region {c}, lifting its "
                f"{subject} share to {10 + c}.{m}% of supply."
            )
        paragraphs.append({"markdown": " ".join(sentences), "cites": cites})
    document = {
        "schema": "hangingcontext.desk/1",
        "type": "story",
        "id": "900002",
        "slug": "forty-paragraphs",
        "edition": "2026-10-16T00",
        "newsroom": "bench",
        "beat": "energy",
        "angle": "A long story.",
        "headline": "Twenty operators add capacity across eight kinds of generation",
        "dek": "Forty paragraphs, two hundred claims.",
        "published_at": "2026-10-16T00:40:00Z",
        "labels": {"trust": "reported"},
        "key_facts": [],
        "sections": [{"heading": f"Part {s}", "paragraphs": paragraphs[s * 8 : (s + 1) * 8]} for s in range(5)],
    }
    return import_document(document)


# --- The benchmark -------------------------------------------------------------------------


def run(kind: str | None = None, sizes: tuple[int, ...] = SIZES) -> dict[str, Any]:
    """Set up the database, fill it, time the checks; prints one line per figure and returns them."""
    url, label = database_url(kind)
    setup_django(url)
    empty_tables()

    from django.db import connection

    from verification.checks import CHECKS, checkable, not_repeat

    checked = checkable().get(pk=seed_story().pk)
    filler = Filler(list(dict.fromkeys(cite.manifest_id for cite in checked.cites.all())))
    results: dict[str, Any] = {"database": label, "not_repeat_ms": {}}
    load = ", ".join(f"{value:.1f}" for value in os.getloadavg())
    print(
        f"checks bench on {label} ({connection.settings_dict['NAME']}); load average {load} on {os.cpu_count()} CPUs",
        flush=True,
    )
    for size in sizes:
        started = time.perf_counter()
        filler.add(size - filler.added, template=checked)
        filled = time.perf_counter() - started
        result = not_repeat(checked)
        # The copy published the day before is found and named, whatever else is in the window.
        assert result.status == "fail", result
        assert result.details["closest"]["slug"] == "agent-training-stack-earlier", result
        median = median_ms(lambda: not_repeat(checked), repeat=31, warmup=3)
        results["not_repeat_ms"][size] = median
        ratio = median / results["not_repeat_ms"][sizes[0]]
        print(
            f"not_repeat  {label:8}  {size:>7,} stories  median {median:6.1f} ms  "
            f"({ratio:.1f}x the {sizes[0]:,} figure; {result.details['candidates']} candidates read; "
            f"window filled in {filled:.0f} s)",
            flush=True,
        )

    story = checkable().get(pk=big_story().pk)
    per_check: dict[str, float] = {}
    for name, check in CHECKS:
        per_check[name] = median_ms(lambda check=check: check(story), repeat=31, warmup=3)
        assert check(story).status == "pass", check(story)
    total = median_ms(lambda: [check(story) for _, check in CHECKS], repeat=31, warmup=3)
    results["five_checks_ms"] = total
    breakdown = ", ".join(f"{name} {ms:.1f}" for name, ms in per_check.items())
    print(
        f"five_checks {label:8}  40 paragraphs, 200 claims, {filler.added:,} stories in the window  "
        f"median {total:6.1f} ms  ({breakdown})",
        flush=True,
    )
    return results


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--database",
        choices=["sqlite", "postgres"],
        help="a fresh database of this kind (default: DATABASE_URL, else sqlite)",
    )
    parser.add_argument("--sizes", default=",".join(map(str, SIZES)), help="stories in the window, comma-separated")
    args = parser.parse_args(argv)
    sizes = tuple(int(size) for size in args.sizes.split(","))
    return run(args.database, sizes)


if __name__ == "__main__":
    main()
