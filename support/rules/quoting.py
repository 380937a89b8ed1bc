"""How a reason quotes: ``Cited`` (a claim's label and its clause), and the words around a
token that a reason quotes from the paragraph or from a claim.
"""

from __future__ import annotations

from dataclasses import dataclass

from .tokens import Clause


@dataclass(frozen=True)
class Cited:
    """A cited claim: how a reason names it, and its text read for the rules."""

    label: str
    clause: Clause


def _span(clause: Clause, first: int, last: int) -> str:
    tokens = clause.tokens
    first, last = max(0, first), min(len(tokens) - 1, last)
    while first < last and tokens[first].kind == "punct":
        first += 1
    while last > first and tokens[last].kind == "punct":
        last -= 1
    text = clause.text[tokens[first].start : tokens[last].end].strip()
    return text


def _phrase(clause: Clause, index: int, before: int = 1, after: int = 2) -> str:
    """The words around token ``index``, not crossing a clause boundary."""
    tokens = clause.tokens
    first = index
    while first > 0 and index - first < before and not tokens[first - 1].boundary:
        first -= 1
    # Take a negation cue in with the word it negates: 'did not improve'.
    while first > 0 and (tokens[first - 1].cue or tokens[first - 1].low in ("did", "does", "do", "has", "have")):
        first -= 1
        if index - first > 4:
            break
    last = index
    while last + 1 < len(tokens) and last - index < after and not tokens[last + 1].boundary:
        last += 1
    return _span(clause, first, last)


def _claim_says(cited: Cited, phrase: str) -> str:
    return f"{cited.label} says '{phrase}'"
