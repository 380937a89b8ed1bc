"""A reporter's own verb is read as the claim's unless it is the opposite action: with the same
doer and the same thing done to, 'missed' denies 'caught' and 'fired' denies 'hired'. Each case
has claims, a rewording that must pass, and the opposite action, which must fail as a negation
(invented sentences, not the labelled sets')."""

from __future__ import annotations

import pytest

from support.method import check
from tests.support.twins import assert_twin_passes_and_change_is_caught

# (claims, a supported rewording, the same passage with the opposite action)
TWINS = [
    (
        ["The verifier caught 92% of the flawed proofs in the audit."],
        "In the audit, the verifier detected 92% of the flawed proofs.",
        "In the audit, the verifier missed 92% of the flawed proofs.",
    ),
    (
        ["The verifier caught 92% of the flawed proofs in the audit."],
        "The verifier flagged 92% of the flawed proofs in the audit.",
        "The verifier leaked 92% of the flawed proofs in the audit.",
    ),
    (
        ["Harbour Freight hired 40 engineers in the last quarter."],
        "Harbour Freight recruited 40 engineers in the last quarter.",
        "Harbour Freight fired 40 engineers in the last quarter.",
    ),
    (
        ["Regulators opened an inquiry into the ferry contract in May."],
        "In May, regulators opened an inquiry into the ferry contract.",
        "In May, regulators closed their inquiry into the ferry contract.",
    ),
    (
        ["The ministry admitted errors in the flood maps."],
        "The ministry acknowledged errors in the flood maps.",
        "The ministry denied errors in the flood maps.",
    ),
    (
        ["The court acquitted the harbour master of negligence."],
        "The harbour master was acquitted of negligence by the court.",
        "The court convicted the harbour master of negligence.",
    ),
    (
        ["The council's audit found that the operator complied with the noise limits."],
        "The operator complied with the noise limits, the council's audit found.",
        "The operator breached the noise limits, the council's audit found.",
    ),
    # Reaching and missing, in one word or two ('fell short of').
    (
        ["The port authority achieved its 2025 emissions target in November."],
        "In November the port authority reached its 2025 emissions target.",
        "In November the port authority missed its 2025 emissions target.",
    ),
    (
        ["Kestrel-7B reached a 41.5% pass rate on the harbour benchmark."],
        "Kestrel-7B attained a 41.5% pass rate on the harbour benchmark.",
        "Kestrel-7B fell short of a 41.5% pass rate on the harbour benchmark.",
    ),
    # A verb and its particle ('laid off', 'let through', 'left ... out' aside).
    (
        ["Corvane Freight hired 420 dock workers at its Tilbury depot in the first half of 2025."],
        "Corvane Freight took on 420 dock workers at its Tilbury depot in the first half of 2025.",
        "Corvane Freight laid off 420 dock workers at its Tilbury depot in the first half of 2025.",
    ),
    (
        ["Westgrid restored power to 42,000 homes in Carnford on Sunday night."],
        "Westgrid brought power back to 42,000 homes in Carnford on Sunday night.",
        "Westgrid cut off power to 42,000 homes in Carnford on Sunday night.",
    ),
    # Converses are opposites when the doer is the same.
    (
        ["Calvania imported 2.1 million tonnes of wheat from Ukraine in 2024."],
        "In 2024 Calvania brought in 2.1 million tonnes of wheat from Ukraine.",
        "In 2024 Calvania exported 2.1 million tonnes of wheat to Ukraine.",
    ),
    # After a name, an -s word is its verb ('Moreton Ratings upgraded'), not a verb before another.
    (
        ["Moreton Ratings upgraded Calvania's credit rating by one notch on Friday."],
        "Moreton Ratings raised Calvania's credit rating by one notch on Friday.",
        "Moreton Ratings downgraded Calvania's credit rating by one notch on Friday.",
    ),
    # 'added' is no content word (it is also a verb of saying), but with an object it is an action.
    (
        ["The city added 200 bus stops in 2024."],
        "In 2024 the city created 200 bus stops.",
        "In 2024 the city removed 200 bus stops.",
    ),
    (
        ["The new model overestimated demand for ferry crossings by a tenth."],
        "Demand for ferry crossings was overestimated by a tenth by the new model.",
        "The new model underestimated demand for ferry crossings by a tenth.",
    ),
]


@pytest.mark.parametrize(("claims", "supported", "changed"), TWINS)
def test_the_opposite_action_is_caught_and_the_rewording_passes(claims, supported, changed):
    assert_twin_passes_and_change_is_caught(claims, supported, changed, "negation:")


# Not opposites: the same deal told from the other side, a participle that names a kind of
# thing, a verb of saying, and the two actions both in the claims.
NOT_OPPOSED = [
    ("Halden borrowed $2 billion from Vanta Bank.", ["Vanta Bank lent $2 billion to Halden."]),
    (
        "Ukraine exported 2.1 million tonnes of wheat to Calvania.",
        ["Calvania imported 2.1 million tonnes of wheat from Ukraine."],
    ),
    ("The ferry ran from start to finish on time.", ["The ferry's crossing ran end to end on time."]),
    (
        "The open model overtook closed models in the ranking.",
        ["The open model ranked above the closed models in the ranking."],
    ),
    # 'added' as a verb of saying.
    (
        "The mayor said the city removed 200 bus stops in 2024.",
        ["The city removed 200 bus stops in 2024, the mayor added."],
    ),
    (
        "The startup hired 40 engineers and fired 12 managers.",
        ["The startup hired 40 engineers.", "The startup fired 12 managers."],
    ),
]


@pytest.mark.parametrize(("text", "claims"), NOT_OPPOSED)
def test_converses_modifiers_and_both_actions_are_not_read_as_opposites(text, claims):
    verdict = check(text, claims)
    assert not any(reason.startswith("negation:") for reason in verdict.reasons), verdict.reasons
