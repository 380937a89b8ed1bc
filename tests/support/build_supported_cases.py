"""Build ``supported_cases.json``, the labelled set for ``paragraphs_supported``.

    .venv/bin/python tests/support/build_supported_cases.py

Deterministic: the same sources give the same file. Supported cases are the hand-written
paraphrases in ``supported_cases_source.py`` and every key fact and paragraph of the two seed
stories with the demo manifests' claims. Unsupported cases are hand-written ones plus variants
of the supported ones, made the way real mistakes happen:

- ``changed_number``: one figure altered (a digit bumped, two digits swapped, rounded, a scale word changed);
- ``unknown_number``: a clause with a figure no claim has;
- ``swapped_name``: a name the claims use replaced by another;
- ``other_claim``: the passage cites claims about something else;
- ``half_support``: a backed passage plus a sentence about something else.
"""

from __future__ import annotations

import json
import re
import sys
from decimal import Decimal
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from support import text as lex  # noqa: E402
from tests.support.supported_cases_source import ADDED_FIGURES, SUPPORTED, SWAP_NAMES, UNSUPPORTED  # noqa: E402

OUT = Path(__file__).with_name("supported_cases.json")
SEEDS = ROOT / "stories" / "fixtures" / "seeds"
DEMO_MANIFESTS = ROOT / "manifests" / "fixtures" / "demo-manifests.json"
COMPANY_WORDS = {
    "Traders", "Shipping", "Foods", "Motors", "Bank", "Semiconductor", "Air", "Retail", "Pharma", "Energy",
    "Logistics", "Software", "Labs", "Systems", "Robotics", "Ventures", "Cloud", "Chemicals", "Holdings", "Media",
    "Technologies",
}  # fmt: skip


def seed_cases() -> list[dict[str, Any]]:
    """Every key fact and paragraph of the seeds with the claims it cites; and, as
    ``wrong_claims``, with the other claims of the same manifests (a citation slip)."""
    manifests = json.loads(DEMO_MANIFESTS.read_text())
    claims = {(m["manifest_id"], c["claim_id"]): c["text"] for m in manifests for c in m["signal"]["claims"]}
    titles = {m["manifest_id"]: [m["title"], m["brief"]["headline"]] for m in manifests}
    cases = []
    for path in sorted(SEEDS.glob("*.json")):
        story = json.loads(path.read_text())
        parts = [(fact["text"], fact["cites"]) for fact in story["key_facts"]]
        parts += [(p["markdown"], p["cites"]) for section in story["sections"] for p in section["paragraphs"]]
        for text, cites in parts:
            cited = [claims[(cite["manifest_id"], claim_id)] for cite in cites for claim_id in cite["claim_ids"]]
            # As the check does: the cited manifests' titles may back a name, never a figure.
            context = list(dict.fromkeys(title for cite in cites for title in titles[cite["manifest_id"]]))
            cases.append({"domain": "seed", "claims": cited, "context": context, "text": text})
            cited_ids = {claim_id for cite in cites for claim_id in cite["claim_ids"]}
            uncited = [
                text
                for (manifest_id, claim_id), text in claims.items()
                if manifest_id in {cite["manifest_id"] for cite in cites} and claim_id not in cited_ids
            ]
            if uncited:
                cases[-1]["wrong_claims"] = uncited
    return cases


def _digits_changed(figure_text: str, strategy: int) -> str | None:
    digits = [index for index, char in enumerate(figure_text) if char.isdigit()]
    chars = list(figure_text)
    if strategy == 0:
        last = digits[-1]
        chars[last] = str((int(chars[last]) + 1) % 10)
        return "".join(chars)
    if strategy == 1 and len(digits) >= 2 and chars[digits[-1]] != chars[digits[-2]]:
        chars[digits[-1]], chars[digits[-2]] = chars[digits[-2]], chars[digits[-1]]
        return "".join(chars)
    if strategy == 2 and "." in figure_text:
        match = re.search(r"\d[\d,]*\.\d+", figure_text)
        if match:
            rounded = str(round(Decimal(match.group().replace(",", ""))))
            return figure_text[: match.start()] + rounded + figure_text[match.end() :]
    if strategy == 2:
        for old, new in (("million", "billion"), ("billion", "million"), ("bn", "m"), ("k", "m")):
            if old in figure_text:
                return figure_text.replace(old, new, 1)
    return None


def change_number(case: dict[str, Any], seed: int) -> dict[str, Any] | None:
    offered = lex.figure_values(" ".join(case["claims"]))
    figures = lex.digit_figures(lex.plain_text(case["text"]))
    if not figures:
        return None
    plain = lex.plain_text(case["text"])
    for attempt in range(6):
        figure = figures[(seed + attempt) % len(figures)]
        new = _digits_changed(figure.text, (seed + attempt) % 3) or _digits_changed(figure.text, 0)
        new_figures = lex.digit_figures(new) if new else []
        if new and new_figures and new_figures[0].value not in offered and new != figure.text:
            text = plain[: figure.start] + plain[figure.start :].replace(figure.text, new, 1)
            return {**case, "text": text, "changed": f"{figure.text} -> {new}"}
    return None


def add_number(case: dict[str, Any], seed: int) -> dict[str, Any]:
    offered = lex.figure_values(" ".join(case["claims"]))
    plain = lex.plain_text(case["text"])
    for attempt in range(len(ADDED_FIGURES)):
        clause = ADDED_FIGURES[(seed + attempt) % len(ADDED_FIGURES)]
        if not (lex.figure_values(clause) & offered):
            break
    stop = re.search(r"[.;:](\s|$)", plain)
    cut = stop.start() if stop else len(plain)
    return {**case, "text": plain[:cut] + clause + plain[cut:], "changed": f"added{clause!r}"}


def _name_spans(case: dict[str, Any]) -> list[str]:
    """Names in the passage that the claims use too, longest first."""
    claims = " ".join(case["claims"])
    spans = re.findall(r"[A-Z][\w-]*(?:\s+[A-Z][\w-]*)*", lex.plain_text(case["text"]))
    found = []
    for span in spans:
        words = span.split()
        while words and (words[0].lower() in lex.STOPWORDS or words[0] in ("In", "On", "At", "After")):
            words = words[1:]
        span = " ".join(words)
        is_name = span and (len(words) > 1 or lex.names(f"x {span}") or any(ch.isdigit() for ch in span))
        if is_name and span in claims and span.lower() not in ("the", "a"):
            found.append(span)
    return sorted(dict.fromkeys(found), key=len, reverse=True)


def swap_name(case: dict[str, Any], seed: int) -> dict[str, Any] | None:
    spans = _name_spans(case)
    if not spans:
        return None
    span = spans[seed % len(spans)] if seed % 3 == 0 else spans[0]
    words = span.split()
    if any(ch.isdigit() for ch in span) or (lex.names(f"x {words[0]}") == [words[0]] and len(words) == 1):
        pool = SWAP_NAMES["model"] if any(ch.isdigit() for ch in span) else SWAP_NAMES["company"]
    elif words[-1] in COMPANY_WORDS:
        pool = SWAP_NAMES["company"]
    elif len(words) == 2:
        pool = SWAP_NAMES["person"]
    else:
        pool = SWAP_NAMES["place"]
    claims = " ".join(case["claims"])
    replacement = next(name for offset in range(len(pool)) if (name := pool[(seed + offset) % len(pool)]) not in claims)
    text = lex.plain_text(case["text"]).replace(span, replacement)
    return {**case, "text": text, "changed": f"{span} -> {replacement}"}


def first_sentence(text: str) -> str:
    return next(lex.sentences(lex.plain_text(text)))


def build() -> list[dict[str, Any]]:
    supported = [{"domain": domain, "claims": claims, "text": text} for domain, claims, text in SUPPORTED]
    supported += seed_cases()
    cases: list[dict[str, Any]] = [
        {"kind": "paraphrase" if case["domain"] != "seed" else "seed_paragraph", "label": "supported", **case}
        for case in supported
    ]
    for kind, claims, text in UNSUPPORTED:
        cases.append({"kind": kind, "label": "unsupported", "domain": "handwritten", "claims": claims, "text": text})

    n = len(supported)
    for index, case in enumerate(supported):
        if index % 2 == 0 and (variant := change_number(case, index)):
            cases.append({**variant, "kind": "changed_number", "label": "unsupported"})
        if index % 5 == 1:
            cases.append({**add_number(case, index), "kind": "unknown_number", "label": "unsupported"})
        if index % 4 == 3 and (variant := swap_name(case, index)):
            cases.append({**variant, "kind": "swapped_name", "label": "unsupported"})
        if index % 5 == 2:
            other = next(
                supported[j]
                for step in range(1, n)
                if supported[j := (index + step * 7) % n]["domain"] != case["domain"]
            )
            cases.append(
                {**case, "claims": other["claims"], "context": other.get("context", []), "kind": "other_claim"}
                | {"label": "unsupported"}
            )
        if index % 5 == 4:
            other = next(
                supported[j]
                for step in range(1, n)
                if supported[j := (index + step * 11) % n]["domain"] != case["domain"]
            )
            text = lex.plain_text(case["text"]).rstrip() + " " + first_sentence(other["text"])
            cases.append({**case, "text": text, "kind": "half_support", "label": "unsupported"})
    for case in supported:
        if case.get("wrong_claims"):
            cases.append({**case, "claims": case["wrong_claims"], "kind": "other_claim", "label": "unsupported"})
    for number, case in enumerate(cases):
        case["id"] = number
    keys = ("id", "label", "kind", "domain", "claims", "context", "text", "changed")
    return [{key: case[key] for key in keys if key in case} for case in cases]


if __name__ == "__main__":
    built = build()
    OUT.write_text(json.dumps(built, indent=1, ensure_ascii=False) + "\n")
    counts: dict[str, int] = {}
    for case in built:
        counts[f"{case['label']}/{case['kind']}"] = counts.get(f"{case['label']}/{case['kind']}", 0) + 1
    print(f"wrote {len(built)} cases to {OUT.relative_to(ROOT)}")
    for key, count in sorted(counts.items()):
        print(f"  {key}: {count}")
