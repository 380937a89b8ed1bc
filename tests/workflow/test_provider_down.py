"""Fault drill: the manifest provider down. A story submitted for its checks while the provider
refuses connections, answers 503 or hangs ends with a run that is ``unknown``, never ``failed``
or ``passed``; every check that could not decide says why, naming the manifest and what the
provider did; nothing is published. The provider is a real HTTP server on 127.0.0.1
(tests/provider_server.py), not a mock; "refused" is a port it listened on, closed."""

from __future__ import annotations

from datetime import timedelta

import pytest

from stories.models import PublishedVersion, Story
from tests.provider_server import ProviderServer, Reply, manifest_payload
from verification.models import VerificationRun
from verification.services import RETRY_STARTED_BY
from verification.tasks import requeue_pending_runs
from verification.workflow import story_submit

pytestmark = pytest.mark.django_db

MANIFEST = "1795000000000000001"  # in no store: the checks must ask the provider for it
CLAIM = "1796000000000000001"
CLAIM_TEXT = "The harbour authority began dredging the ferry terminal and installed new tide gauges this week."


@pytest.fixture
def story(stories, auto_publish) -> Story:
    """A story that would pass and be published at once, citing a manifest only the provider has."""
    return stories._import(number=9_500, manifest_id=MANIFEST, claim_ids=[CLAIM], text=CLAIM_TEXT)


def down_refusing(settings, provider) -> str:
    with ProviderServer() as server:
        url = server.url
    settings.MANIFEST_PROVIDER_URL = url  # nothing listens there any more
    return "refused"


def down_503(settings, provider) -> str:
    provider.always(503)
    return "503"


def down_hung(settings, provider) -> str:
    settings.MANIFEST_PROVIDER_READ_TIMEOUT = 0.3
    provider.always(Reply(delay=3))  # accepts, reads the request, answers nothing in time
    return "no complete reply from the provider within 0.3 s"


@pytest.mark.parametrize("make_down", [down_refusing, down_503, down_hung], ids=["refused", "503", "hung"])
def test_a_story_checked_while_the_provider_is_down_ends_unknown_with_the_reason(
    make_down, story, provider, eager, settings, django_capture_on_commit_callbacks
):
    settings.MANIFEST_PROVIDER_MAX_RETRIES = 1
    expected = make_down(settings, provider)

    with django_capture_on_commit_callbacks(execute=True):
        story_submit(story=story, actor="drill")

    run = VerificationRun.objects.get(story=story)
    assert run.status == VerificationRun.Status.UNKNOWN
    checks = {check["name"]: check for check in run.checks}
    assert {check["status"] for check in checks.values()} <= {"pass", "unknown"}
    exist = checks["manifests_exist"]
    assert exist["status"] == "unknown"
    [problem] = exist["problems"]
    assert problem["at"] == "key_facts[0]"
    message = problem["message"]
    print(f"provider down ({expected}): run {run.status}; {message}")
    assert f"manifest {MANIFEST} is not in the store and the provider could not be asked" in message
    assert expected in message.lower(), message
    # The checks that needed the manifest's claims say so too, rather than guessing.
    undecided = [name for name, check in checks.items() if check["status"] == "unknown"]
    assert "claims_belong" in undecided
    for name in undecided:
        assert checks[name]["problems"], f"{name} is unknown without a reason"
        assert all(MANIFEST in problem["message"] for problem in checks[name]["problems"]), checks[name]
    story.refresh_from_db()
    assert story.status != Story.Status.PUBLISHED
    assert not PublishedVersion.objects.filter(story=story).exists()


def test_a_story_checked_while_the_provider_is_down_stays_submitted_and_is_checked_again_once_it_is_back(
    story, provider, eager, settings, django_capture_on_commit_callbacks, time_machine
):
    settings.MANIFEST_PROVIDER_MAX_RETRIES = 0
    settings.VERIFY_UNKNOWN_RETRY_SECONDS = 300
    provider.always(503)

    with django_capture_on_commit_callbacks(execute=True):
        undecided = story_submit(story=story, actor="drill")

    undecided.refresh_from_db()
    assert undecided.status == VerificationRun.Status.UNKNOWN
    # Could not decide is no failure: the story waits, submitted, and is not published.
    assert Story.objects.get(pk=story.pk).status == Story.Status.SUBMITTED
    assert undecided.retry_at == undecided.finished_at + timedelta(seconds=300)
    assert requeue_pending_runs()["retried"] == 0

    # The provider is back; at the retry time the beat sweep runs the checks again.
    provider.always(None)
    claim = {"claim_id": CLAIM, "text": CLAIM_TEXT, "type": "fact", "confidence": 0.9}
    provider.add_manifest(manifest_payload(MANIFEST, claims=[claim]))
    time_machine.move_to(undecided.retry_at + timedelta(seconds=1))

    assert requeue_pending_runs()["retried"] == 1

    retry = VerificationRun.objects.latest_for(story)
    assert (retry.started_by, retry.status) == (RETRY_STARTED_BY, VerificationRun.Status.PASSED)
    assert Story.objects.get(pk=story.pk).status == Story.Status.PUBLISHED  # its newsroom auto-publishes
    assert PublishedVersion.objects.filter(story=story).count() == 1
