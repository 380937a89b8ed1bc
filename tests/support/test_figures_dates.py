"""Figures, quantities and dates, round 2: readings of figures a fact-checker accepts (a ratio
with what it counts, a bound on a coarse share or a multiplier, a unit's symbol, a date counted
from another) and the changes those readings must still catch.

Each case is a claim, a paraphrase it backs, and the paraphrase changed, which must fail with a
reason of the expected kind. The sentences are invented, not taken from the labelled sets.
"""

import pytest

from support.method import check
from tests.support.twins import assert_twin_passes_and_change_is_caught

FIGURES = "is in none of the cited claims"

TWINS = [
    # A ratio with what it counts between its two numbers.
    (
        ["In the trial, 12% of patients reported mild headaches."],
        "In the trial, about one patient in eight reported mild headaches.",
        "In the trial, about one patient in three reported mild headaches.",
        FIGURES,
    ),
    # A claim's percentage in words is a share as its digits would be.
    (
        ["Thirty percent of shoppers said they paid with their phones."],
        "Three in ten shoppers said they paid with their phones.",
        "Four in ten shoppers said they paid with their phones.",
        FIGURES,
    ),
    # A bound on a ratio reaches the next ratio of its whole, on its own side.
    (
        ["The poll found that 64% of voters backed the plan."],
        "More than six in ten voters backed the plan, the poll found.",
        "More than seven in ten voters backed the plan, the poll found.",
        FIGURES,
    ),
    (
        ["The poll found that 64% of voters backed the plan."],
        "More than six in ten voters backed the plan, the poll found.",
        "Fewer than six in ten voters backed the plan, the poll found.",
        FIGURES,
    ),
    # Fractions with larger denominators.
    (
        ["The startup said its chip runs the model at one-twentieth of the energy cost."],
        "The startup said its chip runs the model at 5% of the energy cost.",
        "The startup said its chip runs the model at 8% of the energy cost.",
        FIGURES,
    ),
    # A bound on a multiplier holds up to the next whole multiplier.
    (
        ["The retailer reported online sales of $2.4 billion, up 140% from a year earlier."],
        "The retailer's online sales more than doubled from a year earlier, to $2.4 billion.",
        "The retailer's online sales more than tripled from a year earlier, to $2.4 billion.",
        "quantity:",
    ),
    # A factor in times is also the cut it makes: 'by 2.2x' more than halves.
    (
        ["The new scheduler reduced job completion time by 2.2x on the cluster."],
        "On the cluster, the new scheduler more than halves job completion time.",
        "On the cluster, the new scheduler more than halves job completion time, by 1.4x.",
        FIGURES,
    ),
    # A number in words needs a value, not a digit inside a name.
    (
        ["Orca-3 gained 4.2 points on the benchmark, against 2.1 points for the baseline."],
        "Orca-3 gained 4.2 points on the benchmark, twice the baseline's gain.",
        "Orca-3 gained 4.2 points on the benchmark, three times the baseline's gain.",
        FIGURES,
    ),
    # The gap between two percentages is in points, not percent.
    (
        ["Turnout rose from 61.2% to 66.0% in the 2026 election."],
        "Turnout rose 4.8 percentage points in the 2026 election, to 66.0%.",
        "Turnout rose by 4.8 percent in the 2026 election, to 66.0%.",
        "percentage point",
    ),
    # A share of 'them' is of what the claims count.
    (
        ["The survey of 2,000 firms found that 9% of them had adopted a four-day week."],
        "The survey covered 2,000 firms. About a tenth of them had adopted a four-day week.",
        "The survey covered 2,000 firms. About a third of them had adopted a four-day week.",
        "quantity:",
    ),
    # 'a 21% share of' is a share of the same market.
    (
        ["The brand held a 21% share of the European market in 2025."],
        "The brand held about a fifth of the European market in 2025.",
        "The brand held nearly a third of the European market in 2025.",
        "quantity:",
    ),
    # 'half those of' states a share.
    (
        ["The company said running costs for the new plant were roughly half those of the old one."],
        "The company said the new plant costs roughly half of what the old one did to run.",
        "The company said the new plant costs roughly a quarter of what the old one did to run.",
        "quantity:",
    ),
    # A multiplier in words against a claim's before and after.
    (
        ["With the planner, the robots completed 60 of 150 tasks, compared with 20 without it."],
        "The planner tripled the number of the 150 tasks the robots completed.",
        "The planner doubled the number of the 150 tasks the robots completed.",
        "quantity:",
    ),
    # A multiplier against a move between two percentages.
    (
        ["The upgrade raised cache hit rates from 31% to 62% on the test servers."],
        "On the test servers the upgrade doubled cache hit rates, to 62%.",
        "On the test servers the upgrade tripled cache hit rates, to 62%.",
        "quantity:",
    ),
    # A share taken off.
    (
        ["The new compiler reduced build times by 34% compared with the old one."],
        "The new compiler shaved about a third off build times compared with the old one.",
        "The new compiler shaved nearly half off build times compared with the old one.",
        "quantity:",
    ),
    # A bound on a share in words reaches a tenth of it, on its side.
    (
        ["The regulator found that 46% of lenders had breached the rule."],
        "Nearly half of lenders had breached the rule, the regulator found.",
        "Just over half of lenders had breached the rule, the regulator found.",
        "quantity:",
    ),
    # A cut and the level it leaves add up to 100; the same value as the other is a change.
    (
        ["The new method needed 30% fewer annotated examples than the old one."],
        "The new method needed 70% as many annotated examples as the old one.",
        "The new method needed 30% as many annotated examples as the old one.",
        "quantity:",
    ),
    # What a change cost against what it kept.
    (
        ["The compressed model retained 92% of the original model's accuracy."],
        "Compression cost the model only 8% of the original model's accuracy.",
        "Compression cost the model only 6% of the original model's accuracy.",
        FIGURES,
    ),
    # A compound ordinal in words.
    (
        ["The festival was held for the 31st consecutive year in 2026."],
        "The festival was held in 2026 for the thirty-first year in a row.",
        "The festival was held in 2026 for the thirty-second year in a row.",
        FIGURES,
    ),
    # A unit's symbol for the claims' unit word, not another unit's.
    (
        ["The wind farm will have a capacity of 4.5 gigawatts when it is finished."],
        "The wind farm will have a capacity of 4.5 GW when it is finished.",
        "The wind farm will have a capacity of 4.5 MW when it is finished.",
        "is named",
    ),
    # A day of a month is no amount: '$54' less '14' is no '$40'.
    (
        ["On May 14, 2026 the airline said base fares would rise to $54."],
        "The airline said on May 14, 2026 that base fares would rise to $54.",
        "The airline said on May 14, 2026 that base fares would rise to $40.",
        FIGURES,
    ),
    # A share in a word: 'most' is more than half of what a claim counts.
    (
        ["The lab said it screened 4,200 samples, including 3,100 that tested negative."],
        "The lab screened 4,200 samples, most of them negative, it said.",
        "The lab screened 4,200 samples, a minority of them negative, it said.",
        "quantity:",
    ),
    (
        ["The lab said it screened 4,200 samples, including 1,600 that tested negative."],
        "The lab screened 4,200 samples, a minority of them negative, it said.",
        "The lab screened 4,200 samples, most of them negative, it said.",
        "quantity:",
    ),
    # A share by its end: 'the first tenth of' is 10%, whatever else a claim gives.
    (
        ["The team matched its final score using the first 10% of its training budget."],
        "Using only the first tenth of its training budget, the team matched its final score.",
        "Using only the first fifth of its training budget, the team matched its final score.",
        "quantity:",
    ),
    # Dates counted from another date.
    (
        ["The console launched on March 3, 2026, and its first update arrived on March 17."],
        "The console launched on March 3, 2026. Its first update arrived two weeks later.",
        "The console launched on March 3, 2026. Its first update arrived ten days later.",
        "date:",
    ),
    (
        ["The treaty was signed in June 2023.", "The treaty took effect in December 2024."],
        "The treaty was signed in June 2023 and took effect a year and a half later.",
        "The treaty was signed in June 2023 and took effect a year later.",
        "date:",
    ),
    # Whole years count to the year: 'the following year' is any month of it.
    (
        ["The plant opened in March 2024 and made its first profit in January 2025."],
        "The plant opened in March 2024 and made its first profit the following year.",
        "The plant opened in March 2024 and made its first profit two years later.",
        "date:",
    ),
    (
        ["The company, founded in 2019, raised $5 million in 2021."],
        "The company was founded in 2019. Two years later it raised $5 million.",
        "The company was founded in 2019. Three years later it raised $5 million.",
        "date:",
    ),
    (
        ["The rover landed in May 2027 and began drilling in June 2027."],
        "The rover landed in May 2027 and began drilling the following month.",
        "The rover landed in May 2027 and began drilling two months later.",
        "date:",
    ),
]


@pytest.mark.parametrize(("claims", "supported", "changed", "kind"), TWINS, ids=lambda value: str(value)[:40])
def test_a_reading_a_fact_checker_accepts_passes_and_a_changed_value_fails(claims, supported, changed, kind):
    assert_twin_passes_and_change_is_caught(claims, supported, changed, kind)


def test_a_counted_date_is_explained_with_both_sides():
    verdict = check(
        "The console launched on March 3, 2026. Its first update arrived ten days later.",
        ["The console launched on March 3, 2026, and its first update arrived on March 17."],
    )
    assert any(
        "'ten days later'" in reason and "March 13, 2026" in reason and "'March 17'" in reason
        for reason in verdict.reasons
    ), verdict.reasons


def test_a_ratio_counts_things_when_a_plural_follows_its_whole():
    # 'one model in five settings' counts a model and settings; it states no share of 20%.
    verdict = check(
        "The team tested one model in five settings, the paper says.",
        ["The paper says the team tested a single model in 5 settings."],
    )
    assert verdict.supported, verdict.reasons
