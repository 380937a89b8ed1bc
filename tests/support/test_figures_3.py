"""Figures, quantities and dates, round 3: what a reporter computes from figures in several
cited claims, a value a claim's words imply, a share's complement and what a share of a count
comes to, ratios in words, spans between the claims' dates, and months that make a quarter;
and the changes those readings must still catch.

Each case is a list of claims, a paraphrase they back, and the paraphrase changed, which must
fail with a reason of the expected kind. The sentences are invented, not taken from the
labelled sets.
"""

import pytest

from tests.support.twins import assert_twin_passes_and_change_is_caught

FIGURES = "is in none of the cited claims"

TWINS = [
    # The gap between figures of two claims, in points.
    (
        ["The Harlow team's model scored 81.4% on the bar exam.", "The Ostend team's model scored 74.9% on it."],
        "On the bar exam, the Harlow team's model scored 81.4%, 6.5 points above the Ostend team's model.",
        "On the bar exam, the Harlow team's model scored 81.4%, 7.5 points above the Ostend team's model.",
        FIGURES,
    ),
    # ... which is points, not percent, across claims as within one.
    (
        ["The Harlow team's model scored 81.4% on the bar exam.", "The Ostend team's model scored 74.9% on it."],
        "On the bar exam, the Harlow team's model scored 81.4%, 6.5 points above the Ostend team's model.",
        "On the bar exam, the Harlow team's model scored 81.4%, 6.5% above the Ostend team's model.",
        "percentage point",
    ),
    # A factor a claim states in words sets its figure against the value before.
    (
        ["The port handled 1.8 million containers in 2025, twice its 2019 total."],
        "The port moved 1.8 million containers in 2025, up from 900,000 in 2019.",
        "The port moved 1.8 million containers in 2025, up from 700,000 in 2019.",
        FIGURES,
    ),
    (
        ["The library lent 4,500 e-books in March, three times as many as in January."],
        "The library lent 4,500 e-books in March, against 1,500 in January.",
        "The library lent 4,500 e-books in March, against 1,800 in January.",
        FIGURES,
    ),
    # ... and so does a change in percent: 'rose 25% to 50,000' says 40,000 before.
    (
        ["The festival sold 50,000 tickets in 2025, up 25% from 2024."],
        "The festival sold 50,000 tickets in 2025, against 40,000 in 2024.",
        "The festival sold 50,000 tickets in 2025, against 35,000 in 2024.",
        FIGURES,
    ),
    # A ratio's whole may be any number in words.
    (
        ["The clinic said 7% of its appointments were missed in 2025."],
        "About one in fourteen of the clinic's appointments were missed in 2025, it said.",
        "About one in twenty of the clinic's appointments were missed in 2025, it said.",
        FIGURES,
    ),
    (
        ["The clinic said 7% of its appointments were missed in 2025."],
        "One out of every fourteen of the clinic's appointments was missed in 2025, it said.",
        "One out of every twenty of the clinic's appointments was missed in 2025, it said.",
        FIGURES,
    ),
    (
        ["The clinic said 7% of its appointments were missed in 2025."],
        "Nearly one in every 14 of the clinic's appointments was missed in 2025, it said.",
        "Nearly one in every 20 of the clinic's appointments was missed in 2025, it said.",
        FIGURES,
    ),
    (
        ["The audit found errors in 4% of the invoices it checked."],
        "The audit found errors in one in twenty-five of the invoices it checked.",
        "The audit found errors in one in twenty of the invoices it checked.",
        FIGURES,
    ),
    # A fraction in words is a level, and the cut it makes is the rest.
    (
        ["The new engine burns one-third as much fuel as the old one."],
        "The new engine burns 67% less fuel than the old one.",
        "The new engine burns 75% less fuel than the old one.",
        FIGURES,
    ),
    # The rest of a rate of success is the rate of failure, a ratio as a percentage.
    (
        ["The scanner read 98.6% of barcodes correctly in the trial."],
        "In the trial, fewer than one barcode in fifty was read wrongly by the scanner.",
        "In the trial, fewer than one barcode in a hundred was read wrongly by the scanner.",
        FIGURES,
    ),
    # A bound on a ratio keeps its side.
    (
        ["The scanner read 98.6% of barcodes correctly in the trial."],
        "In the trial, fewer than one barcode in fifty was read wrongly by the scanner.",
        "In the trial, more than one barcode in fifty was read wrongly by the scanner.",
        FIGURES,
    ),
    (
        ["The scanner read 98.6% of barcodes correctly in the trial."],
        "The scanner erred on 1.4% of barcodes in the trial.",
        "The scanner erred on 1.6% of barcodes in the trial.",
        FIGURES,
    ),
    # A share of a count is a count, and a rate for each of a count is an amount.
    (
        ["The survey reached 2,400 nurses, and 23% of them said they planned to quit."],
        "Of the 2,400 nurses surveyed, about 550 said they planned to quit.",
        "Of the 2,400 nurses surveyed, about 650 said they planned to quit.",
        FIGURES,
    ),
    # ... however the claim puts the share: as the subject of its clause, or of a whole named first.
    (
        ["The inspectors checked 3,600 lifts, and 15% had a faulty brake."],
        "Roughly 540 of the 3,600 lifts the inspectors checked had a faulty brake.",
        "Roughly 640 of the 3,600 lifts the inspectors checked had a faulty brake.",
        FIGURES,
    ),
    (
        ["Of the 3,600 lifts the inspectors checked, 15% had a faulty brake."],
        "Roughly 540 of the 3,600 lifts the inspectors checked had a faulty brake.",
        "Roughly 640 of the 3,600 lifts the inspectors checked had a faulty brake.",
        FIGURES,
    ),
    (
        ["The service charges $0.05 per message.", "Customers sent 120,000 messages through the service in May."],
        "At $0.05 a message, the 120,000 messages customers sent through the service in May cost $6,000.",
        "At $0.05 a message, the 120,000 messages customers sent through the service in May cost $8,000.",
        FIGURES,
    ),
    # Months that make a quarter are the quarter, however the sentence opens.
    (
        ["The airline carried 4.2 million passengers in the third quarter of 2025."],
        "Between July and September 2025, the airline carried 4.2 million passengers.",
        "Between April and June 2025, the airline carried 4.2 million passengers.",
        "date:",
    ),
    # The span between two dates the claims give, in digits or words.
    (
        ["The bridge closed for repairs in March 2025.", "It reopened to traffic in November 2025."],
        "The bridge was shut for 8 months, from March 2025 until it reopened to traffic in November.",
        "The bridge was shut for 10 months, from March 2025 until it reopened to traffic in November.",
        FIGURES,
    ),
    (
        ["The bridge closed for repairs in March 2025.", "It reopened to traffic in November 2025."],
        "The bridge was shut for eight months, from March 2025 until it reopened to traffic in November.",
        "The bridge was shut for ten months, from March 2025 until it reopened to traffic in November.",
        FIGURES,
    ),
    (
        ["The trial began on May 6, 2026.", "It ended on June 3, 2026."],
        "The four-week trial ran from May 6 to June 3, 2026.",
        "The five-week trial ran from May 6 to June 3, 2026.",
        FIGURES,
    ),
    # A multiplier against a level in one claim and the one it is set against in another.
    (
        ["The museum had 840,000 visitors in 2025.", "That was up from 410,000 in 2023."],
        "The museum's visitor numbers roughly doubled between 2023 and 2025, to 840,000.",
        "The museum's visitor numbers roughly tripled between 2023 and 2025, to 840,000.",
        "quantity:",
    ),
    # A rounded figure keeps its unit.
    (
        ["The new tokenizer improved the model's exact-match score by 3.96 points on the test set."],
        "On the test set, the new tokenizer lifted the model's exact-match score by nearly 4 points.",
        "On the test set, the new tokenizer lifted the model's exact-match score by nearly 4 percent.",
        "percentage point",
    ),
    # A share is no count of things; a share by its parts is.
    (
        ["The retrained parser cut its failure rate from 6.2% to 1.8% of documents."],
        "The retrained parser brought its failure rate down from 6.2% to 1.8% of documents.",
        "The retrained parser brought its failure rate down from 6.2 to 1.8 documents.",
        "quantity:",
    ),
    (
        ["The charity said 91% of donations went directly to its programmes."],
        "Some 91 cents of every dollar donated went directly to the charity's programmes, it said.",
        "Some 91 donations went directly to the charity's programmes, it said.",
        "quantity:",
    ),
    # A factor the claims' figures give backs the words that state it.
    (
        ["Online grocery orders reached 5.6 million in 2025, up from 1.4 million in 2022."],
        "Between 2022 and 2025 online grocery orders expanded about fourfold, to 5.6 million.",
        "Between 2022 and 2025 online grocery orders expanded about sixfold, to 5.6 million.",
        "quantity:",
    ),
]


@pytest.mark.parametrize(("claims", "supported", "changed", "said"), TWINS)
def test_reading_backs_the_paraphrase_and_catches_the_change(
    claims: list[str], supported: str, changed: str, said: str
) -> None:
    assert_twin_passes_and_change_is_caught(claims, supported, changed, said)
