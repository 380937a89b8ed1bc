"""Negation, direction and comparisons in paragraphs_supported: each case has claims, a
supported paraphrase that must pass, and the passage changed so that it must fail with a
reason of the given kind (invented sentences, not the tuning sets')."""

from __future__ import annotations

import pytest

from support.method import check
from tests.support.twins import assert_passes_or_waits_on_its_verb, assert_twin_passes_and_change_is_caught

# (kind, claims, a supported paraphrase, the same passage changed the way the kind says)
TWINS = [
    # A rank word turned round with its sides swapped says the same; the sides swapped with the
    # same word, or the word turned with the sides kept, is a change.
    (
        "direction",
        ["The new parser scored 81% on the test suite, 4.5 points above the strongest older parser."],
        "The strongest older parser trailed the new parser by 4.5 points on the test suite, where it scored 81%.",
        "The new parser trailed the strongest older parser by 4.5 points on the test suite, scoring 81%.",
    ),
    (
        "direction",
        ["In the poll, 52% of voters named housing as the top issue, ahead of crime at 31%."],
        "Crime ranks behind housing as the top issue in the poll: 31% named it, against 52% for housing.",
        "Housing ranks behind crime as the top issue in the poll: 52% named it, against 31% for crime.",
    ),
    (
        "direction",
        ["The shipping firm said its fleet carried 14% more cargo than the rival fleet."],
        "The rival fleet carried less cargo than the shipping firm's fleet, by 14%, the firm said.",
        "The shipping firm said its fleet carried 14% less cargo than the rival fleet.",
    ),
    (
        "direction",
        ["The audit found the batch process used 30% fewer compute hours than the streaming process."],
        "The streaming process burned more compute hours than the batch process; batch saved 30%, the audit found.",
        "The audit found the batch process used 30% more compute hours than the streaming process.",
    ),
    (
        "direction",
        ["The heat pump model consumed 45% less power than the gas boiler model in the trial."],
        "In the trial the heat pump model drew 45% less power than the gas boiler model.",
        "In the trial the heat pump model drew 45% higher power than the gas boiler model.",
    ),
    # Figures tell a comparison's sides apart: 'under 35 than ... over 50'.
    (
        "direction",
        ["The poll found that support for the bill was lower among renters under 35 than among those over 50."],
        "Renters under 35 were less supportive of the bill than those over 50, the poll found.",
        "Renters under 35 were more supportive of the bill than those over 50, the poll found.",
    ),
    # Words both sides share ('model') and the verb ('ranked') tell neither side apart; an
    # adjunct after the second side ('on the reading test') is no side.
    (
        "direction",
        ["The new model ranked above the older model on the reading test."],
        "The older model ranked below the new model on the reading test.",
        "The new model ranked below the older model on the reading test.",
    ),
    # A level compared ('higher than') is a rank: 'lagged' says it the other way round, and
    # level words ('smaller', 'larger') tell the sides apart.
    (
        "direction",
        ["The larger model scored 3 points higher than the smaller one on the math test."],
        "The smaller model lagged the larger one by 3 points on the math test.",
        "The larger model lagged the smaller one by 3 points on the math test.",
    ),
    # A passive turns a rank round: 'was met by the team' is 'the team met'.
    (
        "direction",
        ["The council met its recycling target for the year."],
        "The recycling target for the year was met by the council.",
        "The council missed its recycling target for the year.",
    ),
    # 'none of' and 'neither ... nor' after the verb negate the verb.
    (
        "negation",
        ["The new vaccine did not outperform the old one in any of the four trials."],
        "The new vaccine beat the old one in none of the four trials.",
        "The new vaccine outperformed the old one in all four trials.",
    ),
    (
        "negation",
        ["The tutoring program helped all three schools in the district."],
        "The tutoring program helped each of the three schools in the district.",
        "The tutoring program helped neither the largest nor the smallest of the three schools in the district.",
    ),
    # The verb 'neither' negates is the surer verb before it ('sold', not 'shares').
    (
        "negation",
        ["The fund sold stakes to both of the two bidders, the filing shows."],
        "The filing shows the fund sold stakes to each of the two bidders.",
        "The filing shows the fund sold stakes to neither of the two bidders.",
    ),
    # 'declined to' refuses; 'declined to about 29%' falls.
    (
        "negation",
        ["The court refused to hear the appeal, so the ban stands."],
        "The court declined to hear the appeal, leaving the ban in place.",
        "The court agreed to hear the appeal, though the ban stands for now.",
    ),
    # 'No date has been set' says what 'the date has not been set' says.
    (
        "negation",
        ["The court said the hearing date has not been set."],
        "No hearing date has been set, the court said.",
        "The court said the hearing date has been set.",
    ),
    # 'None of the X verb': the verb is negated, not the X.
    (
        "negation",
        ["The inspectors found that all 40 sampled bridges were rated below the safety standard."],
        "None of the 40 bridges sampled by the inspectors reached the safety standard.",
        "The inspectors found that all 40 sampled bridges were not rated below the safety standard.",
    ),
    # A prevention is a negation: 'prevented intrusions' agrees with 'none suffered intrusions'.
    (
        "negation",
        ["The new firewall prevented intrusions at all nine sites."],
        "Across the nine sites, none suffered intrusions once the new firewall was in place.",
        "The new firewall failed to prevent intrusions at the nine sites.",
    ),
    # 'whether or not' negates nothing.
    (
        "negation",
        ["Judges gave longer essays higher marks regardless of accuracy."],
        "Judges gave longer essays higher marks whether or not they were accurate.",
        "Judges did not give longer essays higher marks.",
    ),
    # 'hardly', 'barely' negate a verb.
    (
        "negation",
        ["Battery capacity fell sharply after 500 charge cycles."],
        "After 500 charge cycles, battery capacity fell sharply.",
        "Battery capacity hardly fell after 500 charge cycles.",
    ),
    # Withholding a thing is releasing it without that thing.
    (
        "negation",
        ["The lab released the model weights along with the full training data."],
        "The lab released the model weights together with the full training data.",
        "The lab released the model weights but withheld the training data.",
    ),
    # 'not after X' negates X, past its clause word.
    (
        "negation",
        ["The dye stayed visible after washing but not after bleaching."],
        "The dye stayed visible after washing, though not after bleaching.",
        "The dye stayed visible after washing and even after bleaching.",
    ),
    # 'not ... until' puts a thing off; it does not deny it.
    (
        "negation",
        ["The city said it would not open the bridge until inspections finished."],
        "The city said the bridge's opening will wait until inspections finish.",
        "The city said it would never open the bridge.",
    ),
    # What a speaker said was no finding: 'said no bank failed' is not 'found no bank'.
    (
        "negation",
        ["The regulator said no bank scored below the capital threshold in the stress test."],
        "Every bank scored at or above the capital threshold in the stress test, the regulator said.",
        "The regulator said several banks scored below the capital threshold in the stress test.",
    ),
    # A negated word says what its negative by prefix says.
    (
        "negation",
        ["Customers reported unauthorized charges on their cards after the outage."],
        "After the outage, customers reported charges on their cards that they had not authorized.",
        "After the outage, customers reported authorized charges on their cards.",
    ),
    # A negation of the claim's predicate in other words, about the same things.
    (
        "negation",
        ["The union argues that temporary staff can replace trained nurses in night-shift wards."],
        "Temporary staff can take over from trained nurses in night-shift wards, the union argues.",
        "Temporary staff cannot stand in for trained nurses in night-shift wards, the union argues.",
    ),
    (
        "negation",
        ["The team said the drug's effect on bone density has not yet been replicated in human volunteers."],
        "The drug's effect on bone density has yet to be replicated in human volunteers, the team said.",
        "The team said the drug's effect on bone density has already been reproduced in human volunteers.",
    ),
    # Both sides deny the same thing with different verbs; the changed side asserts it.
    (
        "negation",
        ["Most pilots fail because teams cannot build dashboards that track patient outcomes."],
        "Most pilots fail because teams cannot produce dashboards that track patient outcomes.",
        "Most pilots fail even though teams build dashboards that track patient outcomes.",
    ),
    # 'stays out of' keeps one thing from another.
    (
        "negation",
        ["Northfield Bank said it does not share customer records with advertisers."],
        "Customer records stay out of advertisers' hands, Northfield Bank said.",
        "Northfield Bank said it shares customer records with advertisers.",
    ),
    # 'up from' and 'down from' move a level.
    (
        "direction",
        ["The agency said 31% of commuters cycled to work in 2026, down from 38% in 2024."],
        "The agency said 31% of commuters cycled to work in 2026, down from the 2024 level.",
        "The agency said 31% of commuters cycled to work in 2026, up from the 2024 level.",
    ),
    (
        "direction",
        ["Average wait times at the clinic fell from five weeks to two weeks after the new booking system launched."],
        "Average wait times at the clinic shortened after the new booking system launched.",
        "Average wait times at the clinic lengthened after the new booking system launched.",
    ),
    # An outcome negated against a movement the same way: 'lifted accuracy', 'did not improve'.
    (
        "negation",
        ["The authors report that the new prompt did not improve accuracy on the reading test for any of the models."],
        "The new prompt left accuracy on the reading test unimproved for every model, the authors report.",
        "The new prompt lifted accuracy on the reading test across the models, the authors report.",
    ),
    # The same figure moved both ways, said of the same thing a little further back.
    (
        "direction",
        [
            "The firm said software revenue in the quarter ended June 2026 fell 7% from a year earlier, while "
            "hardware revenue rose 12% to $410 million."
        ],
        "Hardware revenue climbed 12% to $410 million in the June quarter, and software revenue slipped 7%, "
        "the firm said.",
        "Hardware revenue climbed 12% to $410 million in the June quarter, and software revenue also edged up 7%, "
        "the firm said.",
    ),
    # Two movements in a claim: the passage's is the one of its own figure and clause.
    (
        "direction",
        ["Ridgeway's new tyre lost less than one point on wet grip while gaining 6.5 points on fuel economy."],
        "The new tyre lifted Ridgeway's fuel-economy score by 6.5 points, and its wet-grip score slipped by under "
        "a point.",
        "The new tyre cut Ridgeway's fuel-economy score by 6.5 points, and its wet-grip score slipped by under a "
        "point.",
    ),
    # A negated word read through its inflections ('order', 'ordered'), which a stemmer may cut apart.
    (
        "negation",
        ["The regulator said the bank's planned branch closures could go ahead, and it did not order a pause."],
        "The regulator let the bank's planned branch closures go ahead without ordering a pause.",
        "The regulator ordered the bank to pause its planned branch closures.",
    ),
    (
        "negation",
        ["The study found the new policy had no measurable impact on hiring."],
        "The new policy left hiring where it was, with no measurable impact, the study found.",
        "The study found the new policy boosted hiring.",
    ),
    # A thing absent on one side and present on the other.
    (
        "negation",
        ["The Harlow team notes that its planner needs a hand-built map to route delivery robots in large warehouses."],
        "The Harlow planner routes delivery robots in large warehouses with a hand-built map, its team notes.",
        "The Harlow planner routes delivery robots in large warehouses without a hand-built map, its team notes.",
    ),
    (
        "negation",
        [
            "Corvid Labs said its speech model was trained without any licensed audiobook recordings, "
            "using only podcasts."
        ],
        "Corvid Labs said its speech model was trained only on podcasts, with no licensed audiobook recordings.",
        "Corvid Labs said its speech model was trained on a mix of podcasts and licensed audiobook recordings.",
    ),
    # A verb of doing without says what 'no' says.
    (
        "negation",
        ["The authors say their ranking method requires no human relevance labels."],
        "The authors say their ranking method dispenses with human relevance labels.",
        "The authors say their ranking method is trained on human relevance labels.",
    ),
    # 'no effect on X' says X stayed as it was.
    (
        "negation",
        [
            "The trial found that the new fertiliser raised wheat yields in dry plots, contrary to lab tests that "
            "predicted no effect."
        ],
        "The new fertiliser lifted wheat yields in dry plots, the trial found, unlike what lab tests predicted.",
        "The new fertiliser had no effect on wheat yields in dry plots, the trial found, as lab tests predicted.",
    ),
    (
        "negation",
        ["Brightwater said it received no new bookings for its 40-metre cruise yacht in the spring season."],
        "Brightwater said its 40-metre cruise yacht drew no new bookings in the spring season.",
        "Brightwater said it also took new bookings for its 40-metre cruise yacht in the spring season.",
    ),
    # A word that ranks only in some uses ('led') counts when both sides give the same figure.
    (
        "direction",
        ["Harbor Bank trailed Crest Bank by 3.1 points on customer trust but led it by 2.2 points on fees."],
        "Harbor Bank trailed Crest Bank by 3.1 points on customer trust, the survey found.",
        "Harbor Bank led Crest Bank by 3.1 points on customer trust, the survey found.",
    ),
]


@pytest.mark.parametrize(("kind", "claims", "supported", "changed"), TWINS)
def test_each_change_is_caught_and_its_twin_passes(kind, claims, supported, changed):
    assert_twin_passes_and_change_is_caught(claims, supported, changed, kind + ":")


def test_a_word_that_merely_begins_with_a_prefix_is_no_negative():
    # 'disclosed' is no 'closed' denied.
    verdict = check(
        "Helix Compute disclosed on March 11 that Lightspeed led its $640 million round.",
        ["Helix Compute closed a $640 million round led by Lightspeed, the company said on March 11."],
    )
    assert not any(reason.startswith("negation:") for reason in verdict.reasons), verdict.reasons


@pytest.mark.parametrize(
    ("text", "claim"),
    [
        # 'had little effect' carries its predicate in the noun: no other verb is denied.
        (
            "The drug barely changed blood pressure in the trial.",
            "The drug had little effect on blood pressure in the trial.",
        ),
        # A negated verb and a verb of keeping the same thing ('did not renew', 'let ... lapse').
        (
            "The museum did not renew its lease on the east wing, the board said.",
            "The board said the museum let its lease on the east wing lapse.",
        ),
        # 'declined to about 29%' is a fall, no refusal.
        (
            "The company expects China's share of its sales to decline to about 29% in fiscal 2026.",
            "The company expects China to make up a smaller slice of its sales in fiscal 2026, about 29%.",
        ),
        # Someone in a clause of their own ('even though its striker was injured') is not had or used.
        (
            "The team won without its star striker, who was injured.",
            "The team won even though its star striker was out injured.",
        ),
        # Each movement's figure is its nearest: 'dropped 2% ... following a 1% increase'.
        (
            "Retail sales fell 2% in May, after rising 1% in April.",
            "Retail sales dropped 2% in May following a 1% increase in April.",
        ),
        # 'without requiring a reboot' says 'needs no reboot': the negation moved to the object.
        ("The patch closes the flaw without requiring a reboot.", "The patch fixes the flaw and needs no reboot."),
        # 'trees planted in 2020' describes the trees; 'survived' is what 'nearly none' negates.
        (
            "Nearly none of the 200 trees planted in 2020 survived the drought.",
            "Almost all of the 200 trees planted in 2020 died in the drought.",
        ),
        # 'came down from the hills' moves no level.
        (
            "Hikers came down from the hills after sales of trail passes rose 5%, the park said.",
            "The park said trail pass sales rose 5%, after which hikers came down from the hills.",
        ),
        # A figure-free rank turned round with its sides swapped.
        (
            "Rivals trailed Nova Motors by 4 points in the quality survey.",
            "Nova Motors led its rivals by 4 points in the quality survey.",
        ),
    ],
)
def test_paraphrases_of_negation_and_rank_pass(text, claim):
    verdict = check(text, [claim])
    assert_passes_or_waits_on_its_verb(verdict)
