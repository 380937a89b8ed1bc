"""Irregular verb forms and inflections come from lemminflect's dictionary, not a hand-made list:
the forms the old lists had are still read, and so are those they never had."""

from __future__ import annotations

import pytest

from support import text as lex
from support.method import SUPPORTED, UNSUPPORTED, check
from support.rules.words import OPPOSITE_ACTIONS


@pytest.mark.parametrize(
    ("form", "base"),
    [
        ("built", "build"),  # in the old list
        ("overtook", "overtake"),
        ("withheld", "withhold"),  # never in it
        ("upheld", "uphold"),
        ("slew", "slay"),
    ],
)
def test_an_irregular_form_is_read_as_its_plain_form(form, base):
    assert lex.verb_base(form) == base
    assert lex.stem(form) == lex.stem(base)


@pytest.mark.parametrize("word", ["hired", "flagged", "studies", "evaluated", "dividend", "quarterly"])
def test_regular_forms_and_other_words_are_left_to_the_suffix_rules(word):
    assert lex.verb_base(word) is None


def test_irregular_pasts_are_told_from_other_irregular_forms():
    assert lex.irregular_past("sought")
    assert lex.irregular_past("withheld")
    assert not lex.irregular_past("seeks")
    assert not lex.irregular_past("dividend")


def test_the_opposite_actions_table_knows_every_inflection_of_its_verbs():
    # 'lend | borrow' is written with its plain forms; 'lent' and 'lending' are read as lending.
    assert OPPOSITE_ACTIONS.words[lex.stem("lent")] == OPPOSITE_ACTIONS.words[lex.stem("lend")]
    assert OPPOSITE_ACTIONS.words[lex.stem("borrowing")] == OPPOSITE_ACTIONS.words[lex.stem("borrow")]


def test_a_paraphrase_in_an_irregular_past_passes_and_its_opposite_does_not():
    passage = "Acme withheld its quarterly dividend, the filing shows."
    # The old list lacked 'withheld': the passage went to review as not enough of it was said.
    assert check(passage, ["Acme withholds its quarterly dividend."]).verdict == SUPPORTED
    refused = check(passage, ["Acme pays its quarterly dividend."])
    assert refused.verdict == UNSUPPORTED
    assert [problem.code for problem in refused.problems] == ["negation"]
