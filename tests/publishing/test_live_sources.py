"""Live versions follow what they show but did not write: manifests, claims, newsroom and beat
titles, and the render format. What was checked stays as it was checked."""

from __future__ import annotations

import io
import json

import pytest
from django.core.cache import cache
from django.core.management import call_command

from manifests.models import Claim, Manifest
from public.artifacts import RENDER_FORMAT
from stories.models import PublishedVersion, Story
from tests.site.routes import TRAINING

pytestmark = pytest.mark.django_db
MANIFEST = "1792067182956183080"  # cited by the training seed


def live(demo) -> PublishedVersion:
    return PublishedVersion.objects.get(pk=demo["agent-training-stack"].pk)


def test_a_manifest_retitled_in_the_store_is_retitled_on_the_live_page_and_twin(
    client, demo, django_capture_on_commit_callbacks
):
    manifest = Manifest.objects.get(manifest_id=MANIFEST)
    before = live(demo)

    with django_capture_on_commit_callbacks(execute=True):
        manifest.title = "Retitled by its publisher"
        manifest.save()

    cache.clear()
    assert "Retitled by its publisher" in client.get(TRAINING).content.decode()
    twin = json.loads(client.get(TRAINING + "index.json").content)
    assert [entry["title"] for entry in twin["manifests"] if entry["manifest_id"] == MANIFEST] == [
        "Retitled by its publisher"
    ]
    after = live(demo)
    assert after.content_hash == before.content_hash  # what was checked is unchanged
    assert after.modified_at > before.modified_at
    # The other story does not cite it, and is not touched.
    other = PublishedVersion.objects.get(pk=demo["agentic-rl-production"].pk)
    assert other.rendered_at < after.rendered_at


def test_a_claim_changed_under_a_live_story_re_runs_its_checks_and_flags_a_failure(
    client, demo, django_capture_on_commit_callbacks
):
    story = Story.objects.get(pk=demo["agent-training-stack"].pk)
    cited = {
        claim_id
        for fact in json.loads(live(demo).document)["key_facts"]
        for cite in fact["cites"]
        if cite["manifest_id"] == MANIFEST
        for claim_id in cite["claim_ids"]
    }
    claim = Claim.objects.filter(manifest__manifest_id=MANIFEST, claim_id__in=cited).first()
    assert claim is not None
    runs = story.verification_runs.count()

    with django_capture_on_commit_callbacks(execute=True):
        claim.text = "The publisher withdrew this claim."
        claim.save()

    version = live(demo)
    assert story.verification_runs.count() == runs + 1
    assert version.flag.startswith("re-check after a source changed did not pass")
    assert "paragraphs_supported" in version.flag
    cache.clear()
    page = client.get(TRAINING)
    assert page.status_code == 200  # the story stays up
    assert "The publisher withdrew this claim." in page.content.decode()  # its cite shows the new text


def test_a_claim_change_that_still_supports_the_story_leaves_no_flag(demo, django_capture_on_commit_callbacks):
    claim = Claim.objects.filter(manifest__manifest_id=MANIFEST).first()

    with django_capture_on_commit_callbacks(execute=True):
        claim.text = claim.text + " "
        claim.save()

    assert live(demo).flag == ""


def test_a_beat_renamed_is_renamed_on_its_live_stories(client, demo, django_capture_on_commit_callbacks):
    beat = Story.objects.get(pk=demo["agent-training-stack"].pk).beat

    with django_capture_on_commit_callbacks(execute=True):
        beat.title = "Machine learning research"
        beat.save()

    cache.clear()
    assert '"articleSection": "Machine learning research"' in client.get(TRAINING).content.decode()


def test_rerender_renders_versions_of_an_older_format_again(demo):
    PublishedVersion.objects.filter(pk=demo["agent-training-stack"].pk).update(render_format=0, page_html="old")
    out = io.StringIO()

    call_command("rerender", stdout=out)

    assert out.getvalue().strip() == "1 versions rendered again, 1 changed for readers"
    version = live(demo)
    assert version.render_format == RENDER_FORMAT
    assert version.page_html.startswith("<!doctype html>")
    call_command("rerender", "--all", stdout=out)
    assert out.getvalue().splitlines()[-1] == "2 versions rendered again, 0 changed for readers"
