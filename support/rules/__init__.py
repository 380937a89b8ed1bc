"""What a fact-checker looks for first, as rules: each compares a passage with the claims it
cites and, when they disagree, says which kind of change it found and quotes both sides.
``check`` runs them all. Each kind is a module: ``polarity`` (negation and direction),
``dating``, ``quantities`` (quantity, value direction), ``roles`` (entity swap, role, whose
figure, comparison swap), ``modality`` and ``predicates`` (new predicate, and a verb the
claims do not say). Each reason carries its code (``reasons``). They read texts through
``words``, ``tokens`` (``clause_of``), ``backing``, ``quoting`` and ``context``.

Every rule is lexical: word lists (``words``), read in order, with a clause as the reach of a
negation or a modal, and a word's neighbours as what it is about. They were written against
``tests/support/fact_check_cases.json`` and ``supported_cases.json``; the held-out set
measures them (``bench/supported_eval.py``). Texts are analysed once each (cached), as a story
cites the same claims from many passages.
"""

from __future__ import annotations

from collections.abc import Sequence

from .. import text as lex
from .backing import Backing, weight
from .dating import YEAR_EARLIER, backed_date_words, counted_date_spans, date_rule, dates, span_unit, spans_between
from .modality import modality_rule
from .polarity import negation_and_direction
from .predicates import new_predicate_rule, unsaid_verb_rule
from .quantities import SHARE_SLACK_HEDGED, backed_factor_words, is_change, quantity_rule, value_direction_rule
from .quoting import Cited
from .reasons import Reason, coded
from .roles import (
    abbreviates,
    abbreviates_words,
    comparison_swap_rule,
    entity_rule,
    figure_owner_rule,
    pairing_swap_rule,
    role_rule,
)
from .tokens import clause_of
from .words import NUMBER_WORDS

# What support.method and the tests use.
__all__ = [
    "NUMBER_WORDS",
    "SHARE_SLACK_HEDGED",
    "YEAR_EARLIER",
    "Backing",
    "Cited",
    "Reason",
    "abbreviates",
    "abbreviates_words",
    "backed_date_words",
    "backed_factor_words",
    "check",
    "clause_of",
    "counted_date_spans",
    "dates",
    "is_change",
    "lex",
    "span_unit",
    "spans_between",
    "weight",
]


def check(sentences: Sequence[str], claims: Sequence[Cited], backing: Backing | None = None) -> list[Reason]:
    """Every fact-checker reason for a passage, each with its code. Dates and quantities are
    read over the whole passage (a figure's words do not cross sentences); the other rules
    sentence by sentence."""
    backing = backing or Backing([cited.clause for cited in claims])
    passage = " ".join(sentences)
    reasons = coded(date_rule(passage, claims) + quantity_rule(passage, claims) + value_direction_rule(passage, claims))
    reasons += coded(pairing_swap_rule([clause_of(text) for text in sentences], claims))
    for text in sentences:
        sentence = clause_of(text)
        reasons += coded(negation_and_direction(sentence, claims))
        swapped = coded(entity_rule(sentence, claims)) or coded(role_rule(sentence, claims), swap="role_swap")
        reasons += swapped or coded(figure_owner_rule(sentence, claims))
        reasons += coded(comparison_swap_rule(sentence, claims))
        reasons += coded(modality_rule(sentence, claims))
        new = coded(new_predicate_rule(sentence, backing, claims))
        reasons += new or coded(unsaid_verb_rule(sentence, backing, claims))
    return list(dict.fromkeys(reasons))
