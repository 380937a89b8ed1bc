"""The readable diff between two desk/1 documents: labelled lines, escaped, nothing when equal."""

from __future__ import annotations

import copy

from stories.diffing import document_diff, document_diff_lines, flatten_document
from tests.stories.helpers import seed


def test_a_changed_paragraph_shows_as_one_removed_and_one_added_line():
    old = seed()
    new = copy.deepcopy(old)
    before = old["sections"][1]["paragraphs"][0]["markdown"]
    new["sections"][1]["paragraphs"][0]["markdown"] = "A rewritten second-section paragraph."

    lines = document_diff_lines(old, new)

    assert f"-  Paragraph 2.1: {before.splitlines()[0]}" in lines
    assert "+  Paragraph 2.1: A rewritten second-section paragraph." in lines
    changed = [line for line in lines[2:] if line[:1] in "+-"]
    assert len(changed) == len(before.splitlines()) + 1


def test_a_changed_cite_and_headline_are_named_in_an_editor_s_words():
    old = seed()
    new = copy.deepcopy(old)
    new["headline"] = "A new headline"
    new["key_facts"][0]["cites"][0]["claim_ids"] = ["c-999"]

    lines = document_diff_lines(old, new)

    assert "+Headline: A new headline" in lines
    assert any(line.startswith("+  Cite: manifest ") and line.endswith("claims c-999") for line in lines)


def test_the_html_diff_escapes_document_text():
    old = seed()
    new = copy.deepcopy(old)
    new["dek"] = '<script>alert("x")</script>'

    html = str(document_diff(old, new))

    assert "<script>" not in html
    assert "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;" in html
    assert 'class="desk-diff-added"' in html
    assert 'class="desk-diff-removed"' in html


def test_equal_documents_have_no_diff_and_derived_keys_do_not_count():
    old = seed()
    new = copy.deepcopy(old)
    new["url"] = "https://elsewhere.example/"
    new["source_count"] = 99

    assert document_diff_lines(old, new) == []
    assert "Nothing written differs" in str(document_diff(old, new))


def test_the_flattening_numbers_sections_and_paragraphs_from_one():
    lines = flatten_document(seed())

    assert lines[0].startswith("Headline: ")
    assert any(line.startswith("Section 1: ") for line in lines)
    assert any(line.startswith("  Paragraph 1.1: ") for line in lines)
    assert flatten_document(None) == []
