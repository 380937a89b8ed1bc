"""The seed stories' key facts and paragraphs with the demo manifests' texts of the claims they
cite: what ``bench/supported_eval.py`` reads to show that a writer keeping to the claims' words
passes. Plain JSON, no Django: the same files ``load_demo`` loads."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SEEDS = ROOT / "stories" / "fixtures" / "seeds"
DEMO_MANIFESTS = ROOT / "manifests" / "fixtures" / "demo-manifests.json"


def seed_parts() -> Iterator[tuple[str, str, str, list[str], list[str]]]:
    """Each part as (seed, desk/1 path, text, cited claims' texts, cited manifests' titles)."""
    manifests = {item["manifest_id"]: item for item in json.loads(DEMO_MANIFESTS.read_text())}
    claims = {
        (manifest_id, claim["claim_id"]): claim["text"]
        for manifest_id, item in manifests.items()
        for claim in item["signal"]["claims"]
    }
    for path in sorted(SEEDS.glob("*.json")):
        document = json.loads(path.read_text())
        parts = [(f"key_facts[{n}]", fact["text"], fact["cites"]) for n, fact in enumerate(document["key_facts"])]
        parts += [
            (f"sections[{s}].paragraphs[{p}]", paragraph["markdown"], paragraph["cites"])
            for s, section in enumerate(document["sections"])
            for p, paragraph in enumerate(section["paragraphs"])
        ]
        for at, text, cites in parts:
            texts = [claims[cite["manifest_id"], claim_id] for cite in cites for claim_id in cite["claim_ids"]]
            titles = [
                title
                for manifest_id in dict.fromkeys(cite["manifest_id"] for cite in cites)
                for title in (manifests[manifest_id]["title"], manifests[manifest_id]["brief"]["headline"])
            ]
            yield path.stem, at, text, texts, titles
