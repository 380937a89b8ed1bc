"""What readers get of a published story, rendered once from its frozen desk/1 document.

``render_artifacts`` is the renderer that ``settings.STORY_ARTIFACT_RENDERER`` names: the
stories room calls it when the publish gate freezes a version, when a correction or a
retraction changes the live one, and when something a page shows changes (a manifest's title
or claim text, a newsroom or beat title, a new render format at a release). A reader's request
then reads the stored page: no rendering, no joins.
"""

from __future__ import annotations

from typing import Any

from django.template.loader import render_to_string

from newsroom.context_processors import site
from stories.services import Artifacts

from .pages import StoryPage, story_markdown, story_search_text

# Raised whenever what the renderer writes changes shape, so that `manage.py rerender`
# (run at each release) renders every stored version again.
RENDER_FORMAT = 2

STORY_TEMPLATE = "public/story_detail.html"
WITHDRAWN_TEMPLATE = "stories/withdrawn.html"


def page_templates(document: dict[str, Any]) -> list[str]:
    """Per-object override, as flatpages does: a template for this story, else for its
    newsroom, else the default."""
    newsroom, slug = document["newsroom"], document["slug"]
    return [f"stories/story/{newsroom}/{slug}.html", f"stories/story/{newsroom}.html", STORY_TEMPLATE]


def render_story_page(page: StoryPage) -> str:
    # No request: a page is rendered for every reader at once, so it depends on nobody's session.
    context = {**site(None), "page": page, "document": page.document}
    return render_to_string(page_templates(page.document), context)


def render_withdrawn_page() -> str:
    return render_to_string(WITHDRAWN_TEMPLATE, site(None))


def render_artifacts(document: dict[str, Any], *, withdrawn: bool = False) -> Artifacts:
    """The page's HTML, the Markdown twin and the search text of a published document; for a
    withdrawn story, the withdrawn notice and nothing to search."""
    if withdrawn:
        return Artifacts(page_html=render_withdrawn_page(), markdown="", search_text="", render_format=RENDER_FORMAT)
    page = StoryPage(document)
    return Artifacts(
        page_html=render_story_page(page),
        markdown=story_markdown(page),
        search_text=story_search_text(document),
        render_format=RENDER_FORMAT,
    )


# The format it renders in, for ``manage.py rerender`` (which reaches the renderer through settings).
render_artifacts.render_format = RENDER_FORMAT


def render_preview(document: dict[str, Any], *, status_text: str) -> str:
    """An editor's preview of a working copy, exactly as readers would get it, marked as such."""
    return render_story_page(StoryPage(document, preview=True, status_text=status_text))
