"""HTML for the blocks of a story page that repeat per item: key facts, sections, the lists,
corrections, the manifests ledger and related stories.

They are built here rather than in ``jinja2/stories/story_detail.html`` because of their cost on a
page rendered anew: measured on the seed story (CPU time per render), these blocks took about
2.3 ms as Django template loops when the whole uncached request took about 5 ms; here they take
about 0.1 ms of the 0.9 ms it takes now. The template keeps the page's frame (head, header, guide, ad, site texts),
and a per-newsroom or per-story template may still lay the parts out itself from
``page.key_facts``, ``page.sections`` and ``page.ledger``.

Every value written by someone else goes through ``escape`` (quotes included, so it is safe
in attributes too): MarkupSafe's escaper, the one Jinja2 autoescapes with, taken as a function
from ``str`` to ``str``. It runs in C and returns a text with nothing to escape untouched, about
five times faster than ``html.escape`` on the short texts a page escapes about 150 times;
``markupsafe.escape`` itself wraps every result in a ``Markup``, which costs as much again.
Paragraph HTML comes from ``stories.markup`` already sanitized; URLs from
stored data become links only through ``http_url``.

Two habits here are about that cost too. Blocks are marked safe with ``SafeString(...)``, not
``mark_safe()``, which first checks each argument for a lazy string. And the page's own text
is ASCII, its punctuation written as entities (``&middot;``, ``&ldquo;``): a single "·" makes
Python hold, join and encode the whole page (36 KB for the seed story) as wider characters,
which took about 4% of an uncached render of the seed story.
"""

from __future__ import annotations

from datetime import date, datetime
from functools import cached_property
from typing import TYPE_CHECKING

from django.utils import timezone
from django.utils.safestring import SafeString

# MarkupSafe's own escaper, behind its public escape() (a leading underscore, so pinned in
# requirements.txt; tests/site/test_markup.py checks what it gives).
from markupsafe import _escape_inner as escape

from .markup import http_url

if TYPE_CHECKING:
    from .pages import CiteLink, StoryPage

SELF_REPORTED = '<span class="badge" title="The source says this about itself">Self-reported</span> '


def iso_time(value: datetime) -> str:
    return timezone.localtime(value).isoformat()


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
    """'16 October 2026'. The month by name from our own list: strftime's ``%B`` follows the
    server's locale (LC_TIME) and takes about eight times as long."""
    return f"{value.day} {MONTH_NAMES[value.month - 1]} {value.year}"


def human_time(value: datetime, *, with_time: bool = True) -> str:
    """'16 October 2026, 00:39' (or '16 October 2026') in the site's time zone (UTC)."""
    local = timezone.localtime(value)
    return f"{long_date(local)}, {local.hour:02}:{local.minute:02}" if with_time else long_date(local)


def _time_element(value: datetime, *, with_time: bool) -> str:
    return f'<time datetime="{iso_time(value)}">{human_time(value, with_time=with_time)}</time>'


_NO_CLAIM_TEXT = SafeString(' <span class="muted">(claim text not in our store)</span>')


def render_cites(cites: list[CiteLink]) -> SafeString:
    """A part's citations: a link to each manifest in the ledger and its claims behind
    <details>. Built here, not by a template include per part: on a story page rendered anew
    the includes cost as much as all the rest of the template. Every value is escaped."""
    if not cites:
        return SafeString("")
    items = []
    for cite in cites:
        claims = "".join(
            f'<li><code class="id">{escape(claim.claim_id)}</code>'
            f"{' ' + escape(claim.text) if claim.text else _NO_CLAIM_TEXT}</li>"
            for claim in cite.claims
        )
        count = len(cite.claims)
        items.append(
            f'<li class="cite"><a class="cite-link" href="#manifest-{escape(cite.manifest_id)}">'
            f'<span class="visually-hidden">Manifest </span>M{cite.number}</a> <details class="claims">'
            f'<summary>{count} claim{"" if count == 1 else "s"}<span class="visually-hidden"> cited from manifest '
            f"M{cite.number}</span></summary><ul>{claims}</ul></details></li>"
        )
    return SafeString(f'<ul class="cites" aria-label="Sources">{"".join(items)}</ul>')


class StoryHtml:
    """The repeating blocks of one story page, each built once on first use."""

    def __init__(self, page: StoryPage):
        self.page = page

    @cached_property
    def key_facts(self) -> SafeString:
        if not self.page.key_facts:
            return SafeString("")
        items = "".join(
            f'<li class="key-fact">{SELF_REPORTED if item.fact.self_reported else ""}'
            f'<span class="fact-text">{escape(item.fact.text)}</span>\n{item.cites_html}</li>\n'
            for item in self.page.key_facts
        )
        return SafeString(
            '<section class="key-facts" aria-labelledby="key-facts">\n<h2 id="key-facts">Key facts</h2>\n'
            f"<ul>\n{items}</ul>\n</section>"
        )

    @cached_property
    def sections(self) -> SafeString:
        parts = []
        for section in self.page.sections:
            paragraphs = "".join(
                f'<div class="paragraph">{item.html}{item.cites_html}</div>\n' for item in section.paragraphs
            )
            parts.append(
                f'<section aria-labelledby="{section.anchor}">\n'
                f'<h2 id="{section.anchor}">{escape(section.section.heading)}</h2>\n{paragraphs}</section>\n'
            )
        return SafeString(f'<div class="story-body">\n{"".join(parts)}</div>')

    @cached_property
    def unresolved(self) -> SafeString:
        if not self.page.unresolved:
            return SafeString("")
        items = "".join(f"<li>{escape(text)}</li>" for text in self.page.unresolved)
        return SafeString(
            '<section class="unresolved" aria-labelledby="unresolved">\n'
            f'<h2 id="unresolved">Unresolved questions</h2>\n<ul>{items}</ul>\n</section>'
        )

    @cached_property
    def decision_card(self) -> SafeString:
        if not self.page.decision_card:
            return SafeString("")
        groups = "".join(
            f"<h3>{escape(label)}</h3>\n<ul>{''.join(f'<li>{escape(text)}</li>' for text in texts)}</ul>\n"
            for label, texts in self.page.decision_card
        )
        return SafeString(
            '<section class="decision-card" aria-labelledby="decision-card">\n'
            f'<h2 id="decision-card">Decision card</h2>\n{groups}</section>'
        )

    @cached_property
    def correction_notice(self) -> SafeString:
        """At the top of the story: every correction, briefly dated."""
        corrections = self.page.corrections
        if not corrections:
            return SafeString("")
        items = "".join(
            f"<p>{_time_element(c.published_at, with_time=False)}: {escape(c.text)}</p>" for c in corrections
        )
        plural = "s" if len(corrections) > 1 else ""
        return SafeString(
            '<div class="correction-notice" role="note" aria-labelledby="correction-notice-title">\n'
            f'<p id="correction-notice-title"><strong>Correction{plural}</strong></p>\n{items}\n</div>'
        )

    @cached_property
    def corrections(self) -> SafeString:
        """At the foot of the story: every correction in full, with its time."""
        if not self.page.corrections:
            return SafeString("")
        items = "".join(
            f"<li>{_time_element(c.published_at, with_time=True)} UTC: {escape(c.text)}</li>"
            for c in self.page.corrections
        )
        return SafeString(
            '<section class="corrections" id="corrections" aria-labelledby="corrections-title">\n'
            f'<h2 id="corrections-title">Corrections</h2>\n<ol>{items}</ol>\n</section>'
        )

    @cached_property
    def ledger(self) -> SafeString:
        page = self.page
        if not page.ledger:
            return SafeString("")
        entries = []
        for entry in page.ledger:
            manifest = entry.manifest
            if manifest is None:
                body = (
                    f'Manifest <code class="id">{escape(entry.manifest_id)}</code> '
                    '<span class="muted">(not in our manifest store)</span>'
                )
            else:
                title = escape(manifest.title)
                if href := entry.source_href:
                    title = f'<a href="{escape(href)}" rel="nofollow noopener">{title}</a>'
                meta = escape(manifest.source_name)
                if date_iso := entry.date_iso:
                    meta += f' &middot; <time datetime="{date_iso}">{entry.date_text}</time>'
                meta += f' &middot; manifest <code class="id">{escape(entry.manifest_id)}</code>'
                if manifest.is_illustrative:
                    meta += " &middot; <em>illustrative demo claims</em>"
                body = f'{title}\n<span class="ledger-meta">{meta}</span>'
            entries.append(
                f'<li id="manifest-{escape(entry.manifest_id)}" class="ledger-entry">'
                f'<span class="ledger-number">M{entry.number}</span>\n{body}</li>\n'
            )
        publishers = f" from {escape(', '.join(page.publishers))}" if page.publishers else ""
        return SafeString(
            '<section class="ledger" aria-labelledby="manifests">\n<h2 id="manifests">Manifests cited</h2>\n'
            f"<p>{page.trust_html}{publishers}. Each source is a manifest: a source document with "
            f"numbered claims.</p>\n<ol>\n{''.join(entries)}</ol>\n</section>"
        )

    @cached_property
    def related(self) -> SafeString:
        if not self.page.related:
            return SafeString("")
        items = []
        for link in self.page.related:
            href = http_url(link.url)
            headline = escape(link.headline)
            items.append(f'<li><a href="{escape(href)}">{headline}</a></li>' if href else f"<li>{headline}</li>")
        return SafeString(
            '<section class="related" aria-labelledby="related">\n<h2 id="related">Related stories</h2>\n'
            f"<ul>{''.join(items)}</ul>\n</section>"
        )
