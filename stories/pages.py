"""What the public pages show, worked out from stored stories.

The views stay thin: they find the story or the listing and hand it to these helpers, which
arrange a story for its page (citations with their claims, the ledger, JSON-LD), write its
Markdown twin, and summarise stories for listings and their JSON twins.
"""

from __future__ import annotations

import json
import re
from datetime import datetime
from typing import Any, NamedTuple

from django.conf import settings
from django.core.paginator import EmptyPage, PageNotAnInteger, Paginator
from django.core.paginator import Page as PaginatorPage
from django.db.models import Count, IntegerField, OuterRef, QuerySet, Subquery, Value
from django.db.models.functions import Coalesce
from django.http import Http404, HttpRequest
from django.urls import reverse
from django.utils.safestring import SafeString

from manifests.models import Manifest
from newsroom.models import Disclosure, ReuseTerms, RunGuide, SponsorAd
from newsroom.reversing import cached_reverse_all

from . import desk
from .loading import LoadedStory
from .markup import http_url, render_markdown
from .models import Cite, Correction, Image, KeyFact, ListItem, Paragraph, RelatedLink, Section, Story
from .render import StoryHtml, escape, human_time, iso_time, long_date, render_cites

PAGE_SIZE = 20
# JSON twins are written as the seeds are: UTF-8 characters kept, two-space indent.
JSON_PARAMS = {"ensure_ascii": False, "indent": 2}


# --- The story page ----------------------------------------------------------------------------


# The page's view of a story's parts. Named tuples rather than frozen dataclasses: a story page
# rendered anew makes about a hundred of them, and building a frozen dataclass costs about
# three times a tuple (1.3 against 0.4 microseconds here).
class CitedClaim(NamedTuple):
    claim_id: str
    # None when the store holds no text for this claim of this manifest (an imported ledger
    # entry has none, and an id cited with the wrong manifest must not borrow another's text).
    text: str | None


class CiteLink(NamedTuple):
    manifest_id: str
    number: int  # the manifest's place in the ledger, counted from 1
    claims: list[CitedClaim]


class FactView(NamedTuple):
    fact: KeyFact
    cites: list[CiteLink]

    @property
    def cites_html(self) -> SafeString:
        return render_cites(self.cites)


class ParagraphView(NamedTuple):
    paragraph: Paragraph
    html: SafeString
    cites: list[CiteLink]

    @property
    def cites_html(self) -> SafeString:
        return render_cites(self.cites)


class SectionView(NamedTuple):
    section: Section
    anchor: str
    paragraphs: list[ParagraphView]


class LedgerEntry(NamedTuple):
    number: int
    manifest_id: str
    manifest: Manifest | None  # None: cited, but not (yet) in the manifest store

    # Worked out here rather than by template filters, which cost more than the rest of an
    # entry on a page rendered anew.
    @property
    def source_href(self) -> str:
        return http_url(self.manifest.source_url) if self.manifest else ""

    @property
    def date_iso(self) -> str:
        published = self.manifest.published_date if self.manifest else None
        return published.isoformat() if published else ""

    @property
    def date_text(self) -> str:
        published = self.manifest.published_date if self.manifest else None
        return long_date(published) if published else ""


class StoryPage:
    """A story with its parts (``stories.loading.load_story``) arranged for its page and its
    Markdown twin. Runs no query for a published story (a preview may look up the site texts
    in force)."""

    def __init__(self, loaded: LoadedStory, *, preview: bool = False):
        story = loaded.story
        self.story = story
        self.preview = preview
        parts = loaded.parts
        view = desk.StoryView(story, parts)
        cited = view.cited_manifest_ids()
        self.cited_manifest_ids = cited
        manifests = loaded.manifests
        texts = loaded.claim_texts
        numbers = {manifest_id: number for number, manifest_id in enumerate(cited, start=1)}

        def links(cites: list[Cite]) -> list[CiteLink]:
            return [
                CiteLink(
                    cite.manifest_id,
                    numbers[cite.manifest_id],
                    [CitedClaim(claim_id, texts.get((cite.manifest_id, claim_id))) for claim_id in cite.claim_ids],
                )
                for cite in cites
            ]

        self.key_facts = [FactView(fact, links(cites)) for fact, cites in view.key_facts]
        self.sections = [
            SectionView(
                section=section,
                anchor=f"section-{index}",
                paragraphs=[
                    ParagraphView(paragraph, render_markdown(paragraph.markdown), links(cites))
                    for paragraph, cites in paragraphs
                ],
            )
            for index, (section, paragraphs) in enumerate(view.sections, start=1)
        ]
        self.ledger = [
            LedgerEntry(number, manifest_id, manifests.get(manifest_id)) for manifest_id, number in numbers.items()
        ]
        self.unresolved = view.lists[ListItem.Kind.UNRESOLVED]
        self.decision_card = [(kind.label, view.lists[kind]) for kind in desk.DECISION_CARD_KINDS if view.lists[kind]]
        self.corrections: list[Correction] = list(parts["corrections"])
        self.related: list[RelatedLink] = list(parts["related_links"])
        self.images: list[Image] = list(parts["images"])
        self.publishers = sorted({entry.manifest.source_name for entry in self.ledger if entry.manifest})

        site_texts = desk.site_texts(story)
        self.disclosure: Disclosure | None = site_texts["disclosure"]
        self.reuse_terms: ReuseTerms | None = site_texts["reuse_terms"]
        self.run_guide: RunGuide | None = site_texts["run_guide"]
        self.sponsor: SponsorAd | None = site_texts["sponsor"]
        self.commands = self.run_guide.commands(cited) if self.run_guide else None

        self.published_iso = iso_time(story.published_at) if story.published_at else ""
        self.published_text = human_time(story.published_at) if story.published_at else ""
        self.trust_text = desk.trust_text(story.trust, len(cited))
        newsroom = story.newsroom.slug
        # Every address the page links to, reversed in one call (see newsroom.reversing).
        (
            story_path,
            self.newsroom_path,
            self.newsroom_rss,
            self.newsroom_atom,
            self.beat_path,
            self.edition_path,
            reuse_terms_path,
            reuse_json_path,
        ) = cached_reverse_all(
            story.url_target(),
            ("newsroom", {"newsroom": newsroom}),
            ("newsroom-rss", {"newsroom": newsroom}),
            ("newsroom-atom", {"newsroom": newsroom}),
            ("beat", {"newsroom": newsroom, "beat": story.beat.slug}),
            ("edition", {"edition": story.edition_id}),
            ("reuse-terms", {}),
            ("reuse-json", {}),
        )
        site = settings.SITE_URL
        self.url = site + story_path  # story.absolute_url()
        self.json_url = self.url + "index.json"
        self.markdown_url = self.url + "index.md"
        self.newsroom_url = site + self.newsroom_path
        self.edition_url = site + self.edition_path
        self.reuse_terms_url = site + reuse_terms_path  # ReuseTerms.license_url()
        self.reuse_json_url = site + reuse_json_path  # ReuseTerms.machine_url()

    @property
    def modified_at(self) -> datetime:
        """When the story as readers see it last changed: an edit or an appended correction."""
        times = [self.story.updated_at, *(correction.published_at for correction in self.corrections)]
        if self.story.published_at:
            times.append(self.story.published_at)
        return max(times)

    @property
    def html(self) -> StoryHtml:
        """The repeating blocks of the page, as HTML (see ``stories.render``).

        A new StoryHtml on each use, which builds each block it is asked for once. The page does
        not keep it: it points back at the page, and that cycle would leave every part of the
        page to the cyclic garbage collector instead of freeing it as the request ends (which
        took 0.14 ms of each uncached request of the seed story, against 0.01 ms without)."""
        return StoryHtml(self)

    @property
    def trust_html(self) -> SafeString:
        """The trust label in ASCII HTML, as the rest of the page (see ``stories.render``)."""
        return SafeString(escape(self.trust_text).replace("\u00b7", "&middot;"))

    @property
    def modified_iso(self) -> str:
        return iso_time(self.modified_at)

    def json_ld(self) -> dict[str, Any]:
        """A schema.org NewsArticle, with the cited manifests as citations."""
        story = self.story
        data: dict[str, Any] = {
            "@context": "https://schema.org",
            "@type": "NewsArticle",
            "@id": self.url,
            "url": self.url,
            "mainEntityOfPage": self.url,
            "headline": story.headline,
            "description": story.dek,
            "inLanguage": "en",
            "isAccessibleForFree": True,
            "articleSection": story.beat.title,
            "dateModified": desk.format_utc(self.modified_at),
            "author": {"@type": "Organization", "name": story.newsroom.title, "url": self.newsroom_url},
            "publisher": {"@type": "Organization", "name": settings.SITE_NAME, "url": settings.SITE_URL + "/"},
            "citation": [_citation(entry) for entry in self.ledger],
        }
        if story.published_at:
            data["datePublished"] = desk.format_utc(story.published_at)
        if self.images:
            data["image"] = [image.url for image in self.images]
        if self.corrections:
            data["correction"] = [
                {
                    "@type": "CorrectionComment",
                    "text": correction.text,
                    "datePublished": desk.format_utc(correction.published_at),
                }
                for correction in self.corrections
            ]
        if self.reuse_terms:
            data["license"] = self.reuse_terms_url
            data["creditText"] = self.reuse_terms.attribution
        return data

    def json_ld_script(self) -> SafeString:
        return json_for_script(self.json_ld())


def _citation(entry: LedgerEntry) -> dict[str, Any]:
    citation: dict[str, Any] = {"@type": "CreativeWork", "identifier": entry.manifest_id}
    manifest = entry.manifest
    if manifest is not None:
        citation["name"] = manifest.title
        if manifest.source_url:
            citation["url"] = manifest.source_url
        citation["publisher"] = {"@type": "Organization", "name": manifest.source_name}
        if manifest.published_date:
            citation["datePublished"] = manifest.published_date.isoformat()
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


def _markers(cites: list[CiteLink]) -> str:
    return " ".join(f"[M{cite.number}: {', '.join(claim.claim_id for claim in cite.claims)}]" for cite in cites)


def story_markdown(page: StoryPage) -> str:
    """The whole story as readable Markdown with front matter; cites are ``[M1: claim ids]``."""
    story = page.story
    front = {
        "id": str(story.desk_id),
        "url": page.url,
        "json": page.json_url,
        "headline": story.headline,
        "newsroom": story.newsroom.slug,
        "beat": story.beat.slug,
        "edition": story.edition_id,
        "published_at": desk.format_utc(story.published_at) if story.published_at else None,
        "trust": story.trust,
        "trust_text": page.trust_text,
        "sources": len(page.cited_manifest_ids),
        "cited_manifest_ids": page.cited_manifest_ids,
    }
    # JSON scalars are valid YAML, and they quote whatever a writer typed.
    out = ["---", *(f"{key}: {json.dumps(value, ensure_ascii=False)}" for key, value in front.items()), "---", ""]
    out += [f"# {_one_line(story.headline)}", ""]
    if story.dek:
        out += [story.dek, ""]
    byline = [story.newsroom.title, story.beat.title, page.trust_text, f"Edition {story.edition_id}"]
    if story.published_at:
        byline.append(f"Published {story.published_at:%Y-%m-%d %H:%M} UTC")
    out += [" · ".join(byline), ""]
    if page.corrections:
        out += ["## Corrections", ""]
        out += [f"- {c.published_at:%Y-%m-%d %H:%M} UTC: {_one_line(c.text)}" for c in page.corrections] + [""]
    if page.key_facts:
        out += ["## Key facts", ""]
        for item in page.key_facts:
            note = " (self-reported)" if item.fact.self_reported else ""
            out.append(f"- {_one_line(item.fact.text)}{note} {_markers(item.cites)}".rstrip())
        out.append("")
    for section in page.sections:
        out += [f"## {_one_line(section.section.heading)}", ""]
        for item in section.paragraphs:
            out += [f"{item.paragraph.markdown.strip()} {_markers(item.cites)}".rstrip(), ""]
    if page.unresolved:
        out += ["## Unresolved", ""] + [f"- {_one_line(text)}" for text in page.unresolved] + [""]
    if page.decision_card:
        out += ["## Decision card", ""]
        for label, texts in page.decision_card:
            out += [f"### {label}", ""] + [f"- {_one_line(text)}" for text in texts] + [""]
    if page.ledger:
        out += ["## Manifests", ""]
        for entry in page.ledger:
            manifest = entry.manifest
            if manifest is None:
                out.append(f"- [M{entry.number}] Manifest {entry.manifest_id} (not in the store)")
                continue
            parts = [f"- [M{entry.number}] {_one_line(manifest.title)}", manifest.source_name]
            if manifest.published_date:
                parts.append(manifest.published_date.isoformat())
            parts.append(f"manifest {entry.manifest_id}")
            if http_url(manifest.source_url):
                parts.append(f"<{manifest.source_url}>")
            out.append(" · ".join(parts))
        out.append("")
    if page.run_guide and page.commands:
        guide = page.run_guide
        out += [f"## {_one_line(guide.title)}", "", guide.summary, ""]
        out += [f"{step['n']}. **{_one_line(step['title'])}**: {_one_line(step['text'])}" for step in guide.steps]
        out += ["", "```sh", page.commands["one"], "```", "", "```sh", page.commands["all"], "```", ""]
    if story.writer_agent:
        out += ["## Writer", "", f"{story.writer_agent} (run {story.writer_run_id})", ""]
    if page.related:
        out += ["## Related", ""]
        for link in page.related:
            href = http_url(link.url)
            out.append(f"- [{_one_line(link.headline)}]({href})" if href else f"- {_one_line(link.headline)}")
        out.append("")
    if page.disclosure:
        out += ["## Disclosure", "", page.disclosure.text, ""]
    if page.reuse_terms:
        terms = page.reuse_terms
        out += ["## Reuse", "", terms.summary, ""]
        out += [
            f"- Credit: {terms.attribution}",
            f"- Canonical URL: <{page.url}>",
            f"- Terms: <{terms.license_url()}>",
            "",
        ]
    return "\n".join(out)


# --- Listings ----------------------------------------------------------------------------------


def listed(stories: QuerySet[Story]) -> QuerySet[Story]:
    """Stories ready for a listing: their newsroom, beat and edition, and their source count."""
    sources = (
        Cite.objects.filter(story=OuterRef("pk"))
        .order_by()
        .values("story")
        .annotate(count=Count("manifest_id", distinct=True))
        .values("count")
    )
    return stories.select_related("newsroom", "beat", "edition").annotate(
        source_count=Coalesce(Subquery(sources, output_field=IntegerField()), Value(0))
    )


def trust_label(story: Story) -> str:
    return desk.trust_text(story.trust, story.source_count)


def paginate(request: HttpRequest, items: QuerySet, per_page: int = PAGE_SIZE) -> PaginatorPage:
    """The requested ``?page=``; a page that is not there is a 404, never a silent page 1."""
    try:
        return Paginator(items, per_page).page(request.GET.get("page", 1))
    except (EmptyPage, PageNotAnInteger):
        raise Http404("No such page") from None


def absolute(path: str) -> str:
    return settings.SITE_URL + path


def story_summary(story: Story) -> dict[str, Any]:
    """One story in a listing's JSON twin (a ``listed()`` story)."""
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
        "labels": {"trust": story.trust, "trust_text": trust_label(story)},
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
