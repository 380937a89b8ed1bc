"""The desk's one-text mode in a real browser (Debian chromium).

An editor writes a new story of two key facts, two sections and four paragraphs, one cite each,
and submits it, every click counted: the issue "The desk at the speed of writing" asks for 22 at
most, where the rows took 44. Cites are picked from the store with the keyboard: a manifest by
its title, its claim by the claim's words, Enter for each. The story passes every check. Then the
change page at 1,280 px, of the seed story and of a story of 320 paragraphs, is kept as
screenshots under test-artifacts/desk/ and fits the window.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest
from django.core.management import call_command

from newsroom.models import Newsroom, Role
from newsroom.roles import grant_role
from stories import desk
from stories.models import Story
from stories.services import story_import_desk

from .conftest import axe_violations
from .test_desk import ARTIFACTS, CLAIMS, desk_world, shot, sign_in  # noqa: F401  (shared fixture)

# ruff: noqa: F811  (the shared fixture, named as a test's argument)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

CLICKS_ALLOWED = 22
KEY_FACTS = [("c-1", CLAIMS["c-1"]), ("c-2", CLAIMS["c-2"])]
SECTIONS = [
    ("What happened", [("c-1", CLAIMS["c-1"]), ("c-2", CLAIMS["c-2"])]),
    # The last paragraph cites what the one above it does: "Same cite as above".
    (
        "What it means",
        [("c-3", CLAIMS["c-3"]), ("c-3", "Harbour pilots reported calmer approaches after the dredging.")],
    ),
]


class Clicks:
    """Every click the test makes goes through here, so the count is the editor's."""

    def __init__(self) -> None:
        self.count = 0

    def on(self, locator: Any) -> None:
        self.count += 1
        locator.click()

    def and_wait(self, page: Any, locator: Any) -> None:
        with page.expect_navigation():
            self.on(locator)


def pick_with_keyboard(page: Any, box: Any, typed: str, highlighted: str) -> None:
    """Type into a picker's box, wait for the choice wanted to be the highlighted one, Enter."""
    box.press_sequentially(typed)
    page.locator("[aria-selected=true]", has_text=highlighted).wait_for()
    box.press("Enter")


def choose_by_keyboard(page: Any, clicks: Clicks, select_id: str, typed: str, option: str) -> None:
    """Django's autocomplete (select2): one click opens it, the rest is typing and Enter."""
    clicks.on(page.locator(f"#{select_id} + .select2 .select2-selection"))
    search = page.locator(".select2-container--open .select2-search__field")
    search.press_sequentially(typed)
    page.locator(".select2-results__option--highlighted", has_text=option).wait_for()
    search.press("Enter")


def cite(page: Any, clicks: Clicks, manifest: Any, claim: str) -> None:
    clicks.on(page.locator("button.desk-insert-cite"))
    pick_with_keyboard(page, page.locator(".desk-picker-manifest"), "dredging report", manifest.source_name)
    claims = page.locator(".desk-picker-claim:enabled")  # once the manifest's claims have come
    claims.wait_for()
    pick_with_keyboard(page, claims, " ".join(CLAIMS[claim].split()[1:4]), CLAIMS[claim][:40])
    claims.press("Enter")  # nothing typed: the cite is written at the cursor
    page.locator("dialog.desk-picker").wait_for(state="hidden")


@pytest.mark.usefixtures("eager")
def test_an_editor_writes_and_submits_a_new_story_in_at_most_22_clicks(desk_world, browser):
    manifest = desk_world["manifest"]
    page = sign_in(browser, "edna")  # signing in is not counted: the count starts on the desk
    clicks = Clicks()

    clicks.and_wait(page, page.locator("a.addlink[href$='/stories/story/add/']"))
    clicks.on(page.locator("#id_headline"))
    page.keyboard.type("Harbour dredging ends")
    choose_by_keyboard(page, clicks, "id_newsroom", "Harbour", "Harbour Desk")
    choose_by_keyboard(page, clicks, "id_beat", "Ports", "Ports")
    choose_by_keyboard(page, clicks, "id_edition", "", "This hour")

    body = page.locator("textarea.desk-body")
    clicks.on(body)
    for claim, text in KEY_FACTS:
        page.keyboard.type(f"- {text}")
        cite(page, clicks, manifest, claim)
        page.keyboard.press("Enter")
    for heading, paragraphs in SECTIONS:
        page.keyboard.type(f"\n## {heading}\n")
        for number, (claim, text) in enumerate(paragraphs):
            page.keyboard.type(f"\n{text}")
            if number and claim == paragraphs[number - 1][0]:
                clicks.on(page.locator("button.desk-same-cite"))
            else:
                cite(page, clicks, manifest, claim)
            page.keyboard.press("Enter")
    shot(page, "one-text-writing")
    clicks.and_wait(page, page.locator("input[name=_continue]"))
    assert page.locator(".messagelist .success").is_visible(), page.locator(".errorlist").all_inner_texts()
    clicks.and_wait(page, page.locator("button:has-text('Submit for checks')"))
    shot(page, "one-text-submitted")

    print(f"clicks to write and submit the story: {clicks.count}")
    assert clicks.count <= CLICKS_ALLOWED
    # What was written is the story the editor meant, and it passed every check.
    assert "PASSED" in page.locator(".field-verification").inner_text()
    text = page.locator("textarea.desk-body").input_value()
    m = manifest.manifest_id
    assert text == (
        "\n".join(f"- {fact} [^{m}: {claim}]" for claim, fact in KEY_FACTS)
        + "".join(
            f"\n\n## {heading}" + "".join(f"\n\n{paragraph} [^{m}: {claim}]" for claim, paragraph in paragraphs)
            for heading, paragraphs in SECTIONS
        )
        + "\n"
    )
    assert browser.console_errors == []


def long_story(seed: Story) -> dict[str, Any]:
    """The seed with 16 sections of 20 paragraphs and 20 key facts, its own parts repeated."""
    document = desk.export_story(Story.objects.with_parts().get(pk=seed.pk))
    paragraphs = [paragraph for section in document["sections"] for paragraph in section["paragraphs"]]
    document |= {
        "id": "990320",
        "slug": "a-long-story",
        "url": document["url"].replace(document["slug"], "a-long-story"),
    }
    document.pop("published_at")
    document["sections"] = [
        {
            "heading": f"Part {number + 1}",
            "paragraphs": [copy.deepcopy(paragraphs[(number + i) % len(paragraphs)]) for i in range(20)],
        }
        for number in range(16)
    ]
    document["key_facts"] = [copy.deepcopy(document["key_facts"][i % len(document["key_facts"])]) for i in range(20)]
    return document


@pytest.fixture
def seed_and_long_story(transactional_db, django_user_model) -> dict[str, int]:
    call_command("load_demo", stdout=open("/dev/null", "w"))  # noqa: SIM115
    seed = Story.objects.get(desk_id=81)
    long = story_import_desk(document=long_story(seed), as_draft=True, actor="test").story
    chief = django_user_model.objects.create_user(username="chiara", password="a-long-test-password")
    grant_role(user=chief, newsroom=Newsroom.objects.get(pk=seed.newsroom_id), role=Role.CHIEF)
    return {"seed": seed.pk, "long": long.pk}


def test_the_change_page_fits_1280_px_for_the_seed_and_a_320_paragraph_story(seed_and_long_story, browser):
    page = sign_in(browser, "chiara")
    page.set_viewport_size({"width": 1280, "height": 900})
    for name, pk in (("seed", seed_and_long_story["seed"]), ("320-paragraphs", seed_and_long_story["long"])):
        page.goto(browser.url(f"/admin/stories/story/{pk}/change/"))
        body = page.locator("textarea.desk-body")
        assert body.is_visible()
        shot(page, f"story-page-1280-{name}")
        page.locator(".field-body").screenshot(path=str(ARTIFACTS / f"story-page-1280-{name}-text.png"))
        assert page.evaluate("() => document.documentElement.scrollWidth") <= 1280, name
        assert body.evaluate("area => area.getBoundingClientRect().right") <= 1280, name
    assert browser.console_errors == []


def test_the_picker_opens_on_ctrl_k_and_writes_no_cite_without_a_claim(desk_world, browser, axe_source):
    page = sign_in(browser, "edna")
    page.goto(browser.url("/admin/stories/story/add/"))
    body = page.locator("textarea.desk-body")
    body.click()
    page.keyboard.type("- A fact.")

    page.locator("button.desk-same-cite").click()
    assert page.locator(".desk-body-note").inner_text() == "No cite above the cursor to repeat."
    body.press("Control+k")
    manifest_box = page.locator(".desk-picker-manifest")
    assert manifest_box.evaluate("box => box === document.activeElement")
    pick_with_keyboard(page, manifest_box, "dredging report", desk_world["manifest"].source_name)
    claims = page.locator(".desk-picker-claim:enabled")
    claims.wait_for()
    claims.press("Enter")  # no claim chosen yet: nothing is written, and the picker says why

    assert page.locator(".desk-picker-note").inner_text() == "A cite needs a manifest and at least one of its claims."
    assert page.locator("dialog.desk-picker").is_visible()
    assert axe_violations(page, axe_source) == []  # the page with the picker open
    page.keyboard.press("Escape")
    assert body.input_value() == "- A fact."
    assert browser.console_errors == []


def test_an_error_s_line_number_takes_the_editor_to_that_line(desk_world, browser):
    page = sign_in(browser, "edna")
    page.goto(browser.url("/admin/stories/story/add/"))
    page.locator("#id_headline").fill("Harbour dredging ends")
    page.locator("textarea.desk-body").fill(
        "- A fact.\n\n## What happened\n\nA paragraph [^m-1 c-1] with a broken cite.\n"
    )
    with page.expect_navigation():
        page.locator("input[name=_continue]").click()

    go = page.locator(".field-body .errorlist .desk-goto-line", has_text="Line 5")
    go.click()

    selected = page.locator("textarea.desk-body").evaluate(
        "area => area.value.slice(area.selectionStart, area.selectionEnd)"
    )
    assert selected == "A paragraph [^m-1 c-1] with a broken cite."
    assert browser.console_errors == []
