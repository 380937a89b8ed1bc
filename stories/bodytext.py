"""A story's key facts and sections as one Markdown text, and back: the desk's one-text mode.

    - [self-reported] A key fact. [^1792043738156041460: 1792043990918313297, 1792043990929044032]
    - Another key fact. [^1792066118701135431: 1792066472527654939]

    ## The first section's heading

    A paragraph, its cites at its end. [^1792043738156041460: 1792043990918313297]

    Another paragraph of the section. [^1792066118701135431: 1792066472527654939]

Key facts come first, one line each beginning with "- "; each "## " line starts a section;
paragraphs are separated by blank lines; a cite is ``[^manifest id: claim id, claim id]`` at
the end of its key fact or paragraph. What this module reads and writes is desk/1's own shape
(``key_facts`` and ``sections``), so the text edits the same rows through the same services as
every other path.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from .paths import describe_path

SELF_REPORTED = "[self-reported] "
_ID = r"[^\s\[\]:,^]+"
# One cite marker, and the run of them that ends a key fact or paragraph.
_MARKER = re.compile(rf"\[\^({_ID}):([^\[\]]*)\]")
_TRAILING_MARKERS = re.compile(rf"(?:\s*\[\^{_ID}:[^\[\]]*\])+\s*$")
_HEADING = re.compile(r"^##(?:\s+(.*?))?\s*$")


@dataclass
class LineError:
    line: int
    at: str
    message: str

    def __str__(self) -> str:
        place = describe_path(self.at) if self.at else ""
        where = f", {place[:1].lower()}{place[1:]}" if place else ""
        return f"Line {self.line}{where}: {self.message}"


@dataclass
class Body:
    """Key facts and sections in desk/1's shape, with the line each part begins on (by desk/1 path)."""

    key_facts: list[dict[str, Any]] = field(default_factory=list)
    sections: list[dict[str, Any]] = field(default_factory=list)
    lines: dict[str, int] = field(default_factory=dict)
    errors: list[LineError] = field(default_factory=list)

    def parts(self) -> dict[str, Any]:
        return {"key_facts": self.key_facts, "sections": self.sections}

    def line_of(self, at: str) -> int | None:
        """The line a desk/1 path's part begins on: the path's own, or the nearest part holding it."""
        while at:
            if at in self.lines:
                return self.lines[at]
            at = at.rpartition(".")[0] if "." in at else ""
        return None


def _markers(cites: list[dict[str, Any]]) -> str:
    return "".join(f" [^{cite['manifest_id']}: {', '.join(cite['claim_ids'])}]" for cite in cites)


def body_text(parts: dict[str, Any]) -> str:
    """The key facts and sections of a desk/1 document (or of ``desk.story_body``) as one text."""
    lines = []
    for fact in parts["key_facts"]:
        lines.append(f"- {SELF_REPORTED if fact['self_reported'] else ''}{fact['text']}{_markers(fact['cites'])}")
    for section in parts["sections"]:
        if lines:
            lines.append("")
        lines.append(f"## {section['heading']}")
        for paragraph in section["paragraphs"]:
            lines += ["", f"{paragraph['markdown']}{_markers(paragraph['cites'])}".strip()]
    return "\n".join(lines) + "\n" if lines else ""


def _split_cites(text: str, at: str, line: int, errors: list[LineError]) -> tuple[str, list[dict[str, Any]]]:
    """A key fact's or paragraph's text and the cites that end it."""
    trailing = _TRAILING_MARKERS.search(text)
    own, markers = (text[: trailing.start()], trailing.group()) if trailing else (text, "")
    if "[^" in own:
        errors.append(
            LineError(
                line,
                at,
                "a cite is written [^manifest id: claim id, claim id] and comes at the end of its "
                "paragraph or key fact",
            )
        )
    cites = []
    for number, (manifest_id, claims) in enumerate(_MARKER.findall(markers)):
        claim_ids = [claim.strip() for claim in claims.split(",") if claim.strip()]
        bad = [claim for claim in claim_ids if not re.fullmatch(_ID, claim)]
        if not claim_ids:
            errors.append(
                LineError(line, f"{at}.cites[{number}]", f"the cite of manifest {manifest_id} names no claim")
            )
        elif bad:
            errors.append(LineError(line, f"{at}.cites[{number}]", f"“{bad[0]}” is not a claim id"))
        cites.append({"manifest_id": manifest_id, "claim_ids": claim_ids})
    return own.rstrip(), cites


def parse_body(text: str) -> Body:
    """The text's key facts and sections, or its errors, each on its line."""
    body = Body()
    paragraph: list[str] = []
    paragraph_line = 0

    def end_paragraph() -> None:
        if not paragraph:
            return
        section = body.sections[-1]
        at = f"sections[{len(body.sections) - 1}].paragraphs[{len(section['paragraphs'])}]"
        markdown, cites = _split_cites("\n".join(paragraph), at, paragraph_line, body.errors)
        body.lines[at] = paragraph_line
        section["paragraphs"].append({"markdown": markdown, "cites": cites})
        paragraph.clear()

    for number, line in enumerate(text.replace("\r\n", "\n").split("\n"), start=1):
        heading = _HEADING.match(line)
        if heading:
            end_paragraph()
            at = f"sections[{len(body.sections)}]"
            if not heading.group(1):
                body.errors.append(LineError(number, at, "a section needs a heading after “## ”"))
            body.lines[at] = number
            body.sections.append({"heading": heading.group(1) or "", "paragraphs": []})
        elif not line.strip():
            end_paragraph()
        elif body.sections:
            if not paragraph:
                paragraph_line = number
            paragraph.append(line)
        elif line.startswith("- "):
            at = f"key_facts[{len(body.key_facts)}]"
            fact = line[2:]
            self_reported = fact.startswith(SELF_REPORTED)
            fact_text, cites = _split_cites(fact.removeprefix(SELF_REPORTED), at, number, body.errors)
            if not fact_text.strip():
                body.errors.append(LineError(number, at, "a key fact needs its text"))
            body.lines[at] = number
            body.key_facts.append({"text": fact_text.strip(), "self_reported": self_reported, "cites": cites})
        else:
            body.errors.append(
                LineError(
                    number,
                    "",
                    "before the first section (a line “## heading”) come only key facts, each on one line "
                    "beginning with “- ”",
                )
            )
    end_paragraph()
    return body


def read_back(parts: dict[str, Any]) -> Body | None:
    """These parts as the one text reads them back, with each part's line; None when the text
    would not give back exactly these parts (a paragraph holding a blank line, or a key fact
    holding a line break, say: such a story is edited as rows)."""
    body = parse_body(body_text(parts))
    exact = not body.errors and body.parts() == {"key_facts": parts["key_facts"], "sections": parts["sections"]}
    return body if exact else None


def represents(parts: dict[str, Any]) -> bool:
    """Whether the one text gives back exactly these parts (``read_back``)."""
    return read_back(parts) is not None
