"""What a reader sees in a real browser: each page type of the demo site, with no console
error, no serious or critical axe-core violation, and screenshots at desktop and phone width."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from .conftest import DESKTOP, PHONE, axe_violations, screenshot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SEEDS = Path(__file__).resolve().parents[2] / "stories" / "fixtures" / "seeds"
TRAINING = "/stories/2026-10-16/agent-training-stack/"
AGENTIC = "/stories/2026-10-20/agentic-rl-production/"
PAGES = {
    "home": "/",
    "story-training": TRAINING,
    "story-agentic": AGENTIC,
    "newsroom": "/n/artificial-intelligence/",
    "beat": "/n/artificial-intelligence/research/",
    "edition": "/editions/2026-10-20T00/",
    "search": "/search/?q=verifier",
    "reuse-terms": "/terms/reuse/",
}


def test_every_page_type_is_accessible_error_free_and_screenshotted(demo, browser, axe_source):
    problems = {}
    for name, path in PAGES.items():
        for width, viewport in (("desktop", DESKTOP), ("phone", PHONE)):
            page = browser.page(viewport)
            response = page.goto(browser.url(path))
            assert response.status == 200, path
            screenshot(page, f"{name}-{width}")
            violations = axe_violations(page, axe_source)
            if violations:
                problems[f"{name} ({width})"] = violations
            # Nothing may be wider than a phone's screen: no sideways scrolling to read.
            overflow = page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
            assert overflow <= 0, f"{path} scrolls sideways by {overflow}px at {width} width"
            page.context.close()

    assert problems == {}
    assert browser.console_errors == []


def test_the_404_page_is_friendly_and_accessible(demo, browser, axe_source):
    page = browser.page()

    response = page.goto(browser.url("/stories/2026-10-16/not-a-story/"))

    assert response.status == 404
    assert page.get_by_role("heading", level=1).inner_text() == "We couldn\u2019t find that page"
    assert page.get_by_role("link", name="Read the latest stories").is_visible()
    screenshot(page, "not-found-desktop")
    assert axe_violations(page, axe_source) == []
    # The browser reports the 404 status of the document itself; nothing else may fail.
    assert [error for error in browser.console_errors if "404" not in error] == []


@pytest.mark.parametrize(
    ("path", "seed_name"), [(TRAINING, "agent-training-stack"), (AGENTIC, "agentic-rl-production")]
)
def test_a_reader_sees_every_heading_paragraph_key_fact_and_ledger_entry(demo, browser, path, seed_name):
    document = json.loads((SEEDS / f"{seed_name}.json").read_text())
    page = browser.page(PHONE)
    page.goto(browser.url(path))

    assert page.get_by_role("heading", level=1).inner_text() == document["headline"]
    for section in document["sections"]:
        assert page.get_by_role("heading", level=2, name=section["heading"], exact=True).is_visible()
        for paragraph in section["paragraphs"]:
            assert page.get_by_text(paragraph["markdown"], exact=True).is_visible()
    for fact in document["key_facts"]:
        assert page.get_by_text(fact["text"], exact=True).is_visible()
    for manifest in document["manifests"]:
        entry = page.locator(f"#manifest-{manifest['manifest_id']}")
        assert entry.is_visible()
        assert entry.get_by_role("link", name=manifest["title"]).get_attribute("href") == manifest["source_url"]
    assert page.get_by_text(document["labels"]["trust_text"]).first.is_visible()
    assert page.get_by_role("complementary").filter(has_text="Advertisement").is_visible()
    assert browser.console_errors == []


def test_claims_open_without_javascript(demo, browser):
    page = browser.page(DESKTOP, java_script_enabled=False)
    page.goto(browser.url(TRAINING))
    claims = page.locator(".paragraph details").first
    claim_text = claims.locator("li").first

    assert not claim_text.is_visible()
    claims.locator("summary").click()
    assert claim_text.is_visible()
    assert "Invisible Technologies" in claim_text.inner_text()

    # The cite's manifest link leads to its entry in the ledger on the same page.
    page.locator(".paragraph .cite-link").first.click()
    assert page.url.endswith("#manifest-1792067182956183080")
    assert page.locator("#manifest-1792067182956183080").is_visible()


def test_keyboard_focus_is_visible(demo, browser):
    page = browser.page()
    page.goto(browser.url(TRAINING))

    page.keyboard.press("Tab")
    focused = page.evaluate(
        "() => { const s = getComputedStyle(document.activeElement);"
        " return [document.activeElement.textContent.trim(), s.outlineStyle, parseFloat(s.outlineWidth)]; }"
    )

    assert focused[0] == "Skip to content"
    assert focused[1] == "solid"
    assert focused[2] >= 2


def test_print_shows_the_story_without_navigation_or_ads(demo, browser):
    page = browser.page()
    page.goto(browser.url(AGENTIC))
    page.emulate_media(media="print")

    assert page.get_by_role("heading", level=1).is_visible()
    assert not page.locator(".site-nav").is_visible()
    assert not page.locator(".sponsor").is_visible()
    assert page.locator(".ledger").is_visible()
    screenshot(page, "story-print")
