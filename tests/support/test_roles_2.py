"""Second round of entity swaps, new predicates and names: classes of rewording a reporter uses
freely (nominalisations, abbreviations, linking verbs, a verb that only carries a claim's
figure) pass, and the changed passage of each still fails with a reason of the rule's kind."""

from __future__ import annotations

import pytest

from support import rules
from support.method import check
from tests.support.twins import assert_twin_passes_and_change_is_caught

# (kind of reason, claims, a supported paraphrase, the same passage changed)
TWINS = [
    # Names: an abbreviation of words the claims spell out (a unit, a name cut short).
    (
        "is named but",
        ["The plant produced 4.1 megajoules of heat per kilogram of fuel, the operator said."],
        "The plant got 4.1 MJ of heat out of each kilogram of fuel, the operator said.",
        "The plant got 4.1 MJ of heat out of each kilogram of fuel, the operator told Reuters.",
    ),
    (
        "is named but",
        ["The link carried 3.2 gigabits-per-second of traffic at its peak, the carrier said."],
        "At its peak the link carried 3.2 Gbps of traffic, the carrier said.",
        "At its peak the link carried 3.2 Gbps of traffic to Tallinn, the carrier said.",
    ),
    (
        "is named but",
        ["The Federal Reserve held its benchmark rate at 4.5% in March 2026."],
        "The Fed left its benchmark rate at 4.5% in March 2026.",
        "The ECB left its benchmark rate at 4.5% in March 2026.",
    ),
    # Entity swap: an acronym and the words it stands for are one doer.
    (
        "entity swap",
        [
            "The International Energy Agency expects global oil demand to reach 105 million barrels a day in 2030.",
            "IEA analysts said OPEC would supply 41% of that demand.",
        ],
        "The IEA forecasts that global oil demand will reach 105 million barrels a day in 2030.",
        "OPEC forecasts that global oil demand will reach 105 million barrels a day in 2030.",
    ),
    # New predicate: a nominalisation backs the claim's verb, and the reverse.
    (
        "new predicate",
        ["The council approved the expansion of the tram network to the airport."],
        "The council's approval clears the way for the tram network to expand to the airport.",
        "The council's approval clears the way for the tram network to be sold to a private operator.",
    ),
    # New predicate: a linking verb and the reporter's characterisation after it.
    (
        "new predicate",
        ["Only 4 of 50 attempts to jailbreak the model succeeded, the researchers said."],
        "The model proved hard to jailbreak: only 4 of 50 attempts succeeded, the researchers said.",
        "The model proved hard to jailbreak: only 4 of 50 attempts succeeded, and the lab patented its filter.",
    ),
    # New predicate: a verb that only attaches a figure the claims state to its owner.
    (
        "new predicate",
        ["The distilled model reached 91% of the teacher's accuracy on the benchmark."],
        "The distilled model delivered 91% of the teacher's accuracy on the benchmark.",
        "The distilled model delivered 91% of the teacher's accuracy, and licensed the teacher's weights.",
    ),
]


@pytest.mark.parametrize(("kind", "claims", "supported", "changed"), TWINS)
def test_rule_passes_the_twin_and_catches_the_change(
    kind: str, claims: list[str], supported: str, changed: str
) -> None:
    assert_twin_passes_and_change_is_caught(claims, supported, changed, kind)


@pytest.mark.parametrize(
    ("short", "long", "expected"),
    [
        ("IDC", "International Data Corporation", True),
        ("WMO", "World Meteorological Organization", True),
        ("ECB", "European Central Bank", True),
        ("Tbps", "terabits-per-second", True),
        ("MJ", "megajoules", True),
        ("Fed", "Federal", True),
        ("MS", "most", False),  # one short word: no letters to choose from
        ("IDC", "Intel", False),
        ("Arm", "SoftBank", False),
    ],
)
def test_abbreviations(short: str, long: str, expected: bool) -> None:
    assert rules.abbreviates(short, long) is expected


@pytest.mark.parametrize(
    ("claim_word", "passage_word"),
    [
        ("reduced", "reduction"),
        ("approved", "approval"),
        ("decided", "decision"),
        ("acquired", "acquisition"),
        ("expanded", "expansion"),
        ("failed", "failure"),
        ("investment", "invested"),
        ("performed", "performance"),
    ],
)
def test_a_nominalisation_backs_its_verb_and_the_reverse(claim_word: str, passage_word: str) -> None:
    backing = rules.Backing([rules.clause_of(f"The board {claim_word} it.")])
    assert backing.backs(rules.lex.stem(passage_word))
    reverse = rules.Backing([rules.clause_of(f"The {passage_word} was news.")])
    assert reverse.backs(rules.lex.stem(claim_word))


def test_plain_words_sharing_letters_are_not_derived() -> None:
    backing = rules.Backing([rules.clause_of("The company will plan the launch.")])
    assert not backing.backs(rules.lex.stem("plant"))


# Paraphrases the entity-swap rules must let through: a year is no one's figure; the owner of a
# figure said after it ('38 percent off training time', '$30.9 billion of revenue'); a name the
# claim gives the same word in another role ('trained with GRPO on the DAPO dataset').
OWNER_PARAPHRASES = [
    (
        ["In its Q2 2026 earnings call, Halden said its cloud unit passed $2 billion in annual revenue."],
        "The cloud unit passed $2 billion in annual revenue, Halden told investors on its second-quarter 2026 call.",
    ),
    (
        ["The new scheduler reduced job completion time by 27% compared with Slurm on a 512-GPU cluster."],
        "Swapping Slurm for the new scheduler cut 27 percent off job completion time on a 512-GPU cluster.",
    ),
    (
        ["Orion Cloud reported operating income of $4.2 billion in the quarter on revenue of $18.7 billion."],
        "Orion Cloud made $4.2 billion in operating income on $18.7 billion of revenue in the quarter.",
    ),
    (
        ["The experiments used the Llama-3-8B base model trained with DPO on the UltraFeedback dataset."],
        "In experiments on Llama-3-8B trained with the UltraFeedback dataset, DPO's beta made little difference.",
    ),
]


@pytest.mark.parametrize(("claims", "passage"), OWNER_PARAPHRASES)
def test_the_same_roles_in_other_words_are_no_swap(claims: list[str], passage: str) -> None:
    result = check(passage, claims)
    assert not any(reason.startswith("entity swap") for reason in result.reasons), result.reasons


def test_names_exchanged_between_two_roles_are_still_a_swap() -> None:
    result = check(
        "Marco Ruiz scored twice for Nantes against Lyon.", ["Marco Ruiz scored twice for Lyon against Nantes."]
    )
    assert any(reason.startswith("entity swap") for reason in result.reasons), result.reasons


@pytest.mark.parametrize(
    ("claims", "passage"),
    [
        (
            [
                "Researchers at Caltech reported a water pump powered only by wind that moved up to 900 litres "
                "of water per hour in trials in Chile."
            ],
            "In Chilean trials, a wind-powered water pump built at Caltech moved as many as 900 litres of water "
            "an hour, the researchers report.",
        ),
        (
            ["The expedition, led jointly by Norway and Chile, mapped 3,000 square kilometres of seabed."],
            "The Norway-led expedition, run with Chile, mapped 3,000 square kilometres of seabed.",
        ),
    ],
)
def test_a_passive_with_an_adverb_or_a_hyphen_has_no_active_doer(claims: list[str], passage: str) -> None:
    result = check(passage, claims)
    assert not any(reason.startswith("entity swap") for reason in result.reasons), result.reasons
