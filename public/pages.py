"""What the public pages show, worked out from published documents and listing rows.

A story page and its Markdown twin are rendered from the story's frozen desk/1 document once,
when it is published (``public.artifacts``), never per request: ``StoryPage`` arranges the
document for the template (citations with their claims, the ledger, JSON-LD), and
``story_markdown`` writes the twin. Listings and their JSON twins summarise published versions.
"""

from __future__ import annotations

import json
import re
from datetime import date, datetime
from typing import Any

from django.conf import settings
from django.core.paginator import EmptyPage, PageNotAnInteger, Paginator
from django.core.paginator import Page as PaginatorPage
from django.db.models import QuerySet
from django.http import Http404, HttpRequest
from django.urls import reverse
from django.utils import timezone
from django.utils.safestring import SafeString

from manifests.models import Claim, Manifest
from newsroom.models import Beat
from stories import desk
from stories.labels import Shown
from stories.models import PublishedVersion

from .markup import has_unsafe_links, http_url, render_markdown, without_headings

PAGE_SIZE = 20
# JSON twins are written as the seeds are: UTF-8 characters kept, two-space indent.
JSON_PARAMS = {"ensure_ascii": False, "indent": 2}

MONTH_NAMES = (
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
)


def long_date(value: date) -> str:
    """'16 October 2026', in English whatever the server's locale (strftime's %B follows it)."""
    return f"{value.day} {MONTH_NAMES[value.month - 1]} {value.year}"


def human_time(value: datetime, *, with_time: bool = True) -> str:
    """'16 October 2026, 00:39' (or '16 October 2026') in the site's time zone (UTC)."""
    local = timezone.localtime(value)
    return f"{long_date(local)}, {local.hour:02}:{local.minute:02}" if with_time else long_date(local)


def iso_time(value: datetime) -> str:
    return timezone.localtime(value).isoformat()


# --- The story page ----------------------------------------------------------------------------


class StoryPage:
    """A desk/1 document arranged for its page and its Markdown twin.

    Reads the store for what the document names but does not hold: the claims' texts, whether
    a manifest's claims are illustrative, and the beat's title. ``preview`` marks an editor's
    view of a working copy."""

    def __init__(self, document: dict[str, Any], *, preview: bool = False, status_text: str = ""):
        self.document = document
        self.preview = preview
        self.status_text = status_text
        cited = document["cited_manifest_ids"]
        self.cited_manifest_ids = cited
        numbers = {manifest_id: number for number, manifest_id in enumerate(cited, start=1)}
        pairs = {(c["manifest_id"], claim_id) for _, c in desk.cites_in_order(document) for claim_id in c["claim_ids"]}
        texts = {
            (manifest_id, claim_id): text
            for manifest_id, claim_id, text in Claim.objects.filter(
                manifest__manifest_id__in=cited, claim_id__in={claim_id for _, claim_id in pairs}
            ).values_list("manifest__manifest_id", "claim_id", "text")
        }
        illustrative = set(
            Manifest.objects.filter(manifest_id__in=cited, is_illustrative=True).values_list("manifest_id", flat=True)
        )

        def links(cites: list[dict[str, Any]]) -> list[dict[str, Any]]:
            return [
                {
                    "manifest_id": cite["manifest_id"],
                    "number": numbers[cite["manifest_id"]],
                    "claims": [
                        {"claim_id": claim_id, "text": texts.get((cite["manifest_id"], claim_id))}
                        for claim_id in cite["claim_ids"]
                    ],
                }
                for cite in cites
            ]

        # What was checked on this version: a working copy's preview is not yet checked at all.
        self.shown = Shown.of(document)
        evidence = (lambda path: "") if preview else self.shown.evidence
        self.key_facts = [
            {**fact, "links": links(fact["cites"]), "evidence": evidence(f"key_facts[{index}]")}
            for index, fact in enumerate(document["key_facts"])
        ]
        self.sections = [
            {
                "heading": section["heading"],
                "anchor": f"section-{index + 1}",
                "paragraphs": [
                    {
                        "html": render_markdown(paragraph["markdown"]),
                        "links": links(paragraph["cites"]),
                        "evidence": evidence(f"sections[{index}].paragraphs[{number}]"),
                    }
                    for number, paragraph in enumerate(section["paragraphs"])
                ],
            }
            for index, section in enumerate(document["sections"])
        ]
        by_id = {entry["manifest_id"]: entry for entry in document["manifests"]}
        self.ledger = [
            {
                "number": number,
                "manifest_id": manifest_id,
                "manifest": by_id.get(manifest_id),
                "source_href": http_url(by_id[manifest_id]["source_url"]) if manifest_id in by_id else "",
                "date_text": _date_text(by_id.get(manifest_id)),
                "illustrative": manifest_id in illustrative,
            }
            for manifest_id, number in numbers.items()
        ]
        self.publishers = document["publishers"]
        self.unresolved = document.get("unresolved", [])
        card = document.get("decision_card", {})
        self.decision_card = [(kind.label, card.get(kind.value, [])) for kind in desk.DECISION_CARD_KINDS]
        self.decision_card = [(label, texts) for label, texts in self.decision_card if texts]
        self.corrections = [
            {"published_at": desk.parse_utc(item["published_at"]), "text": item["text"]}
            for item in document.get("corrections", [])
        ]
        self.related = [{**link, "href": http_url(link["url"])} for link in document.get("related", [])]
        self.images = [{**image, "src": http_url(image["url"])} for image in document.get("images", [])]
        self.run_guide = document.get("run_these_manifests")
        self.sponsor = document.get("sponsor")
        self.disclosure = document.get("disclosure")
        self.reuse = document.get("reuse")
        self.writer = document.get("writer")

        self.published_at = desk.parse_utc(document["published_at"]) if "published_at" in document else None
        self.published_iso = iso_time(self.published_at) if self.published_at else ""
        self.published_text = human_time(self.published_at) if self.published_at else ""
        self.trust = document["labels"]["trust"]
        self.trust_text = document["labels"]["trust_text"]
        self.newsroom_title = document["newsroom_title"]
        beat = Beat.objects.filter(newsroom__slug=document["newsroom"], slug=document["beat"]).first()
        self.beat_title = beat.title if beat else document["beat"]
        links_block = document["links"]
        self.url = links_block["html"]
        self.json_url = links_block["json"]
        self.markdown_url = links_block["markdown"]
        self.newsroom_url = links_block["newsroom"]
        self.edition_url = links_block["edition"]
        self.newsroom_path = reverse("newsroom", kwargs={"newsroom": document["newsroom"]})
        self.newsroom_rss = reverse("newsroom-rss", kwargs={"newsroom": document["newsroom"]})
        self.newsroom_atom = reverse("newsroom-atom", kwargs={"newsroom": document["newsroom"]})
        self.beat_path = reverse("beat", kwargs={"newsroom": document["newsroom"], "beat": document["beat"]})
        self.edition_path = reverse("edition", kwargs={"edition": document["edition"]})
        self.reuse_terms_url = settings.SITE_URL + reverse("reuse-terms")
        self.reuse_json_url = settings.SITE_URL + reverse("reuse-json")

    @property
    def modified_at(self) -> datetime | None:
        """When the story as readers see it last changed: publication or the last correction."""
        times = [correction["published_at"] for correction in self.corrections]
        if self.published_at:
            times.append(self.published_at)
        return max(times) if times else None

    @property
    def modified_iso(self) -> str:
        return iso_time(self.modified_at) if self.modified_at else ""

    @property
    def og_image(self) -> dict[str, Any] | None:
        return next((image for image in self.images if image["src"]), None)

    def json_ld(self) -> dict[str, Any]:
        """A schema.org NewsArticle, with the cited manifests as citations."""
        document = self.document
        data: dict[str, Any] = {
            "@context": "https://schema.org",
            "@type": "NewsArticle",
            "@id": self.url,
            "url": self.url,
            "mainEntityOfPage": self.url,
            "headline": document["headline"],
            "description": document["dek"],
            "inLanguage": "en",
            "isAccessibleForFree": True,
            "articleSection": self.beat_title,
            "author": {"@type": "Organization", "name": self.newsroom_title, "url": self.newsroom_url},
            "publisher": {"@type": "Organization", "name": settings.SITE_NAME, "url": settings.SITE_URL + "/"},
            "citation": [_citation(entry) for entry in self.ledger],
        }
        if self.modified_at:
            data["dateModified"] = desk.format_utc(self.modified_at)
        if self.published_at:
            data["datePublished"] = desk.format_utc(self.published_at)
        if self.images:
            data["image"] = [image["url"] for image in self.images]
        if self.corrections:
            data["correction"] = [
                {
                    "@type": "CorrectionComment",
                    "text": correction["text"],
                    "datePublished": desk.format_utc(correction["published_at"]),
                }
                for correction in self.corrections
            ]
        if self.reuse:
            data["license"] = self.reuse_terms_url
            data["creditText"] = self.reuse["attribution"]
        if not self.preview:
            # schema.org's word for how an article was made: here, what was checked on it.
            data["backstory"] = " ".join(filter(None, [self.shown.summary(), self.shown.notice_text()]))
        return data

    def json_ld_script(self) -> SafeString:
        return json_for_script(self.json_ld())


def _date_text(entry: dict[str, Any] | None) -> str:
    if not entry or not entry.get("published_date"):
        return ""
    return long_date(date.fromisoformat(entry["published_date"]))


def _citation(entry: dict[str, Any]) -> dict[str, Any]:
    citation: dict[str, Any] = {"@type": "CreativeWork", "identifier": entry["manifest_id"]}
    manifest = entry["manifest"]
    if manifest is not None:
        citation["name"] = manifest["title"]
        if manifest["source_url"]:
            citation["url"] = manifest["source_url"]
        citation["publisher"] = {"@type": "Organization", "name": manifest["source_name"]}
        if manifest["published_date"]:
            citation["datePublished"] = manifest["published_date"]
    return citation


def json_for_script(data: Any) -> SafeString:
    """JSON that is safe inside ``<script type="application/ld+json">``."""
    # In a <script> element only "</script" and "<!--" can end or bend the data early; escaping
    # these three characters as JSON \u escapes rules both out whatever a writer typed.
    text = json.dumps(data, ensure_ascii=False)
    return SafeString(text.replace("<", "\\u003C").replace(">", "\\u003E").replace("&", "\\u0026"))


# --- The Markdown twin -------------------------------------------------------------------------


def _one_line(text: str) -> str:
    # Headings and list items are single lines in Markdown; a stray newline would end them.
    return re.sub(r"\s+", " ", text).strip()


# The twin is read by Markdown renderers that pass raw HTML through (most do), so nothing a
# writer typed may reach one as a tag or an active link. Escaped, not stripped: the twin says
# what the page says, and the page shows "<script>" a writer typed as text.
_BLOCK_START = re.compile(r"^(?:[#>+*=|~`-]|(\d{1,9})([.)]))")
_ANGLE = re.compile("<")
_ANGLE_NOT_AUTOLINK = re.compile(r"<(?!(?:https?|mailto):[^\s<>]*>)", re.IGNORECASE)
_MARKDOWN_PUNCTUATION = re.compile(r"([!-/:-@\[-`{-~])")
_HREF_UNSAFE = str.maketrans({"<": "%3C", ">": "%3E", " ": "%20", '"': "%22", "(": "%28", ")": "%29", "\\": "%5C"})


def _no_tags(text: str, *, autolinks: bool = False) -> str:
    # "&lt;" is shown as "<" by every renderer and is never the start of a tag. In Markdown,
    # "<https://…>" is a link (the page makes it one) and cannot be a tag: ":" ends a tag name.
    return (_ANGLE_NOT_AUTOLINK if autolinks else _ANGLE).sub("&lt;", text)


def _text(value: object) -> str:
    """A plain-text field (shown as text on the page) as one line of inert Markdown: no tag,
    no link, and no line break or leading marker that would start a heading, list or quote."""
    line = _one_line(str(value))
    line = _no_tags(line.replace("\\", "\\\\").replace("[", "\\[").replace("]", "\\]"))
    return _BLOCK_START.sub(lambda m: f"{m[1]}\\{m[2]}" if m[1] else f"\\{m[0]}", line, count=1)


def _markdown(text: str) -> str:
    """A writer's Markdown (a paragraph, a guide step), kept as written where it is inert.

    Raw HTML is escaped; a link the page would not make (``javascript:``, an image, a reference
    definition: see ``has_unsafe_links``) has its brackets escaped, so it reads as the text the
    page shows instead."""
    text = without_headings(_no_tags(text.strip(), autolinks=True))
    if has_unsafe_links(text):
        text = text.replace("\\", "\\\\").replace("[", "\\[").replace("]", "\\]")
    if has_unsafe_links(text):  # no case known; if one exists, every mark is shown as typed
        text = _MARKDOWN_PUNCTUATION.sub(r"\\\1", text)
    return text


def _href(url: str) -> str:
    """An http(s) URL (from ``http_url``) that cannot end ``<…>`` or ``(…)`` early."""
    return url.translate(_HREF_UNSAFE)


def _front_value(value: Any) -> str:
    # JSON scalars are valid YAML, and they quote whatever a writer typed; "<" as a JSON escape,
    # for renderers that show front matter as text.
    return json.dumps(value, ensure_ascii=False).replace("<", "\\u003c")


def _markers(links: list[dict[str, Any]]) -> str:
    return " ".join(
        f"[M{link['number']}: {', '.join(_text(claim['claim_id']) for claim in link['claims'])}]" for link in links
    )


def _evidence(part: dict[str, Any]) -> str:
    return f" ({part['evidence']})" if part["evidence"] else ""


def story_markdown(page: StoryPage) -> str:
    """The whole story as readable Markdown with front matter; cites are ``[M1: claim ids]``."""
    document = page.document
    front = {
        "id": document["id"],
        "url": page.url,
        "json": page.json_url,
        "headline": document["headline"],
        "newsroom": document["newsroom"],
        "beat": document["beat"],
        "edition": document["edition"],
        "published_at": document.get("published_at"),
        "trust": page.trust,
        "trust_text": page.trust_text,
        "sources": len(page.cited_manifest_ids),
        "cited_manifest_ids": page.cited_manifest_ids,
    }
    if not page.preview:
        front["verification"] = page.shown.state
    out = ["---", *(f"{key}: {_front_value(value)}" for key, value in front.items()), "---", ""]
    out += [f"# {_text(document['headline'])}", ""]
    if document["dek"]:
        out += [_text(document["dek"]), ""]
    byline = [page.newsroom_title, page.beat_title, page.trust_text, f"Edition {document['edition']}"]
    if page.published_at:
        byline.append(f"Published {page.published_at:%Y-%m-%d %H:%M} UTC")
    out += [_text(" · ".join(byline)), ""]
    if not page.preview:
        out += [f"**{_text(page.shown.title)}.** {_text(page.shown.summary())}", ""]
        if page.shown.notice:
            out += [f"**Notice.** {_text(page.shown.notice_text())}", ""]
    if page.corrections:
        out += ["## Corrections", ""]
        out += [f"- {c['published_at']:%Y-%m-%d %H:%M} UTC: {_text(c['text'])}" for c in page.corrections] + [""]
    if page.key_facts:
        out += ["## Key facts", ""]
        for fact in page.key_facts:
            note = " (self-reported)" if fact["self_reported"] else ""
            out.append(f"- {_text(fact['text'])}{note} {_markers(fact['links'])}{_evidence(fact)}".rstrip())
        out.append("")
    for section, source in zip(page.sections, document["sections"], strict=True):
        out += [f"## {_text(section['heading'])}", ""]
        for item, paragraph in zip(section["paragraphs"], source["paragraphs"], strict=True):
            out += [f"{_markdown(paragraph['markdown'])} {_markers(item['links'])}{_evidence(item)}".rstrip(), ""]
    if page.unresolved:
        out += ["## Unresolved", ""] + [f"- {_text(text)}" for text in page.unresolved] + [""]
    if page.decision_card:
        out += ["## Decision card", ""]
        for label, texts in page.decision_card:
            out += [f"### {label}", ""] + [f"- {_text(text)}" for text in texts] + [""]
    if page.ledger:
        out += ["## Manifests", ""]
        for entry in page.ledger:
            manifest = entry["manifest"]
            if manifest is None:
                out.append(f"- [M{entry['number']}] Manifest {_text(entry['manifest_id'])} (not in the store)")
                continue
            parts = [f"- [M{entry['number']}] {_text(manifest['title'])}", _text(manifest["source_name"])]
            if manifest["published_date"]:
                parts.append(_text(manifest["published_date"]))
            parts.append(f"manifest {_text(entry['manifest_id'])}")
            if entry["source_href"]:
                parts.append(f"<{_href(entry['source_href'])}>")
            out.append(" · ".join(parts))
        out.append("")
    guide = page.run_guide
    if guide and guide.get("commands"):
        out += [f"## {_text(guide['title'])}", "", _text(guide["summary"]), ""]
        out += [
            f"{step['n']}. **{_text(step['title'])}**: {_markdown(_one_line(step['text']))}" for step in guide["steps"]
        ]
        commands = guide["commands"]
        out += ["", "```sh", commands["one"], "```", "", "```sh", commands["all"], "```", ""]
    if page.writer and page.writer.get("agent"):
        out += ["## Writer", "", _text(f"{page.writer['agent']} (run {page.writer['run_id']})"), ""]
    if page.related:
        out += ["## Related", ""]
        for link in page.related:
            headline = _text(link["headline"])
            out.append(f"- [{headline}]({_href(link['href'])})" if link["href"] else f"- {headline}")
        out.append("")
    if page.disclosure:
        out += ["## Disclosure", "", _text(page.disclosure), ""]
    if page.reuse:
        terms = page.reuse
        out += ["## Reuse", "", _text(terms["summary"]), ""]
        out += [
            f"- Credit: {_text(terms['attribution'])}",
            f"- Canonical URL: <{_href(page.url)}>",
            f"- Terms: <{_href(page.reuse_terms_url)}>",
            "",
        ]
    return "\n".join(out)


def story_search_text(document: dict[str, Any]) -> str:
    """What search reads of a story: its headline, dek, angle, key facts, headings and paragraphs."""
    texts = [document["headline"], document["dek"], document["angle"]]
    texts += [fact["text"] for fact in document["key_facts"]]
    for section in document["sections"]:
        texts.append(section["heading"])
        texts += [paragraph["markdown"] for paragraph in section["paragraphs"]]
    return "\n".join(texts)


# --- Listings ----------------------------------------------------------------------------------


def live_listed() -> QuerySet[PublishedVersion]:
    """Live versions ready for a listing, newest first."""
    return PublishedVersion.objects.live().listed()


def paginate(request: HttpRequest, items: QuerySet, per_page: int = PAGE_SIZE) -> PaginatorPage:
    """The requested ``?page=``; a page that is not there is a 404, never a silent page 1."""
    try:
        return Paginator(items, per_page).page(request.GET.get("page", 1))
    except (EmptyPage, PageNotAnInteger):
        raise Http404("No such page") from None


def absolute(path: str) -> str:
    return settings.SITE_URL + path


def story_summary(story: PublishedVersion) -> dict[str, Any]:
    """One story in a listing's JSON twin (a ``listed()`` version)."""
    url = story.absolute_url()
    return {
        "id": str(story.desk_id),
        "slug": story.slug,
        "url": url,
        "headline": story.headline,
        "dek": story.dek,
        "published_at": desk.format_utc(story.published_at) if story.published_at else None,
        "newsroom": story.newsroom.slug,
        "newsroom_title": story.newsroom.title,
        "beat": story.beat.slug,
        "edition": story.edition_id,
        "labels": {"trust": story.trust, "trust_text": story.trust_text},
        "source_count": story.source_count,
        "links": {"html": url, "json": url + "index.json", "markdown": url + "index.md"},
    }


def page_urls(path: str, page: PaginatorPage) -> dict[str, str | None]:
    """Absolute URLs of the neighbouring pages of a paginated listing."""
    return {
        "next": absolute(f"{path}?page={page.next_page_number()}") if page.has_next() else None,
        "previous": absolute(f"{path}?page={page.previous_page_number()}") if page.has_previous() else None,
    }


def listing_document(
    *, kind: str, title: str, html_path: str, page: PaginatorPage, feeds: dict[str, str] | None = None, **extra: Any
) -> dict[str, Any]:
    """The JSON twin of a listing page: the same stories, with links to the other forms."""
    links = {"html": absolute(html_path), "json": absolute(html_path + "index.json")}
    links |= {name: absolute(path) for name, path in (feeds or {}).items()}
    return {
        "type": kind,
        "title": title,
        "url": absolute(html_path),
        "links": links,
        **extra,
        "page": page.number,
        "pages": page.paginator.num_pages,
        "count": page.paginator.count,
        **page_urls(html_path + "index.json", page),
        "stories": [story_summary(story) for story in page.object_list],
    }


def site_feeds() -> dict[str, str]:
    return {"rss": reverse("site-rss"), "atom": reverse("site-atom")}
