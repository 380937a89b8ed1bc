"""The support check's three verdicts and its codes: per code, a paraphrase of the claim that
is supported, and a change that is not, with the verdict and the code the rules give it."""

from __future__ import annotations

import pytest

from support.method import REVIEW, SUPPORTED, UNSUPPORTED, check, verdict_of

# (code, claims, a paraphrase that is supported, a change, the change's verdict)
CODED = [
    (
        "figure_mismatch",
        ["The museum drew 2.4 million visitors last year."],
        "Last year the museum drew 2.4 million visitors.",
        "The museum drew 2.7 million visitors last year.",
        UNSUPPORTED,
    ),
    (
        "figure_not_in_claims",
        ["The museum drew record crowds last year."],
        "Last year the museum drew record crowds.",
        "The museum drew record crowds of 3 million last year.",
        UNSUPPORTED,
    ),
    (
        "negation",
        ["The new prompt improved accuracy on the reading test."],
        "Accuracy on the reading test improved with the new prompt.",
        "The new prompt did not improve accuracy on the reading test.",
        UNSUPPORTED,
    ),
    (
        "direction",
        ["Costs at the plant rose 8% in May."],
        "In May, costs at the plant rose 8%.",
        "Costs at the plant fell 8% in May.",
        UNSUPPORTED,
    ),
    (
        "date",
        ["The museum opened its new wing in March 2025."],
        "In March 2025 the museum opened its new wing.",
        "The museum opened its new wing in May 2025.",
        UNSUPPORTED,
    ),
    (
        "quantity",
        ["The fine was $5 million."],
        "The fine came to $5 million.",
        "The fine was €5 million.",
        UNSUPPORTED,
    ),
    (
        "entity_swap",
        ["Brightline Foods agreed to buy Crunchwell for $860 million."],
        "Crunchwell will be bought by Brightline Foods for $860 million.",
        "Crunchwell agreed to buy Brightline Foods for $860 million.",
        REVIEW,
    ),
    (
        "role_swap",
        ["The regulator fined Pelham Telecom £12 million for misleading customers."],
        "Pelham Telecom was fined £12 million by the regulator for misleading customers.",
        "Pelham Telecom fined the regulator £12 million for misleading customers.",
        REVIEW,
    ),
    (
        "modality",
        ["The museum plans to move its fossil collection to a new wing."],
        "The museum plans to move its fossil collection into a new wing.",
        "The museum has moved its fossil collection to a new wing.",
        REVIEW,
    ),
    (
        "new_predicate",
        ["The audit lab trialled rubric rewards for labelling."],
        "The audit lab trialled rubric rewards for its labelling.",
        "The audit lab will replace every human labeller with rubric rewards.",
        REVIEW,
    ),
    (
        "verb_not_in_claims",
        ["Alder Health sued Corvin Labs over the patent in June."],
        "In June, Alder Health sued Corvin Labs over the patent.",
        "In June, Alder Health took Corvin Labs to court and won over the patent.",
        REVIEW,
    ),
    (
        "name_not_in_claims",
        ["ProgAgent-14B reached a 30.7% pass rate on LOCA-bench."],
        "On LOCA-bench, ProgAgent-14B reached a 30.7% pass rate.",
        "Qwen3-8B reached a 30.7% pass rate on LOCA-bench.",
        REVIEW,
    ),
    (
        "low_coverage",
        ["The museum drew 2.4 million visitors."],
        "2.4 million visitors were drawn to the museum.",
        "Attendance records tumbled at the museum.",
        REVIEW,
    ),
]


@pytest.mark.parametrize(("code", "claims", "paraphrase", "changed", "verdict"), CODED, ids=[c[0] for c in CODED])
def test_each_code_has_its_verdict_and_its_paraphrase_passes(code, claims, paraphrase, changed, verdict):
    twin = check(paraphrase, claims)
    found = check(changed, claims)

    assert (twin.verdict, twin.problems) == (SUPPORTED, []), twin.reasons
    assert found.verdict == verdict, found.reasons
    assert code in {reason.code for reason in found.problems}, [(r.code, r.text) for r in found.problems]


def test_an_unsupported_reason_quotes_both_sides():
    found = check("Costs at the plant fell 8% in May.", ["Costs at the plant rose 8% in May."])

    assert [(reason.code, reason.text) for reason in found.problems] == [
        ("direction", "direction: the paragraph says 'plant fell 8% in'; claim 1 says 'plant rose 8% in'")
    ]


def test_a_review_reason_says_what_the_claims_do_not_say_and_what_they_do():
    found = check(
        "Alder Health took Corvin Labs to court over the patent.", ["Alder Health sued Corvin Labs over the patent."]
    )

    assert found.verdict == REVIEW
    assert found.reasons[0] == (
        "unsaid verb: 'took' is not said in the cited claims; the nearest, claim 1 says 'sued Corvin Labs over the'"
    )


def test_a_passage_the_rules_cannot_show_is_reviewed_not_supported_and_says_how_little_is_the_claims():
    # Nothing contradicts the claim and no rule fires, but too few of the words are its own.
    found = check("The museum drew huge, jubilant crowds of visitors.", ["The museum drew 2.4 million visitors."])

    assert found.verdict == REVIEW
    assert found.reasons == [
        "the rules cannot show the passage from the claims: only 3 of 6 content words are in the cited claims; "
        "not in them: huge, jubilant, crowds"
    ]


def test_one_reporters_verb_in_the_claims_own_words_is_supported_two_are_reviewed():
    claims = ["The port handled 1.8 million containers in 2025."]

    assert check("The port handled 1.8 million containers in 2025.", claims).verdict == SUPPORTED
    assert check("In 2025 the port moved 1.8 million containers through its docks.", claims).verdict in (
        SUPPORTED,
        REVIEW,
    )
    assert check("In 2025 the port shifted and shipped 1.8 million containers.", claims).verdict == REVIEW


@pytest.mark.parametrize(
    ("codes", "coverage", "sentences", "verdict"),
    [
        ((), 1.0, 1, SUPPORTED),
        ((), 0.5, 1, REVIEW),  # no rule fires, but too little is in the claims' words
        (("verb_not_in_claims",), 0.8, 1, SUPPORTED),
        (("verb_not_in_claims",), 0.65, 1, REVIEW),
        (("verb_not_in_claims", "verb_not_in_claims"), 1.0, 1, REVIEW),
        (("verb_not_in_claims", "verb_not_in_claims"), 1.0, 2, SUPPORTED),  # one a sentence
        (("modality",), 1.0, 1, REVIEW),
        (("modality", "negation"), 1.0, 1, UNSUPPORTED),
    ],
)
def test_the_verdict_is_the_worst_its_reasons_and_its_coverage_allow(codes, coverage, sentences, verdict):
    assert verdict_of(codes, coverage, sentences) == verdict
