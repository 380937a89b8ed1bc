"""manifests_exist, manifests_recent and claims_belong: pass, fail and unknown for each."""

from __future__ import annotations

import datetime as dt

import pytest

from manifests.models import Manifest
from tests.provider_server import Reply, manifest_payload
from verification.checks import checkable, claims_belong, manifests_exist, manifests_recent

from .conftest import make_manifest, story_document

pytestmark = pytest.mark.django_db

M1, M2 = "1792000000000000001", "1792000000000000002"
C1, C2, C3 = "1793000000000000001", "1793000000000000002", "1793000000000000003"


def two_manifest_story(import_story, **kwargs):
    return import_story(
        story_document(
            key_facts=[("Acme shipped 12 rockets.", [(M1, [C1])])],
            paragraphs=[("Acme shipped 12 rockets in total.", [(M1, [C1])]), ("Beta hired staff.", [(M2, [C2])])],
            **kwargs,
        )
    )


def statuses(result):
    return result.status, [(problem.at, problem.message) for problem in result.problems]


# --- manifests_exist -----------------------------------------------------------------------


def test_exist_passes_when_every_cited_manifest_is_in_the_store(import_story):
    make_manifest(M1, {C1: "Acme shipped 12 rockets."})
    make_manifest(M2, {C2: "Beta hired staff."})
    story = two_manifest_story(import_story)

    assert statuses(manifests_exist(story)) == ("pass", [])


def test_exist_fetches_a_manifest_missing_from_the_store_and_passes(import_story, provider):
    make_manifest(M1, {C1: "Acme shipped 12 rockets."})
    provider.add_manifest(manifest_payload(M2, claims=[C2], published_date="2026-10-15"))
    story = two_manifest_story(import_story)

    assert statuses(manifests_exist(story)) == ("pass", [])
    assert Manifest.objects.get(manifest_id=M2).claims.get().claim_id == C2
    assert [request.path for request in provider.requests] == [f"/v1/manifests/by-id/{M2}"]


def test_exist_fails_when_the_provider_has_no_such_manifest_and_names_every_place_it_is_cited(import_story, provider):
    make_manifest(M2, {C2: "Beta hired staff."})
    story = two_manifest_story(import_story)

    status, problems = statuses(manifests_exist(story))

    assert status == "fail"
    [(at, message)] = problems
    assert at == "key_facts[0]"
    assert message.startswith(f"manifest {M1} does not exist")
    assert "also cited at sections[0].paragraphs[0]" in message


def test_exist_is_unknown_not_failed_when_the_provider_is_down(import_story, provider):
    make_manifest(M1, {C1: "Acme shipped 12 rockets."})
    provider.always(503)
    story = two_manifest_story(import_story)

    status, problems = statuses(manifests_exist(story))

    assert status == "unknown"
    [(at, message)] = problems
    assert at == "sections[0].paragraphs[1]"
    assert f"manifest {M2} is not in the store and the provider could not be asked" in message


def test_exist_is_unknown_when_no_provider_is_configured(import_story, settings):
    settings.MANIFEST_PROVIDER_URL = ""
    make_manifest(M1, {C1: "Acme shipped 12 rockets."})
    story = two_manifest_story(import_story)

    assert manifests_exist(story).status == "unknown"


def test_exist_asks_the_provider_for_the_claims_of_a_manifest_known_only_from_a_story_import(import_story, provider):
    make_manifest(M1, {C1: "Acme shipped 12 rockets."})
    make_manifest(M2, {}, origin=Manifest.Origin.STORY_IMPORT)
    provider.add_manifest(manifest_payload(M2, claims=[C2]))
    story = two_manifest_story(import_story)

    assert manifests_exist(story).status == "pass"
    assert list(Manifest.objects.get(manifest_id=M2).claims.values_list("claim_id", flat=True)) == [C2]


def test_exist_passes_a_story_import_manifest_even_when_the_provider_cannot_be_asked(import_story, provider):
    # It is in the store: it exists. Its missing claims leave the later checks unknown instead.
    make_manifest(M1, {C1: "Acme shipped 12 rockets."})
    make_manifest(M2, {}, origin=Manifest.Origin.STORY_IMPORT)
    provider.always(Reply(status=500))
    story = two_manifest_story(import_story)

    assert statuses(manifests_exist(story)) == ("pass", [])


def test_exist_fails_a_manifest_known_only_from_a_story_import_that_the_provider_does_not_have(import_story, provider):
    make_manifest(M1, {C1: "Acme shipped 12 rockets."})
    make_manifest(M2, {}, origin=Manifest.Origin.STORY_IMPORT)
    story = two_manifest_story(import_story)

    status, problems = statuses(manifests_exist(story))

    assert status == "fail"
    assert problems[0][1].startswith(
        f"manifest {M2} does not exist (a story import listed it, but the provider has no such manifest)"
    )


def test_exist_passes_a_manifest_an_editor_entered_even_if_the_provider_does_not_know_it(import_story, provider):
    make_manifest(M1, {C1: "Acme shipped 12 rockets."})
    make_manifest(M2, {}, origin=Manifest.Origin.EDITOR)
    story = two_manifest_story(import_story)

    assert statuses(manifests_exist(story)) == ("pass", [])
    assert len(provider.requests_for(M2)) == 1  # asked for its claims, all the same


def test_exist_queries_do_not_grow_with_the_story(import_story, django_assert_num_queries):
    make_manifest(M1, {C1: "Acme shipped 12 rockets."})
    make_manifest(M2, {C2: "Beta hired staff."})
    paragraphs = [(f"Acme shipped 12 rockets, part {n}.", [(M1, [C1]), (M2, [C2])]) for n in range(30)]
    story = checkable().get(pk=import_story(story_document(paragraphs=paragraphs)).pk)

    with django_assert_num_queries(1):
        assert manifests_exist(story).status == "pass"


# --- manifests_recent ----------------------------------------------------------------------


def test_recent_passes_for_manifests_published_in_the_week_before_the_story(import_story):
    make_manifest(M1, {C1: "x"}, published="2026-10-09")  # 7 days before: the edge of the window
    make_manifest(M2, {C2: "y"}, published="2026-10-16")  # the same day
    story = two_manifest_story(import_story)

    assert statuses(manifests_recent(story)) == ("pass", [])


def test_recent_fails_a_manifest_older_than_the_window_and_says_how_old(import_story):
    make_manifest(M1, {C1: "x"}, published="2026-10-08")
    make_manifest(M2, {C2: "y"}, published="2026-10-15")
    story = two_manifest_story(import_story)

    status, problems = statuses(manifests_recent(story))

    assert status == "fail"
    assert problems == [
        (
            "key_facts[0]",
            f"manifest {M1} was published 2026-10-08, 8 days before the story (2026-10-16); sources must be "
            "at most 7 days old (also cited at sections[0].paragraphs[0])",
        )
    ]


def test_recent_fails_a_manifest_published_after_the_story_and_says_so(import_story):
    make_manifest(M1, {C1: "x"}, published="2026-10-15")
    make_manifest(M2, {C2: "y"}, published="2026-10-18")
    story = two_manifest_story(import_story)

    status, problems = statuses(manifests_recent(story))

    assert status == "fail"
    assert problems == [
        (
            "sections[0].paragraphs[1]",
            f"manifest {M2} was published 2026-10-18, 2 days after the story (2026-10-16); a story cannot rest "
            "on a later source",
        )
    ]


def test_recent_follows_the_window_setting(import_story, settings):
    settings.VERIFY_RECENT_DAYS = 30
    make_manifest(M1, {C1: "x"}, published="2026-09-20")
    make_manifest(M2, {C2: "y"}, published="2026-10-15")
    story = two_manifest_story(import_story)

    assert manifests_recent(story).status == "pass"


def test_recent_measures_an_unpublished_story_against_today(import_story, time_machine):
    time_machine.move_to(dt.datetime(2026, 11, 1, 12, tzinfo=dt.UTC))
    make_manifest(M1, {C1: "x"}, published="2026-10-30")
    make_manifest(M2, {C2: "y"}, published="2026-10-16")
    story = two_manifest_story(import_story, published_at=None)

    status, problems = statuses(manifests_recent(story))

    assert status == "fail"
    assert problems == [
        (
            "sections[0].paragraphs[1]",
            f"manifest {M2} was published 2026-10-16, 16 days before today (2026-11-01; the story is not "
            "published); sources must be at most 7 days old",
        )
    ]


def test_recent_is_unknown_for_a_manifest_without_a_date_or_not_in_the_store(import_story):
    make_manifest(M1, {C1: "x"})
    Manifest.objects.filter(manifest_id=M1).update(published_date=None)
    story = two_manifest_story(import_story)

    status, problems = statuses(manifests_recent(story))

    assert status == "unknown"
    assert problems == [
        ("key_facts[0]", f"manifest {M1} has no published date in the store (also cited at sections[0].paragraphs[0])"),
        ("sections[0].paragraphs[1]", f"manifest {M2} is not in the store, so its date is unknown"),
    ]


def test_recent_queries_do_not_grow_with_the_story(import_story, django_assert_num_queries):
    make_manifest(M1, {C1: "x"})
    make_manifest(M2, {C2: "y"})
    paragraphs = [(f"Part {n}.", [(M1, [C1]), (M2, [C2])]) for n in range(30)]
    story = checkable().get(pk=import_story(story_document(paragraphs=paragraphs)).pk)

    with django_assert_num_queries(1):
        assert manifests_recent(story).status == "pass"


def test_recent_fails_rather_than_unknown_when_both_are_found(import_story):
    make_manifest(M1, {C1: "x"}, published="2026-01-01")
    story = two_manifest_story(import_story)

    result = manifests_recent(story)

    assert result.status == "fail"
    assert len(result.problems) == 2


# --- claims_belong -------------------------------------------------------------------------


def test_belong_passes_when_every_claim_id_is_a_claim_of_its_manifest(import_story):
    make_manifest(M1, {C1: "x", C3: "z"})
    make_manifest(M2, {C2: "y"})
    story = import_story(story_document(paragraphs=[("Text.", [(M1, [C1, C3]), (M2, [C2])])]))

    assert statuses(claims_belong(story)) == ("pass", [])


def test_it_rejects_claim_from_other_manifest_and_says_where_it_belongs(import_story):
    make_manifest(M1, {C1: "x"})
    make_manifest(M2, {C2: "y"})
    story = import_story(story_document(paragraphs=[("Text.", [(M1, [C1]), (M1, [C2])])]))

    status, problems = statuses(claims_belong(story))

    assert status == "fail"
    assert problems == [
        (
            "sections[0].paragraphs[0].cites[1]",
            f"claim {C2} is not a claim of manifest {M1}; it is a claim of manifest {M2}: cite it with that manifest",
        )
    ]


def test_it_never_infers_membership_from_the_digits_of_an_id(import_story):
    # The claim id shares the manifest's prefix and sits between two real claim ids; only the
    # store decides, and the store has no such claim.
    make_manifest(M1, {"1792000000000000010": "x", "1792000000000000030": "y"})
    story = import_story(story_document(paragraphs=[("Text.", [(M1, ["1792000000000000020"])])]))

    status, problems = statuses(claims_belong(story))

    assert status == "fail"
    assert problems == [
        (
            "sections[0].paragraphs[0].cites[0]",
            f"claim 1792000000000000020 is not a claim of manifest {M1}; no manifest in the store has a claim "
            "with this id",
        )
    ]


def test_it_compares_ids_as_exact_strings(import_story):
    make_manifest(M1, {"0042": "x"})
    story = import_story(story_document(paragraphs=[("Text.", [(M1, ["42"])])]))

    assert claims_belong(story).status == "fail"


def test_belong_is_unknown_for_a_manifest_with_no_claims_in_the_store(import_story):
    make_manifest(M1, {C1: "x"})
    make_manifest(M2, {}, origin=Manifest.Origin.STORY_IMPORT)
    story = two_manifest_story(import_story)

    status, problems = statuses(claims_belong(story))

    assert status == "unknown"
    assert problems == [
        (
            "sections[0].paragraphs[1].cites[0]",
            f"manifest {M2} has no claims to check against: it is known only from a story import, without its claims",
        )
    ]


def test_belong_is_unknown_for_a_manifest_not_in_the_store(import_story):
    make_manifest(M1, {C1: "x"})
    story = two_manifest_story(import_story)

    result = claims_belong(story)

    assert result.status == "unknown"
    assert [problem.at for problem in result.problems] == ["sections[0].paragraphs[1].cites[0]"]


def test_belong_fails_a_claim_id_that_is_not_a_string(import_story):
    make_manifest(M1, {C1: "x"})
    story = import_story(story_document(paragraphs=[("Text.", [(M1, [C1])])]))
    cite = story.cites.get()
    cite.claim_ids = [int(C1)]
    cite.save()

    status, problems = statuses(claims_belong(story))

    assert status == "fail"
    assert problems == [
        (
            "sections[0].paragraphs[0].cites[0]",
            f"claim id {int(C1)!r} is not a string; claim ids are written as strings",
        )
    ]


def test_belong_fails_claim_ids_that_are_not_a_list(import_story):
    make_manifest(M1, {C1: "x"})
    story = import_story(story_document(paragraphs=[("Text.", [(M1, [C1])])]))
    story.cites.update(claim_ids=C1)

    status, problems = statuses(claims_belong(story))

    assert status == "fail"
    assert problems == [
        ("sections[0].paragraphs[0].cites[0]", f"claim_ids must be a list of claim id strings, not '{C1}'")
    ]


def test_belong_queries_do_not_grow_with_the_story(import_story, django_assert_num_queries):
    make_manifest(M1, {C1: "x"})
    make_manifest(M2, {C2: "y"})
    paragraphs = [(f"Part {n}.", [(M1, [C1]), (M2, [C2])]) for n in range(30)]
    story = checkable().get(pk=import_story(story_document(paragraphs=paragraphs)).pk)

    with django_assert_num_queries(2):
        assert claims_belong(story).status == "pass"
