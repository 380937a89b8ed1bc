"""Third round of entity swaps: who did what and whose figure, read as a reporter writes them.
A figure sizing a noun, a name qualifying another and the two ends of a range are no swap;
figures, names and roles exchanged between two named things still fail as an entity swap."""

from __future__ import annotations

import pytest

from tests.verification.twins import assert_twin_passes_and_change_is_caught

# (kind of reason, claims, a supported paraphrase, the same passage changed)
TWINS = [
    # A figure after an article sizes the noun it stands before: the round's size, not a
    # figure the investor raised.
    (
        "entity swap",
        ["Alder Bio raised $300 million, the company said on May 4, 2026.", "The round was led by Crestline Capital."],
        "Crestline Capital led a $300 million round in Alder Bio, the company said on May 4, 2026.",
        "Crestline Capital raised $300 million in a round it led for Alder Bio, the company said on May 4, 2026.",
    ),
    # A name after 'from' qualifies the name before it: the figure is the library's, not its maker's.
    (
        "entity swap",
        [
            "Orchid Systems' Veritas library includes 140 verifiers.",
            "Veritas was downloaded 86,000 times in its first month.",
        ],
        "In its first month, the 140-verifier Veritas library from Orchid Systems racked up 86,000 downloads.",
        "In its first month, Orchid Systems racked up 86,000 downloads of the 140-verifier Veritas library.",
    ),
    # The two ends of a range measure one thing, however it is named ('time' for 'latency').
    (
        "entity swap",
        ["Caching cut the agent's median task latency from 14 seconds to 5 seconds, and its error rate from 9% to 4%."],
        "Caching brought the agent's median task time down to 5 seconds from 14, and its error rate to 4% from 9%.",
        "Caching brought the agent's error rate down to 5% from 14%, and its median task time to 4 seconds from 9.",
    ),
]


@pytest.mark.parametrize(("kind", "claims", "supported", "changed"), TWINS)
def test_rule_passes_the_twin_and_catches_the_change(
    kind: str, claims: list[str], supported: str, changed: str
) -> None:
    assert_twin_passes_and_change_is_caught(claims, supported, changed, kind)
