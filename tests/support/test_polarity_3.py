"""Negation, direction, modality and new predicates, third round: classes of change and of
rewording read from a writer the rules had never seen. Each case has claims, a supported
paraphrase that must pass, and the passage changed so that it must fail with a reason of the
given kind (invented sentences, not the tuning sets')."""

from __future__ import annotations

import pytest

from support.method import check
from tests.support.twins import assert_twin_passes_and_change_is_caught

# (kind, claims, a supported paraphrase, the same passage changed the way the kind says)
TWINS = [
    # A ranking the claims' figures decide: the sides' figures order them, whatever the word.
    (
        "direction",
        ["On the reading benchmark, Lark-9B scored 74.1%.", "Finch-12B scored 69.5% on the same benchmark."],
        "Lark-9B finished ahead of Finch-12B on the reading benchmark.",
        "Finch-12B finished ahead of Lark-9B on the reading benchmark.",
    ),
    (
        "direction",
        ["The parser's accuracy on the held-out forms was 88% with Tessera and 93% with Quill."],
        "On the held-out forms the parser was more accurate with Quill than with Tessera.",
        "On the held-out forms the parser scored higher with Tessera than with Quill.",
    ),
    # A movement word before a pronoun for things ('dropping them') takes them away: the movement
    # is the next word's.
    (
        "direction",
        [
            "The audit found 40 broken tasks in the suite.",
            "The audit said removing those tasks raised the agents' scores by 4 points.",
        ],
        "The audit found 40 broken tasks in the suite, and dropping them lifted the agents' scores by 4 points.",
        "The audit found 40 broken tasks in the suite, and dropping them lowered the agents' scores by 4 points.",
    ),
    # New predicates: a participle hyphened to the word before it is one modifier of its noun;
    # the same verb standing alone with a new object is what the sentence adds.
    (
        "new predicate",
        ["FlowRL improved Kestrel-7B by 9 points over its base model on held-out tasks."],
        "On held-out tasks, the FlowRL-trained Kestrel-7B came out 9 points ahead of its untuned base model.",
        "On held-out tasks, FlowRL trained Kestrel-7B on leaked medical records and came out 9 points ahead of "
        "its base model.",
    ),
    # New predicates: a question right after a verb is its object ('identify which nurses will
    # resign'), and 'as a ...' a role of what it governs ('offered as a free download'): neither
    # ends the verb's clause.
    (
        "new predicate",
        ["The hospital's model forecasts how many beds each ward will need a week ahead."],
        "A week ahead, the hospital's model can estimate how many beds each ward will need.",
        "The hospital's model can identify which nurses will resign within a year.",
    ),
    (
        "new predicate",
        ["Cloud providers buy most of the verifiers that Tessel Labs sells."],
        "Most of the verifiers Tessel Labs sells are bought by cloud providers.",
        "Tessel Labs' verifiers are now offered as a free download by most cloud providers.",
    ),
    (
        "new predicate",
        ["Corvel sold its fraud-scoring model to two regional banks."],
        "Corvel supplied its fraud-scoring model to two regional banks.",
        "Corvel supplied its fraud-scoring model to two regional banks as unpaid trials.",
    ),
    # New predicates: a participle right after a preposition and before its noun is an
    # adjective ('against printed sheets'); the same word after the doer is a verb.
    (
        "new predicate",
        ["The inspection app checks each weld against a checklist covering multiple kinds of defect."],
        "The inspection app checks each weld against printed sheets of possible flaws, covering multiple kinds of "
        "defect.",
        "The inspection app checks each weld, and its makers printed sheets of possible flaws, covering multiple "
        "kinds of defect.",
    ),
    # New predicates: a ranking said of something ('making it the strongest', 'outperforming every
    # other') where no claim ranks anything.
    (
        "new predicate",
        ["Harbor-3 scored 81% on the coding test, the lab said."],
        "The lab said Harbor-3 reached 81% on the coding test.",
        "The lab said Harbor-3 reached 81% on the coding test, making it the strongest model of its size.",
    ),
    (
        "new predicate",
        ["The lab tested five models on the coding test, and Harbor-3 scored 81%."],
        "Of the five models the lab tested on the coding test, Harbor-3 scored 81%.",
        "Of the five models the lab tested on the coding test, Harbor-3 scored 81%, beating every other model.",
    ),
    # A multiple in words ('fivefold') is a figure: the quantity rule holds it to the claims, the
    # new-predicate rule does not count it as a new word.
    (
        "quantity",
        ["A city report found bike-share trips reached 200,000 in 2025, up from 40,000 in 2024."],
        "Bike-share trips grew roughly fivefold in a year, from 40,000 in 2024 to 200,000 in 2025, according to a "
        "city report.",
        "Bike-share trips grew roughly tenfold in a year, reaching 200,000 in 2025, according to a city report.",
    ),
    # New predicates: 'go' before an adjective says 'become' ('went wrong'): a linking verb, as
    # 'became' is; a verb the sentence adds after it is still read.
    (
        "new predicate",
        ["The council said 3% of the city's parking sensors failed in their first winter."],
        "In their first winter, 3% of the city's parking sensors went wrong, the council said.",
        "In their first winter, 3% of the city's parking sensors went wrong, and the council sued their maker.",
    ),
    # Modality: a plan in a verb the stopword lists leave out ('would add') reported as done.
    (
        "modality",
        ["The transit authority said it would add 40 electric buses to its fleet."],
        "The transit authority plans to add 40 electric buses to its fleet.",
        "The transit authority has added 40 electric buses to its fleet.",
    ),
    # Modality: a step weighed ('is considering extending') reported as taken, with no modal on
    # the passage's side ('is extending').
    (
        "modality",
        ["The library is considering extending its opening hours to Sundays."],
        "The library is weighing whether to extend its opening hours to Sundays.",
        "The library is extending its opening hours to Sundays.",
    ),
    # Modality: a possibility made a certain forecast in another verb, told by what both govern.
    (
        "modality",
        ["The port authority said it could open a second ferry terminal at the harbour by 2028."],
        "A second ferry terminal could open at the harbour by 2028, the port authority said.",
        "The port authority said it will build a second ferry terminal at the harbour by 2028.",
    ),
    # Modality: what a claim proposes or advises ('recommended that airlines inspect') made a
    # rule ('must inspect').
    (
        "modality",
        ["The safety board recommended that airlines inspect every engine mount within 30 days."],
        "Airlines should inspect every engine mount within 30 days, the safety board recommended.",
        "Airlines must inspect every engine mount within 30 days, the safety board said.",
    ),
    # Modality: a plan reported as done in another verb, told by what both govern.
    (
        "modality",
        ["The museum said it will move its fossil collection to a new wing next spring."],
        "The museum plans to relocate its fossil collection to a new wing next spring.",
        "The museum has relocated its fossil collection to a new wing.",
    ),
    # Modality: a result reported as a forecast in another verb, told by the verb's object.
    (
        "modality",
        ["The county completed the resurfacing of Mill Road in March."],
        "In March the county wrapped up the resurfacing of Mill Road.",
        "The county expects to wrap up the resurfacing of Mill Road in March.",
    ),
    # Modality: a trial or a proposal ('is piloting', 'proposed') reported as done or in force.
    (
        "modality",
        ["The council is piloting a four-day week for 120 of its staff."],
        "A four-day week is being trialled for 120 of the council's staff.",
        "The council has moved 120 of its staff to a four-day week.",
    ),
    (
        "modality",
        ["Regulators proposed a levy on single-use coffee cups."],
        "Regulators have put forward a levy on single-use coffee cups.",
        "Cafes now pay a levy on single-use coffee cups.",
    ),
    # Negation: a thing a claim says is absent, present in the passage with small words between
    # its words ('funding from some of the larger pharmaceutical firms').
    (
        "negation",
        ["The authors said the survey was run without any funding from pharmaceutical firms."],
        "The survey was run with no funding from pharmaceutical firms, the authors said.",
        "The authors said the survey was run on funding from some of the larger pharmaceutical firms.",
    ),
    # Negation: what a claim says of both or all, said of part only ('one of the two ..., but not
    # the other').
    (
        "negation",
        ["The new filter cut spam on both mail servers the company runs."],
        "On each of the two mail servers the company runs, the new filter cut spam.",
        "The new filter cut spam on one of the two mail servers the company runs, but not the other.",
    ),
    # Direction: a figure put on a level ('added 12% to') or taken off it ('took 12% off') moves it.
    (
        "direction",
        ["The new scheduler cut average queue time by 12%, the operator said."],
        "The new scheduler took 12% off average queue time, the operator said.",
        "The new scheduler added 12% to average queue time, the operator said.",
    ),
    # ...a figure further from its name ('reached a pass@1 score of 74.1%'); a number inside a
    # term ('pass@1') is no figure of anyone's.
    (
        "direction",
        ["In the spring tests, Lark-9B reached a pass@1 score of 74.1%, versus 69.5% for Finch-12B."],
        "Lark-9B came out ahead of Finch-12B in the spring tests.",
        "Finch-12B came out ahead of Lark-9B in the spring tests.",
    ),
    # New predicates: a reporter's own verb for the claim's, its doer and what it is done to the
    # claim's and its new words only how it was done ('through whichever network was cheapest');
    # the same verb done to something new is a new assertion.
    (
        "new predicate",
        ["Last year the bank's system routed each payment over the cheapest available network."],
        "Last year the bank's system shipped each payment through whichever network was cheapest.",
        "Last year the bank's system shipped customer deposits over the cheapest available network.",
    ),
    # Negation: a 'no' that opens the subject and a 'without' after its verb cancel out ('No
    # answer goes out without a source'); 'without' alone still denies.
    (
        "negation",
        ["The clinic's triage bot attaches a source to every answer it gives."],
        "No answer from the clinic's triage bot goes out without a source attached.",
        "Many answers from the clinic's triage bot go out without a source attached.",
    ),
]


@pytest.mark.parametrize(("kind", "claims", "supported", "changed"), TWINS)
def test_each_change_is_caught_and_its_twin_passes(kind, claims, supported, changed):
    assert_twin_passes_and_change_is_caught(claims, supported, changed, kind + ":")


# Rewordings that must raise no reason of these kinds.
REWORDINGS = [
    # Where less is better, a ranking runs against the figures: 'ahead' is the lower latency.
    (
        "Lark-9B finished well ahead of Finch-12B on latency.",
        ["Lark-9B answered in 210 milliseconds on average.", "Finch-12B took 340 milliseconds on average latency."],
    ),
    # A claim's ranking in the reporter's words; a superlative that picks out which one.
    (
        "Harbor-3 is the strongest open model on the coding test, the lab said.",
        ["Harbor-3 posted the highest score of any open model on the coding test, the lab said."],
    ),
    (
        "The lab's largest model, Harbor-3, scored 81% on the coding test.",
        ["The lab said Harbor-3 scored 81% on the coding test."],
    ),
    # A refusal a claim forecasts ('would not open') reported as made; a commitment reported as one.
    (
        "The regulator has declined to open an in-depth review of the merger, it said.",
        ["The regulator said it would not open an in-depth review of the merger."],
    ),
    (
        "In May the city committed to spending $40 million on new cycle lanes over three years.",
        ["The city said in May it will spend $40 million on new cycle lanes over the next three years."],
    ),
    # A future consequence of what a claim reports done is no forecast of it.
    (
        "Students at the college will pay 10% less in tuition fees after a cut.",
        ["The college cut tuition fees by 10%."],
    ),
    # A result measured in a trial is no trial reported as in use; agents that draft are no draft.
    (
        "In a study of 3,000 patients, the drug cut the risk of stroke by a third.",
        ["In the trial of 3,000 patients, the drug reduced the risk of stroke by a third."],
    ),
    (
        "Clinicians approved 88% of the requests the agent wrote at 11 hospitals.",
        ["The agent drafts prior-authorization requests at 11 hospitals, and clinicians approved 88% of them."],
    ),
    # A comparison of two movements' sizes ('a bigger drop') is read by the word's own sign.
    (
        "Finch-12B's 2.1-point drop was bigger than Lark-9B's.",
        ["Finch-12B showed a 2.1-point drop, while Lark-9B showed a 0.4-point drop."],
    ),
    (
        "No reply from the bank's legal-advice chatbot goes out without a disclaimer.",
        ["The bank's legal-advice chatbot adds a disclaimer to every reply it sends."],
    ),
]


@pytest.mark.parametrize(("text", "claims"), REWORDINGS)
def test_rewordings_raise_no_reason_of_these_kinds(text, claims):
    verdict = check(text, claims)
    kinds = ("negation:", "direction:", "modality:", "new predicate:")
    assert not any(reason.startswith(kinds) for reason in verdict.reasons), verdict.reasons
