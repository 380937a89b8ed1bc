"""The acceptance cases of the issue: the seeds pass, a copy of a seed is caught as a repeat."""

from __future__ import annotations

import pytest

from verification.checks import CHECKS
from verification.models import VerificationRun
from verification.services import story_verify

from .conftest import SEED_NAMES, seed_document, shifted


@pytest.mark.parametrize("name", SEED_NAMES)
def test_both_seed_stories_pass_all_five_checks_against_the_demo_manifests(seeds, name):
    story = seeds[name]

    run = story_verify(story=story, started_by="test")

    assert [(check["name"], check["status"], check["problems"]) for check in run.checks] == [
        (check_name, "pass", []) for check_name, _ in CHECKS
    ]
    assert run.status == VerificationRun.Status.PASSED
    assert run.content_hash == story.content_hash


def test_a_copy_of_a_seed_under_a_new_slug_published_the_next_day_fails_not_repeat_and_names_the_seed(
    seeds, import_story
):
    original = seeds["agent-training-stack"]
    document = seed_document("agent-training-stack")
    document.update(id="8100", slug="agent-training-stack-again", published_at=shifted(document, days=1))
    for key in ("url", "links", "reuse"):
        document.pop(key, None)
    copy = import_story(document)

    run = story_verify(story=copy, started_by="test")

    not_repeat = run.check_result("not_repeat")
    assert not_repeat["status"] == "fail"
    [problem] = not_repeat["problems"]
    assert problem["at"] == "$"
    assert "repeats story 81 'agent-training-stack'" in problem["message"]
    assert original.absolute_url() in problem["message"]
    assert "text similarity 1.00, cited-manifest overlap 1.00" in problem["message"]
    assert not_repeat["details"]["closest"] == {
        "id": "81",
        "slug": "agent-training-stack",
        "url": original.absolute_url(),
        "published_at": "2026-10-16T00:39:10Z",
    }
    assert run.status == VerificationRun.Status.FAILED
    # The other checks still judge the copy on its own merits.
    assert {check["name"]: check["status"] for check in run.checks if check["name"] != "not_repeat"} == {
        "manifests_exist": "pass",
        "manifests_recent": "pass",
        "claims_belong": "pass",
        "paragraphs_supported": "pass",
    }


def test_the_seed_itself_is_not_a_repeat_of_its_later_copy(seeds, import_story):
    document = seed_document("agent-training-stack")
    document.update(id="8100", slug="agent-training-stack-again", published_at=shifted(document, days=1))
    for key in ("url", "links", "reuse"):
        document.pop(key, None)
    import_story(document)

    run = story_verify(story=seeds["agent-training-stack"], started_by="test", force=True)

    assert run.check_result("not_repeat")["status"] == "pass"
