"""The hangingcontext.desk/1 format: parse, validate and export.

One module owns the format. ``parse_document`` turns bytes into a JSON value within safe
limits, ``validate_document`` checks a value against the JSON Schema in ``schemas/`` and
against the rules a schema cannot state (real dates, derived facts that must agree with the
document), and ``export_story`` turns a stored story back into desk/1 JSON. Importing lives
in ``stories.services`` because it writes across several models.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator, Mapping
from datetime import UTC, date, datetime
from functools import cache
from pathlib import Path
from typing import Any

import jsonschema
from django.conf import settings
from django.urls import reverse

from manifests.models import Manifest
from newsroom.cleantext import json_text_problems
from newsroom.jsonfiles import MOST_PROBLEMS, DocumentError, JsonInputError, Problem, parse_json, schema_problems
from newsroom.models import Disclosure, Label, ReuseTerms, RunGuide, SiteText, SponsorAd, Writer

from .models import Cite, KeyFact, ListItem, Paragraph, Section, Story, trust_text

SCHEMA_NAME = "hangingcontext.desk/1"
SCHEMA_PATH = Path(__file__).parent / "schemas" / "desk-1.schema.json"
UTC_FORMAT = "%Y-%m-%dT%H:%M:%SZ"
EDITION_FORMAT = "%Y-%m-%dT%H"

# Optional keys a writer may leave out; an export leaves them out again while they are empty.
OPTIONAL_LIST_KEYS = ("images", "unresolved", "decision_card", "corrections", "related")
DECISION_CARD_KINDS = (ListItem.Kind.USEFUL_FOR, ListItem.Kind.NOT_FOR, ListItem.Kind.COMPARE_AGAINST)


class DeskError(DocumentError):
    """A desk/1 document that cannot be imported, with every problem found in it."""


# --- Parsing ---------------------------------------------------------------------------------


def parse_document(data: bytes | str) -> Any:
    """Parse one JSON value, refusing oversized, malformed and pathologically nested input."""
    try:
        return parse_json(data, limit=settings.DESK_MAX_DOCUMENT_BYTES)
    except JsonInputError as error:
        raise DeskError([Problem("$", str(error))]) from None


# --- Validation ------------------------------------------------------------------------------


@cache
def schema() -> dict[str, Any]:
    return json.loads(SCHEMA_PATH.read_text())


def story_id_pattern() -> str:
    """What a desk/1 story id looks like, as the schema states it: a whole number written as a
    string, without leading zeros."""
    return schema()["properties"]["id"]["pattern"]


def edition_pattern() -> str:
    """What a desk/1 edition id looks like, as the schema states it: 2026-10-16T00."""
    return schema()["properties"]["edition"]["pattern"]


def is_story_id(value: str) -> bool:
    """Whether ``value`` is written as a desk/1 story id. A pattern, not ``str.isdigit``, which
    also takes '²' (that ``int`` refuses) and other scripts' digits."""
    return re.fullmatch(story_id_pattern(), value) is not None


def _inline_refs(node: Any, definitions: dict[str, Any]) -> Any:
    # Resolving "$ref" on every value is most of jsonschema's cost; the schema has no
    # recursive definitions, so its references can be replaced by what they name, once.
    if isinstance(node, dict):
        inlined = {key: _inline_refs(value, definitions) for key, value in node.items() if key not in ("$defs", "$ref")}
        if "$ref" in node:
            return {**_inline_refs(definitions[node["$ref"].removeprefix("#/$defs/")], definitions), **inlined}
        return inlined
    if isinstance(node, list):
        return [_inline_refs(item, definitions) for item in node]
    return node


@cache
def _validator() -> jsonschema.Draft202012Validator:
    document_schema = schema()
    jsonschema.Draft202012Validator.check_schema(document_schema)
    return jsonschema.Draft202012Validator(_inline_refs(document_schema, document_schema["$defs"]))


def parse_utc(value: str) -> datetime:
    return datetime.strptime(value, UTC_FORMAT).replace(tzinfo=UTC)


def parse_edition(value: str) -> datetime:
    return datetime.strptime(value, EDITION_FORMAT).replace(tzinfo=UTC)


def _check_times(document: dict[str, Any]) -> list[Problem]:
    problems = []
    times = [("published_at", document.get("published_at"))]
    times += [
        (f"corrections[{index}].published_at", correction["published_at"])
        for index, correction in enumerate(document.get("corrections", []))
    ]
    for at, value in times:
        if value is None:
            continue
        try:
            parse_utc(value)
        except ValueError:
            problems.append(Problem(at, f"{value!r} is not a real date and time"))
    try:
        parse_edition(document["edition"])
    except ValueError:
        problems.append(Problem("edition", f"{document['edition']!r} does not name a real hour"))
    for index, manifest in enumerate(document.get("manifests", [])):
        if manifest["published_date"]:
            try:
                date.fromisoformat(manifest["published_date"])
            except ValueError:
                problems.append(
                    Problem(f"manifests[{index}].published_date", f"{manifest['published_date']!r} is not a real date")
                )
    return problems


def cites_in_order(document: dict[str, Any]) -> Iterator[tuple[str, dict[str, Any]]]:
    """Every cite of a document with its path, key facts first, then sections in order."""
    for index, fact in enumerate(document["key_facts"]):
        for number, cite in enumerate(fact["cites"]):
            yield f"key_facts[{index}].cites[{number}]", cite
    for s_index, section in enumerate(document["sections"]):
        for p_index, paragraph in enumerate(section["paragraphs"]):
            for number, cite in enumerate(paragraph["cites"]):
                yield f"sections[{s_index}].paragraphs[{p_index}].cites[{number}]", cite


def distinct_in_order(values: Iterable[str]) -> list[str]:
    return list(dict.fromkeys(values))


def _check_derived(document: dict[str, Any]) -> list[Problem]:
    """Derived keys are optional on input, but those that state facts must state them truly."""
    problems = []
    cited = distinct_in_order(cite["manifest_id"] for _, cite in cites_in_order(document))

    def expect(at: str, given: Any, expected: Any, why: str) -> None:
        if given is not None and given != expected:
            problems.append(Problem(at, f"is {given!r} but {why} {expected!r}"))

    expect("cited_manifest_ids", document.get("cited_manifest_ids"), cited, "the cites name")
    expect("source_count", document.get("source_count"), len(cited), "the cites name this many manifests:")
    labels = document["labels"]
    expect(
        "labels.trust_text", labels.get("trust_text"), trust_text(labels["trust"], len(cited)), "trust and sources give"
    )
    if "newsroom_title" in document:
        expect("labels.newsroom", labels.get("newsroom"), document["newsroom_title"], "newsroom_title is")

    if "manifests" in document:
        listed = [manifest["manifest_id"] for manifest in document["manifests"]]
        listed_set = set(listed)
        in_cited_order = [manifest_id for manifest_id in cited if manifest_id in listed_set]
        if listed != in_cited_order:
            problems.append(
                Problem("manifests", "must list cited manifests once each, in the order they are first cited")
            )
        publishers = sorted({manifest["source_name"] for manifest in document["manifests"]})
        expect("publishers", document.get("publishers"), publishers, "the manifests' source names are")

    guide = document.get("run_these_manifests")
    if guide is not None:
        expect("run_these_manifests.manifest_ids", guide["manifest_ids"], cited, "the cites name")
        run_guide = RunGuide(**run_guide_content(guide))
        expect("run_these_manifests.commands", guide["commands"], run_guide.commands(cited), "the request gives")
    return problems


# The fields of a desk/1 document that are written as several lines; every other one is a line.
MULTILINE_FIELDS = frozenset(
    {"sections[].paragraphs[].markdown", "run_these_manifests.commands.one", "run_these_manifests.commands.all"}
)


def _unclean_text(document: Any) -> list[Problem]:
    # PostgreSQL text and jsonb cannot hold U+0000, and control characters and bidirectional
    # overrides are refused at every door (newsroom.cleantext): say where, rather than store it.
    return list(json_text_problems(document, multiline=MULTILINE_FIELDS.__contains__))


def validate_document(document: Any) -> dict[str, Any]:
    """Return the document if it is a valid desk/1 story; raise DeskError naming every problem."""
    problems = schema_problems(_validator(), document) or _unclean_text(document)[:MOST_PROBLEMS]
    if problems:
        raise DeskError(problems)
    problems = _check_times(document) + _check_derived(document)
    if problems:
        raise DeskError(problems)
    return document


# --- Site-wide blocks ------------------------------------------------------------------------
# Each maps a desk/1 block to the content of a versioned site text and back.


def run_guide_content(block: dict[str, Any]) -> dict[str, Any]:
    return {
        "title": block["title"],
        "summary": block["summary"],
        "steps": block["steps"],
        "mcp_url": block["mcp_url"],
        "connect_url": block["connect_url"],
        "request_method": block["request"]["method"],
        "request_url_template": block["request"]["url_template"],
        "request_headers": [list(header) for header in block["request"]["headers"].items()],
    }


def sponsor_content(block: dict[str, Any]) -> dict[str, Any]:
    return {
        "label": block["label"],
        "title": block["title"],
        "text": block["text"],
        "cta_label": block["cta"]["label"],
        "cta_url": block["cta"]["url"],
        "note": block["note"],
    }


def reuse_content(block: dict[str, Any]) -> dict[str, Any]:
    return {name: block[name] for name in ReuseTerms.content_fields}


def disclosure_content(block: str) -> dict[str, Any]:
    return {"text": block}


# For each site-text field of a story: the desk/1 key of its block, the model of its versions,
# and how the block's content maps to the model's fields.
SITE_TEXT_BLOCKS: dict[str, tuple[str, type[SiteText], Callable[[Any], dict[str, Any]]]] = {
    "disclosure": ("disclosure", Disclosure, disclosure_content),
    "reuse_terms": ("reuse", ReuseTerms, reuse_content),
    "run_guide": ("run_these_manifests", RunGuide, run_guide_content),
    "sponsor": ("sponsor", SponsorAd, sponsor_content),
}


def site_text_versions(document: dict[str, Any], *, effective_from: datetime | None = None) -> dict[str, SiteText]:
    """The versions of the site-wide texts whose blocks a document carries, by the story's
    field name, unsaved: to be looked up by fingerprint (an import) or added (an admin)."""
    versions = {}
    for field, (key, model, content_of) in SITE_TEXT_BLOCKS.items():
        if document.get(key) is not None:
            versions[field] = model.from_content(content_of(document[key]), effective_from=effective_from)
    return versions


def _run_guide_block(guide: RunGuide, manifest_ids: list[str]) -> dict[str, Any]:
    return {
        "title": guide.title,
        "summary": guide.summary,
        "manifest_ids": manifest_ids,
        "steps": guide.ordered_steps(),
        "mcp_url": guide.mcp_url,
        "connect_url": guide.connect_url,
        "request": {
            "method": guide.request_method,
            "url_template": guide.request_url_template,
            "headers": dict(guide.request_headers),
        },
        "commands": guide.commands(manifest_ids),
    }


def _sponsor_block(ad: SponsorAd) -> dict[str, Any]:
    return {
        "label": ad.label,
        "title": ad.title,
        "text": ad.text,
        "cta": {"label": ad.cta_label, "url": ad.cta_url},
        "note": ad.note,
    }


def _reuse_block(terms: ReuseTerms, canonical_url: str) -> dict[str, Any]:
    return {
        **terms.content(),
        "license_url": terms.license_url(),
        "machine_url": terms.machine_url(),
        "canonical_url": canonical_url,
    }


# --- Export ----------------------------------------------------------------------------------


def format_utc(value: datetime) -> str:
    return value.astimezone(UTC).strftime(UTC_FORMAT)


class StoryView:
    """A story's parts arranged as desk/1 sees them; built from a ``with_parts()`` story, or
    from the parts the caller already holds (``parts``, by the name of their relation: those of
    ``stories.loading``)."""

    def __init__(self, story: Story, parts: Mapping[str, Iterable[Any]] | None = None):
        self.story = story

        def all_of(name: str) -> Iterable[Any]:
            return parts[name] if parts is not None else getattr(story, name).all()

        cites_by_fact: dict[int, list[Cite]] = defaultdict(list)
        cites_by_paragraph: dict[int, list[Cite]] = defaultdict(list)
        for cite in all_of("cites"):
            if cite.key_fact_id:
                cites_by_fact[cite.key_fact_id].append(cite)
            else:
                cites_by_paragraph[cite.paragraph_id].append(cite)
        self.key_facts = [(fact, cites_by_fact[fact.pk]) for fact in all_of("key_facts")]
        paragraphs_by_section = defaultdict(list)
        for paragraph in all_of("paragraphs"):
            paragraphs_by_section[paragraph.section_id].append((paragraph, cites_by_paragraph[paragraph.pk]))
        self.sections = [(section, paragraphs_by_section[section.pk]) for section in all_of("sections")]
        self.lists: dict[str, list[str]] = defaultdict(list)
        for item in all_of("list_items"):
            self.lists[item.kind].append(item.text)

    def key_facts_as_desk(self) -> list[dict[str, Any]]:
        return [
            {"text": fact.text, "self_reported": fact.self_reported, "cites": [cite.as_desk() for cite in cites]}
            for fact, cites in self.key_facts
        ]

    def sections_as_desk(self) -> list[dict[str, Any]]:
        return [
            {
                "heading": section.heading,
                "paragraphs": [
                    {"markdown": paragraph.markdown, "cites": [cite.as_desk() for cite in cites]}
                    for paragraph, cites in paragraphs
                ],
            }
            for section, paragraphs in self.sections
        ]

    def all_cites(self) -> Iterator[Cite]:
        for _, cites in self.key_facts:
            yield from cites
        for _, paragraphs in self.sections:
            for _, cites in paragraphs:
                yield from cites

    def cited_manifest_ids(self) -> list[str]:
        return distinct_in_order(cite.manifest_id for cite in self.all_cites())


def manifests_by_id(manifest_ids: Iterable[str]) -> dict[str, Manifest]:
    return {manifest.manifest_id: manifest for manifest in Manifest.objects.filter(manifest_id__in=set(manifest_ids))}


def _manifest_entry(manifest: Manifest) -> dict[str, Any]:
    return {
        "manifest_id": manifest.manifest_id,
        "title": manifest.title,
        "source_name": manifest.source_name,
        "source_url": manifest.source_url,
        "published_date": manifest.published_date.isoformat() if manifest.published_date else None,
    }


# The site-wide texts a story carries, by the name of its field.
SITE_TEXT_MODELS = {"disclosure": Disclosure, "reuse_terms": ReuseTerms, "run_guide": RunGuide, "sponsor": SponsorAd}


def site_texts_in_force(at: datetime | None = None) -> dict[str, Any]:
    """The version of each site-wide text in force at ``at`` (default: now), but the disclosure,
    which is chosen by the story's label and writer (``disclosure_for``)."""
    return {name: model.objects.in_force(at) for name, model in SITE_TEXT_MODELS.items() if name != "disclosure"}


def disclosure_for(story: Story, *, label: str, at: datetime | None = None) -> Disclosure | None:
    """The disclosure a story of this label carries: its own (an imported one's) when written
    for its label and writer (an agent, or a person when it has no writer agent), else the
    version for both in force at ``at``, else the newest. None when the site has no text for
    them: then nothing says another label's words."""
    writer = Writer.AGENT if story.writer_agent else Writer.PERSON
    pinned = story.disclosure
    if pinned is not None and (pinned.label, pinned.writer) == (label, writer):
        return pinned
    texts = Disclosure.objects.for_label(label, writer)
    return texts.in_force(at) or texts.in_force()


def site_texts(story: Story) -> dict[str, Any]:
    """The versions a story carries: pinned ones, or for an unpublished story those in force now
    (its disclosure the one a checked story of its writer would carry)."""
    published = story.status == Story.Status.PUBLISHED
    texts = {}
    for name, model in SITE_TEXT_MODELS.items():
        pinned = getattr(story, name)
        if pinned or published:
            texts[name] = pinned
        elif name == "disclosure":
            texts[name] = disclosure_for(story, label=Label.CHECKED)
        else:
            texts[name] = model.objects.in_force()
    return texts


def story_body(story: Story) -> dict[str, Any]:
    """A story's key facts and sections in desk/1's shape, in four queries whatever its size."""
    parts = {
        "key_facts": KeyFact.objects.filter(story=story),
        "sections": Section.objects.filter(story=story),
        "paragraphs": Paragraph.objects.filter(story=story).order_by("position"),
        "cites": Cite.objects.filter(story=story),
        "list_items": [],
    }
    view = StoryView(story, parts)
    return {"key_facts": view.key_facts_as_desk(), "sections": view.sections_as_desk()}


def export_story(story: Story, manifests: dict[str, Manifest] | None = None) -> dict[str, Any]:
    """The desk/1 JSON of a story fetched ``with_parts()``.

    ``manifests`` may be given by a caller exporting many stories, to fetch the ledger once.
    """
    view = StoryView(story)
    cited = view.cited_manifest_ids()
    if manifests is None:
        manifests = manifests_by_id(cited)
    ledger = [manifests[manifest_id] for manifest_id in cited if manifest_id in manifests]
    site = settings.SITE_URL
    url = story.absolute_url()
    omitted = set(story.omitted_keys)

    document: dict[str, Any] = {
        "schema": SCHEMA_NAME,
        "type": "story",
        "id": str(story.desk_id),
        "slug": story.slug,
        "edition": story.edition_id,
        "url": url,
        "newsroom": story.newsroom.slug,
        "beat": story.beat.slug,
        "newsroom_title": story.newsroom.title,
    }
    if story.audience is not None:
        document["audience"] = story.audience
    document |= {"angle": story.angle, "headline": story.headline, "dek": story.dek}
    if story.published_at is not None:
        document["published_at"] = format_utc(story.published_at)
    document |= {
        "labels": {
            "trust": story.trust,
            "trust_text": trust_text(story.trust, len(cited)),
            "newsroom": story.newsroom.title,
        },
        "source_count": len(cited),
        "publishers": sorted({manifest.source_name for manifest in ledger}),
        "key_facts": view.key_facts_as_desk(),
    }

    def optional(key: str, value: Any, empty: bool) -> None:
        if not (empty and key in omitted):
            document[key] = value

    images = [
        {"url": image.url, "alt": image.alt, "caption": image.caption, "credit": image.credit}
        for image in story.images.all()
    ]
    optional("images", images, not images)
    document["sections"] = view.sections_as_desk()
    optional("unresolved", view.lists[ListItem.Kind.UNRESOLVED], not view.lists[ListItem.Kind.UNRESOLVED])
    card = {kind.value: view.lists[kind] for kind in DECISION_CARD_KINDS}
    optional("decision_card", card, not any(card.values()))
    if story.writer_agent is not None:
        document["writer"] = {"agent": story.writer_agent, "run_id": story.writer_run_id}
    corrections = [
        {"published_at": format_utc(correction.published_at), "text": correction.text}
        for correction in story.corrections.all()
    ]
    optional("corrections", corrections, not corrections)
    document["cited_manifest_ids"] = cited
    document["manifests"] = [_manifest_entry(manifest) for manifest in ledger]

    texts = site_texts(story)
    if texts["run_guide"]:
        document["run_these_manifests"] = _run_guide_block(texts["run_guide"], cited)
    document["links"] = {
        "html": url,
        "json": url + "index.json",
        "markdown": url + "index.md",
        "newsroom": site + reverse("newsroom", kwargs={"newsroom": story.newsroom.slug}),
        "edition": site + reverse("edition", kwargs={"edition": story.edition_id}),
    }
    related = [{"url": link.url, "headline": link.headline, "slug": link.slug} for link in story.related_links.all()]
    optional("related", related, not related)
    if texts["sponsor"]:
        document["sponsor"] = _sponsor_block(texts["sponsor"])
    if texts["disclosure"]:
        document["disclosure"] = texts["disclosure"].text
    if texts["reuse_terms"]:
        document["reuse"] = _reuse_block(texts["reuse_terms"], url)
    return document


def with_correction(document: dict[str, Any], correction: dict[str, str]) -> dict[str, Any]:
    """A published document with one more correction, where desk/1 puts corrections (before
    ``cited_manifest_ids`` when the document had none)."""
    if "corrections" in document:
        return {**document, "corrections": [*document["corrections"], correction]}
    result: dict[str, Any] = {}
    for key, value in document.items():
        if key == "cited_manifest_ids":
            result["corrections"] = [correction]
        result[key] = value
    return result


def refresh_from_store(document: dict[str, Any], *, newsroom_title: str) -> dict[str, Any]:
    """A published document with the blocks it takes from the stores as they are now: the
    manifests ledger, the publishers and the newsroom's title. What was written and checked,
    and the site texts it was published with, stay as they are."""
    cited = document["cited_manifest_ids"]
    manifests = manifests_by_id(cited)
    ledger = [manifests[manifest_id] for manifest_id in cited if manifest_id in manifests]
    refreshed = dict(document)  # assigning existing keys keeps their order
    refreshed["newsroom_title"] = newsroom_title
    refreshed["labels"] = {**document["labels"], "newsroom": newsroom_title}
    refreshed["publishers"] = sorted({manifest.source_name for manifest in ledger})
    refreshed["manifests"] = [_manifest_entry(manifest) for manifest in ledger]
    return refreshed


def export_stories(stories: Iterable[Story]) -> Iterator[dict[str, Any]]:
    """Export many ``with_parts()`` stories, fetching their manifests in one query per batch."""
    batch = list(stories)
    ids = {cite.manifest_id for story in batch for cite in story.cites.all()}
    manifests = manifests_by_id(ids)
    for story in batch:
        yield export_story(story, manifests)


# What a person or agent wrote, as the checks read it; derived keys, the publication time and
# post-publication corrections are left out, so only an edit of the content makes a check stale.
CONTENT_HASH_EXCLUDES = frozenset(
    {
        "url",
        "newsroom_title",
        "published_at",
        "source_count",
        "publishers",
        "corrections",
        "cited_manifest_ids",
        "manifests",
        "run_these_manifests",
        "links",
        "sponsor",
        "disclosure",
        "reuse",
        "verification",
    }
)


def content_hash(document: dict[str, Any]) -> str:
    """A SHA-256 of a desk/1 document's written content: equal hashes, equal content."""
    content = {key: value for key, value in document.items() if key not in CONTENT_HASH_EXCLUDES}
    content["labels"] = {"trust": document["labels"]["trust"]}
    canonical = json.dumps(content, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(canonical.encode()).hexdigest()


def dumps(document: dict[str, Any], *, pretty: bool = True) -> str:
    """Serialise as the seeds are written: UTF-8 characters kept, two-space indent."""
    if pretty:
        return json.dumps(document, ensure_ascii=False, indent=2)
    return json.dumps(document, ensure_ascii=False, separators=(",", ":"))
