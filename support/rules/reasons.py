"""A reason the support check gives for not vouching for a passage, with its stable code.

A rule writes its reason as text that names its kind first ('negation: the paragraph says
...; claim c1 says ...'); ``coded`` reads that kind once into the code programs use
(``negation``, ``direction``, ``date``, ``quantity``, ``entity_swap``, ``role_swap``,
``modality``, ``new_predicate``, ``verb_not_in_claims``). The lexical tests in ``support.method`` give their
own (``figure_mismatch``, ``figure_not_in_claims``, ``name_not_in_claims``, ``low_coverage``,
``passage_too_long``).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

# The kind a rule's reason names before its colon, and that kind's code.
KIND_CODES = {
    "negation": "negation",
    "direction": "direction",
    "date": "date",
    "quantity": "quantity",
    "entity swap": "entity_swap",
    "modality": "modality",
    "new predicate": "new_predicate",
    "unsaid verb": "verb_not_in_claims",
}


@dataclass(frozen=True)
class Reason:
    """Why the check cannot vouch for a passage: a stable ``code`` and the text a person reads."""

    code: str
    text: str

    def __str__(self) -> str:
        return self.text


def coded(texts: Iterable[str], *, swap: str = "entity_swap") -> list[Reason]:
    """A rule's reasons with the code of the kind each names; ``swap`` is the code an 'entity
    swap' takes from this rule (the role rule's is ``role_swap``)."""
    reasons = []
    for text in texts:
        kind = text.partition(":")[0]
        code = KIND_CODES[kind]
        reasons.append(Reason(swap if code == "entity_swap" else code, text))
    return reasons
