"""Hypothesis strategies for desk/1 stories, with the derived keys computed independently.

The derived keys are worked out here from DESIGN.md's rules, not by calling the code under
test, so a round trip proves the exporter follows the rules as well as that it is lossless.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from hypothesis import strategies as st

SITE_URL = "https://hangingcontext.com"

# Every script: letters, marks, numbers, punctuation, symbols and spaces, but no surrogates
# (JSON text cannot carry them) and no control characters or bidirectional overrides (refused
# by the importer, tested in tests/hardening/test_clean_text.py).
REFUSED = "".join(map(chr, [*range(0x202A, 0x202F), *range(0x2066, 0x206A)]))
any_text = st.text(
    st.characters(codec="utf-8", exclude_categories=["Cs", "Cc"], exclude_characters=REFUSED),
    max_size=60,
)
scripts = st.sampled_from(
    [
        "Καλημέρα κόσμε",
        "Здравствуй, мир",
        "مرحبا بالعالم",
        "שלום עולם",
        "नमस्ते दुनिया",
        "你好，世界",  # noqa: RUF001
        "こんにちは世界",
        "안녕하세요 세계",
        "สวัสดีชาวโลก",
        "Olá, mundo — «citação» ‘x’",  # noqa: RUF001
        "👩🏽‍🔬 emoji 🧪 ZWJ",
        "e\u0301 combining",
    ]
)
markdown = st.sampled_from(
    [
        "Plain paragraph with a [link](https://example.org/a?b=c&d=e).",
        "- item one\n- item two\n  - nested",
        "1. first\n2. second",
        "```python\nprint('hi')\n```",
        "Inline `code`, **bold**, _em_ and a ![picture](https://example.org/p.png).",
        "> a quote\n\nand a line",
        "| a | b |\n|---|---|\n| 1 | 2 |",
        "<script>alert(1)</script> stays text",
        "",
    ]
)
paragraph = st.one_of(any_text, scripts, markdown, st.builds(" ".join, st.lists(scripts, max_size=3)))
# Every field but a paragraph is one line: markdown's line breaks there are refused at the door.
prose = paragraph.map(lambda text: " ".join(text.split("\n")))
slug = st.from_regex(r"\A[a-z0-9]{1,8}(-[a-z0-9]{1,8}){0,3}\Z")
opaque_id = st.from_regex(r"\A[0-9A-Za-z._:-]{1,24}\Z")
utc_time = st.datetimes(min_value=dt.datetime(2000, 1, 1), max_value=dt.datetime(2099, 12, 31)).map(
    lambda value: value.strftime("%Y-%m-%dT%H:%M:%SZ")
)
url = st.builds(lambda path: f"https://example.org/{path}", slug)


def ordered(**fields: st.SearchStrategy) -> st.SearchStrategy[dict[str, Any]]:
    """A dict with exactly these keys in this order (key order is part of the format)."""
    return st.tuples(*fields.values()).map(lambda values: dict(zip(fields, values, strict=True)))


def cite_of(manifest_ids: list[str]) -> st.SearchStrategy[dict[str, Any]]:
    return ordered(manifest_id=st.sampled_from(manifest_ids), claim_ids=st.lists(opaque_id, max_size=4))


@st.composite
def documents(draw: st.DrawFn, *, published: bool | None = None) -> dict[str, Any]:
    """A valid desk/1 story, optional keys present or absent, derived keys consistent."""
    manifest_pool = draw(st.lists(opaque_id, min_size=1, max_size=6, unique=True))
    cites = st.lists(cite_of(manifest_pool), max_size=4)
    newsroom = draw(slug)
    edition_time = draw(utc_time)
    is_published = draw(st.booleans()) if published is None else published
    published_at = draw(utc_time) if is_published else None
    dateline = (published_at or edition_time)[:10]
    story_slug = draw(slug)
    story_url = f"{SITE_URL}/stories/{dateline}/{story_slug}/"
    newsroom_title = draw(
        st.one_of(
            scripts,
            st.text(
                st.characters(codec="utf-8", exclude_categories=["Cs", "Cc"], exclude_characters=REFUSED),
                min_size=1,
                max_size=30,
            ),
        )
    )

    doc: dict[str, Any] = {
        "schema": "hangingcontext.desk/1",
        "type": "story",
        "id": str(draw(st.integers(min_value=0, max_value=10**17))),
        "slug": story_slug,
        "edition": edition_time[:13],
        "url": story_url,
        "newsroom": newsroom,
        "beat": draw(slug),
        "newsroom_title": newsroom_title,
    }
    if draw(st.booleans()):
        doc["audience"] = draw(st.one_of(st.just(""), st.from_regex(r"\A[a-z_]{1,20}\Z")))
    doc |= {"angle": draw(prose), "headline": draw(prose.filter(bool)), "dek": draw(prose)}
    if published_at:
        doc["published_at"] = published_at
    trust = draw(st.sampled_from(["reported", "confirmed"]))
    key_facts = draw(st.lists(ordered(text=prose, self_reported=st.booleans(), cites=cites), max_size=4))
    sections = draw(
        st.lists(
            ordered(heading=prose, paragraphs=st.lists(ordered(markdown=paragraph, cites=cites), max_size=4)),
            max_size=5,
        )
    )
    # Repeated cites of one manifest in one paragraph must stay apart and in order.
    if sections and sections[0]["paragraphs"] and draw(st.booleans()):
        repeated = manifest_pool[0]
        sections[0]["paragraphs"][0]["cites"] += [
            {"manifest_id": repeated, "claim_ids": ["a"]},
            {"manifest_id": repeated, "claim_ids": ["b", "c"]},
        ]
    all_cites = [c for fact in key_facts for c in fact["cites"]] + [
        c for section in sections for paragraph in section["paragraphs"] for c in paragraph["cites"]
    ]
    cited = list(dict.fromkeys(c["manifest_id"] for c in all_cites))
    manifests = [
        {
            "manifest_id": manifest_id,
            "title": draw(prose),
            "source_name": draw(st.sampled_from(["pub-a", "pub-b", "pub-c", "Ünïcode publisher"])),
            "source_url": draw(st.one_of(st.just(""), url)),
            "published_date": draw(st.one_of(st.none(), utc_time.map(lambda t: t[:10]))),
        }
        for manifest_id in cited
    ]
    count = len(cited)
    doc["labels"] = {
        "trust": trust,
        "trust_text": f"{trust.capitalize()} · {count} {'source' if count == 1 else 'sources'}",
        "newsroom": newsroom_title,
    }
    doc["source_count"] = count
    doc["publishers"] = sorted({m["source_name"] for m in manifests})
    doc["key_facts"] = key_facts

    def optional(key: str, strategy: st.SearchStrategy) -> None:
        # Absent, present and empty, or present with items.
        choice = draw(st.sampled_from(["absent", "empty", "full"]))
        if choice == "empty":
            doc[key] = draw(strategy.map(lambda v: {k: [] for k in v} if isinstance(v, dict) else []))
        elif choice == "full":
            doc[key] = draw(strategy)

    optional(
        "images",
        st.lists(ordered(url=url, alt=prose, caption=prose, credit=any_text), max_size=3),
    )
    doc["sections"] = sections
    optional("unresolved", st.lists(prose, min_size=1, max_size=3))
    optional(
        "decision_card",
        ordered(
            useful_for=st.lists(prose, min_size=1, max_size=3),
            not_for=st.lists(prose, max_size=3),
            compare_against=st.lists(prose, max_size=3),
        ),
    )
    if draw(st.booleans()):
        doc["writer"] = {"agent": draw(slug), "run_id": draw(st.one_of(st.just(""), any_text))}
    optional("corrections", st.lists(ordered(published_at=utc_time, text=prose.filter(bool)), min_size=1, max_size=3))
    doc["cited_manifest_ids"] = cited
    doc["manifests"] = manifests
    if draw(st.booleans()) or not published_at:
        template = "https://api.example.org/manifests/by-id/{manifest_id}"
        curl = 'curl -s -H "Authorization: Bearer $KEY"'
        doc["run_these_manifests"] = {
            "title": draw(prose),
            "summary": draw(prose),
            "manifest_ids": cited,
            "steps": [{"n": 1, "title": draw(prose), "text": draw(prose)}],
            "mcp_url": "https://mcp.example.org/mcp",
            "connect_url": "https://example.org/connect",
            "request": {"method": "GET", "url_template": template, "headers": {"Authorization": "Bearer <KEY>"}},
            "commands": {
                "one": f"{curl} {template.replace('{manifest_id}', cited[0])}" if cited else "",
                "all": (
                    f'for id in {" ".join(cited)}; do\n  {curl} "{template.replace("{manifest_id}", "$id")}"\ndone'
                    if cited
                    else ""
                ),
            },
        }
    doc["links"] = {
        "html": story_url,
        "json": story_url + "index.json",
        "markdown": story_url + "index.md",
        "newsroom": f"{SITE_URL}/n/{newsroom}/",
        "edition": f"{SITE_URL}/editions/{doc['edition']}/",
    }
    optional("related", st.lists(ordered(url=url, headline=prose, slug=slug), min_size=1, max_size=3))
    if draw(st.booleans()) or not published_at:
        doc["sponsor"] = {
            "label": draw(prose),
            "title": draw(prose),
            "text": draw(prose),
            "cta": {"label": draw(prose), "url": draw(url)},
            "note": draw(prose),
        }
    if draw(st.booleans()) or not published_at:
        doc["disclosure"] = draw(prose)
    if draw(st.booleans()) or not published_at:
        doc["reuse"] = {
            "version": draw(st.from_regex(r"\A[0-9]{1,3}\Z")),
            "summary": draw(prose),
            "attribution": draw(prose),
            "link_rule": draw(prose),
            "keep_ids_rule": draw(prose),
            "no_endorsement": draw(prose),
            "license_url": f"{SITE_URL}/terms/reuse/",
            "machine_url": f"{SITE_URL}/.well-known/reuse.json",
            "canonical_url": story_url,
        }
    return doc
