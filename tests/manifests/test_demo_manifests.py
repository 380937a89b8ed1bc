"""The demo manifests file backs every citation of the two seed stories.

Its claim texts are illustrative (written for the demo, not the sources' real claims), but they
must be good enough for the checks: every cited claim exists under its manifest, and every
number-bearing token of a key fact or paragraph appears in the claims it cites.
"""

from __future__ import annotations

import json
import re
from functools import cache
from pathlib import Path

import pytest

from manifests.adapters import SynorbAdapter

ROOT = Path(__file__).resolve().parents[2]
DEMO = ROOT / "manifests" / "fixtures" / "demo-manifests.json"
SEEDS = ROOT / "stories" / "fixtures" / "seeds"
SEED_NAMES = ["agent-training-stack", "agentic-rl-production"]
CLAIM_TYPES = {"finding", "method", "opinion", "metric", "context"}

# A run of word characters and joiners holding at least one digit: 30.7%, 31.85, 215,
# 64k-token, Qwen3-8B, TerminalBench-2.1, Qwen3-30B-A3B-Thinking-2507.
_DIGIT_TOKEN = re.compile(r"[\w.,%+-]*\d[\w.,%+-]*")
_NUMBER = re.compile(r"\d[\d.,]*%?")


def digit_tokens(text: str) -> set[str]:
    """Tokens containing a digit, with surrounding punctuation stripped, plus the bare numbers."""
    tokens = {token.strip(".,;:-+") for token in _DIGIT_TOKEN.findall(text)}
    tokens |= {number.rstrip(".,") for number in _NUMBER.findall(text)}
    return {token for token in tokens if token}


@cache
def demo() -> dict[str, dict]:
    return {manifest["manifest_id"]: manifest for manifest in json.loads(DEMO.read_text())}


@cache
def seed(name: str) -> dict:
    return json.loads((SEEDS / f"{name}.json").read_text())


def cited_items(story: dict) -> list[tuple[str, str, list[dict]]]:
    """(label, text, cites) for every key fact and paragraph of a story."""
    items = [(f"key_facts[{i}]", fact["text"], fact["cites"]) for i, fact in enumerate(story["key_facts"])]
    for s, section in enumerate(story["sections"]):
        for p, paragraph in enumerate(section["paragraphs"]):
            items.append((f"sections[{s}].paragraphs[{p}]", paragraph["markdown"], paragraph["cites"]))
    return items


def claim_texts(manifest_id: str) -> dict[str, str]:
    return {claim["claim_id"]: claim["text"] for claim in demo()[manifest_id]["signal"]["claims"]}


def test_digit_tokens_helper():
    text = "ProgAgent-14B reached 30.7% at 64k-token state, on 215 tasks; Qwen3-8B gained 31.85 points."
    assert digit_tokens(text) >= {"ProgAgent-14B", "30.7%", "64k-token", "215", "Qwen3-8B", "31.85"}
    assert "points" not in digit_tokens(text)
    assert digit_tokens("reaches 77.3% on TerminalBench-2.1.") >= {"77.3%", "TerminalBench-2.1"}


def test_one_manifest_per_cited_manifest_and_metadata_matches_seeds():
    blocks = {}
    for name in SEED_NAMES:
        for block in seed(name)["manifests"]:
            blocks[block["manifest_id"]] = block
    assert len(json.loads(DEMO.read_text())) == len(demo()) == len(blocks) == 9
    for manifest_id, block in blocks.items():
        manifest = demo()[manifest_id]
        assert manifest["title"] == block["title"]
        assert manifest["source"] == {
            "name": block["source_name"],
            "url": block["source_url"],
            "published_date": block["published_date"],
        }


@pytest.mark.parametrize("manifest_id", sorted(demo()))
def test_manifest_is_marked_illustrative_and_well_formed(manifest_id):
    manifest = demo()[manifest_id]
    assert manifest["illustrative"] is True
    assert manifest["brief"]["headline"]
    assert manifest["brief"]["summary"].startswith("Illustrative demo data:")
    ids = [claim["claim_id"] for claim in manifest["signal"]["claims"]]
    assert len(ids) == len(set(ids)), f"duplicate claim ids in {manifest_id}"
    for claim in manifest["signal"]["claims"]:
        assert claim["type"] in CLAIM_TYPES
        assert 0.6 <= claim["confidence"] <= 0.95
        assert 15 <= len(claim["text"].split()) <= 60, claim["claim_id"]
    data = SynorbAdapter.to_manifest(manifest)
    assert data.is_illustrative
    assert len(data.claims) == len(ids)


def test_claim_ids_are_unique_across_the_file():
    ids = [claim["claim_id"] for manifest in demo().values() for claim in manifest["signal"]["claims"]]
    assert len(ids) == len(set(ids))


def test_every_manifest_has_one_or_two_uncited_claims():
    cited: dict[str, set[str]] = {}
    for name in SEED_NAMES:
        for _, _, cites in cited_items(seed(name)):
            for cite in cites:
                cited.setdefault(cite["manifest_id"], set()).update(cite["claim_ids"])
    for manifest_id in demo():
        uncited = set(claim_texts(manifest_id)) - cited[manifest_id]
        assert 1 <= len(uncited) <= 2, manifest_id


@pytest.mark.parametrize("name", SEED_NAMES)
def test_every_cited_claim_exists_under_its_manifest(name):
    for label, _, cites in cited_items(seed(name)):
        for cite in cites:
            assert cite["manifest_id"] in demo(), f"{name} {label}: manifest {cite['manifest_id']} missing"
            missing = set(cite["claim_ids"]) - set(claim_texts(cite["manifest_id"]))
            assert not missing, f"{name} {label}: claims {sorted(missing)} not in {cite['manifest_id']}"


@pytest.mark.parametrize("name", SEED_NAMES)
def test_every_number_is_in_the_cited_claims(name):
    problems = []
    for label, text, cites in cited_items(seed(name)):
        union = " ".join(claim_texts(cite["manifest_id"])[cid] for cite in cites for cid in cite["claim_ids"])
        problems += [
            f"{name} {label}: {token!r} is in none of the cited claims"
            for token in sorted(digit_tokens(text))
            if token not in union
        ]
    assert not problems, "\n".join(problems)
