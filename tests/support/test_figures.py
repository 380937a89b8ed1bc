"""Figures, quantities and dates in the support check: values a reporter computes from a
claim's figures pass, changed ones fail; dates are compared as periods however written.

Each case is a claim, a paraphrase it backs, and the paraphrase with one value changed, which
must fail with a reason of the expected kind.
"""

import pytest

from support.method import check
from tests.support.twins import assert_twin_passes_and_change_is_caught

FIGURES = "is in none of the cited claims"

TWINS = [
    # A share a reporter computes from a part and a whole.
    (
        ["The registry approved 1,200 of 3,000 applications in 2025."],
        "Of 3,000 applications the registry received in 2025, 40% were approved.",
        "Of 3,000 applications the registry received in 2025, 45% were approved.",
        FIGURES,
    ),
    # A change in percent computed from two counts, to the passage's precision.
    (
        ["The clinic's nursing staff grew from 20 to 50 between 2023 and 2025."],
        "The clinic's nursing staff went from 20 in 2023 to 50 in 2025, an increase of 150%.",
        "The clinic's nursing staff went from 20 in 2023 to 50 in 2025, an increase of 120%.",
        FIGURES,
    ),
    # A complement: the rest of a whole.
    (
        ["The audit found that 12% of the invoices were wrong."],
        "The audit found that 88% of the invoices were right.",
        "The audit found that 85% of the invoices were right.",
        FIGURES,
    ),
    # The rest of a share only when the passage says it is the other side.
    (
        ["The study found the detector wrongly flagged 14% of essays."],
        "The detector rightly passed 86% of essays, the study found.",
        "The detector wrongly flagged 86% of essays, the study found.",
        FIGURES,
    ),
    # A hedge rounds a computed value, never an exact one: 'half' is not 'close to 53%'.
    (
        ["A survey found half of the tested apps shared location data."],
        "Half of the tested apps shared location data, a survey found.",
        "Close to 53% of the tested apps shared location data, a survey found.",
        FIGURES,
    ),
    # Dollars written as cents.
    (
        ["The city said a bus ticket will cost $0.35 from June."],
        "A bus ticket will cost 35 cents from June, the city said.",
        "A bus ticket will cost 45 cents from June, the city said.",
        FIGURES,
    ),
    # A difference in cents between two prices in dollars.
    (
        ["The utility said its tariff fell from $2.00 to $1.50 a unit in 2025."],
        "The utility's tariff got 50 cents cheaper in 2025, falling to $1.50 a unit, it said.",
        "The utility's tariff got 60 cents cheaper in 2025, falling to $1.50 a unit, it said.",
        FIGURES,
    ),
    # A reciprocal: 'a quarter of the price' is the other costing four times as much.
    (
        ["Lumen said its Basic plan costs $5 a month, a quarter of the price of its Pro plan."],
        "Lumen's Basic plan costs $5 a month; its Pro plan costs 4 times as much, the company said.",
        "Lumen's Basic plan costs $5 a month; its Pro plan costs 6 times as much, the company said.",
        FIGURES,
    ),
    # A ratio in words, hedged, for a claim's percentage.
    (
        ["A survey of 500 farms found 57% use drip irrigation."],
        "Nearly three in five of the 500 farms surveyed use drip irrigation.",
        "Nearly three in five of the 500 farms surveyed use drip irrigation, 52% of them.",
        FIGURES,
    ),
    # Two-digit years after a full one: '2021-23' is 2021 to 2023.
    (
        ["The agency said rainfall was below average from 2021 to 2023."],
        "Rainfall was below average in 2021-23, the agency said.",
        "Rainfall was below average in 2021-24, the agency said.",
        FIGURES,
    ),
    # 'mid-2027' gives its year.
    (
        ["The operator says the new line will open by mid-2027."],
        "The new line will open by the middle of 2027, the operator says.",
        "The new line will open by the middle of 2028, the operator says.",
        FIGURES,
    ),
    # A year a claim gives as 'a year earlier'.
    (
        ["The exchange said trading volume reached 8 billion shares in May 2025, up 26% from a year earlier."],
        "Trading volume on the exchange reached 8 billion shares in May 2025, up about a quarter from May 2024.",
        "Trading volume on the exchange reached 8 billion shares in May 2025, up about a quarter from May 2023.",
        FIGURES,
    ),
    # A factor in words is held to the ratio of the claim's figures.
    (
        ["The study found drivers waited 40 minutes on average at the old depot against 95 at the new one."],
        "Drivers waited about two and a half times as long at the new depot, 95 minutes against 40, the study found.",
        "Drivers waited about three and a half times as long at the new depot, 95 minutes against 40, the study found.",
        FIGURES,
    ),
    # 'triple' in a claim backs 'three times'.
    (
        ["The report estimates exports reached $2 billion in 2026, triple the 2025 total."],
        "Exports reached an estimated $2 billion in 2026, three times the 2025 total, the report says.",
        "Exports reached an estimated $2 billion in 2026, four times the 2025 total, the report says.",
        FIGURES,
    ),
    # A year is exact: '2030' is no rounding of 2025.
    (
        ["The council pledged to close the landfill by 2025."],
        "The council has pledged to close the landfill by 2025.",
        "The council has pledged to close the landfill by 2030.",
        FIGURES,
    ),
    # 'all' backs a percentage, not a count of 100.
    (
        ["Inspectors found all 40 sites passed checks requiring more than 200 samples."],
        "All 40 sites passed checks requiring more than 200 samples, inspectors found.",
        "All 40 sites passed checks requiring more than 100 samples, inspectors found.",
        FIGURES,
    ),
    # An amount in words.
    (
        ["The charity raised $260 million in its 2025 appeal."],
        "The charity's 2025 appeal raised more than a quarter of a billion dollars.",
        "The charity's 2025 appeal raised more than a third of a billion dollars.",
        FIGURES,
    ),
    # Quarters written as month ranges, and months of a quarter.
    (
        ["Harbor Freight Lines said its cargo volume rose 8% in Q2 2026."],
        "Harbor Freight Lines' cargo volume rose 8% in the April-to-June quarter of 2026, the company said.",
        "Harbor Freight Lines' cargo volume rose 8% in the July-to-September quarter of 2026, the company said.",
        "date:",
    ),
    (
        ["The ministry said exports reached a record in the third quarter of 2025."],
        "Exports reached a record between July and September 2025, the ministry said.",
        "Exports reached a record between October and December 2025, the ministry said.",
        "date:",
    ),
    (
        ["The insurer said claims fell 4% in Q1 2026."],
        "In the first three months of 2026, claims at the insurer fell 4%, it said.",
        "In the last three months of 2026, claims at the insurer fell 4%, it said.",
        "date:",
    ),
    (
        ["The regulator expects a ruling in the fourth quarter of 2027."],
        "The regulator expects a ruling in the final quarter of 2027.",
        "The regulator expects a ruling in the first quarter of 2027.",
        "date:",
    ),
    (
        ["The ministry said the first half of 2025 saw 40 GW of new solar capacity."],
        "In the six months from January to June 2025, 40 GW of new solar capacity was added, the ministry said.",
        "In the six months from July to December 2025, 40 GW of new solar capacity was added, the ministry said.",
        "date:",
    ),
    (
        ["The bank said its revenue rose 8% in the third quarter."],
        "In the three months to September, the bank's revenue rose 8%, it said.",
        "In the three months to June, the bank's revenue rose 8%, it said.",
        "date:",
    ),
    (
        ["The chipmaker said royalty revenue in the quarter ended September 2025 rose 21%."],
        "The chipmaker's royalty revenue rose 21% in the September quarter of 2025, it said.",
        "The chipmaker's royalty revenue rose 21% in the December quarter of 2025, it said.",
        "date:",
    ),
    # A quarter of a named year is compared with its year.
    (
        ["The carrier said on-time arrivals reached 81% in Q1 2026, up from 74% in Q4 2025."],
        "On-time arrivals at the carrier reached 81% in the first three months of 2026, up from 74% in the final "
        "quarter of 2025, it said.",
        "On-time arrivals at the carrier reached 81% in the first three months of 2026, up from 74% in the first "
        "quarter of 2025, it said.",
        "date:",
    ),
    (
        ["The operator said passenger numbers rose 4% in the first half of 2025."],
        "Passenger numbers rose 4% in the first six months of 2025, the operator said.",
        "Passenger numbers rose 4% in the first four months of 2025, the operator said.",
        "date:",
    ),
    # A month a year earlier than a claim's, when the claim says 'a year earlier'.
    (
        ["The network said it carried 3 billion messages in May 2025, up 20% from a year earlier."],
        "The network carried 3 billion messages in May 2025, a fifth more than in May 2024, it said.",
        "The network carried 3 billion messages in May 2025, a fifth more than in May 2023, it said.",
        FIGURES,
    ),
    # A day of a month.
    (
        ["The agency said the probe launched on March 3, 2025."],
        "The probe launched on 3 March 2025, the agency said.",
        "The probe launched on 5 March 2025, the agency said.",
        "date:",
    ),
    # A unit by its symbol.
    (
        ["The grid operator said wind farms supplied a record 300 megawatts on Sunday."],
        "Wind farms supplied a record 300 MW on Sunday, the grid operator said.",
        "Wind farms supplied a record 300 kW on Sunday, the grid operator said.",
        "quantity:",
    ),
    # A multiplier in words against the factor a claim states.
    (
        ["The firm said its revenue rose 95% to $40 million in 2025."],
        "The firm's revenue nearly doubled to $40 million in 2025, it said.",
        "The firm's revenue nearly tripled to $40 million in 2025, it said.",
        "quantity:",
    ),
    (
        ["The firm said its revenue rose 70% to $40 million in 2025."],
        "The firm's revenue rose 70% to $40 million in 2025, it said.",
        "The firm's revenue roughly doubled to $40 million in 2025, it said.",
        "quantity:",
    ),
    (
        ["The depot said fuel costs fell 48% after it switched to electric buses."],
        "The depot said fuel costs were cut nearly in half after it switched to electric buses.",
        "The depot said fuel costs were cut by nearly three quarters after it switched to electric buses.",
        "quantity:",
    ),
    # A bound on one unit.
    (
        ["The lab said the new assay returns results in 0.8 minutes."],
        "The lab said the new assay returns results in under a minute.",
        "The lab said the new assay returns results in over a minute.",
        "quantity:",
    ),
    # The whole of a ratio is no percentage.
    (
        ["The review found 1 in 12 loans were wrongly refused."],
        "About 8% of loans were wrongly refused, the review found.",
        "12% of loans were wrongly refused, the review found.",
        "quantity:",
    ),
    # A share reached, in words.
    (
        ["The agency said oil's share of power generation fell to 34% in 2025."],
        "Oil's share of power generation dropped to about a third in 2025, the agency said.",
        "Oil's share of power generation dropped to about a quarter in 2025, the agency said.",
        "quantity:",
    ),
    # A span given by its unit alone.
    (
        ["The mayor stepped down on Monday after weeks of protests."],
        "The mayor stepped down on Monday after weeks of protests.",
        "The mayor stepped down on Monday after months of protests.",
        "quantity:",
    ),
    # A change as a share of the level before, against points to a level.
    (
        ["The survey found the share of schools using tutors rose 10 percentage points to 30% in 2025."],
        "The share of schools using tutors rose by half, to 30%, in 2025, the survey found.",
        "The share of schools using tutors rose by a third, to 30%, in 2025, the survey found.",
        "quantity:",
    ),
]


@pytest.mark.parametrize(("claims", "supported", "changed", "kind"), TWINS, ids=lambda value: str(value)[:40])
def test_a_derived_or_rewritten_value_passes_and_a_changed_one_fails(claims, supported, changed, kind):
    assert_twin_passes_and_change_is_caught(claims, supported, changed, kind)


@pytest.mark.parametrize(
    ("text", "claim"),
    [
        # A count followed by the items it counts.
        (
            "The app was translated into many languages but launched in just two, French and German.",
            "The app was translated into many languages but launched only in French and German.",
        ),
        # 'the first quarter of' something other than a year is a share, not a date.
        (
            "Using only the first quarter of its training budget, the team matched its final score.",
            "The team matched its final score using the first 25% of its training budget.",
        ),
        # A range of months a claim gives by its two ends.
        (
            "Monthly visits grew between January and June 2025, from 10,000 to 40,000, the museum said.",
            "The museum said monthly visits reached 40,000 by June 2025, up from 10,000 in January 2025.",
        ),
        # A backed period and a backed share back their own words.
        (
            "Freight volumes hit 4.1 million tonnes in the April-to-June quarter of 2026, the port says.",
            "The port says freight volumes reached 4.1 million tonnes in Q2 2026.",
        ),
        (
            "Measles cases climbed by roughly a fifth in 2023, to 10.3 million, the WHO said.",
            "The WHO said measles cases rose 20% in 2023 to 10.3 million.",
        ),
        # 'double-digit' and 'twice a year' state no factor.
        (
            "The chain reported double-digit growth, 12%, and reviews prices twice a year.",
            "The chain reported 12% growth and reviews its prices two times a year.",
        ),
    ],
)
def test_paraphrases_of_counts_periods_and_factors_pass(text, claim):
    verdict = check(text, [claim])
    assert verdict.supported, verdict.reasons


def test_a_changed_list_count_is_reported():
    verdict = check(
        "The app launched in just three, French and German.",
        ["The app launched only in French and German, the company said."],
    )
    assert any(reason.startswith("'three'") for reason in verdict.reasons), verdict.reasons
