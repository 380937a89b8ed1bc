"""Browser fixtures: Debian chromium driven by Playwright, axe-core from npm, screenshots.

Playwright's sync API keeps an event loop running in this thread while a browser is open,
and Django refuses database calls from a thread with a running loop. So the page fixture
is set up after the database fixtures and torn down before them, and tests create their
data before asking for a page.
"""

from __future__ import annotations

import subprocess
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import skip_or_fail
from tests.site.conftest import demo, empty_page_cache  # noqa: F401  (shared fixtures)
from tests.workflow.conftest import eager  # noqa: F401  (tasks run in the live server's thread)

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts" / "screenshots"
AXE_SH = Path(__file__).with_name("axe.sh")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 390, "height": 844}


@pytest.fixture(scope="session")
def axe_source() -> str:
    """axe-core's source, installed from npm at the pinned version on first use."""
    try:
        result = subprocess.run(["sh", str(AXE_SH)], check=True, capture_output=True, text=True, timeout=300)
    except (OSError, subprocess.SubprocessError) as error:
        skip_or_fail(f"axe-core could not be installed from npm ({error})")
    return Path(result.stdout.strip()).read_text()


@dataclass
class Browser:
    """One chromium for one test; records what would make a reader's page fail."""

    playwright: Any
    chromium: Any
    base_url: str
    console_errors: list[str] = field(default_factory=list)
    dialogs: list[str] = field(default_factory=list)

    def page(self, viewport: dict[str, int] = DESKTOP, **context: Any) -> Any:
        page = self.chromium.new_context(viewport=viewport, **context).new_page()
        page.on("console", lambda message: message.type == "error" and self.console_errors.append(message.text))
        page.on("pageerror", lambda error: self.console_errors.append(f"page error: {error}"))

        def on_dialog(dialog: Any) -> None:
            self.dialogs.append(dialog.message)
            dialog.dismiss()

        page.on("dialog", on_dialog)
        return page

    def url(self, path: str) -> str:
        return self.base_url + path


@pytest.fixture
def browser(require_chromium, transactional_db, live_server, settings) -> Iterator[Browser]:
    # Links on pages point at the server the browser talks to.
    settings.SITE_URL = live_server.url
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=require_chromium, args=CHROMIUM_ARGS)
        try:
            yield Browser(playwright, chromium, live_server.url)
        finally:
            chromium.close()


def screenshot(page: Any, name: str) -> Path:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    return path


def axe_violations(page: Any, axe_source: str) -> list[dict[str, Any]]:
    """axe-core's serious and critical violations on the page as it is now."""
    page.evaluate(axe_source)
    results = page.evaluate("async () => await axe.run(document, {resultTypes: ['violations']})")
    return [
        {
            "id": violation["id"],
            "impact": violation["impact"],
            "help": violation["help"],
            "nodes": [node["target"] for node in violation["nodes"]][:5],
        }
        for violation in results["violations"]
        if violation["impact"] in ("serious", "critical")
    ]
