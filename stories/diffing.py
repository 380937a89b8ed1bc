"""A readable diff between two desk/1 documents, for editors: a story's history, and the
working copy against the live version.

Each document is flattened into lines an editor recognises ("Section 2: The news",
"  Paragraph 1: ...", "  Cites: 1790… claims 12, 13"); difflib compares those lines. Derived
keys (URLs, the manifests ledger, counts) are left out: they follow from what was written. The
result is HTML in which every piece of document text is escaped, so a story's text stays inert.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterator
from typing import Any

from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString

# Lines of unchanged text shown around each change.
CONTEXT_LINES = 3

_FIELDS = (
    ("headline", "Headline"),
    ("dek", "Dek"),
    ("angle", "Angle"),
    ("slug", "Slug"),
    ("edition", "Edition"),
    ("newsroom", "Newsroom"),
    ("beat", "Beat"),
    ("audience", "Audience"),
    ("published_at", "Published at"),
)
_CARD = (("useful_for", "Useful for"), ("not_for", "Not for"), ("compare_against", "Compare against"))


def _cites(cites: list[dict[str, Any]], indent: str) -> Iterator[str]:
    for cite in cites:
        yield f"{indent}Cite: manifest {cite.get('manifest_id', '?')}, claims {', '.join(cite.get('claim_ids', []))}"


def _text_lines(label: str, text: Any, indent: str = "") -> Iterator[str]:
    # A multi-line text (a paragraph's Markdown) gives one line each, so a change of one line
    # does not mark the whole paragraph as changed.
    lines = str(text).splitlines() or [""]
    yield f"{indent}{label}: {lines[0]}"
    for line in lines[1:]:
        yield f"{indent}    {line}"


def flatten_document(document: dict[str, Any] | None) -> list[str]:
    """The written content of a desk/1 document as numbered, labelled lines (numbers from 1)."""
    if not document:
        return []
    lines: list[str] = []
    for key, label in _FIELDS:
        if key in document and document[key] is not None:
            lines.extend(_text_lines(label, document[key]))
    labels = document.get("labels") or {}
    if "trust" in labels:
        lines.append(f"Trust: {labels['trust']}")
    writer = document.get("writer")
    if writer:
        lines.append(f"Writer: {writer.get('agent', '')} (run {writer.get('run_id', '')})")
    for number, fact in enumerate(document.get("key_facts", []), 1):
        own = " (self-reported)" if fact.get("self_reported") else ""
        lines.extend(_text_lines(f"Key fact {number}{own}", fact.get("text", "")))
        lines.extend(_cites(fact.get("cites", []), "  "))
    for number, section in enumerate(document.get("sections", []), 1):
        lines.append(f"Section {number}: {section.get('heading', '')}")
        for index, paragraph in enumerate(section.get("paragraphs", []), 1):
            lines.extend(_text_lines(f"Paragraph {number}.{index}", paragraph.get("markdown", ""), "  "))
            lines.extend(_cites(paragraph.get("cites", []), "    "))
    for number, image in enumerate(document.get("images", []), 1):
        lines.append(f"Image {number}: {image.get('url', '')}")
        for key in ("alt", "caption", "credit"):
            lines.append(f"  {key.capitalize()}: {image.get(key, '')}")
    for number, text in enumerate(document.get("unresolved", []), 1):
        lines.append(f"Unresolved question {number}: {text}")
    card = document.get("decision_card") or {}
    for key, label in _CARD:
        for number, text in enumerate(card.get(key, []), 1):
            lines.append(f"{label} {number}: {text}")
    for number, link in enumerate(document.get("related", []), 1):
        lines.append(f"Related {number}: {link.get('headline', '')} <{link.get('url', '')}>")
    for number, correction in enumerate(document.get("corrections", []), 1):
        lines.extend(_text_lines(f"Correction {number} ({correction.get('published_at', '')})", correction["text"]))
    return lines


def document_diff_lines(old: dict[str, Any] | None, new: dict[str, Any] | None) -> list[str]:
    """A unified diff of the two documents' flattened lines (plain text, not escaped)."""
    return list(
        difflib.unified_diff(
            flatten_document(old), flatten_document(new), "older", "newer", n=CONTEXT_LINES, lineterm=""
        )
    )


def document_diff(old: dict[str, Any] | None, new: dict[str, Any] | None) -> SafeString:
    """The diff as an HTML table (escaped), removed lines marked ``-`` and added ones ``+``;
    a sentence when nothing written differs."""
    rows = []
    for line in document_diff_lines(old, new)[2:]:  # the two file-name lines say nothing here
        if line.startswith("@@"):
            kind, sign, text = "hunk", "…", ""
        elif line.startswith("-"):
            kind, sign, text = "removed", "\u2212", line[1:]
        elif line.startswith("+"):
            kind, sign, text = "added", "+", line[1:]
        else:
            kind, sign, text = "same", "", line[1:]
        rows.append((kind, sign, text))
    if not rows:
        return format_html('<p class="desk-diff-none">{}</p>', "Nothing written differs between these two.")
    body = format_html_join(
        "", '<tr class="desk-diff-{}"><td class="desk-diff-sign">{}</td><td><pre>{}</pre></td></tr>', rows
    )
    return format_html('<table class="desk-diff">{}</table>', body)
