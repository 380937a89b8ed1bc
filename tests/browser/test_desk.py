"""The whole desk in a real browser (Debian chromium), as an editor and a chief use it.

An editor signs in, writes a story of two sections and three paragraphs whose cites are chosen
by autocomplete from the manifest store, previews it and submits it; the checks flag a paragraph
in place; the editor fixes it and it passes. A chief publishes it, and readers get it; the chief
edits the live story, and readers get nothing new until the republish passes; the chief adds a
correction, which readers get on the page and in both twins. Screenshots of each step are kept
under test-artifacts/desk/ (CI keeps test-artifacts).

Playwright keeps an event loop in this thread, where Django refuses database calls, so every
row is made before the first page opens and everything after is read from pages.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
from django.utils import timezone

from editions.models import Edition
from newsroom.models import Beat, Newsroom, Role
from newsroom.roles import grant_role
from stories.models import Story
from tests.factories import CiteFactory, ClaimFactory, ManifestFactory, ParagraphFactory, SectionFactory, StoryFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "desk"
CLAIMS = {
    "c-1": "The harbour authority dredged four berths at the ferry terminal in March.",
    "c-2": "Ferry crossings from the terminal resumed on the first of April.",
    "c-3": "Harbour pilots reported calmer approaches to the terminal after the dredging.",
}
UNSUPPORTED = " Crossings rose 30.7% since."
HEADLINE = "Harbour dredging ends"
NEW_HEADLINE = "Harbour dredging ends at the ferry terminal"
CORRECTION = "An earlier version gave the wrong month for the dredging."


def shot(page: Any, name: str) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)


def sign_in(browser: Any, username: str) -> Any:
    page = browser.page()
    page.goto(browser.url("/admin/login/?next=/admin/"))
    page.fill("#id_username", username)
    page.fill("#id_password", "a-long-test-password")
    submit(page, "input[type=submit]")
    page.wait_for_url("**/admin/")
    return page


def submit(page: Any, selector: str) -> None:
    """Click a button that sends a form, and wait for the page it leads to."""
    with page.expect_navigation():
        page.click(selector)


def choose(page: Any, select_id: str, typed: str, option: str) -> None:
    """Pick from a select2 box (Django's autocomplete, or the desk's manifest and claim boxes)."""
    page.locator(f"#{select_id} + .select2 .select2-selection").click()
    page.locator(".select2-container--open .select2-search__field").fill(typed)
    page.locator(".select2-results__option", has_text=option).first.click()


def add(page: Any, group: str, model: str) -> None:
    page.locator(f"#{group} a.djn-add-handler.djn-model-stories-{model}").filter(visible=True).last.click()


def write_paragraph(page: Any, manifest: Any, section: int, number: int, text: str, claim: str) -> None:
    prefix = f"sections-{section}-paragraphs-{number}"
    add(page, f"sections-{section}-paragraphs-group", "paragraph")
    page.fill(f"#id_{prefix}-markdown", text)
    add(page, f"{prefix}-cites-group", "cite")
    # The manifest is found by its title, and offered with its publisher and date.
    choose(page, f"id_{prefix}-cites-0-manifest_id", manifest.title, manifest.source_name)
    # Its claims are then offered with their text, once they have loaded (the box is shut till then).
    page.locator(f"#id_{prefix}-cites-0-claim_ids option[value='{claim}']").wait_for(state="attached")
    page.locator(f"#id_{prefix}-cites-0-claim_ids + .select2:not(.select2-container--disabled)").wait_for()
    choose(page, f"id_{prefix}-cites-0-claim_ids", claim, CLAIMS[claim][:30])


def first_cite_row(page: Any, manifest: Any) -> str:
    """On a new story's page: a section, a paragraph and a cite of ``manifest``; the cite's prefix."""
    page.goto(page.url.split("/admin/")[0] + "/admin/stories/story/add/?mode=rows")
    add(page, "sections-group", "section")
    add(page, "sections-0-paragraphs-group", "paragraph")
    add(page, "sections-0-paragraphs-0-cites-group", "cite")
    prefix = "sections-0-paragraphs-0-cites-0"
    choose(page, f"id_{prefix}-manifest_id", manifest.title, manifest.source_name)
    return prefix


@pytest.fixture
def desk_world(django_user_model) -> dict[str, Any]:
    newsroom = Newsroom.objects.create(slug="harbour-desk", title="Harbour Desk")
    Beat.objects.create(newsroom=newsroom, slug="ports", title="Ports")
    Edition.objects.create(key=timezone.now().strftime("%Y-%m-%dT%H"), title="This hour")
    manifest = ManifestFactory(
        title="Harbour authority dredging report", source_name="harbour-gazette", published_date=timezone.now().date()
    )
    for position, (claim_id, text) in enumerate(CLAIMS.items()):
        ClaimFactory(manifest=manifest, claim_id=claim_id, position=position, text=text)
    for username, role in (("edna", Role.EDITOR), ("chiara", Role.CHIEF)):
        user = django_user_model.objects.create_user(username=username, password="a-long-test-password")
        grant_role(user=user, newsroom=newsroom, role=role)
    long_titled = ManifestFactory(
        title="Quarterly " + " ".join(["harbour-authority-dredging-and-berth-maintenance-report"] * 6),
        source_name="harbour-gazette-archive",
        published_date=timezone.now().date(),
    )
    return {"manifest": manifest, "long_titled": long_titled}


@pytest.mark.usefixtures("eager")
def test_the_whole_desk_from_a_draft_to_a_corrected_story(desk_world, browser):
    manifest = desk_world["manifest"]

    # 1. The editor signs in, and sees the desk's own name and what needs an editor.
    page = sign_in(browser, "edna")
    assert "Django" not in page.title()
    assert page.locator(".desk-dashboard").is_visible()
    shot(page, "01-dashboard")

    # 2. Writes a story: two sections, three paragraphs, cites chosen by autocomplete.
    page.goto(browser.url("/admin/stories/story/add/?mode=rows"))
    page.locator("#id_headline").press_sequentially(HEADLINE)
    assert page.input_value("#id_slug") == "harbour-dredging-ends"  # suggested from the headline
    choose(page, "id_newsroom", "Harbour", "Harbour Desk")
    choose(page, "id_beat", "Ports", "Ports")
    choose(page, "id_edition", "", "This hour")
    add(page, "sections-group", "section")
    page.fill("#id_sections-0-heading", "What happened")
    write_paragraph(page, manifest, 0, 0, CLAIMS["c-1"], "c-1")
    write_paragraph(page, manifest, 0, 1, CLAIMS["c-2"], "c-2")
    add(page, "sections-group", "section")
    page.fill("#id_sections-1-heading", "What it means")
    write_paragraph(page, manifest, 1, 0, CLAIMS["c-3"] + UNSUPPORTED, "c-3")
    shot(page, "02-writing")
    submit(page, "input[name=_continue]")
    assert page.locator(".messagelist .success").is_visible(), page.content()[:3000]
    shot(page, "03-saved")

    # 3. Previews it as readers will see it, then submits it.
    page.click("text=Preview")
    assert page.get_by_role("heading", level=1).inner_text() == HEADLINE
    shot(page, "04-preview")
    page.go_back()
    submit(page, "button:has-text('Submit for checks')")

    # 4. The failing paragraph is flagged in place, in an editor's words.
    flagged = page.locator("#sections-1-paragraphs-0 .desk-problems")
    assert "Section 2, paragraph 1: '30.7%' is in none of the cited claims" in flagged.inner_text()
    assert "FAILED" in page.locator(".field-verification").inner_text()
    shot(page, "05-flagged")
    page.fill("#id_sections-1-paragraphs-0-markdown", CLAIMS["c-3"])
    submit(page, "input[name=_continue]")
    submit(page, "button:has-text('Submit for checks')")
    assert "PASSED" in page.locator(".field-verification").inner_text()
    assert page.locator(".desk-problems").count() == 0
    shot(page, "06-passed")
    story_url = page.url

    # 5. A chief publishes it; the public page shows it.
    chief = sign_in(browser, "chiara")
    chief.goto(story_url)
    submit(chief, "button:has-text('Publish')")
    assert chief.locator(".messagelist .success").is_visible()
    view_on_site = chief.locator("a.viewsitelink").get_attribute("href")
    public_url = urlsplit(chief.request.get(browser.url(view_on_site), max_redirects=0).headers["location"]).path
    assert public_url.endswith("/harbour-dredging-ends/")
    reader = browser.page()
    reader.goto(browser.url(public_url))
    assert reader.get_by_role("heading", level=1).inner_text() == HEADLINE
    shot(reader, "07-published")

    # 6. The chief edits the live story: readers get nothing new until the republish passes.
    chief.goto(story_url)
    chief.fill("#id_headline", NEW_HEADLINE)
    submit(chief, "input[name=_continue]")
    assert "changes readers do not get" in chief.locator(".field-live_version_summary").inner_text()
    assert NEW_HEADLINE in chief.locator(".field-live_diff").inner_text()
    shot(chief, "08-live-edited")
    reader.reload()
    assert reader.get_by_role("heading", level=1).inner_text() == HEADLINE
    submit(chief, "button:has-text('Submit for checks')")
    reader.reload()
    assert reader.get_by_role("heading", level=1).inner_text() == HEADLINE
    submit(chief, "button:has-text('Publish')")
    reader.reload()
    assert reader.get_by_role("heading", level=1).inner_text() == NEW_HEADLINE
    shot(reader, "09-republished")

    # 7. The chief adds a correction: on the page and in both twins.
    chief.click("text=Add a correction")
    chief.fill("textarea[name=text]", CORRECTION)
    submit(chief, "input[type=submit][value='Add the correction']")
    assert chief.locator(".messagelist .success").is_visible()
    reader.reload()
    assert CORRECTION in reader.content()
    shot(reader, "10-corrected")
    for twin in ("index.json", "index.md"):
        response = reader.request.get(browser.url(public_url + twin))
        assert response.status == 200
        assert CORRECTION in response.text()
    assert browser.console_errors == []


def test_the_claims_box_is_shut_until_its_claims_arrive(desk_world, browser):
    """Opened before the claims came, select2 offered only what was typed and never refreshed."""
    manifest = desk_world["manifest"]
    page = sign_in(browser, "edna")
    held: list[Any] = []
    page.route("**/admin/stories/story/manifests/claims/**", lambda route: held.append(route))
    page.goto(browser.url("/admin/stories/story/add/?mode=rows"))
    add(page, "sections-group", "section")
    add(page, "sections-0-paragraphs-group", "paragraph")
    add(page, "sections-0-paragraphs-0-cites-group", "cite")
    prefix = "sections-0-paragraphs-0-cites-0"
    choose(page, f"id_{prefix}-manifest_id", manifest.title, manifest.source_name)
    while not held:  # Playwright calls the route handler while it waits
        page.wait_for_timeout(50)

    claims_box = page.locator(f"#id_{prefix}-claim_ids")
    assert claims_box.is_disabled()
    assert "select2-container--disabled" in page.locator(f"#id_{prefix}-claim_ids + .select2").get_attribute("class")

    held[0].continue_()
    page.locator(f"#id_{prefix}-claim_ids + .select2:not(.select2-container--disabled)").wait_for()
    assert claims_box.is_enabled()
    choose(page, f"id_{prefix}-claim_ids", "c-2", CLAIMS["c-2"][:30])
    chosen = claims_box.evaluate("select => [...select.selectedOptions].map((option) => option.value)")
    assert chosen == ["c-2"]


@pytest.fixture
def saved_cites(desk_world) -> Story:
    """A draft of one paragraph with two cites of the manifest: claims c-3 and c-1 (in that
    order), and claim c-2."""
    newsroom = Newsroom.objects.get(slug="harbour-desk")
    story = StoryFactory(
        newsroom=newsroom, beat=newsroom.beats.get(), status=Story.Status.DRAFT, published_at=None, slug="dredging"
    )
    paragraph = ParagraphFactory(section=SectionFactory(story=story, position=0), position=0, markdown=CLAIMS["c-3"])
    for position, claim_ids in enumerate([["c-3", "c-1"], ["c-2"]]):
        CiteFactory(
            paragraph=paragraph, position=position, manifest_id=desk_world["manifest"].manifest_id, claim_ids=claim_ids
        )
    return story


def test_a_saved_cite_s_box_fetches_its_other_claims_when_opened_or_focused_and_keeps_the_chosen_ones(
    saved_cites, browser
):
    page = sign_in(browser, "edna")
    held: list[Any] = []
    page.route("**/admin/stories/story/manifests/claims/**", lambda route: held.append(route))
    page.goto(browser.url(f"/admin/stories/story/{saved_cites.pk}/change/?mode=rows"))
    first, second = "#id_sections-0-paragraphs-0-cites-0-claim_ids", "#id_sections-0-paragraphs-0-cites-1-claim_ids"
    listed = "select => [...select.options].map((option) => [option.value, option.selected])"
    assert page.locator(first).evaluate(listed) == [["c-3", True], ["c-1", True]]
    assert page.locator(second).evaluate(listed) == [["c-2", True]]

    # Opened: shut until the manifest's other claims arrive, then open with them.
    with page.expect_request("**/admin/stories/story/manifests/claims/**"):
        page.locator(f"{first} + .select2 .select2-selection").click()
    while not held:  # Playwright calls the route handler while it waits
        page.wait_for_timeout(50)
    assert page.locator(".select2-container--open .select2-results").count() == 0
    held[0].continue_()
    page.locator(".select2-container--open .select2-results__option", has_text=CLAIMS["c-2"][:30]).click()
    assert page.locator(first).evaluate(listed) == [["c-3", True], ["c-1", True], ["c-2", True]]

    # Focused, as by the keyboard: the claims are fetched before the box is opened.
    with page.expect_request("**/admin/stories/story/manifests/claims/**"):
        page.locator(f"{second} + .select2 .select2-search__field").focus()
    while len(held) < 2:
        page.wait_for_timeout(50)
    held[1].continue_()
    page.locator(f"{second} option[value='c-3']").wait_for(state="attached")
    assert page.locator(second).evaluate(listed) == [["c-2", True], ["c-1", False], ["c-3", False]]
    assert len(held) == 2
    assert browser.console_errors == []


def test_the_story_page_counts_words_and_warns_before_unsaved_changes_are_lost(desk_world, browser):
    page = sign_in(browser, "edna")
    page.goto(browser.url("/admin/stories/story/add/?mode=rows"))
    add(page, "sections-group", "section")
    add(page, "sections-0-paragraphs-group", "paragraph")
    add(page, "sections-0-paragraphs-group", "paragraph")
    total = page.locator(".desk-words-total")
    assert total.inner_text() == "The story: 0 words in its paragraphs"

    page.locator("#id_sections-0-paragraphs-0-markdown").press_sequentially("Ferry crossings resumed in April.")
    page.locator("#id_sections-0-paragraphs-1-markdown").press_sequentially("Pilots reported calmer approaches.")

    counts = page.locator("#sections-group .desk-words").all_inner_texts()
    assert counts == ["5 words", "4 words"]
    assert total.inner_text() == "The story: 9 words in its paragraphs"
    # Leaving by a link asks first; the dialog is dismissed, so the page and its text stay.
    adding = page.url
    page.locator(".breadcrumbs a").first.click()
    page.wait_for_timeout(300)
    assert browser.dialogs == [""]
    assert page.url == adding
    assert page.locator("#id_sections-0-paragraphs-0-markdown").input_value() == "Ferry crossings resumed in April."
    assert browser.console_errors == []


def test_enter_in_the_claims_box_picks_the_claim_whose_words_were_typed(desk_world, browser):
    manifest = desk_world["manifest"]
    page = sign_in(browser, "edna")
    prefix = first_cite_row(page, manifest)
    page.locator(f"#id_{prefix}-claim_ids + .select2:not(.select2-container--disabled)").wait_for()

    page.locator(f"#id_{prefix}-claim_ids + .select2 .select2-selection").click()
    search = page.locator(".select2-container--open .select2-search__field")
    search.press_sequentially("calmer approaches")
    search.press("Enter")
    # And an id-like word typed for a manifest whose claims the store has is no claim at all.
    page.locator(f"#id_{prefix}-claim_ids + .select2 .select2-selection").click()
    search.press_sequentially("c-99")
    search.press("Enter")

    chosen = page.locator(f"#id_{prefix}-claim_ids").evaluate(
        "select => [...select.selectedOptions].map((o) => o.value)"
    )
    assert chosen == ["c-3"]
    assert browser.console_errors == []


def test_the_story_page_fits_1280_px_with_a_long_manifest_title(desk_world, browser):
    manifest = desk_world["long_titled"]
    page = sign_in(browser, "edna")
    page.set_viewport_size({"width": 1280, "height": 900})
    first_cite_row(page, manifest)

    width = page.evaluate("() => document.documentElement.scrollWidth")
    shot(page, "story-page-1280-long-manifest-title")
    cites = page.locator("#sections-0-paragraphs-0-cites-group")
    cites.screenshot(path=str(ARTIFACTS / "cite-row-1280-long-manifest-title.png"))
    # The title wraps inside its row, whole, rather than being cut off or widening the page.
    rendered = cites.locator(".select2-selection__rendered").first
    assert rendered.evaluate("element => element.scrollWidth <= element.clientWidth")
    assert width <= 1280
