"""Entity swaps, modality, new predicates, names and words in the support check: each rule's
supported twin passes, and the changed passage fails with a reason of the rule's kind."""

from __future__ import annotations

import pytest

from verification.support import assess

# (kind of reason, claims, a supported paraphrase, the same passage changed)
TWINS = [
    # Names: a place, its people and its adjective back one another.
    (
        "is named but",
        ["The Dutch government said it had used its emergency law to seize chipmaker Nexperia."],
        "As feared, the Netherlands used its emergency law to seize chipmaker Nexperia, the government said.",
        "As feared, Belgium used its emergency law to seize chipmaker Nexperia, the government said.",
    ),
    (
        "is named but",
        ["Denmark's agency said 96% of citizens aged 15 and over use the MitID identity."],
        "Nearly every Dane aged 15 or older, 96%, uses the MitID identity, the agency said.",
        "Nearly every Swede aged 15 or older, 96%, uses the MitID identity, the agency said.",
    ),
    (
        "is named but",
        ["The US Energy Information Administration said gas produced 43% of US electricity in 2024."],
        "Gas produced 43% of America's electricity in 2024, the Energy Information Administration said.",
        "Gas produced 43% of Canada's electricity in 2024, the Energy Information Administration said.",
    ),
    # Names: an acronym of words the claim spells out, small words and inner acronyms included.
    (
        "is named but",
        ["Transport for London said its camera trial at Willesden Green detected 44,000 incidents."],
        "TfL's camera trial at Willesden Green logged 44,000 incidents, the operator said.",
        "TfG's camera trial at Willesden Green logged 44,000 incidents, the operator said.",
    ),
    (
        "is named but",
        ["The UN Environment Programme's Emissions Gap Report said pledges lead to 2.5°C of warming."],
        "Pledges lead to 2.5 degrees Celsius of warming, according to UNEP's Emissions Gap Report.",
        "Pledges lead to 2.5 degrees Celsius of warming, according to UNDP's Emissions Gap Report.",
    ),
    (
        "is named but",
        ["A randomised trial found that text-message reminders increased adherence to medication to 68%."],
        "SMS reminders lifted adherence to medication to 68% in a randomised trial.",
        "WhatsApp reminders lifted adherence to medication to 68% in a randomised trial.",
    ),
    # New predicates: a participle before its noun, with its adverb, is an adjective.
    (
        "new predicate",
        ["The authors argue that the gains mostly reflect sharper sampling rather than new reasoning abilities."],
        "The gains come mostly from sharper sampling, not from newly acquired reasoning abilities, the authors argue.",
        "The gains come mostly from sharper sampling, the authors argue, and they have patented the sampling method.",
    ),
    # New predicates: a comparison's 'as' does not end the clause the verb governs.
    (
        "new predicate",
        [
            "In a preprint, SkillForge agents collected diamonds in Minecraft in 41 minutes, "
            "against 97 minutes for baseline agents."
        ],
        "Baseline agents took more than twice as long to collect diamonds in Minecraft, the preprint reports.",
        "Baseline agents sold more than twice as many diamonds in Minecraft, the preprint reports.",
    ),
]


@pytest.mark.parametrize(("kind", "claims", "supported", "changed"), TWINS)
def test_rule_passes_the_twin_and_catches_the_change(
    kind: str, claims: list[str], supported: str, changed: str
) -> None:
    twin = assess(supported, claims)
    assert twin.supported, twin.reasons
    result = assess(changed, claims)
    assert not result.supported
    assert any(kind in reason for reason in result.reasons), result.reasons
