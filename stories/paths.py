"""desk/1 paths in an editor's words: ``sections[1].paragraphs[0].cites[0]`` is "Section 2,
paragraph 1, cite 1". Checks point at parts with zero-based paths; people count from one."""

from __future__ import annotations

import re

_STEP = re.compile(r"([A-Za-z_]+)(?:\[(\d+)\])?")
_WORDS = {
    "key_facts": "key fact",
    "sections": "section",
    "paragraphs": "paragraph",
    "cites": "cite",
    "claim_ids": "claim",
    "images": "image",
    "related": "related link",
    "unresolved": "unresolved question",
    "corrections": "correction",
}
# The parts a problem is shown beside: a key fact, or a paragraph of a section.
_PART = re.compile(r"^(key_facts\[\d+\]|sections\[\d+\]\.paragraphs\[\d+\])")


def describe_path(path: str) -> str:
    """A desk/1 path as words: "Section 2, paragraph 1, cite 1"; "$" is the whole story."""
    if path in ("", "$"):
        return "The story"
    words = []
    for name, index in _STEP.findall(path):
        word = _WORDS.get(name, name.replace("_", " "))
        words.append(f"{word} {int(index) + 1}" if index else word)
    text = ", ".join(words) or path
    return text[:1].upper() + text[1:]


def part_of(path: str) -> str | None:
    """The key fact or paragraph a path points into (``sections[1].paragraphs[0]``), if any."""
    match = _PART.match(path)
    return match.group(1) if match else None
