"""The fact-checker rules of paragraphs_supported: each rule catches its kind of change, says
which kind and quotes both sides, and lets the change's supported twin through."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bench.supported_eval import SETS, ZERO_PASS_KINDS, curve_lines, judge, judge_seed_parts, load_cases, share, table
from support.method import check
from tests.support.twins import assert_passes_or_waits_on_its_verb

HERE = Path(__file__).parent

# (kind, claims, a supported paraphrase, the same passage changed the way the kind says)
TWINS = [
    (
        "negation",
        ["The model improved accuracy on the benchmark by 12%."],
        "The model improved benchmark accuracy by 12%.",
        "The model did not improve accuracy on the benchmark, despite a 12% figure.",
    ),
    (
        "negation",
        ["The drug failed to slow memory loss in the trial."],
        "In the trial the drug did not slow memory loss.",
        "The drug slowed memory loss in the trial.",
    ),
    (
        "negation",
        ["Police found evidence linking the suspect to the fire."],
        "Police say they found evidence that links the suspect to the fire.",
        "Police found no evidence linking the suspect to the fire.",
    ),
    (
        "negation",
        ["Residents can vote online in the referendum."],
        "Residents are able to vote online in the referendum.",
        "Residents cannot vote online in the referendum.",
    ),
    (
        "direction",
        ["Costs at the plant rose 8% in the second quarter."],
        "The plant's costs climbed 8% in the second quarter.",
        "Costs at the plant fell 8% in the second quarter.",
    ),
    (
        "direction",
        ["The open model beat the proprietary one on the coding benchmark."],
        "The open model outperformed the proprietary one on the coding benchmark.",
        "The open model trailed the proprietary one on the coding benchmark.",
    ),
    (
        "direction",
        ["Rents in Lisbon are higher than in Porto."],
        "Porto's rents are lower than Lisbon's.",
        "Rents in Lisbon are lower than in Porto.",
    ),
    (
        "direction",
        ["The refusal rate fell as models grew, with larger models refusing fewer harmless prompts."],
        "Larger models refused fewer harmless prompts.",
        "Larger models refused more harmless prompts.",
    ),
    ("direction", ["Sales were down 3% in May."], "Sales fell 3% in May.", "Sales were up 3% in May."),
    (
        "date",
        ["The factory will open in March 2027, the company said."],
        "The company said its factory will open in March 2027.",
        "The factory will open in May 2027, the company said.",
    ),
    ("date", ["Sales jumped 9% in the third quarter."], "Third-quarter sales jumped 9%.", "Sales jumped 9% in Q2."),
    (
        "date",
        ["The strike began on Monday and closed three ports."],
        "Three ports were closed by the strike, which began on Monday.",
        "The strike began on Thursday and closed three ports.",
    ),
    (
        "date",
        ["The bridge reopened last week after repairs."],
        "After repairs, the bridge reopened last week.",
        "The bridge reopens next week after repairs.",
    ),
    (
        "quantity",
        ["The unemployment rate rose 2 percentage points to 7%."],
        "The unemployment rate climbed 2 percentage points to 7%.",
        "The unemployment rate rose 2% to 7%.",
    ),
    (
        "quantity",
        ["More than 300 people attended the hearing."],
        "Over 300 people attended the hearing.",
        "Fewer than 300 people attended the hearing.",
    ),
    (
        "quantity",
        ["The company's revenue doubled in two years."],
        "Revenue at the company doubled in two years.",
        "The company's revenue tripled in two years.",
    ),
    (
        "quantity",
        ["It was the fifth consecutive monthly fall in output."],
        "Output fell for the fifth consecutive month.",
        "Output fell for the sixth consecutive month.",
    ),
    (
        "direction",
        ["Prices were unchanged in May."],
        "Prices did not rise in May; they held flat.",
        "Prices rose in May.",
    ),
    (
        "direction",
        ["The firm continued production at the plant."],
        "Production at the plant continued, the firm said.",
        "The firm halted production at the plant.",
    ),
    (
        "direction",
        ["The trade deficit widened to $80 billion."],
        "The trade deficit grew wider, to $80 billion.",
        "The trade deficit narrowed to $80 billion.",
    ),
    ("date", ["The vote was held yesterday."], "Yesterday the vote was held.", "The vote will be held tomorrow."),
    ("date", ["The shop opens in early March."], "In early March the shop opens.", "The shop opens in late March."),
    (
        "date",
        ["The law took effect in the 1990s."],
        "In the 1990s the law took effect.",
        "The law took effect in the 1980s.",
    ),
    ("quantity", ["Inflation rose by 3% in May."], "In May inflation rose by 3%.", "Inflation rose to 3% in May."),
    ("quantity", ["The fine was $5 million."], "The fine came to $5 million.", "The fine was €5 million."),
    (
        "quantity",
        ["The subscription costs $10 a month."],
        "A subscription is $10 a month.",
        "The subscription costs $10 a year.",
    ),
    (
        "quantity",
        ["The new line is 40 kilometres long."],
        "The new line runs for 40 kilometres.",
        "The new line is 40 miles long.",
    ),
    (
        "quantity",
        ["A third of the staff work remotely."],
        "A third of staff work from home.",
        "A quarter of the staff work remotely.",
    ),
    (
        "quantity",
        ["Thousands of people joined the march."],
        "Thousands of people marched.",
        "Hundreds of people joined the march.",
    ),
    (
        "entity_swap",
        ["Brightline Foods agreed to buy Crunchwell for $860 million."],
        "Crunchwell will be bought by Brightline Foods for $860 million.",
        "Crunchwell agreed to buy Brightline Foods for $860 million.",
    ),
    (
        "entity_swap",
        ["Ferro Labs sued Kinetica over the battery patent."],
        "Kinetica was sued by Ferro Labs over the battery patent.",
        "Kinetica sued Ferro Labs over the battery patent.",
    ),
    (
        "entity_swap",
        ["Nordvik Air hired Carla Mendes as chief executive.", "Tomas Berg left Nordvik Air in May."],
        "Nordvik Air hired Carla Mendes to be its chief executive.",
        "Nordvik Air hired Tomas Berg as chief executive.",
    ),
    (
        "entity_swap",
        ["Acme's revenue rose 5% while Globex's rose 3%."],
        "Acme's revenue rose 5%, Globex's 3%.",
        "Globex's revenue rose 5% while Acme's rose 3%.",
    ),
    (
        "modality",
        ["Rubric rewards lowered the cost of labelling by forty percent in the audit lab trial."],
        "In the audit lab trial, rubric rewards lowered labelling costs by forty percent.",
        "Rubric rewards will lower the cost of labelling by forty percent, the audit lab says.",
    ),
    (
        "modality",
        ["The company expects to hire 500 engineers in 2027."],
        "The company expects to hire 500 engineers in 2027.",
        "The company hired 500 engineers in 2027.",
    ),
    (
        "modality",
        ["The model may help radiologists spot tumours earlier, the authors say."],
        "The model could help radiologists spot tumours earlier, the authors say.",
        "The model helped radiologists spot tumours earlier, the authors say.",
    ),
    (
        "new_predicate",
        ["Rubric rewards lowered the cost of labelling by forty percent in the audit lab trial."],
        "Rubric rewards lowered labelling costs by forty percent in the audit lab trial.",
        "Rubric rewards will replace every verifier by next year, the lab says.",
    ),
    (
        "new_predicate",
        ["The mayor's budget adds 400 police officers."],
        "The mayor's budget adds 400 police officers.",
        "The mayor's budget adds 400 police officers and closes two fire stations.",
    ),
    (
        "new_predicate",
        ["Norvik Air cancelled 40 flights because of the storm."],
        "Because of the storm, Norvik Air cancelled 40 flights.",
        "Norvik Air cancelled 40 flights and blamed air traffic controllers for the chaos.",
    ),
    (
        "new_predicate",
        ["The drug lowered blood pressure in the trial."],
        "In the trial, blood pressure fell on the drug, which lowered it.",
        "The drug lowered blood pressure in the trial and is now sold in pharmacies nationwide.",
    ),
    (
        "new_predicate",
        ["The agent framework lets a planner model delegate subtasks to smaller executor models."],
        "In the agent framework, a planner model hands subtasks to smaller executor models.",
        "The agent framework lets a planner model rewrite its own reward function.",
    ),
    # Second round: a word's negative by prefix, a claim's 'found no', movements read by their
    # values, 'more slowly', an outcome word against a level's, 'cost more than' as a comparison,
    # 'expect X to', 'threatening to', a claim's 'expected to last', irregular verbs ('built'),
    # a news verb no claim has (active or passive), and a doer swapped with the one done to.
    (
        "negation",
        ["Process rewards stabilize agentic RL on long workflows."],
        "Process rewards keep agentic RL stable on long workflows.",
        "Process rewards destabilize agentic RL on long workflows.",
    ),
    (
        "negation",
        ["The researchers found no link between the sweetener and cancer in mice."],
        "In mice, the researchers found no link between the sweetener and cancer.",
        "The researchers found a link between the sweetener and cancer in mice.",
    ),
    (
        "direction",
        ["Failures to use teammates' input fell from 26.3% to 22.8%."],
        "Failures to use teammates' input dropped to 22.8% from 26.3%.",
        "Failures to use teammates' input became more common, reaching 26.3% from 22.8%.",
    ),
    (
        "direction",
        ["Wages grew faster than prices in October."],
        "In October wages grew more quickly than prices.",
        "Wages grew more slowly than prices in October.",
    ),
    (
        "direction",
        ["Removing any single component of the recipe lowers training stability."],
        "Removing any single component of the recipe makes training less stable.",
        "Removing any single component of the recipe improves training stability.",
    ),
    (
        "direction",
        ["The tree rollouts cost less than sampling independent trajectories."],
        "The tree rollouts are cheaper than sampling independent trajectories.",
        "The tree rollouts cost more than sampling independent trajectories.",
    ),
    (
        "modality",
        ["The LAR-27B model reaches 84.2% on SWE-Bench-Verified."],
        "LAR-27B reaches 84.2% on SWE-Bench-Verified.",
        "The authors expect the LAR-27B model to reach 84.2% on SWE-Bench-Verified.",
    ),
    (
        "modality",
        ["The union has called a strike at the port."],
        "A strike at the port has been called by the union.",
        "The union is threatening to call a strike at the port.",
    ),
    (
        "modality",
        ["The heatwave is expected to last until the weekend, forecasters said."],
        "Forecasters said the heatwave is expected to last until the weekend.",
        "The heatwave lasted until the weekend, forecasters said.",
    ),
    (
        "modality",
        ["Kestrel Energy built a 400-megawatt solar farm in Nevada."],
        "Kestrel Energy has built a 400-megawatt solar farm in Nevada.",
        "Kestrel Energy will build a 400-megawatt solar farm in Nevada.",
    ),
    (
        "new_predicate",
        ["Kestrel Energy will build a 400-megawatt solar farm in Nevada, the company said on Monday."],
        "Kestrel Energy said on Monday it will construct a 400-megawatt solar farm in Nevada.",
        "Kestrel Energy has sold its Nevada solar farm to a pension fund, the company said on Monday.",
    ),
    (
        "new_predicate",
        ["Invisible Technologies builds RL environments and verifiers for enterprise clients."],
        "RL environments and verifiers for enterprise clients are built by Invisible Technologies.",
        "Invisible Technologies is being acquired by one of its enterprise clients.",
    ),
    (
        "entity_swap",
        ["The regulator fined Pelham Telecom £12 million for misleading customers."],
        "Pelham Telecom was fined £12 million by the regulator for misleading customers.",
        "Pelham Telecom fined the regulator £12 million for misleading customers.",
    ),
    # The sides of a comparison swapped, and a figure given to what the claim gives another.
    (
        "direction",
        ["Verifier quality matters more than rollout volume in the early stages."],
        "In the early stages, verifier quality matters more than rollout volume.",
        "Rollout volume matters more than verifier quality in the early stages.",
    ),
    (
        "direction",
        ["Verifiable rewards let training iterations complete in days rather than months."],
        "With verifiable rewards, training iterations take days rather than months.",
        "Verifiable rewards make training iterations take months rather than days.",
    ),
    (
        "entity_swap",
        ["ProgAgent-14B reached a 30.7% pass rate on LOCA-bench, where the direct-tool-calling baselines scored zero."],
        "On LOCA-bench ProgAgent-14B reached a 30.7% pass rate, where the direct-tool-calling baselines scored zero.",
        "The direct-tool-calling baselines reached a 30.7% pass rate on LOCA-bench, where ProgAgent-14B scored zero.",
    ),
    # 'with X' against a claim's 'without X'; a verb's negation is no match for a measure's name.
    (
        "negation",
        ["The method backs terminal rewards up into turn-level credit without a learned critic."],
        "The method backs terminal rewards up into turn-level credit with no learned critic.",
        "The method backs terminal rewards up into turn-level credit with a learned critic.",
    ),
]


def _id(twin: tuple[str, list[str], str, str]) -> str:
    return f"{twin[0]}: {twin[3][:40]}"


@pytest.mark.parametrize(("kind", "claims", "supported", "changed"), TWINS, ids=[_id(twin) for twin in TWINS])
def test_each_rule_catches_its_change_and_passes_its_twin(kind, claims, supported, changed):
    twin = check(supported, claims)
    verdict = check(changed, claims)

    assert_passes_or_waits_on_its_verb(twin)
    assert not verdict.supported
    assert any(reason.startswith(kind.replace("_", " ") + ": ") for reason in verdict.reasons), verdict.reasons


@pytest.mark.parametrize(
    ("claims", "text", "reason"),
    [
        (
            ["The model improved accuracy on the benchmark by 12%."],
            "The model did not improve accuracy on the benchmark, despite a 12% figure.",
            "negation: the paragraph says 'did not improve accuracy on'; claim 1 says 'model improved accuracy on'",
        ),
        (
            ["Costs at the plant rose 8% in the second quarter."],
            "Costs at the plant fell 8% in the second quarter.",
            "direction: the paragraph says 'plant fell 8% in'; claim 1 says 'plant rose 8% in'",
        ),
        (
            ["Sales jumped 9% in the third quarter."],
            "Sales jumped 9% in Q2.",
            "date: the paragraph says 'Q2'; claim 1 says 'third quarter'",
        ),
        (
            ["The unemployment rate rose 2 percentage points to 7%."],
            "The unemployment rate rose 2% to 7%.",
            "quantity: the paragraph says '2%' (percent); claim 1 says '2 percentage points' (points): "
            "a percentage point is not a percent",
        ),
        (
            ["Ferro Labs sued Kinetica over the battery patent."],
            "Kinetica sued Ferro Labs over the battery patent.",
            "entity swap: the paragraph says 'Kinetica sued Ferro Labs'; claim 1 says 'Ferro Labs sued Kinetica'",
        ),
        (
            ["The company expects to hire 500 engineers in 2027."],
            "The company hired 500 engineers in 2027.",
            "modality: the paragraph says 'company hired 500 engineers' as a fact; claim 1 says 'expects to hire "
            "500' (a forecast, plan or possibility)",
        ),
        (
            ["Rubric rewards lowered the cost of labelling by forty percent in the audit lab trial."],
            "Rubric rewards will replace every verifier by next year, the lab says.",
            "new predicate: the paragraph says 'will replace every verifier by next year'; no cited claim says "
            "anything like it (not in them: replace, verifier); the nearest, claim 1 says 'lowered the cost of "
            "labelling'",
        ),
    ],
)
def test_a_reason_names_its_kind_and_quotes_both_sides(claims, text, reason):
    assert reason in check(text, claims).reasons


@pytest.mark.parametrize(
    ("claims", "text", "reason"),
    [
        (
            ["Failures to use teammates' input fell from 26.3% to 22.8%."],
            "Failures to use teammates' input rose from 22.8% to 26.3%.",
            "direction: the paragraph says 'from 22.8% to 26.3%'; claim 1 says 'from 26.3% to 22.8%'",
        ),
        (
            ["The regulator fined Pelham Telecom £12 million for misleading customers."],
            "Pelham Telecom fined the regulator £12 million for misleading customers.",
            "entity swap: the paragraph says 'Pelham Telecom fined the regulator'; claim 1 says 'regulator fined "
            "Pelham Telecom'",
        ),
        (
            ["Kestrel Energy will build a 400-megawatt solar farm in Nevada."],
            "Kestrel Energy has sold its Nevada solar farm to a pension fund.",
            "new predicate: the paragraph says 'has sold its Nevada solar farm'; no cited claim says 'sold' or "
            "anything like it; the nearest, claim 1 says 'will build a 400-megawatt solar'",
        ),
        (
            ["Process rewards stabilize agentic RL on long workflows."],
            "Process rewards destabilize agentic RL on long workflows.",
            "negation: the paragraph says 'rewards destabilize agentic RL'; claim 1 says 'rewards stabilize "
            "agentic RL'",
        ),
    ],
)
def test_second_round_reasons_name_their_kind_and_quote_both_sides(claims, text, reason):
    assert reason in check(text, claims).reasons


@pytest.mark.parametrize(
    ("text", "claim"),
    [
        # Removing a thing is being without it: 'dropping the critic' and 'without a critic'.
        (
            "Doing without a learned critic takes one failure surface out of agentic training.",
            "Dropping the learned critic removes a failure surface from agentic training pipelines.",
        ),
        # 'less stable' says what 'lowers stability' says.
        (
            "Take out any one component and training becomes less stable, the ablations suggest.",
            "Ablations suggest removing any single component lowers training stability.",
        ),
        # 'for lack of expertise' says what 'expertise is the bottleneck' says.
        (
            "Most projects stall for lack of domain expertise, not infrastructure.",
            "Domain expertise, not infrastructure, is the typical bottleneck: most projects stall.",
        ),
        # A passive's doer comes after 'by': no swap.
        (
            "Dunmore Metals has agreed to be acquired by Merriam Steel for $3.1 billion.",
            "Merriam Steel has agreed to acquire Dunmore Metals for $3.1 billion.",
        ),
        # A claim's 'LLMs' backs 'large language models'; 'teaches' is 'trains'.
        (
            "CoSIR teaches large language models to collaborate by rewarding information sharing in self-play.",
            "CoSIR trains LLMs for multi-agent collaboration by rewarding information sharing in self-play.",
        ),
    ],
)
def test_second_round_paraphrases_pass(text, claim):
    verdict = check(text, [claim])
    assert_passes_or_waits_on_its_verb(verdict)


def test_a_reason_names_the_claim_by_the_label_it_is_given():
    verdict = check("Costs at the plant fell 8%.", ["Costs at the plant rose 8%."], labels=["claim c7"])

    assert verdict.reasons == ["direction: the paragraph says 'plant fell 8%'; claim c7 says 'plant rose 8%'"]


@pytest.mark.parametrize(
    ("text", "claim"),
    [
        ("Sales rose nearly 40% in the year.", "Sales rose 39.6% in the year."),
        ("More than 200 homes were destroyed by the fire.", "The fire destroyed 214 homes."),
        ("The city is home to about 1.2 million residents.", "The city has 1,187,000 residents."),
        ("Three in 10 voters backed the plan.", "30% of voters backed the plan."),
        ("A quarter of the county's adults are obese.", "One in four adults in the county is obese."),
        ("The reservoir is about 67% full.", "Two-thirds of the reservoir's capacity is in use."),
        ("The European Central Bank held rates.", "The ECB held rates."),
        ("The detector caught nine out of ten AI-written essays.", "The detector flagged 9 in 10 AI-written essays."),
        ("Seville hit 46.2C during the heatwave.", "The heatwave pushed temperatures in Seville to 46.2 degrees."),
        ("Llama 3 beat Qwen 2.5 on the test.", "Llama-3 beat Qwen2.5 on the test."),
        ("Qwen2.5 beat GPT4o on the test.", "Qwen 2.5 beat GPT-4o on the test."),
        ("The polls close at 10 p.m. on Sunday.", "Polls close at 10pm on Sunday."),
        # A claim's own arithmetic: the change between its two figures, a multiplier's start.
        ("Disclosure rose by 5.8 percentage points, to 74.3%.", "Disclosure rose from 68.5% to 74.3%."),
        ("The company's workforce grew from 400 to 800.", "The company doubled its workforce to 800."),
        # Hedged counts in words, shares in words, units and sizes however written.
        ("TreeOPSD lifts the model by about five points.", "TreeOPSD lifts the model by 4.97 points."),
        ("Nearly two-thirds of the tasks were completed by the agent.", "The agent completed 64% of the tasks."),
        ("Kestrel Energy will build a 400 MW solar farm.", "Kestrel Energy will build a 400-megawatt solar farm."),
        ("The river peaked at 5.4m on Thursday.", "The river peaked at 5.4 metres on Thursday."),
        ("The 14-billion-parameter ProgAgent passed 30.7% of tasks.", "ProgAgent-14B passed 30.7% of tasks."),
        ("The 8B Qwen3 model improved 31.85 points.", "Qwen3-8B improved 31.85 points."),
        # A plain rounding that drops only the last digit; a count of what a claim lists.
        ("Qwen3-8B improved 31.9 points.", "Qwen3-8B improved 31.85 points."),
        ("The city has 1.19 million residents.", "The city has 1,187,000 residents."),
        ("TreeOPSD beat three baselines.", "TreeOPSD outperforms GRPO, GSPO, and fixed-credit tree policy gradients."),
        (
            "The baselines did not pass a single LOCA-bench task, while ProgAgent-14B reached a 30.7% pass rate.",
            "ProgAgent-14B reached a 30.7% pass rate on LOCA-bench, where the baselines scored zero.",
        ),
        # Common knowledge and common acronyms are not names a claim must give.
        ("Water vapour was found 120 light years from Earth.", "Water vapour was found 120 light years away."),
        ("TreeOPSD lets AI agents learn over long horizons.", "TreeOPSD lets agents learn over long horizons."),
    ],
)
def test_roundings_ratios_and_abbreviations_are_backed(text, claim):
    assert check(text, [claim]).supported, check(text, [claim]).reasons


@pytest.mark.parametrize(
    ("text", "claim", "reason"),
    [
        ("Sales rose 40% in the year.", "Sales rose 39.6% in the year.", "'40%'"),
        ("Some 1,101 annotators took part.", "About 1,100 annotators took part.", "'1,101'"),
        ("Nearly 40% of sales were online.", "41% of sales were online.", "'40%'"),
        ("More than 200 homes burned.", "190 homes burned.", "'200'"),
        ("Sales rose in 2024.", "Sales in FY2024 rose.", "'2024'"),
        ("Disclosure rose 6.8 points to 74.3%.", "Disclosure rose from 68.5% to 74.3%.", "'6.8 points'"),
        ("Qwen3-8B improved 31.8 points.", "Qwen3-8B improved 31.85 points.", "'31.8 points'"),
        ("The study followed adults for twelve years.", "The study followed adults for ten years.", "'twelve' (years)"),
        ("The lab trained the 7B model.", "The lab trained Qwen3-8B.", "'7B'"),
    ],
)
def test_a_rounding_needs_a_hedge_and_the_right_side(text, claim, reason):
    verdict = check(text, [claim])
    assert not verdict.supported
    assert verdict.reasons[0].startswith(reason + " is in none of the cited claims")


# --- The labelled sets ---------------------------------------------------------------------

# The tuning sets' floors stop the rules getting worse unnoticed, set a little below what the
# method scores so a set can grow harder: per set, at most this share of its unsupported cases
# passed silently, at most this share of its supported ones refused, and at least this share
# of them passed (the rest go to the desk's review).
TUNING_FLOORS = {
    "fact-check": (0.03, 0.01, 0.89),
    "fact-check-2": (0.11, 0.01, 0.87),
    "blind-a": (0.05, 0.02, 0.80),
    "blind-b": (0.10, 0.01, 0.58),
    "blind-c": (0.13, 0.01, 0.76),
    "blind-e": (0.18, 0.01, 0.58),
    "blind-f": (0.09, 0.01, 0.44),
    "blind-i": (0.09, 0.04, 0.78),
}


def judged_set(name):
    judged, _ = judge(load_cases(SETS[name]))
    return judged


def misjudged(judged, label, verdict):
    return [item.case["id"] for item in judged if item.label == label and item.verdict() == verdict]


@pytest.mark.parametrize("name", sorted(TUNING_FLOORS))
def test_the_tuning_sets_stay_within_their_floors(name):
    most_passed, most_refused, least_supported = TUNING_FLOORS[name]
    judged = judged_set(name)
    counts = table(judged)

    assert share(counts, "unsupported", "supported") <= most_passed, misjudged(judged, "unsupported", "supported")
    assert share(counts, "supported", "unsupported") <= most_refused, misjudged(judged, "supported", "unsupported")
    assert share(counts, "supported", "supported") >= least_supported, misjudged(judged, "supported", "review")


def test_no_date_or_quantity_change_of_the_fact_check_sets_passes():
    for name in ("fact-check", "fact-check-2"):
        judged = [item for item in judged_set(name) if item.case.get("kind") in ("date", "quantity")]
        assert misjudged(judged, "unsupported", "supported") == []


def test_every_unsupported_fact_check_case_has_a_supported_twin():
    cases = json.loads((HERE / "fact_check_cases.json").read_text())
    unsupported = [index for index, case in enumerate(cases) if case["label"] == "unsupported"]
    assert len(unsupported) >= 70
    for index in unsupported:
        twin = cases[index - 1]
        assert (twin["label"], twin["twin_of"], twin["claims"]) == (
            "supported",
            cases[index]["kind"],
            cases[index]["claims"],
        )


def test_the_second_fact_check_set_is_balanced_over_every_kind():
    cases = load_cases(SETS["fact-check-2"])
    labels = [case["label"] for case in cases]
    assert len(cases) >= 200
    assert labels.count("supported") >= 100
    assert labels.count("unsupported") >= 100
    kinds = {case["kind"] for case in cases if case["label"] == "unsupported"}
    assert kinds >= set(ZERO_PASS_KINDS) | {"entity_swap", "modality", "new_predicate"}
    assert len({case["id"] for case in cases}) == len(cases)


def test_the_held_out_set_is_big_balanced_and_over_the_issue_kinds():
    # Only its shape is tested: the set measures (bench/supported_eval.py), it is not tuned on.
    cases = load_cases(SETS["held-out"])
    labels = [case["label"] for case in cases]
    assert len(cases) >= 300
    assert abs(labels.count("supported") - labels.count("unsupported")) <= len(cases) * 0.1
    kinds = {case["kind"] for case in cases if case["label"] == "unsupported"}
    assert kinds >= set(ZERO_PASS_KINDS) | {"entity_swap", "modality", "new_predicate"}
    assert all(case["claims"] and case["text"] for case in cases)


# The blind sets: written by helpers who saw the issue's rules and the seeds, never the code.
# blind-a, -b, -c, -e, -f and -i are tuning data, with floors (TUNING_FLOORS); blind-d, -g and -h
# measure, like the held-out set: only their shape is tested.


@pytest.mark.parametrize("name", ["blind-a", "blind-b", "blind-c", "blind-d", "blind-e", "blind-f", "blind-g"])
def test_each_blind_set_is_balanced_over_every_kind(name):
    cases = load_cases(SETS[name])
    labels = [case["label"] for case in cases]
    assert len(cases) >= 240
    assert labels.count("supported") == labels.count("unsupported")
    kinds = [case["kind"] for case in cases if case["label"] == "unsupported"]
    assert set(kinds) == set(ZERO_PASS_KINDS) | {"entity_swap", "modality", "new_predicate"}
    assert min(kinds.count(kind) for kind in set(kinds)) >= 17
    assert len({case["id"] for case in cases}) == len(cases)
    assert all(1 <= len(case["claims"]) <= 4 and case["text"] for case in cases)


@pytest.mark.parametrize(("name", "size"), [("blind-h", 120), ("blind-i", 160)])
def test_the_blind_verb_sets_hold_rewordings_and_opposite_actions_in_halves(name, size):
    cases = load_cases(SETS[name])
    assert len(cases) == size
    assert [case["label"] for case in cases].count("supported") == size // 2
    assert {case["kind"] for case in cases if case["label"] == "unsupported"} == {"negation"}
    assert len({case["id"] for case in cases}) == len(cases)
    assert all(1 <= len(case["claims"]) <= 4 and case["text"] for case in cases)


def test_a_passage_too_long_to_read_is_refused_with_a_reason_not_half_read():
    claim = "The lab reported revenue of $84 million in 2025."
    sentence = "The lab reported revenue of $84 million in 2025. "
    fits = sentence * (4_000 // len(sentence))
    too_long = fits + sentence

    assert check(fits, [claim]).supported
    verdict = check(too_long, [claim])
    assert (verdict.verdict, [reason.code for reason in verdict.problems]) == ("unsupported", ["passage_too_long"])
    assert verdict.reasons == [
        f"the paragraph is {len(too_long.strip()):,} characters long; the support check reads paragraphs of up to "
        "4,000: split it into paragraphs, each citing its claims"
    ]


def test_the_trade_off_curve_counts_the_seed_parts_each_boundary_supports():
    seeds = judge_seed_parts()
    lines = curve_lines(judge(load_cases(SETS["tuning"]))[0], seeds)
    chosen = [line for line in lines if line.endswith("<- chosen")]
    # The chosen boundary publishes both seeds as checked: every one of their parts supported.
    assert len(chosen) == 1
    assert chosen[0].split()[-3] == f"{len(seeds)}/{len(seeds)}"
    assert len(seeds) == 27
    # The strictest boundary tried leaves a seed part to the desk: the column reads the verdicts.
    strictest = next(line for line in lines if "verbs for review 1  coverage >= 1.0" in line)
    assert int(strictest.split()[-1].split("/")[0]) < len(seeds)
    assert lines[-1].startswith("  every boundary tried that passes at most 2% of the tuning sets' unsupported")
