"""Third round of entity swaps: who did what and whose figure, read as a reporter writes them.
A figure sizing a noun, a name qualifying another and the two ends of a range are no swap;
figures, names and roles exchanged between two named things still fail as an entity swap."""

from __future__ import annotations

import pytest

from support.method import check
from tests.support.twins import assert_passes_or_waits_on_its_verb, assert_twin_passes_and_change_is_caught

# (kind of reason, claims, a supported paraphrase, the same passage changed)
TWINS = [
    # A figure with a thousands comma is a count, not a year: '2,000' is someone's figure.
    (
        "entity swap",
        ["In May, Harbour Freight moved 2,000 containers through the terminal and Baltic Lines moved 1,500."],
        "In May, Harbour Freight moved 2,000 containers through the terminal.",
        "In May, Baltic Lines moved 2,000 containers through the terminal.",
    ),
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
    # Figures exchanged between two benchmarks, investors between two companies, jobs between
    # two people, scores between two models: what the claims pair with A the paragraph pairs
    # with B, and the reverse.
    (
        "entity swap",
        ["Orca-12B scored 61.5% on HumanEval and 47.2% on MBPP, the lab said."],
        "On MBPP Orca-12B reached 47.2%, and on HumanEval 61.5%, the lab said.",
        "Orca-12B reached 47.2% on HumanEval and 61.5% on MBPP, the lab said.",
    ),
    (
        "entity swap",
        ["Birchwood Capital led Nimbus AI's Series B, while Tallis Ventures led Quarry Labs' seed round."],
        "Quarry Labs' seed round was led by Tallis Ventures, and Birchwood Capital headed the Series B of Nimbus AI.",
        "Tallis Ventures led Nimbus AI's Series B, while Birchwood Capital headed Quarry Labs' seed round.",
    ),
    (
        "entity swap",
        ["Ana Ruiz leads product design at Lumio, and Ben Ode leads its research team."],
        "At Lumio, Ben Ode runs research while Ana Ruiz heads product design.",
        "At Lumio, Ben Ode runs product design while Ana Ruiz heads research.",
    ),
    (
        "entity swap",
        ["Vega-9B topped the leaderboard at 71.2%, ahead of Rho-7B at 68.9%."],
        "Rho-7B came second at 68.9%, behind Vega-9B at 71.2%.",
        "Rho-7B came first at 71.2%, with Vega-9B behind it at 68.9%.",
    ),
    (
        "entity swap",
        ["The Kestrel model solved 312 of 500 tasks, compared with 241 for the Ferro baseline."],
        "Against 241 for the Ferro baseline, the Kestrel model solved 312 of the 500 tasks.",
        "The Ferro baseline solved 312 of the 500 tasks against 241 for the Kestrel model.",
    ),
    # 'by' and a figure is a measure, not the doer of a passive: the verb stays active.
    (
        "entity swap",
        ["On the coding suite, TreeRL lifts Orca-12B by 6.2 points over its base model."],
        "On the coding suite, TreeRL raises Orca-12B by 6.2 points over its base model.",
        "On the coding suite, Orca-12B lifts TreeRL by 6.2 points over its base model.",
    ),
    # A sentence's first word in a named doer's role, a word no claim says: the names test
    # cannot tell it from an ordinary word that opens a sentence, its role can.
    (
        "entity swap",
        ["Sorensen Group agreed to acquire chip designer Vantor for $2.1 billion in May 2026."],
        "Sorensen Group agreed to buy chip designer Vantor for $2.1 billion in May 2026.",
        "Halvorsen agreed to buy chip designer Vantor for $2.1 billion in May 2026.",
    ),
    (
        "entity swap",
        ["Lumio said its Tern model answers most support tickets in under 40 seconds."],
        "Lumio says Tern handles most support tickets inside 40 seconds.",
        "Zendesk says Tern handles most support tickets inside 40 seconds.",
    ),
    # Whose product: a named thing given another maker of the claims' names, however the maker
    # is said ('X's', 'from X', 'developed by X', 'X built').
    (
        "entity swap",
        ["Tern-9B was developed by Halden Labs.", "Osprey was developed by Marrow AI and beat Tern-9B on WebShop."],
        "Halden Labs' Tern-9B lost to Marrow AI's Osprey on WebShop.",
        "Marrow AI's Tern-9B lost to Halden Labs' Osprey on WebShop.",
    ),
    (
        "entity swap",
        ["Brightline built the bank's claims agent on top of Vesper's Quill-40B model."],
        "The bank's claims agent was built by Brightline on Quill-40B, a model from Vesper.",
        "The bank's claims agent was built by Vesper on Quill-40B, a model from Brightline.",
    ),
    # A move's two ends exchanged: where it starts ('left', 'former', 'from') and where it ends
    # ('joined', 'to', the one who hired).
    (
        "entity swap",
        ["Dana Whitfield left Corvane to join Halden Labs as chief scientist in May 2026."],
        "In May 2026 Dana Whitfield moved from Corvane to Halden Labs to be its chief scientist.",
        "In May 2026 Dana Whitfield moved from Halden Labs to Corvane to be its chief scientist.",
    ),
    (
        "entity swap",
        ["Marrow AI hired former Tessel researcher Ivo Brandt in June 2026."],
        "Ivo Brandt, a researcher who used to work at Tessel, joined Marrow AI in June 2026.",
        "Ivo Brandt, a researcher who used to work at Marrow AI, joined Tessel in June 2026.",
    ),
    # A description set beside a name between commas, moved to another of the claims' names.
    (
        "entity swap",
        ["In March 2026 Corvane bought Pell Robotics, a maker of warehouse picking arms, for $90 million."],
        "Pell Robotics, a maker of warehouse picking arms, was bought by Corvane for $90 million in March 2026.",
        "In March 2026 Corvane, a maker of warehouse picking arms, bought Pell Robotics for $90 million.",
    ),
    # A figure's owner after its 'for', and a name before a verb of saying tells the figure:
    # 'Anthropic reported 74.5% for Claude Opus 4.1' gives the figure to the model.
    (
        "entity swap",
        [
            "Claude Opus 4.1 scored 74.5% on SWE-bench Verified, Anthropic said.",
            "OpenAI said GPT-5 scored 74.9% on SWE-bench Verified.",
        ],
        "OpenAI put GPT-5 at 74.9% on SWE-bench Verified; Anthropic reported 74.5% for Claude Opus 4.1.",
        "OpenAI put Claude Opus 4.1 at 74.9% on SWE-bench Verified; Anthropic reported 74.5% for GPT-5.",
    ),
    # A transfer's giver and receiver exchanged ('supply to' and 'get from' tell one transfer);
    # a participle between a verb and its noun ('get liquefied natural gas') is an adjective.
    (
        "entity swap",
        ["JERA agreed to supply liquefied natural gas to Shell for ten years."],
        "Shell will get liquefied natural gas from JERA for ten years under the agreement.",
        "JERA will get liquefied natural gas from Shell for ten years under the agreement.",
    ),
    # A contest's winner and loser exchanged, whatever verb of winning or losing tells it,
    # active or passive.
    (
        "entity swap",
        ["Osprey-8B outperformed Tern-70B on ToolBench, 64.1% to 60.3%, the preprint says."],
        "Tern-70B trailed Osprey-8B on ToolBench, 60.3% to 64.1%, the preprint says.",
        "Tern-70B edged out Osprey-8B on ToolBench, 64.1% to 60.3%, the preprint says.",
    ),
    (
        "entity swap",
        ["Osprey-8B outperformed Tern-70B on ToolBench, 64.1% to 60.3%, the preprint says."],
        "On ToolBench, Tern-70B was beaten by Osprey-8B, 64.1% to 60.3%, the preprint says.",
        "On ToolBench, Osprey-8B was beaten by Tern-70B, 64.1% to 60.3%, the preprint says.",
    ),
    # A deal's sides exchanged: who buys and what is bought, who backs and who is backed,
    # whatever the verb ('paid $90 million for', 'led a round in', 'raised').
    (
        "entity swap",
        ["Halden Labs acquired Pell Robotics for $90 million in March 2026."],
        "In March 2026 Halden Labs paid $90 million for Pell Robotics.",
        "In March 2026 Pell Robotics paid $90 million for Halden Labs.",
    ),
    (
        "entity swap",
        ["Lumen Forge raised $1.2 billion in a round led by Harbor Point Partners."],
        "Harbor Point Partners invested $1.2 billion in Lumen Forge, leading the round.",
        "Lumen Forge led a $1.2 billion round in Harbor Point Partners.",
    ),
    # A preference is a contest: the one chosen over the other wins.
    (
        "entity swap",
        ["In the study, readers preferred Tern's answers over Osprey's in 61% of comparisons."],
        "Readers in the study chose Tern's answers over those of Osprey in 61% of comparisons.",
        "Readers in the study favoured Osprey's answers over Tern's in 61% of comparisons.",
    ),
]

# Paired in other words: lists, 'respectively' and the parts of a sentence regrouped.
SAME_PAIRINGS = [
    (
        ["Vega-9B scored 71.2% on the leaderboard and Rho-7B scored 68.9%."],
        "Vega-9B and Rho-7B scored 71.2% and 68.9% respectively on the leaderboard.",
    ),
    # A plural opening a sentence is a common noun, and a speaker the sentence names is no swap.
    (
        ["Kestrel Labs said its agent resolved 61% of tickets in the pilot."],
        "Engineers say the Kestrel Labs agent resolved 61% of tickets in the pilot.",
    ),
    # Two moves, each name at both ends: no exchange.
    (
        ["OpenAI gave Microsoft access to its models, and Microsoft gave OpenAI cloud credits."],
        "Microsoft got access to OpenAI's models and gave OpenAI cloud credits in return.",
    ),
    # A comparison pairs the two things in one part and their figures by benchmark: a name and
    # a figure are no peers whose pairings were exchanged.
    (
        [
            "Acme's model scored 80% on ToolBench and 70% on WebShop.",
            "Beta's model scored 75% on ToolBench and 72% on WebShop.",
        ],
        "Beta's model beat Acme's on WebShop, 72% to 70%, but trailed it on ToolBench, 75% to 80%.",
    ),
    # A list's items share one role: 'and' ends the list, it does not split the sentence.
    (
        ["General scores on GSM8K, MMLU and IFEval were largely preserved after Lark training."],
        "Lark training left GSM8K, MMLU and IFEval scores largely intact.",
    ),
    # A date said with the other half of a sentence moved nothing: it is the date rule's.
    (
        [
            "The Lark programme will give 2,000 pupils and 300 teachers tutoring tools from September 2026, "
            "the ministry said."
        ],
        "Starting in September 2026, 2,000 pupils and 300 teachers are to get tutoring tools under the Lark programme, "
        "the ministry said.",
    ),
]


@pytest.mark.parametrize(("claims", "passage"), SAME_PAIRINGS)
def test_the_same_pairings_in_other_words_are_no_swap(claims: list[str], passage: str) -> None:
    verdict = check(passage, claims)
    assert_passes_or_waits_on_its_verb(verdict)


@pytest.mark.parametrize(("kind", "claims", "supported", "changed"), TWINS)
def test_rule_passes_the_twin_and_catches_the_change(
    kind: str, claims: list[str], supported: str, changed: str
) -> None:
    assert_twin_passes_and_change_is_caught(claims, supported, changed, kind)


def test_a_to_without_a_from_beside_it_ends_no_move() -> None:
    claims = ["A Teacher Manager enables distillation while decoupling teacher-model scaling from GPU memory."]
    passage = (
        "A Teacher Manager enables distillation from several teachers without tying teacher-model scaling "
        "to GPU memory."
    )
    reasons = check(passage, claims).reasons
    assert not any(reason.startswith("entity swap") for reason in reasons), reasons
