"""manage.py verify_story ID [--json]: readable output, exact JSON, exit statuses 0, 1 and 3."""

from __future__ import annotations

import json
from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from verification.checks import CHECKS
from verification.models import VerificationRun

from .conftest import make_manifest, story_document

pytestmark = pytest.mark.django_db

M1 = "m-rockets"


def verify(*args):
    out = StringIO()
    try:
        call_command("verify_story", *args, stdout=out)
    except CommandError as error:
        return out.getvalue(), error
    return out.getvalue(), None


@pytest.fixture
def failing_story(import_story):
    make_manifest(M1, {"c1": "Acme launched 12 rockets in October."})
    return import_story(
        story_document(story_id="501", paragraphs=[("Acme launched 13 rockets in October.", [(M1, ["c1"])])])
    )


def test_it_prints_every_check_and_exits_0_when_all_pass(seeds):
    out, error = verify("81")

    assert error is None
    lines = out.splitlines()
    assert lines[0].startswith("Story 81 'agent-training-stack': passed (run ")
    assert [line.split()[:2] for line in lines[1:]] == [["pass", name] for name, _ in CHECKS]
    assert "pass     not_repeat  (no similar story published in the window)" in out


def test_json_prints_exactly_the_documented_shape(seeds):
    out, error = verify("81", "--json")

    assert error is None
    document = json.loads(out)
    assert list(document) == ["story", "status", "content_hash", "checks"]
    assert document == {
        "story": "81",
        "status": "passed",
        "content_hash": seeds["agent-training-stack"].content_hash,
        "checks": [{"name": name, "status": "pass", "problems": []} for name, _ in CHECKS],
    }


def test_it_exits_1_when_a_check_fails_and_prints_the_problems(failing_story):
    out, error = verify("501")

    assert error.returncode == 1
    assert str(error) == "story 501: 1 check(s) failed: paragraphs_supported"
    assert "FAIL     paragraphs_supported" in out
    assert "sections[0].paragraphs[0]: '13' is in none of the cited claims (they give 12)" in out


def test_json_of_a_failing_story_carries_the_problems_and_exits_1(failing_story):
    out, error = verify("501", "--json")

    assert error.returncode == 1
    checks = {check["name"]: check for check in json.loads(out)["checks"]}
    assert json.loads(out)["status"] == "failed"
    assert checks["paragraphs_supported"] == {
        "name": "paragraphs_supported",
        "status": "fail",
        "problems": [
            {
                "at": "sections[0].paragraphs[0]",
                "message": "'13' is in none of the cited claims (they give 12)",
                "code": "figure_mismatch",
                "status": "fail",
            }
        ],
    }


def test_it_exits_3_when_nothing_fails_but_something_could_not_decide(import_story, settings):
    settings.MANIFEST_PROVIDER_URL = ""
    import_story(story_document(story_id="502", paragraphs=[("Acme launched rockets.", [("m-elsewhere", ["c1"])])]))

    out, error = verify("502", "--json")

    assert error.returncode == 3
    assert json.loads(out)["status"] == "unknown"
    assert "could not decide" in str(error)


def test_it_reuses_the_verdict_for_unchanged_content_unless_asked_again(failing_story):
    verify("501")
    verify("501")
    assert VerificationRun.objects.filter(story=failing_story).count() == 1

    verify("501", "--again")
    assert VerificationRun.objects.filter(story=failing_story).count() == 2


@pytest.mark.parametrize(
    ("story_id", "message"),
    [("404", "ID: there is no story with id 404"), ("abc", "ID: a story id is a whole number, like 81; got 'abc'")],
)
def test_a_bad_id_is_a_clear_error(story_id, message):
    _, error = verify(story_id)

    assert str(error) == message
    assert error.returncode == 2
