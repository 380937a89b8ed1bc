"""Key facts and sections as one text, and back: the seeds give themselves back exactly, and a
text that is not one says so on its line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from stories.bodytext import body_text, parse_body, represents

SEEDS = sorted((Path(__file__).resolve().parents[2] / "stories" / "fixtures" / "seeds").glob("*.json"))
assert SEEDS, "the seeds are where load_demo finds them"


@pytest.mark.parametrize("seed", SEEDS, ids=lambda path: path.stem)
def test_each_seed_s_key_facts_and_sections_come_back_from_their_text_exactly(seed):
    document = json.loads(seed.read_text())
    parts = {"key_facts": document["key_facts"], "sections": document["sections"]}

    text = body_text(parts)
    body = parse_body(text)

    assert body.errors == []
    assert body.parts() == parts
    assert represents(parts)
    # Every part begins on the line its heading, key fact or paragraph is written on.
    lines = text.split("\n")
    assert lines[body.lines["sections[0]"] - 1] == f"## {parts['sections'][0]['heading']}"
    first = parts["sections"][0]["paragraphs"][0]["markdown"]
    assert lines[body.lines["sections[0].paragraphs[0]"] - 1].startswith(first)


def test_the_text_reads_as_a_writer_writes_it():
    text = (
        "- [self-reported] The authority dredged 4 berths. [^m-1: h-1]\n"
        "- Ferry traffic rose. [^m-1: h-2] [^m-2: x-1, x-2]\n"
        "\n"
        "## What happened\n"
        "\n"
        "The authority dredged\n"
        "4 berths in March. [^m-1: h-1]\n"
        "\n"
        "\n"
        "Nothing cites this one.\n"
        "## What it means\n"
    )

    body = parse_body(text)

    assert body.errors == []
    assert body.key_facts == [
        {
            "text": "The authority dredged 4 berths.",
            "self_reported": True,
            "cites": [{"manifest_id": "m-1", "claim_ids": ["h-1"]}],
        },
        {
            "text": "Ferry traffic rose.",
            "self_reported": False,
            "cites": [
                {"manifest_id": "m-1", "claim_ids": ["h-2"]},
                {"manifest_id": "m-2", "claim_ids": ["x-1", "x-2"]},
            ],
        },
    ]
    assert body.sections == [
        {
            "heading": "What happened",
            "paragraphs": [
                {
                    "markdown": "The authority dredged\n4 berths in March.",
                    "cites": [{"manifest_id": "m-1", "claim_ids": ["h-1"]}],
                },
                {"markdown": "Nothing cites this one.", "cites": []},
            ],
        },
        {"heading": "What it means", "paragraphs": []},
    ]
    assert body.lines == {
        "key_facts[0]": 1,
        "key_facts[1]": 2,
        "sections[0]": 4,
        "sections[0].paragraphs[0]": 6,
        "sections[0].paragraphs[1]": 10,
        "sections[1]": 11,
    }
    assert body.line_of("sections[0].paragraphs[1].cites[0].claim_ids[0]") == 10


@pytest.mark.parametrize(
    ("text", "error"),
    [
        (
            "A stray line.\n## H\n",
            "Line 1: before the first section (a line “## heading”) come only key facts, each on one line "
            "beginning with “- ”",
        ),
        ("## H\n\nText. [^m-1: ]\n", "Line 3, section 1, paragraph 1, cite 1: the cite of manifest m-1 names no claim"),
        (
            "## H\n\nText [^m-1 h-1] here.\n",
            "Line 3, section 1, paragraph 1: a cite is written [^manifest id: claim id, claim id] and comes at "
            "the end of its paragraph or key fact",
        ),
        (
            "## H\n\nA cite [^m-1: h-1] before more text.\n",
            "Line 3, section 1, paragraph 1: a cite is written [^manifest id: claim id, claim id] and comes at "
            "the end of its paragraph or key fact",
        ),
        ("- [^m-1: h-1]\n", "Line 1, key fact 1: a key fact needs its text"),
        ("- A fact.\n\n##\n", "Line 3, section 1: a section needs a heading after “## ”"),
    ],
)
def test_a_text_that_is_not_one_says_what_is_wrong_on_its_line(text, error):
    assert [str(problem) for problem in parse_body(text).errors] == [error]


@pytest.mark.parametrize(
    "parts",
    [
        {"key_facts": [], "sections": [{"heading": "H", "paragraphs": [{"markdown": "One.\n\nTwo.", "cites": []}]}]},
        {"key_facts": [{"text": "Two\nlines.", "self_reported": False, "cites": []}], "sections": []},
        {
            "key_facts": [],
            "sections": [{"heading": "H", "paragraphs": [{"markdown": "## Not a heading", "cites": []}]}],
        },
        {
            "key_facts": [],
            "sections": [{"heading": "H", "paragraphs": [{"markdown": "Ends in a space ", "cites": []}]}],
        },
    ],
    ids=["blank line in a paragraph", "line break in a key fact", "paragraph like a heading", "trailing space"],
)
def test_parts_that_one_text_cannot_give_back_are_known(parts):
    assert not represents(parts)
