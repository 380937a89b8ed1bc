"""Each story has two machine-readable twins: desk/1 JSON and Markdown."""

from __future__ import annotations

import json

import pytest

from stories.services import story_add_correction

from .conftest import AGENTIC, TRAINING, seed


@pytest.mark.parametrize(("path", "name"), [(TRAINING, "agent-training-stack"), (AGENTIC, "agentic-rl-production")])
def test_json_twin_is_the_desk_export_and_gives_back_the_seed(client, demo, path, name):
    response = client.get(path + "index.json")

    assert response.status_code == 200
    assert response["Content-Type"] == "application/json"
    assert json.loads(response.content) == seed(name)
    assert list(json.loads(response.content)) == list(seed(name))


@pytest.mark.parametrize("form", ["", "index.json", "index.md"])
def test_the_three_forms_of_a_story_link_to_each_other(client, demo, form):
    url = seed("agent-training-stack")["url"]

    link = client.get(TRAINING + form)["Link"]

    assert f'<{url}>; rel="canonical"; type="text/html"' in link
    assert f'<{url}index.json>; rel="alternate"; type="application/json"' in link
    assert f'<{url}index.md>; rel="alternate"; type="text/markdown"' in link


def front_matter(text: str) -> dict:
    lines = text.split("\n")
    assert lines[0] == "---"
    end = lines.index("---", 1)
    return {key: json.loads(value) for key, value in (line.split(": ", 1) for line in lines[1:end])}


def test_markdown_twin_has_front_matter_with_id_url_edition_trust_and_sources(client, demo):
    document = seed("agentic-rl-production")
    response = client.get(AGENTIC + "index.md")

    assert response["Content-Type"] == "text/markdown; charset=utf-8"
    front = front_matter(response.content.decode())
    assert front["id"] == document["id"]
    assert front["url"] == document["url"]
    assert front["edition"] == document["edition"]
    assert front["trust"] == "confirmed"
    assert front["trust_text"] == "Confirmed · 5 sources"
    assert front["sources"] == 5
    assert front["cited_manifest_ids"] == document["cited_manifest_ids"]


def test_markdown_twin_reads_as_the_whole_page_with_citation_markers(client, demo):
    document = seed("agent-training-stack")
    text = client.get(TRAINING + "index.md").content.decode()

    assert f"\n# {document['headline']}\n" in text
    assert document["dek"] in text
    for section in document["sections"]:
        assert f"\n## {section['heading']}\n" in text
        for paragraph in section["paragraphs"]:
            cites = " ".join(
                f"[M{document['cited_manifest_ids'].index(c['manifest_id']) + 1}: {', '.join(c['claim_ids'])}]"
                for c in paragraph["cites"]
            )
            assert f"{paragraph['markdown']} {cites}" in text
    for fact in document["key_facts"]:
        assert fact["text"] in text
    for question in document["unresolved"]:
        assert f"- {question}" in text
    for texts in document["decision_card"].values():
        for item in texts:
            assert f"- {item}" in text
    for number, manifest in enumerate(document["manifests"], start=1):
        assert f"- [M{number}] {manifest['title']}" in text
        assert f"<{manifest['source_url']}>" in text
    assert document["run_these_manifests"]["commands"]["one"] in text
    assert "## Reuse" in text
    assert document["reuse"]["attribution"] in text
    assert "## Corrections" not in text


def test_markdown_twin_lists_corrections_before_the_key_facts(client, demo, admin_user):
    story_add_correction(story=demo["agent-training-stack"], text="A benchmark name was wrong.", user=admin_user)

    text = client.get(TRAINING + "index.md").content.decode()

    assert "A benchmark name was wrong." in text
    assert text.index("## Corrections") < text.index("## Key facts")
