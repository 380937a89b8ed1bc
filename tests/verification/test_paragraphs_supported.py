"""paragraphs_supported on stories, and the method on the labelled set."""

from __future__ import annotations

import pytest

from bench.supported_eval import judge, load_cases, share, table
from manifests.models import Manifest
from support.method import check
from verification.checks import checkable, paragraphs_supported

from .conftest import make_manifest, story_document

M1, M2 = "m-progagent", "m-other"
CLAIMS = {
    "c1": "ProgAgent-14B reached a 30.7% pass rate on LOCA-bench at a 64k-token environment state.",
    "c2": "ProgAgent is trained on only 215 tasks instantiated at four environment scales.",
    "c3": "Most agents use direct tool calling, invoking tools sequentially while responses accumulate in context.",
}


@pytest.fixture
def manifests(db):
    make_manifest(M1, CLAIMS, title="ProgAgent: Learning Tool Orchestration through Programmatic Training")
    make_manifest(M2, {"d1": "The museum drew 2.4 million visitors last year."})


def problems_of(result):
    return [(problem.at, problem.message) for problem in result.problems]


def coded_problems_of(result):
    return [(problem.at, problem.code, problem.status) for problem in result.problems]


@pytest.mark.usefixtures("manifests")
class TestOnAStory:
    def test_it_passes_passages_backed_by_their_claims(self, import_story):
        story = import_story(
            story_document(
                key_facts=[("ProgAgent-14B reached 30.7 percent on LOCA-bench at a 64k-token state.", [(M1, ["c1"])])],
                paragraphs=[
                    (
                        "Trained on just 215 tasks at 4 environment scales, ProgAgent-14B reached a 30.7% pass rate "
                        "on LOCA-bench.",
                        [(M1, ["c1", "c2"])],
                    )
                ],
            )
        )

        result = paragraphs_supported(story)

        assert (result.status, problems_of(result)) == ("pass", [])

    def test_it_fails_a_changed_number_and_says_which(self, import_story):
        story = import_story(
            story_document(paragraphs=[("ProgAgent-14B reached a 37.0% pass rate on LOCA-bench.", [(M1, ["c1"])])])
        )

        result = paragraphs_supported(story)

        assert result.status == "fail"
        assert problems_of(result) == [
            ("sections[0].paragraphs[0]", "'37.0%' is in none of the cited claims (they give 30.7%, 64k)")
        ]

    def test_it_sends_a_name_no_cited_claim_mentions_to_review(self, import_story):
        # A name the claims do not give may be a swap or the reporter's own knowledge: the
        # rules cannot tell, so the desk reads it; nothing is contradicted.
        story = import_story(
            story_document(
                key_facts=[("Qwen3-8B reached a 30.7% pass rate on LOCA-bench.", [(M1, ["c1"])])],
            )
        )

        result = paragraphs_supported(story)

        assert result.status == "review"
        assert problems_of(result) == [("key_facts[0]", "'Qwen3-8B' is named but no cited claim mentions it")]
        assert coded_problems_of(result) == [("key_facts[0]", "name_not_in_claims", "review")]

    def test_a_changed_figure_fails_with_its_code_and_a_verb_the_claims_do_not_say_waits_for_review(self, import_story):
        story = import_story(
            story_document(
                key_facts=[("ProgAgent-14B reached a 37.0% pass rate on LOCA-bench.", [(M1, ["c1"])])],
                paragraphs=[
                    ("ProgAgent-14B reached a 30.7% pass rate on LOCA-bench.", [(M1, ["c1"])]),
                    ("ProgAgent-14B clawed and scraped to a 30.7% pass rate on LOCA-bench.", [(M1, ["c1"])]),
                ],
            )
        )

        result = paragraphs_supported(story)

        assert result.status == "fail"
        assert coded_problems_of(result) == [
            ("key_facts[0]", "figure_mismatch", "fail"),
            ("sections[0].paragraphs[1]", "verb_not_in_claims", "review"),
            ("sections[0].paragraphs[1]", "verb_not_in_claims", "review"),
            ("sections[0].paragraphs[1]", "low_coverage", "review"),
        ]
        assert result.problems[1].message.startswith("unsaid verb: 'clawed' is not said in the cited claims")

    def test_only_review_items_leave_the_check_for_review(self, import_story):
        story = import_story(
            story_document(
                paragraphs=[("ProgAgent-14B clawed and scraped to a 30.7% pass rate on LOCA-bench.", [(M1, ["c1"])])]
            )
        )

        result = paragraphs_supported(story)

        assert result.status == "review"
        assert {problem.status for problem in result.problems} == {"review"}

    def test_a_name_in_the_cited_manifests_title_is_backed(self, import_story):
        story = import_story(
            story_document(paragraphs=[("ProgAgent says most agents use direct tool calling.", [(M1, ["c3"])])])
        )

        assert paragraphs_supported(story).status == "pass"

    def test_it_fails_a_passage_backed_by_the_wrong_claim_and_lists_the_missing_words(self, import_story):
        story = import_story(
            story_document(paragraphs=[("The museum drew 2.4 million visitors last year.", [(M1, ["c3"])])])
        )

        result = paragraphs_supported(story)

        assert result.status == "fail"
        assert problems_of(result) == [
            ("sections[0].paragraphs[0]", "'2.4 million' is in none of the cited claims (they state no figures)"),
            (
                "sections[0].paragraphs[0]",
                "only 0 of 3 content words are in the cited claims; not in them: museum, drew, visitors",
            ),
        ]

    def test_it_fails_a_passage_that_cites_no_claim(self, import_story):
        story = import_story(
            story_document(
                key_facts=[("A fact with no cites.", [])],
                paragraphs=[("A paragraph whose cite lists no claim.", [(M1, [])])],
            )
        )

        result = paragraphs_supported(story)

        assert result.status == "fail"
        assert problems_of(result) == [
            ("key_facts[0]", "cites no claim: every key fact and paragraph must cite at least one claim"),
            ("sections[0].paragraphs[0]", "cites no claim: every key fact and paragraph must cite at least one claim"),
        ]
        assert {problem.code for problem in result.problems} == {"uncited"}

    def test_it_fails_a_passage_whose_cited_claims_do_not_exist(self, import_story):
        story = import_story(story_document(paragraphs=[("Most agents call tools directly.", [(M1, ["c9"])])]))

        result = paragraphs_supported(story)

        assert problems_of(result) == [
            ("sections[0].paragraphs[0]", "none of the cited claims exists in its manifest (see claims_belong)")
        ]

    def test_it_is_unknown_when_the_claim_texts_are_not_in_the_store(self, import_story):
        Manifest.objects.create(manifest_id="m-imported", title="Known from a story", origin="story_import")
        story = import_story(story_document(paragraphs=[("Anything at all, 99%.", [("m-imported", ["x1"])])]))

        result = paragraphs_supported(story)

        assert result.status == "unknown"
        assert problems_of(result) == [
            (
                "sections[0].paragraphs[0]",
                "the texts of the cited claims are not in the store (manifest m-imported), so support cannot be judged",
            )
        ]

    def test_partly_unknown_claims_leave_an_unbacked_passage_unknown_and_a_backed_one_passing(self, import_story):
        story = import_story(
            story_document(
                paragraphs=[
                    ("ProgAgent-14B reached a 30.7% pass rate on LOCA-bench.", [(M1, ["c1"]), ("m-new", ["n1"])]),
                    ("ProgAgent-14B reached a 99% pass rate on LOCA-bench.", [(M1, ["c1"]), ("m-new", ["n1"])]),
                ]
            )
        )

        result = paragraphs_supported(story)

        assert result.status == "unknown"
        assert problems_of(result) == [
            (
                "sections[0].paragraphs[1]",
                "'99%' is in none of the cited claims (they give 30.7%, 64k) (some cited claims' texts are not "
                "in the store: manifest m-new)",
            )
        ]

    def test_queries_do_not_grow_with_the_story(self, import_story, django_assert_num_queries):
        paragraphs = [("ProgAgent-14B reached a 30.7% pass rate on LOCA-bench.", [(M1, ["c1"])])] * 40
        story = checkable().get(pk=import_story(story_document(paragraphs=paragraphs)).pk)

        with django_assert_num_queries(2):
            assert paragraphs_supported(story).status == "pass"


# --- The method itself ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "claim"),
    [
        ("It rose 30.7%.", "It rose 30.7 percent."),
        ("It rose 30.7 per cent.", "It rose 30.7%."),
        ("It sold 1,200 units.", "It sold 1200 units."),
        ("A 64k-token context.", "A context of 64,000 tokens."),
        ("It raised $2.5bn.", "It raised $2.5 billion."),
        ("It raised 2.5 billion dollars.", "It raised $2,500 million."),
        ("It has four plants.", "It has 4 plants."),
        ("It has 4 plants.", "It has four plants."),
        ("A 70-billion-parameter model.", "A model with 70 billion parameters."),
        ("It scored 30.70% on the test.", "It scored 30.7% on the test."),
    ],
)
def test_figures_match_however_they_are_written(text, claim):
    assert check(text, [claim]).supported, check(text, [claim]).reasons


@pytest.mark.parametrize(
    ("text", "claim", "reason"),
    [
        ("It rose 30.8%.", "It rose 30.7%.", "'30.8%'"),
        ("It rose 31%.", "It rose 30.7%.", "'31%'"),
        ("It sold 1,300 units.", "It sold 1,200 units.", "'1,300'"),
        ("It raised $2.5 million.", "It raised $2.5 billion.", "'$2.5 million'"),
        ("It has five plants.", "It has four plants.", "'five' (plants)"),
        ("It ranked 4th.", "It ranked 3rd.", "'4th'"),
        ("In 2025 it sold the units.", "It sold the units.", "'2025'"),
    ],
)
def test_a_changed_number_is_always_caught(text, claim, reason):
    verdict = check(text, [claim])
    assert not verdict.supported
    assert verdict.reasons[0].startswith(reason + " is in none of the cited claims")


def test_digits_inside_names_are_not_figures():
    verdict = check("Qwen3-8B beat GPT-4o on GSM8K.", ["Qwen3-8B beat GPT-4o on GSM8K."])
    assert verdict.supported


def test_half_support_is_caught_on_the_sentence_that_is_not_backed():
    verdict = check(
        "Chirp added encryption to group calls this month. Regulators in Brussels are investigating whether the "
        "app shares contact lists with advertisers.",
        ["The messaging app Chirp added end-to-end encryption to group calls this month."],
    )
    assert not verdict.supported
    assert any(reason.startswith("sentence 2 ('Regulators in Brussels") for reason in verdict.reasons)


# --- The labelled set ----------------------------------------------------------------------

# Measured on this set when the method was written: accuracy 98.5%, false alarms 1.9%.
# The floors leave room for the set to grow harder, not for the method to get worse unnoticed.
PASSED_FLOOR = 0.90
REFUSED_CEILING = 0.03


def test_the_labelled_set_is_big_and_varied_enough():
    cases = load_cases()
    labels = [case["label"] for case in cases]
    assert labels.count("supported") >= 100
    assert labels.count("unsupported") >= 100
    kinds = {case["kind"] for case in cases if case["label"] == "unsupported"}
    assert kinds == {"changed_number", "unknown_number", "swapped_name", "other_claim", "half_support"}
    for case in cases:
        assert set(case) >= {"claims", "text", "label", "kind"}
        assert case["claims"]
        assert all(isinstance(claim, str) and claim for claim in case["claims"])


def test_the_labelled_set_file_is_what_its_builder_makes():
    from tests.support.build_supported_cases import build

    assert load_cases() == build(), "run tests/support/build_supported_cases.py and commit the file"


def test_every_number_mismatch_is_refused_and_few_supported_cases_are_not_passed():
    judged, _ = judge(load_cases())
    numbers = [item for item in judged if item.case["kind"] in ("changed_number", "unknown_number")]

    assert {item.verdict() for item in numbers} == {"unsupported"}, [
        item.case["id"] for item in numbers if item.verdict() != "unsupported"
    ]
    counts = table(judged)
    assert share(counts, "supported", "unsupported") < REFUSED_CEILING
    assert share(counts, "supported", "supported") >= PASSED_FLOOR
