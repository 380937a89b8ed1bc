"""In a real browser: an editor confirms, on the desk, the two paragraphs the support check
could not show; the chief publishes; the page tells readers which paragraphs the desk
confirmed and which the checks showed.

The text is real: the rules cannot show a reporter's verb the claims do not use ("took ... to
court" for "sued"), so nothing is told to the check. Every row is made before the first page
opens (Playwright's event loop refuses database calls); everything after is read from pages.
"""

from __future__ import annotations

import pytest
from django.urls import reverse

from newsroom.models import Role
from newsroom.roles import grant_role
from stories.services import story_import_desk
from tests.workflow.conftest import StoryMaker
from verification.models import VerificationRun
from verification.review import review_items
from verification.workflow import story_submit

from .conftest import screenshot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "a-long-test-password"
SUED = "Alder Health sued Corvin Labs over the patent."
SUED_TOO = "Brook Energy sued Dane Motors over the supply contract."
PARAPHRASES = [
    "Alder Health took Corvin Labs to court over the patent.",
    "Brook Energy took Dane Motors to court over the supply contract.",
]


@pytest.fixture
def waiting_on_review(transactional_db, django_user_model) -> dict[str, str]:
    """A story whose run leaves two paragraphs for the desk, an editor and a chief; its URLs."""
    maker = StoryMaker()
    manifest = maker.manifest({"c-1": SUED, "c-2": SUED_TOO})
    document = maker.document(number=991, manifest_id=manifest.manifest_id, claim_ids=["c-1"], text=SUED)
    first = {"manifest_id": manifest.manifest_id, "claim_ids": ["c-1"]}
    second = {"manifest_id": manifest.manifest_id, "claim_ids": ["c-2"]}
    document["sections"][0]["paragraphs"] = [
        {"markdown": PARAPHRASES[0], "cites": [first]},
        {"markdown": SUED, "cites": [first]},
        {"markdown": PARAPHRASES[1], "cites": [second]},
    ]
    story = story_import_desk(document=document, as_draft=True, actor="test").story
    for username, role in (("editor", Role.EDITOR), ("chief", Role.CHIEF)):
        user = django_user_model.objects.create_user(username=username, password=PASSWORD)
        grant_role(user=user, newsroom=story.newsroom, role=role)
    run = story_submit(story=story, actor="test")
    run.refresh_from_db()
    assert run.status == VerificationRun.Status.REVIEW, run.checks
    assert [item.at for item in review_items(run)] == ["sections[0].paragraphs[0]", "sections[0].paragraphs[2]"]
    return {
        "review": reverse("admin:stories_story_review", args=[story.pk]),
        "change": reverse("admin:stories_story_change", args=[story.pk]),
        "public": f"/stories/{story.dateline.isoformat()}/{story.slug}/",
    }


# The fixture first: its rows are made before the browser's event loop starts.
def test_the_desk_confirms_two_paragraphs_and_the_page_says_which(waiting_on_review, browser):
    review_url, change_url, public_url = (waiting_on_review[key] for key in ("review", "change", "public"))
    editor = sign_in(browser, "editor")
    editor.goto(browser.url(review_url))
    for at in ("sections[0].paragraphs[0]", "sections[0].paragraphs[2]"):
        item = editor.locator(f'section.review-item[data-at="{at}"]')
        assert PARAPHRASES[0 if at.endswith("[0]") else 1] in item.locator(".review-passage").inner_text()
        with editor.expect_navigation():
            item.get_by_role("button", name="Confirm support").click()
        assert editor.locator(f'section.review-item[data-at="{at}"]').get_attribute("data-state") == "confirmed"
    assert "Every part is confirmed: the story may be published." in editor.content()
    screenshot(editor, "review-confirmed")

    chief = sign_in(browser, "chief")
    chief.goto(browser.url(change_url))
    with chief.expect_navigation():
        chief.get_by_role("button", name="Publish").click()

    reader = browser.page()
    reader.goto(browser.url(public_url))
    evidence = reader.locator(".story-body .paragraph .evidence").all_inner_texts()
    assert evidence == ["confirmed by the desk", "checked", "confirmed by the desk"]
    assert reader.locator(".key-fact .evidence").all_inner_texts() == ["checked"]
    label = reader.locator("p.verification").inner_text()
    assert label.startswith("Checked, with the desk.")
    assert "the desk confirmed the support of 2 parts" in label
    screenshot(reader, "story-confirmed-by-the-desk")
    assert browser.console_errors == []


def sign_in(browser, username: str):
    page = browser.page()
    page.goto(browser.url("/admin/login/?next=/admin/"))
    page.fill("#id_username", username)
    page.fill("#id_password", PASSWORD)
    with page.expect_navigation():
        page.click("input[type=submit]")
    return page
