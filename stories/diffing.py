"""A readable diff between two desk/1 documents: what an editor wrote, line by line.

Only the written content is compared (headline, dek, key facts, sections, paragraphs, cites,
lists, images, related links, corrections); derived blocks (URLs, ledgers, site texts) would
only add noise. Rendered by ``admin/stories/diff.html``, which escapes every line.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass
from typing import Any

CONTEXT_LINES = 2


@dataclass(frozen=True)
class DiffLine:
    kind: str  # "same", "added", "removed", or "skip" (unchanged lines left out)
    text: str


def _cites(cites: list[dict[str, Any]]) -> str:
    return "; ".join(f"{cite['manifest_id']} [{', '.join(map(str, cite['claim_ids']))}]" for cite in cites) or "none"


def document_lines(document: dict[str, Any]) -> list[str]:
    """The written content of a document as labelled lines, in reading order."""
    lines = [f"Headline: {document.get('headline', '')}", f"Dek: {document.get('dek', '')}"]
    lines.append(f"Angle: {document.get('angle', '')}")
    lines.append(f"Trust: {document.get('labels', {}).get('trust', '')}")
    for number, fact in enumerate(document.get("key_facts", []), 1):
        lines.append(f"Key fact {number}: {fact['text']}")
        lines.append(f"Key fact {number} cites: {_cites(fact['cites'])}")
    for s_number, section in enumerate(document.get("sections", []), 1):
        lines.append(f"Section {s_number}: {section['heading']}")
        for p_number, paragraph in enumerate(section["paragraphs"], 1):
            where = f"Section {s_number}, paragraph {p_number}"
            lines += [f"{where}: {line}" for line in paragraph["markdown"].splitlines() or [""]]
            lines.append(f"{where} cites: {_cites(paragraph['cites'])}")
    lists = [("Unresolved", document.get("unresolved", []))]
    card = document.get("decision_card", {})
    lists += [
        (name.replace("_", " ").capitalize(), card.get(name, []))
        for name in ("useful_for", "not_for", "compare_against")
    ]
    for label, items in lists:
        lines += [f"{label} {number}: {item}" for number, item in enumerate(items, 1)]
    for number, image in enumerate(document.get("images", []), 1):
        lines.append(f"Image {number}: {image.get('url', '')} (alt: {image.get('alt', '')})")
    for number, link in enumerate(document.get("related", []), 1):
        lines.append(f"Related {number}: {link.get('headline', '')} <{link.get('url', '')}>")
    for number, correction in enumerate(document.get("corrections", []), 1):
        lines.append(f"Correction {number} ({correction.get('published_at', '')}): {correction.get('text', '')}")
    return lines


def document_diff(old: dict[str, Any], new: dict[str, Any]) -> list[DiffLine]:
    """What changed from ``old`` to ``new``, with a little unchanged context; [] when nothing did."""
    before, after = document_lines(old), document_lines(new)
    diff: list[DiffLine] = []
    for group in difflib.SequenceMatcher(a=before, b=after, autojunk=False).get_grouped_opcodes(CONTEXT_LINES):
        if diff:
            diff.append(DiffLine("skip", "…"))
        for tag, i1, i2, j1, j2 in group:
            if tag == "equal":
                diff += [DiffLine("same", line) for line in before[i1:i2]]
                continue
            diff += [DiffLine("removed", line) for line in before[i1:i2]]
            diff += [DiffLine("added", line) for line in after[j1:j2]]
    return diff
