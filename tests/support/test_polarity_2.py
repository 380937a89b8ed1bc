"""Negation and direction, second round: readings that fire on rewordings (a pace after a
movement, both ways at once, a movement's two figures) and negations said in other words.
Each case has claims, a supported paraphrase that must pass, and the passage changed so that
it must fail with a reason of the given kind (invented sentences, not the tuning sets')."""

from __future__ import annotations

import pytest

from support.method import check
from tests.support.twins import assert_twin_passes_and_change_is_caught

# (kind, claims, a supported paraphrase, the same passage changed the way the kind says)
TWINS = [
    # A pace after a movement changes it: 'declined more slowly' is a slowed decline.
    (
        "direction",
        ["The study found the therapy slowed bone loss by 30% over two years compared with no treatment."],
        "Over two years, patients on the therapy lost "
        "bone 30% more slowly compared with no treatment, the study found.",
        "Over two years, patients on the therapy lost "
        "bone 30% more quickly compared with no treatment, the study found.",
    ),
    (
        "direction",
        ["Analysts said the decline in rents slowed to 2% in the spring."],
        "Rents fell more slowly in the spring, declining 2%, analysts said.",
        "Rents fell faster in the spring, declining 2%, analysts said.",
    ),
    # 'with and without' says both: no absence on either side.
    (
        "negation",
        [
            "The audit found no difference in error rates between forms filed with and without the new software.",
            "Clerks using the new software filed forms 15% faster, the audit found.",
        ],
        "Clerks with the new software were 15% faster at filing forms, the audit found.",
        "Error rates in forms filed without the new software showed a difference, the audit found.",
    ),
    # A movement's two figures ('fell to 33% from 43%') tell which claim it is.
    (
        "direction",
        [
            "Ridership on the metro rose to 71% of pre-pandemic levels in 2025 from 58% a year earlier.",
            "Ridership on regional buses fell to 40% from 52% over the same period.",
        ],
        "Metro ridership climbed to 71% of pre-pandemic levels in 2025, up from 58%, while regional buses "
        "dropped to 40%, down from 52%.",
        "Metro ridership climbed to 71% of pre-pandemic levels in 2025, up from 58%, while regional buses "
        "rose to 40%, up from 52%.",
    ),
    # 'revised upward' and 'revised downward' move; 'growth forecast' names what moved.
    (
        "direction",
        ["The central bank cut its 2027 inflation forecast to 2.1%, citing weaker energy prices."],
        "Citing weaker energy prices, the central bank revised its 2027 inflation forecast downward, to 2.1%.",
        "Citing weaker energy prices, the central bank revised its 2027 inflation forecast upward, to 2.1%.",
    ),
    (
        "direction",
        ["The IMF lowered its growth forecast for Spain to 1.9% for 2026."],
        "The IMF revised its growth forecast for Spain downward, to 1.9% for 2026.",
        "The IMF revised its growth forecast for Spain upwards, to 1.9% for 2026.",
    ),
    # 'sped up' is a movement up, against 'slowed'.
    (
        "direction",
        ["Adding the cache slowed page loads for first-time visitors, the engineers found."],
        "The engineers found the cache made page loads slower for first-time visitors.",
        "The engineers found the cache sped up page loads for first-time visitors.",
    ),
    # A figure above or below a level is a change from it: '56% below the year-earlier figure'.
    (
        "direction",
        ["The port handled 2.3 million containers in 2025, up 14% from the year before."],
        "The port handled 2.3 million containers in 2025, 14% above the previous year's total.",
        "The port handled 2.3 million containers in 2025, 14% below the previous year's total.",
    ),
    (
        "direction",
        ["Wheat prices in March were 8 percent lower than a year earlier, the ministry said."],
        "Wheat prices in March stood 8 percent below their level a year earlier, the ministry said.",
        "Wheat prices in March stood 8 percent above their level a year earlier, the ministry said.",
    ),
    # A subject's 'no' reaches the verb: 'no model exceeded 25%' against 'one model topped 25%'.
    (
        "negation",
        ["The regulator said no airline exceeded 90% on-time arrivals in the winter season."],
        "No airline topped 90% on-time arrivals in the winter season, the regulator said.",
        "At least one airline topped 90% on-time arrivals in the winter season, the regulator said.",
    ),
    # A claim's negated verb and another verb asserted of the same things in the passage: an
    # '-ing' after 'was', an irregular past, a particle before the object ('caught up with').
    (
        "negation",
        ["By the end of May the new line had not yet reached full capacity, the operator said."],
        "The new line was still short of full capacity by the end of May, the operator said.",
        "The new line was running at full capacity by the end of May, the operator said.",
    ),
    (
        "negation",
        ["The study found that students taught online never matched those taught in classrooms on written exams."],
        "Students taught online always trailed those taught in classrooms on written exams, the study found.",
        "Students taught online eventually caught up with those taught in classrooms on written exams, "
        "the study found.",
    ),
    (
        "negation",
        ["The vendor said the patch did not fix the login timeout errors on older tablets."],
        "The login timeout errors on older tablets remain after the patch, the vendor said.",
        "The patch dealt with the login timeout errors on older tablets, the vendor said.",
    ),
    # A figure's change from an earlier level: '12% less than a year earlier' is down 12%.
    (
        "direction",
        ["The carmaker sold 410,000 vehicles in the quarter, up 12% from a year earlier."],
        "The carmaker sold 410,000 vehicles in the quarter, 12% more than a year earlier.",
        "The carmaker sold 410,000 vehicles in the quarter, 12% less than a year earlier.",
    ),
    # 'lose to' ranks below: with the sides swapped it says what 'outperforms' says.
    (
        "direction",
        ["The small 3B model outperforms larger open models on the two coding benchmarks."],
        "Larger open models lose to the small 3B model on the two coding benchmarks.",
        "The small 3B model loses to larger open models on the two coding benchmarks.",
    ),
    # 'did nothing to curb' denies the curbing.
    (
        "negation",
        ["The report found the new speed cameras reduced crashes on the ring road by 18% in their first year."],
        "The new speed cameras curbed crashes on the ring road, cutting them 18% in their first year, the report "
        "found.",
        "The new speed cameras did nothing to curb crashes on the ring road in their first year, the report found.",
    ),
    (
        "negation",
        ["The trial showed the supplement lowered blood pressure in older adults."],
        "In older adults the supplement brought blood pressure down, the trial showed.",
        "In older adults the supplement did little to lower blood pressure, the trial showed.",
    ),
    # What one side turns down ('rather than', 'instead of', ', not ...') the other prefers.
    (
        "negation",
        ["The council will fund bus lanes rather than a new ring road, the mayor said."],
        "Instead of a new ring road, the council will pay for bus lanes, the mayor said.",
        "The council will fund a new ring road rather than bus lanes, the mayor said.",
    ),
    (
        "negation",
        ["Most of the surveyed farmers named water, not labour, as their main constraint this season."],
        "Water rather than labour was the main constraint this season for most of the surveyed farmers.",
        "Labour rather than water was the main constraint this season for most of the surveyed farmers.",
    ),
    (
        "negation",
        ["The pilot reduced emergency admissions by 9% without increasing GP workload."],
        "The pilot cut emergency admissions by 9% while avoiding any rise in GP workload.",
        "The pilot cut emergency admissions by 9% while increasing GP workload.",
    ),
    (
        "negation",
        ["The regulator has not yet approved the merger, the companies said."],
        "The merger still awaits the regulator's approval, the companies said.",
        "The regulator has approved the merger, the companies said.",
    ),
    # 'no evidence of X' against 'signs of X': words for what shows a thing is there.
    (
        "negation",
        ["NASA said the probe found no evidence of water ice in the crater."],
        "The probe found no trace of water ice in the crater, NASA said.",
        "The probe turned up signs of water ice in the crater, NASA said.",
    ),
    # A clause-ending 'was not' denies its subject the earlier predicate.
    (
        "negation",
        ["The inspectors said the east wing was safe to reopen, but that the old gym was not."],
        "The east wing was safe to reopen, the inspectors said, but not the old gym.",
        "The east wing was safe to reopen, the inspectors said, and so was the old gym.",
    ),
    # A side written as a clause ('than how good the verifier is') is read to its end.
    (
        "direction",
        ["The survey found that pay matters more to nurses than shift length when they choose a hospital."],
        "When nurses choose a hospital, how long the shifts are matters less to them than pay, the survey found.",
        "When nurses choose a hospital, pay matters less to them than how long the shifts are, the survey found.",
    ),
    # A need taken away on one side ('eliminate the need for a cashier') and still there on the
    # other ('still need a cashier').
    (
        "negation",
        ["The chain said the new kiosks eliminate the need for a cashier to approve refunds."],
        "With the new kiosks, refunds no longer have to wait for a cashier to approve them, the chain said.",
        "The new kiosks still need a cashier to approve refunds, the chain said.",
    ),
]

# Rewordings that must not read as a negation or a change of direction.
REWORDINGS = [
    # Replacing a thing takes it away, as dropping it does.
    (
        "Dropping the manual review step in favour of automated checks cut approval times by a third, the bank said.",
        ["The bank said replacing the manual review step with automated checks cut approval times by 33%."],
    ),
    # A denied '-ing' movement ('without reducing') and 'held steady' say the same.
    (
        "Output per worker rose 6% after the switch to a four-day week, and customer satisfaction held steady.",
        ["The switch to a four-day week raised output per worker by 6% without reducing customer satisfaction."],
    ),
    # Both sides turn down the same thing, however worded.
    (
        "Instead of pasting search results into the prompt, the assistant stores them in a scratch file "
        "it reads later.",
        ["The assistant keeps search results in a scratch file rather than in the prompt."],
    ),
    # 'no longer sells' and 'stopped selling' say the same, either way round.
    (
        "The company no longer sells its budget phones in Europe, a spokesperson said.",
        ["A spokesperson said the company stopped selling its budget phones in Europe."],
    ),
    # Stopping or keeping back a count ('stopped 92% of emails') ends no activity.
    (
        "The new filter stopped 92% of phishing emails before they reached inboxes.",
        ["The new filter kept 92% of phishing emails from reaching inboxes."],
    ),
    # A movement turned down ('rather than raise fees') asserts none.
    (
        "Rather than raise fees, the university cut administrative staff by 10%.",
        ["The university reduced its administrative staff by 10% and kept fees unchanged."],
    ),
    # A prevented movement ('avoiding any rise') is a denied one ('without increasing')...
    (
        "The pilot cut emergency admissions by 9% while avoiding any rise in GP workload.",
        ["The pilot reduced emergency admissions by 9% without increasing GP workload."],
    ),
    # ... but only in its own noun phrase: 'by cutting executive pay' is no prevented cut.
    (
        "The airline avoided layoffs by cutting executive pay, the union said.",
        ["The union said the airline cut executive pay and did not lay off staff."],
    ),
    # What is awaited has not happened: 'still awaits approval' is 'has not yet approved'.
    (
        "The regulator has not yet approved the merger.",
        ["The merger still awaits the regulator's approval."],
    ),
    (
        "The merger still awaits regulatory approval.",
        ["The regulator has not approved the merger yet."],
    ),
    # A denied light verb denies its object: 'never turned a profit' is 'unprofitable'.
    (
        "The ferry operator did not make a profit in any year since 2019, the accounts show.",
        ["The accounts show the ferry operator has been unprofitable in every year since 2019."],
    ),
    # 'needs no X' says 'does not require X': the denial stands after the verb.
    (
        "The new chip needs no external cooling.",
        ["The new chip does not require external cooling."],
    ),
    # A thing replaced is a thing no longer used.
    (
        "Human raters were swapped out for an automated verifier.",
        ["The team no longer uses human raters; an automated verifier does the job."],
    ),
    # 'not A or B' denies both: the 'or' goes on with the denial.
    (
        "Neither the smallest nor the largest model improved with more data.",
        ["More data did not help the smallest or the largest model."],
    ),
]


@pytest.mark.parametrize(("text", "claims"), REWORDINGS)
def test_rewordings_pass(text, claims):
    verdict = check(text, claims)
    assert not any(reason.startswith(("negation:", "direction:")) for reason in verdict.reasons), verdict.reasons


@pytest.mark.parametrize(("kind", "claims", "supported", "changed"), TWINS)
def test_each_change_is_caught_and_its_twin_passes(kind, claims, supported, changed):
    assert_twin_passes_and_change_is_caught(claims, supported, changed, kind + ":")
