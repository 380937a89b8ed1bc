"""The demo works end to end: on a fresh database ``load_demo`` leaves manifests dated relative
to today, and a newcomer's story citing them passes every check and is published by a chief
without an override. Tasks run eagerly, as under ``make run``."""

from __future__ import annotations

import datetime as dt
import json
from typing import Any

import pytest
import time_machine
from django.contrib.auth import get_user_model
from django.utils import timezone
from knox.models import AuthToken

from manifests.models import Manifest
from newsroom.models import Newsroom, Role
from newsroom.roles import grant_role
from stories.models import Story
from stories.services import story_import_desk
from tests.stories.helpers import run_command, seed
from tests.workflow.conftest import eager  # noqa: F401  (tasks in-process, even with REDIS_URL)
from verification.gate import story_publish
from verification.models import VerificationRun

# Committed, as under make run: each task queued after commit runs at once, in-process.
pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("eager")]

RECENT = ["demo-recent-tram-council", "demo-recent-tram-costs", "demo-recent-tram-shops"]


def cite(manifest_id: str, *numbers: int) -> dict[str, Any]:
    return {"manifest_id": manifest_id, "claim_ids": [f"{manifest_id}-{number}" for number in numbers]}


def first_story() -> dict[str, Any]:
    """What a newcomer writes on the Demo desk: every part in the words of the claims it cites."""
    council, costs, shops = RECENT
    return {
        "schema": "hangingcontext.desk/1",
        "type": "story",
        "id": "5001",
        "slug": "elmhaven-tram-extension",
        "edition": timezone.now().strftime("%Y-%m-%dT%H"),
        "newsroom": "demo-desk",
        "beat": "city",
        "angle": "What the tram vote means for the riverside.",
        "headline": "Elmhaven votes to extend the riverside tram to the new hospital",
        "dek": "The council approved the extension; riverside shops ask for compensation during the works.",
        "labels": {"trust": "reported"},
        "key_facts": [
            {
                "text": "The Elmhaven city council voted 9 to 4 to extend the riverside tram line by 3.2 kilometres.",
                "self_reported": False,
                "cites": [cite(council, 1)],
            },
            {
                "text": "The transit authority estimates the extension will cost 180 million euros.",
                "self_reported": False,
                "cites": [cite(costs, 1)],
            },
        ],
        "sections": [
            {
                "heading": "The vote",
                "paragraphs": [
                    {
                        "markdown": "The Elmhaven city council voted 9 to 4 on Tuesday to extend the riverside "
                        "tram line by 3.2 kilometres to the new hospital. The extension adds four stops and is "
                        "expected to open in 2028, according to the council's transport committee.",
                        "cites": [cite(council, 1, 2)],
                    },
                    {
                        "markdown": "The Elmhaven transit authority estimates the tram extension will cost 180 "
                        "million euros, with 40% paid by a national grant.",
                        "cites": [cite(costs, 1)],
                    },
                ],
            },
            {
                "heading": "On the riverside",
                "paragraphs": [
                    {
                        "markdown": "Construction will close the riverside road to cars for eighteen months while "
                        "the new tram tracks are laid. Shop owners on the riverside road told the Evening Post "
                        "they fear losing trade during the construction of the tram line.",
                        "cites": [cite(costs, 3), cite(shops, 1)],
                    },
                    {
                        "markdown": "The Elmhaven chamber of commerce asked the council to set up a compensation "
                        "fund for businesses on the construction route.",
                        "cites": [cite(shops, 2)],
                    },
                ],
            },
        ],
    }


def load_demo() -> None:
    run = run_command("load_demo")
    assert run.ok, run.stderr + run.error


def people() -> tuple[Any, Any]:
    desk = Newsroom.objects.get(slug="demo-desk")
    users = get_user_model().objects
    editor, chief = users.create_user("newcomer"), users.create_user("chief")
    grant_role(user=editor, newsroom=desk, role=Role.EDITOR)
    grant_role(user=chief, newsroom=desk, role=Role.CHIEF)
    return editor, chief


def test_a_newcomer_s_story_citing_today_s_demo_manifests_passes_and_a_chief_publishes_it(client):
    load_demo()
    today = timezone.now().astimezone(dt.UTC).date()
    dates = dict(Manifest.objects.filter(manifest_id__in=RECENT).values_list("manifest_id", "published_date"))
    assert dates == {RECENT[0]: today, RECENT[1]: today - dt.timedelta(days=1), RECENT[2]: today - dt.timedelta(days=2)}
    assert Manifest.objects.filter(manifest_id__in=RECENT, is_illustrative=True).count() == 3
    editor, chief = people()
    token = AuthToken.objects.create(user=editor)[1]

    response = client.post(
        "/api/v1/stories/",
        data=json.dumps(first_story()),
        content_type="application/json",
        HTTP_AUTHORIZATION=f"Bearer {token}",
    )
    assert response.status_code == 202, response.content

    story = Story.objects.get(desk_id=5001)
    run = VerificationRun.objects.get(story=story)
    assert run.status == VerificationRun.Status.PASSED, json.dumps(run.checks, indent=1)
    assert {check["name"]: check["status"] for check in run.checks} == {
        "manifests_exist": "pass",
        "manifests_recent": "pass",
        "claims_belong": "pass",
        "not_repeat": "pass",
        "paragraphs_supported": "pass",
    }
    assert story.status == Story.Status.VERIFIED  # the Demo desk waits for a chief

    outcome = story_publish(story=story, actor=chief.get_username(), user=chief)

    assert outcome.published
    assert not outcome.overridden
    story = Story.objects.get(pk=story.pk)
    assert story.status == Story.Status.PUBLISHED
    assert story.live_version.gate == f"checks passed (run {run.pk})"
    page = client.get(story.live_version.get_absolute_url())
    assert page.status_code == 200
    assert "Elmhaven votes to extend the riverside tram" in page.content.decode()


def test_the_seeds_still_round_trip_byte_for_byte(site_url):
    load_demo()
    for name in ("agent-training-stack", "agentic-rl-production"):
        story = Story.objects.get(slug=name)
        assert story.status == Story.Status.PUBLISHED
        assert json.loads(run_command("export_desk", "--id", str(story.desk_id)).stdout) == seed(name)


def recent_dates() -> dict[str, dt.date]:
    return dict(Manifest.objects.filter(manifest_id__in=RECENT).values_list("manifest_id", "published_date"))


def test_run_again_it_changes_nothing_the_same_day_and_on_a_later_day_dates_afresh_what_no_story_cites():
    start = dt.datetime(2026, 12, 1, 9, 0, tzinfo=dt.UTC)
    with time_machine.travel(start, tick=False):
        load_demo()
        counts = (Manifest.objects.count(), Story.objects.count(), Newsroom.objects.count())
        first = recent_dates()
        load_demo()
        assert (Manifest.objects.count(), Story.objects.count(), Newsroom.objects.count()) == counts
        assert (
            recent_dates()
            == first
            == {
                RECENT[0]: dt.date(2026, 12, 1),
                RECENT[1]: dt.date(2026, 11, 30),
                RECENT[2]: dt.date(2026, 11, 29),
            }
        )
        document = first_story()
        document["key_facts"] = document["key_facts"][:1]
        document["sections"] = [{"heading": "The vote", "paragraphs": document["sections"][0]["paragraphs"][:1]}]
        story_import_desk(document=document, as_draft=True, actor="newcomer")  # cites the council's only

    with time_machine.travel(start + dt.timedelta(days=3), tick=False):
        run = run_command("load_demo")
        assert run.ok
        assert f"{RECENT[0]}\tkept (a story cites it)" in run.stdout
        assert Manifest.objects.count() == counts[0]
        assert recent_dates() == {
            RECENT[0]: dt.date(2026, 12, 1),  # what the draft was written from stays as it was
            RECENT[1]: dt.date(2026, 12, 3),
            RECENT[2]: dt.date(2026, 12, 2),
        }
