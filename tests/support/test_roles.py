"""Entity swaps, modality, new predicates, names and words in the support check: each rule's
supported twin passes, and the changed passage fails with a reason of the rule's kind."""

from __future__ import annotations

import pytest

from support.method import check
from tests.support.twins import assert_twin_passes_and_change_is_caught

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
    # Whose figure: owners compared by the words that tell the claim's figures apart.
    (
        "entity swap",
        ["The tutored agents reached a 30.7% pass rate, while the baseline agents scored 12.4%."],
        "The tutored agents passed 30.7% of the tasks, against 12.4% for the baseline agents.",
        "The baseline agents reached a 30.7% pass rate, while the tutored agents scored 12.4%.",
    ),
    # Modality: a proposal or hypothesis ('proposes that', 'hypothesize that') reported as so.
    (
        "modality",
        ["Aster Labs proposes that RL environment vendors publish contamination audits for every benchmark they ship."],
        "RL environment vendors should publish contamination audits for each benchmark they ship, Aster Labs proposes.",
        "RL environment vendors now publish contamination audits for every benchmark they ship, Aster Labs says.",
    ),
    (
        "modality",
        ["Researchers hypothesize that entropy collapse in GRPO is driven by a small set of tokens."],
        "Entropy collapse in GRPO may be driven by a small set of tokens, researchers hypothesize.",
        "Entropy collapse in GRPO is driven by a small set of tokens, researchers found.",
    ),
    # Modality: what a possibility lets someone do ('could let labs stop'), reported as done.
    (
        "modality",
        ["The authors suggest that their fitted curves could let labs stop unpromising runs early."],
        "Fitted curves could let labs stop unpromising runs early, the authors suggest.",
        "Using their fitted curves, the authors stopped unpromising runs early.",
    ),
    # Modality: the modal's word past an adverb ('may partly reflect') or 'become'.
    (
        "modality",
        ["The authors caution that their gains may partly reflect contamination of the test set."],
        "Part of the gains may reflect contamination of the test set, the authors caution.",
        "The authors acknowledge that part of their gains reflects contamination of the test set.",
    ),
    (
        "modality",
        ["Cobalt AI said its agent platform will become generally available in November 2026."],
        "Cobalt AI's agent platform is set to become generally available in November 2026, the company said.",
        "Cobalt AI's agent platform became generally available in November 2026, the company said.",
    ),
    # Modality: a possibility ('could exceed') made a certain forecast ('will exceed').
    (
        "modality",
        ["Tally Research says the share of ML teams using GRPO could exceed 70% by 2027."],
        "The share of ML teams using GRPO may well exceed 70% by 2027, Tally Research says.",
        "The share of ML teams using GRPO will exceed 70% by 2027, Tally Research says.",
    ),
    # Entity swap: the same verb done by another of the claims' names.
    (
        "entity swap",
        ["Kinetic Ventures led Trellis AI's $210 million Series C round, with participation from Harbor Capital."],
        "Trellis AI's $210 million Series C was led by Kinetic Ventures, with Harbor Capital taking part.",
        "Harbor Capital led Trellis AI's $210 million Series C, with Kinetic Ventures participating.",
    ),
    (
        "entity swap",
        ["Shell agreed to supply liquefied natural gas to Japan's JERA under a 10-year deal."],
        "Under a 10-year deal, Shell agreed to supply liquefied natural gas to Japan's JERA.",
        "Under a 10-year deal, Japan's JERA agreed to supply liquefied natural gas to Shell.",
    ),
    (
        "entity swap",
        ["The authors report that Muon converged faster than AdamW, while Lion diverged in two of five seeds."],
        "Muon converged faster than AdamW, the authors report, while Lion diverged in two of five seeds.",
        "Muon converged faster than AdamW, the authors report, while AdamW diverged in two of five seeds.",
    ),
    # Entity swap, who did it: a noun phrase ('the number of steps needed', 'generated tests
    # stood in') is no doer and its verb; a real exchange of doers still is.
    (
        "entity swap",
        ["In a preprint, Refract cut the number of steps needed to reach 70% on MBPP relative to AdamW."],
        "AdamW needed more steps than Refract to reach 70% on MBPP, per the preprint.",
        "In a preprint, AdamW cut the number of steps needed to reach 70% on MBPP relative to Refract.",
    ),
    # Modality: 'could not find' reports a past inability, as 'found no' does.
    (
        "modality",
        ["A Cochrane review of 12 trials found no clear evidence that vitamin D supplements reduce infections."],
        "Pooling 12 trials, Cochrane reviewers could not find clear evidence that vitamin D supplements reduce "
        "infections.",
        "Pooling 12 trials, Cochrane reviewers will find clear evidence that vitamin D supplements reduce infections.",
    ),
    # New predicates: a gerund after a verb of advice, a verb after a causative's object, a plain
    # verb after its plural subject: each what the sentence asserts.
    (
        "new predicate",
        ["The EnvAudit report found contamination in 14 of 120 popular agent benchmarks."],
        "The EnvAudit report found 14 of 120 popular agent benchmarks contaminated.",
        "The EnvAudit report recommends retiring 14 of 120 popular agent benchmarks because of contamination.",
    ),
    (
        "new predicate",
        ["Helix AI says VeriKit supports unit-test, regex and judge verifiers in a single configuration file."],
        "VeriKit supports unit-test, regex and judge verifiers in one configuration file, Helix AI says.",
        "Helix AI says VeriKit lets teams train reward models from unit-test, regex and judge verifiers in a "
        "single configuration file.",
    ),
    (
        "new predicate",
        ["The authors found that all 11 frontier models scored below 20% on long tasks."],
        "All 11 frontier models scored below 20% on long tasks, the authors found.",
        "The authors blame context rot for the sub-20% scores of all 11 frontier models on long tasks.",
    ),
    # Entity swap: a place in a ranking given to another of the claims' names.
    (
        "entity swap",
        ["The OECD's 2023 Digital Government Index ranked Korea first and Denmark second."],
        "Korea topped the OECD's 2023 Digital Government Index, with Denmark in second place.",
        "Denmark topped the OECD's 2023 Digital Government Index, with Korea in second place.",
    ),
    # Entity swap: names with versions and sizes are one name each ('Gemini 2.5 Pro', 'KRM-8B').
    (
        "entity swap",
        ["The maintainers say Claude Opus 4 took first place on the hardest tier, ahead of Gemini 2.5 Pro."],
        "On the hardest tier, Claude Opus 4 took first place, ahead of Gemini 2.5 Pro, the maintainers say.",
        "On the hardest tier, Gemini 2.5 Pro took first place, ahead of Claude Opus 4, the maintainers say.",
    ),
    (
        "entity swap",
        ["The leaderboard ranks Northwind's NW-RM-12B first, ahead of Kite Labs' KRM-8B in second place."],
        "Northwind's NW-RM-12B tops the leaderboard, with Kite Labs' KRM-8B in second.",
        "Kite Labs' KRM-8B tops the leaderboard, with Northwind's NW-RM-12B in second.",
    ),
    # Entity swap: the same role after the same word and preposition ('cohort from X').
    (
        "entity swap",
        ["The Mayo Clinic said its ECG algorithm reached an AUC of 0.93 in a validation cohort from Cleveland Clinic."],
        "The Mayo Clinic's ECG algorithm reached an AUC of 0.93 in a validation cohort from Cleveland Clinic.",
        "Cleveland Clinic's ECG algorithm reached an AUC of 0.93 in a validation cohort from the Mayo Clinic.",
    ),
    # New predicates: an -s word after a name, past the verb, is a plural noun it governs.
    (
        "new predicate",
        ["Ironbark AI reports that its training run lost 6% of total time to hardware failures."],
        "Hardware failures cost Ironbark AI's training run 6% of total time, the company reports.",
        "Ironbark AI reports that it switched GPU suppliers after hardware failures cost its run 6% of total time.",
    ),
    # Modality: a forecasting verb ('projects revenue of') where the claim reports the result.
    (
        "modality",
        ["Quarry AI reported Q3 2026 revenue of $84 million, up 70% from a year earlier."],
        "Quarry AI's Q3 2026 revenue came to $84 million, up 70% from a year earlier, the company reported.",
        "Quarry AI projects Q3 2026 revenue of $84 million, which would be up 70% from a year earlier.",
    ),
    # Entity swap: a participle after a comma is done by the sentence's doer ('X won, beating Y').
    (
        "entity swap",
        ["Accenture Federal Services won the benefits platform contract, beating Booz Allen Hamilton."],
        "Accenture Federal Services beat Booz Allen Hamilton to the benefits platform contract.",
        "Booz Allen Hamilton beat Accenture Federal Services to the benefits platform contract.",
    ),
    # Words: news copy's synonyms ('worldwide' for 'global', 'immunisation' for 'vaccination').
    (
        "content words are in",
        ["The WHO said global measles cases rose 20% in 2023, driven by gaps in vaccination coverage."],
        "Gaps in immunisation coverage pushed worldwide measles cases up 20% in 2023, the WHO said.",
        "Gaps in dental insurance pushed worldwide cavity treatments up 20% in 2023, the WHO said.",
    ),
    # Entity swap: the doer may be a name's plural noun ('SkillForge agents collected').
    (
        "entity swap",
        ["SkillForge agents collected diamonds in Minecraft in 41 minutes, against 97 minutes for ReAct agents."],
        "In Minecraft, SkillForge agents collected diamonds in 41 minutes; ReAct agents took 97 minutes.",
        "ReAct agents collected diamonds in Minecraft in 41 minutes, against 97 minutes for SkillForge agents.",
    ),
    # Modality: 'has become the first' reports as done what a claim says 'will be' the first.
    (
        "modality",
        ["xAI said Colossus 2 will be the first gigawatt-scale AI training cluster when it comes online."],
        "Colossus 2 is set to be the first gigawatt-scale AI training cluster once online, xAI said.",
        "Colossus 2 has become the first gigawatt-scale AI training cluster, xAI said.",
    ),
    # Modality: a step weighed ('will consult on banning') made a step decided ('will be banned').
    (
        "modality",
        ["The UK government said it will consult on banning new gas boilers in homes from 2035."],
        "The UK government will consult on whether to ban new gas boilers in homes from 2035, it said.",
        "New gas boilers will be banned in UK homes from 2035, the government said.",
    ),
    # New predicates: paying for something is the money side of the purchase a claim reports.
    (
        "new predicate",
        ["Brightline agreed to buy snack maker Crunchwell for $860 million in cash."],
        "Brightline will pay $860 million in cash for snack maker Crunchwell.",
        "Brightline paid $860 million in cash for snack maker Crunchwell and sued a rival bidder.",
    ),
    # New predicates: more news verbs, with doubled consonants ('flagged'), and their synonyms
    # ('flagged' for 'caught') as paraphrases.
    (
        "new predicate",
        ["Amsterdam said its welfare algorithm was trained on data from 3,400 past investigations."],
        "Amsterdam's welfare algorithm was trained on data from 3,400 past investigations, the city said.",
        "Amsterdam said its welfare algorithm flagged 3,400 applicants for investigation.",
    ),
    (
        "new predicate",
        ["The verifier caught 92% of incorrect proofs."],
        "Of the incorrect proofs, 92% were flagged by the verifier.",
        "Of the incorrect proofs, 92% were leaked by the verifier.",
    ),
]


@pytest.mark.parametrize(("kind", "claims", "supported", "changed"), TWINS)
def test_rule_passes_the_twin_and_catches_the_change(
    kind: str, claims: list[str], supported: str, changed: str
) -> None:
    assert_twin_passes_and_change_is_caught(claims, supported, changed, kind)


# Paraphrases the entity-swap rules must let through: a figure said of words that own another of
# the claim's figures, where the claim's owner of it has no other figure in the passage; a size
# ('17B') or a version ('Loom-13B') inside a name; figures of different things with the same
# preposition; owners and joint doers ('OpenAI and Microsoft', 'to Google and Apple').
OWNER_PARAPHRASES = [
    (
        [
            "The authors found that all 11 evaluated frontier models scored below 20% on tasks "
            "requiring more than 200 tool calls."
        ],
        "Each of the 11 frontier models evaluated by the authors stayed below 20% on tasks that need over 200 "
        "tool calls.",
    ),
    (
        ["Analysts said capital expenditure totalled $112 billion in the third quarter of 2025."],
        "Capital spending came to $112 billion in Q3 2025, analysts said.",
    ),
    (
        ["A survey of 49,000 developers found 84% were using AI tools, but only 33% trusted their output."],
        "Just 33% of developers trust the output of AI tools, though 84% use them, the survey of 49,000 found.",
    ),
    (
        ["Luma Research says Loom-13B was trained on data from its own checkpoints, with no SFT examples."],
        "No SFT examples went into Loom-13B, Luma Research says; its training data came from its own checkpoints.",
    ),
    (
        ["The preprint reports weight syncing takes 1.9 seconds with ShardSync, down from 14 seconds with NCCL."],
        "Syncing weights takes 1.9 seconds with ShardSync, versus 14 seconds using NCCL, the preprint reports.",
    ),
    (
        ["Cobalt AI said the waitlist for its Foundry agent platform exceeded 50,000 companies."],
        "More than 50,000 companies were on the waitlist for Cobalt AI's Foundry agent platform, the company said.",
    ),
    (
        ["Microsoft and OpenAI signed a new agreement under which Microsoft holds a 27% stake in OpenAI."],
        "OpenAI and Microsoft signed a new deal, under which Microsoft keeps a 27% stake in OpenAI.",
    ),
    (
        ["Acme supplies chips to Apple and Google."],
        "Acme supplies chips to Google and Apple.",
    ),
    (
        ["Nvidia supplied the chips, and AMD supplied the memory."],
        "AMD supplied the memory and Nvidia the chips.",
    ),
    (
        ["Researchers report that a 4B agent trained in 300 environments scored 3.4 points above GPT-4.1."],
        "A 4B agent scored 3.4 points above GPT-4.1. It had been trained in 300 environments, researchers report.",
    ),
    (
        ["The study finds that final performance of a 17B model could be predicted within 2% from early runs."],
        "From early runs, the study could forecast a 17B model's final performance to within 2%.",
    ),
]


@pytest.mark.parametrize(("claims", "passage"), OWNER_PARAPHRASES)
def test_the_same_roles_in_other_words_are_no_swap(claims: list[str], passage: str) -> None:
    result = check(passage, claims)
    assert not any(reason.startswith("entity swap") for reason in result.reasons), result.reasons


def test_an_infinitive_is_not_reported_as_done() -> None:
    claims = ["The agency said paper cards would be fully replaced by the digital card by December 2025."]
    result = check("Paper cards are to be completely replaced by the digital card by December 2025.", claims)
    assert not any(reason.startswith("modality") for reason in result.reasons), result.reasons
