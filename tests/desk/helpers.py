"""Build the story page's POST as a browser sends it: the page's own fields, plus rows added."""

from __future__ import annotations

import re
from html import unescape
from typing import Any

from django.urls import reverse

from tests.publishing.forms import form_fields


def story_url(story: Any = None, *, rows: bool = True) -> str:
    """The story's page (the add page for none); as rows, the editor these helpers fill, or in
    the one-text mode, the page's default."""
    if story is None:
        url = reverse("admin:stories_story_add")
    else:
        url = reverse("admin:stories_story_change", args=[story.pk])
    return f"{url}?mode=rows" if rows else url


def page_fields(client: Any, url: str) -> dict[str, Any]:
    page = client.get(url)
    assert page.status_code == 200, (url, page.status_code)
    return form_fields(page.content.decode())


def management(data: dict[str, Any], prefix: str, total: int, initial: int = 0) -> None:
    data[f"{prefix}-TOTAL_FORMS"] = str(total)
    data[f"{prefix}-INITIAL_FORMS"] = str(initial)
    data[f"{prefix}-MIN_NUM_FORMS"] = "0"
    data[f"{prefix}-MAX_NUM_FORMS"] = "1000"


def add_cites(data: dict[str, Any], prefix: str, cites: list[tuple[str, Any]], *, start: int = 0) -> None:
    """New cites under ``prefix`` (e.g. ``sections-0-paragraphs-1-cites``): (manifest id, claim ids)."""
    management(data, prefix, start + len(cites), start)
    for index, (manifest_id, claim_ids) in enumerate(cites, start):
        data[f"{prefix}-{index}-position"] = str(index)
        data[f"{prefix}-{index}-manifest_id"] = manifest_id
        data[f"{prefix}-{index}-claim_ids"] = claim_ids


def new_story(
    fields: dict[str, Any],
    *,
    newsroom: Any,
    beat: Any,
    edition: str,
    headline: str,
    sections: list[tuple[str, list[tuple[str, list[tuple[str, Any]]]]]],
    key_facts: list[tuple[str, list[tuple[str, Any]]]] = (),
    **extra: Any,
) -> dict[str, Any]:
    """The add page's fields filled in: sections of (heading, [(markdown, cites)])."""
    data = dict(fields)
    data.update(
        {
            "headline": headline,
            "slug": extra.pop("slug", headline.lower().replace(" ", "-")[:50]),
            "newsroom": str(newsroom.pk),
            "beat": str(beat.pk),
            "edition": edition,
            "angle": "An angle.",
            "_save": "Save",
            **extra,
        }
    )
    management(data, "key_facts", len(key_facts))
    for index, (text, cites) in enumerate(key_facts):
        data[f"key_facts-{index}-position"] = str(index)
        data[f"key_facts-{index}-text"] = text
        add_cites(data, f"key_facts-{index}-cites", cites)
    management(data, "sections", len(sections))
    for s_index, (heading, paragraphs) in enumerate(sections):
        data[f"sections-{s_index}-position"] = str(s_index)
        data[f"sections-{s_index}-heading"] = heading
        management(data, f"sections-{s_index}-paragraphs", len(paragraphs))
        for p_index, (markdown, cites) in enumerate(paragraphs):
            prefix = f"sections-{s_index}-paragraphs-{p_index}"
            data[f"{prefix}-position"] = str(p_index)
            data[f"{prefix}-markdown"] = markdown
            add_cites(data, f"{prefix}-cites", cites)
    return data


def errors_of(response: Any) -> list[str]:
    """Every error message the page shows (form, inline and nested inline errors alike)."""
    html = response.content.decode()
    lists = re.findall(r'<ul class="errorlist[^"]*"[^>]*>(.*?)</ul>', html, flags=re.S)
    notes = re.findall(r'<p class="errornote">(.*?)</p>', html, flags=re.S)
    items = [item for block in lists for item in re.findall(r"<li>(.*?)</li>", block, flags=re.S)]
    return [unescape(re.sub(r"<[^>]+>", "", text)).strip() for text in notes + items]
