"""What a word is about: the content words around it (``_context``), and the nearest names
before and after it (``_names_around``).
"""

from __future__ import annotations

from .tokens import Clause
from .words import POLARITY


def _context(clause: Clause, index: int, reach: int = 6) -> frozenset[str]:
    """The content words around token ``index``: what a word there is about."""
    found = clause.contexts.get(index)
    if found is None:
        tokens = clause.tokens
        found = frozenset(
            t.stem
            for t in tokens[max(0, index - reach) : index + reach + 1]
            if t.content and t.low not in POLARITY and t is not tokens[index]
        )
        clause.contexts[index] = found
    return found


def _names_around(clause: Clause, index: int) -> tuple[str | None, str | None]:
    """The nearest name before and after token ``index`` in the same clause-ish window."""
    before = after = None
    for first, last, span in clause.names:
        if last < index and index - last <= 6:
            before = span
        elif first > index and first - index <= 6 and after is None:
            # 'licensed Ivy Labs' model': an owner (a noun follows), not the one done to.
            tokens = clause.tokens
            possessive = tokens[last].low.endswith("'s") or clause.text[tokens[last].end : tokens[last].end + 1] == "'"
            owner = possessive and last + 1 < len(tokens) and tokens[last + 1].content
            after = None if owner else span
            if owner:
                break
    return before, after
