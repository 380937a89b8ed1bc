"""Changes to stories that span several models. Admin, API, commands and tasks all call these."""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import date, datetime
from typing import Any, TypeVar

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.db.models import F
from django.utils import timezone
from django.utils.module_loading import import_string

from manifests.models import Manifest
from newsroom.cleantext import text_problem
from newsroom.dberrors import unique_violation
from newsroom.models import Beat, Disclosure, Label, Newsroom, SiteText, Writer
from newsroom.pagecache import etag_of, gzipped
from newsroom.roles import may_publish, may_write

from . import desk, labels
from .models import (
    Cite,
    Correction,
    Image,
    KeyFact,
    ListItem,
    LiveCitation,
    Paragraph,
    PublishedVersion,
    RelatedLink,
    Revision,
    Section,
    Story,
)
from .signals import story_changed

SiteTextT = TypeVar("SiteTextT", bound=SiteText)


@dataclass(frozen=True)
class ImportResult:
    story: Story
    created: bool
    # False when the story is published with exactly this document already: nothing was written.
    changed: bool = True


def _title_from_slug(slug: str) -> str:
    return slug.replace("-", " ").replace("_", " ").title()


def _newsroom_for(document: dict[str, Any]) -> Newsroom:
    title = document.get("newsroom_title") or document["labels"].get("newsroom")
    newsroom, _ = Newsroom.objects.get_or_create(
        slug=document["newsroom"], defaults={"title": title or _title_from_slug(document["newsroom"])}
    )
    return newsroom


def _site_text(version: SiteTextT) -> SiteTextT | None:
    """The stored version with exactly this content, if the site has one; whether it is in
    force now does not matter, for an older story carries the version of its day."""
    return type(version).objects.filter(fingerprint=version.fingerprint).first()


def _site_texts_known(document: dict[str, Any]) -> dict[str, SiteText | None]:
    """The stored version of each site-wide text the document carries, by the story's field.

    Site-wide texts belong to the site: only admins add versions, and an import never does,
    nor changes which one is in force. A block that equals no stored version is refused,
    naming its desk/1 key, before anything is written.
    """
    found: dict[str, SiteText | None] = dict.fromkeys(desk.SITE_TEXT_BLOCKS)
    problems = []
    for field, version in desk.site_text_versions(document).items():
        found[field] = _site_text(version)
        if found[field] is None:
            key = desk.SITE_TEXT_BLOCKS[field][0]
            problems.append(
                desk.Problem(
                    key,
                    f"equals no version of the {version._meta.verbose_name} the site knows; only an admin "
                    "adds versions of site-wide texts (in admin), an import never does",
                )
            )
    if problems:
        raise desk.DeskError(problems)
    return found


def site_texts_add_from(document: Any) -> list[SiteText]:
    """Add, as an admin does before importing an archive, the versions of the site-wide texts a
    desk/1 document carries that the site lacks; returns those added. Each is in force from the
    document's publication (else from now); a disclosure is for the label its ``verification``
    names (else ``checked``) and for its kind of writer. Raises ``desk.DeskError`` naming the
    block when the document or a text is refused; nothing is added then.
    """
    document = desk.validate_document(document)
    published_at = desk.parse_utc(document["published_at"]) if "published_at" in document else None
    added = []
    with transaction.atomic():
        for field, version in desk.site_text_versions(document, effective_from=published_at).items():
            if type(version).objects.filter(fingerprint=version.fingerprint).exists():
                continue
            if isinstance(version, Disclosure):
                version.label = document.get("verification", {}).get("state", Label.CHECKED)
                version.writer = Writer.AGENT if (document.get("writer") or {}).get("agent") else Writer.PERSON
            try:
                version.full_clean()
            except ValidationError as error:
                key = desk.SITE_TEXT_BLOCKS[field][0]
                raise desk.DeskError([desk.Problem(key, message) for message in error.messages]) from None
            version.save()
            added.append(version)
    return added


def _pin_site_texts(story: Story, versions: dict[str, SiteText | None]) -> None:
    for field, version in versions.items():
        setattr(story, field, version)


def _seed_manifests(document: dict[str, Any]) -> None:
    """Add the manifests a story lists that the store lacks. The store's own data always wins."""
    manifests = [
        Manifest(
            manifest_id=entry["manifest_id"],
            title=entry["title"],
            source_name=entry["source_name"],
            source_url=entry["source_url"],
            published_date=date.fromisoformat(entry["published_date"]) if entry["published_date"] else None,
            origin=Manifest.Origin.STORY_IMPORT,
        )
        for entry in document.get("manifests", [])
    ]
    Manifest.objects.bulk_create(manifests, ignore_conflicts=True)


def _refuse_undoing_what_readers_were_told(story: Story, document: dict[str, Any]) -> None:
    """An import replaces a story's content, but never a retraction nor a correction: both
    were told to readers, and the import (a migration tool) passes no editor's review."""
    if story.status == Story.Status.RETRACTED:
        raise desk.DeskError(
            [desk.Problem("id", f"story {story.desk_id} was retracted; a retracted story is not imported again")]
        )
    kept = {
        (desk.format_utc(desk.parse_utc(item["published_at"])), item["text"])
        for item in document.get("corrections", [])
    }
    dropped = [c for c in story.corrections.all() if (desk.format_utc(c.published_at), c.text) not in kept]
    if dropped:
        raise desk.DeskError(
            [
                desk.Problem(
                    "corrections",
                    f"leaves out {len(dropped)} of the story's corrections (the first of "
                    f"{desk.format_utc(dropped[0].published_at)}); corrections are never edited away",
                )
            ]
        )


def _refuse_a_label_that_did_not_happen(story: Story | None, document: dict[str, Any]) -> None:
    """A document's ``verification`` key is derived: it says how the site that exported it
    published the story. Here it must agree with what happened (the story's live version says
    exactly that), or it would tell readers of a check that never ran here."""
    record = document.get(labels.DOCUMENT_KEY)
    if record is None:
        return
    live = story.live_version_or_none if story is not None else None
    if live is not None and live.verification == record:
        return
    state = record.get("state", "?")
    told = (
        f"story {document['id']} has no published version here"
        if live is None
        else f"story {document['id']}'s live version here is {live.label} ({live.verification.get('published_at')})"
    )
    raise desk.DeskError(
        [
            desk.Problem(
                labels.DOCUMENT_KEY,
                f"says this version was published {state} ({record.get('published_at', '?')}), but {told}; the key is "
                "derived from a publication, never typed in: leave it out to import the story as new content "
                "(it is checked, or published with --unchecked --reason)",
            )
        ]
    )


def _delete_parts(story: Story) -> None:
    # Raw deletes, children first: one statement per table whatever the story's size. The
    # ORM's cascading delete would first select every row to find its dependents.
    for model in (Cite, Paragraph, Section, KeyFact, Image, ListItem, Correction, RelatedLink):
        model.objects.filter(story=story)._raw_delete(model.objects.db)


def _create_body(story: Story, document: dict[str, Any]) -> None:
    """Write the story's key facts, sections, paragraphs and cites, one bulk insert per table."""
    facts = KeyFact.objects.bulk_create(
        KeyFact(story=story, position=index, text=fact["text"], self_reported=fact["self_reported"])
        for index, fact in enumerate(document["key_facts"])
    )
    sections = Section.objects.bulk_create(
        Section(story=story, position=index, heading=section["heading"])
        for index, section in enumerate(document["sections"])
    )
    paragraphs = Paragraph.objects.bulk_create(
        Paragraph(story=story, section=section, position=index, markdown=paragraph["markdown"])
        for section, source in zip(sections, document["sections"], strict=True)
        for index, paragraph in enumerate(source["paragraphs"])
    )
    paragraph_sources = [paragraph for section in document["sections"] for paragraph in section["paragraphs"]]
    cites = [
        Cite(story=story, key_fact=fact, position=index, manifest_id=cite["manifest_id"], claim_ids=cite["claim_ids"])
        for fact, source in zip(facts, document["key_facts"], strict=True)
        for index, cite in enumerate(source["cites"])
    ] + [
        Cite(
            story=story,
            paragraph=paragraph,
            position=index,
            manifest_id=cite["manifest_id"],
            claim_ids=cite["claim_ids"],
        )
        for paragraph, source in zip(paragraphs, paragraph_sources, strict=True)
        for index, cite in enumerate(source["cites"])
    ]
    Cite.objects.bulk_create(cites)


def _create_parts(story: Story, document: dict[str, Any]) -> None:
    """Write every part of the story with one bulk insert per table."""
    _create_body(story, document)
    Image.objects.bulk_create(
        Image(story=story, position=index, **image) for index, image in enumerate(document.get("images", []))
    )
    card = document.get("decision_card", {})
    lists = [(ListItem.Kind.UNRESOLVED, document.get("unresolved", []))]
    lists += [(kind, card.get(kind.value, [])) for kind in desk.DECISION_CARD_KINDS]
    ListItem.objects.bulk_create(
        ListItem(story=story, kind=kind, position=index, text=text)
        for kind, texts in lists
        for index, text in enumerate(texts)
    )
    Correction.objects.bulk_create(
        Correction(story=story, position=index, published_at=desk.parse_utc(item["published_at"]), text=item["text"])
        for index, item in enumerate(document.get("corrections", []))
    )
    RelatedLink.objects.bulk_create(
        RelatedLink(story=story, position=index, **link) for index, link in enumerate(document.get("related", []))
    )


def story_replace_body(*, story: Story, body: dict[str, Any]) -> None:
    """Make the story's key facts and sections (with their paragraphs and cites) those of
    ``body``, in desk/1's shape: what the desk's one-text mode saves. The caller records the
    change (``story_record_change``), as every path does once per change."""
    for model in (Cite, Paragraph, Section, KeyFact):
        model.objects.filter(story=story)._raw_delete(model.objects.db)
    _create_body(story, body)


def story_record_change(
    *, story: Story, actor: str, note: str = "", document: dict[str, Any] | None = None
) -> Revision:
    """After any change of a story: refresh its content hash and keep it as a revision.

    Every path that changes a story (import, admin, API, tasks) calls this once, inside the
    change's transaction. The revision holds the story's desk/1 export, or for an import the
    document as it was submitted (``document``): it is what changed the story, and its
    written content equals the export's, so its content hash does too.
    """
    if document is None:
        document = desk.export_story(Story.objects.with_parts().get(pk=story.pk))
    story.content_hash = desk.content_hash(document)
    # The edit version counts changes of the content, not submissions or publications of it.
    Story.objects.filter(pk=story.pk).exclude(content_hash=story.content_hash).update(
        content_hash=story.content_hash, edit_version=F("edit_version") + 1
    )
    story.edit_version = Story.objects.values_list("edit_version", flat=True).get(pk=story.pk)
    return Revision.objects.create(
        story=story, actor=actor, note=note[:300], document=document, edit_version=story.edit_version
    )


class StaleVersion(Exception):
    """A change was made on an older edit version of a story than the stored one."""

    def __init__(self, story: Story, expected: int):
        self.story = story
        self.expected = expected
        self.current = story.edit_version
        self.message = (
            f"Story {story.desk_id} was changed by someone else after you opened it: you edited version "
            f"{expected}, it is now at version {story.edit_version}. Nothing was saved; open the newer "
            "version and make your change there."
        )
        super().__init__(self.message)


def require_edit_version(*, story: Story, expected: int | None) -> Story:
    """Lock the story's row and refuse (``StaleVersion``) unless its edit version is
    ``expected``; ``None`` asks for no check. Call inside the change's transaction."""
    current = Story.objects.select_for_update().get(pk=story.pk)
    if expected is not None and current.edit_version != expected:
        raise StaleVersion(current, expected)
    return current


def _refuse_moving_a_live_address(story: Story, document: dict[str, Any]) -> None:
    """A published story's date and slug are fixed: its URL never moves."""
    version = story.live_version_or_none
    if version is not None and document["slug"] != version.slug:
        raise desk.DeskError(
            [
                desk.Problem(
                    "slug",
                    f"story {story.desk_id} is published at /stories/{version.dateline}/{version.slug}/; "
                    f"a published story's slug is fixed, so {document['slug']!r} is refused",
                )
            ]
        )


def _lost_race(error: IntegrityError, *, desk_id: int, slug: str, dateline: date) -> desk.Problem:
    """The problem to report when another writer took this story's id or address between the
    checks above and the insert (both passed them; the database let one through)."""
    taken = unique_violation(error, Story)
    if taken == ("desk_id",):
        return desk.Problem(
            "id",
            f"story {desk_id} was created by someone else a moment ago, while this one was being written; "
            "nothing of this document was written: send it again to update that story, or give it another id",
        )
    if "slug" in taken:
        return desk.Problem("slug", f"{slug!r} is already used on {dateline}")
    raise error


def story_import_desk(
    *,
    document: Any,
    as_draft: bool = False,
    actor: str = "import",
    note: str | None = None,
    keep_dateline: bool = False,
) -> ImportResult:
    """Create or update (by id) one story's working copy from a desk/1 document, all of it or
    none of it. Nothing readers get changes: publishing goes through the gate.

    A document with ``published_at`` keeps it as the intended publication time (an archive
    migrated keeps its dates), unless ``as_draft`` drops it. It never brings back a retracted
    story, drops a correction the story carries, or moves a published story's address.
    ``keep_dateline`` keeps an existing draft's dateline (one an editor typed) instead of
    deriving it from the document; ``note`` replaces the revision's note ("updated by import").
    """
    document = desk.validate_document(document)
    desk_id = int(document["id"])
    published_at = None if as_draft or "published_at" not in document else desk.parse_utc(document["published_at"])
    edition_start = desk.parse_edition(document["edition"])

    with transaction.atomic():
        site_texts = _site_texts_known(document)
        story = Story.objects.select_for_update().filter(desk_id=desk_id).first()
        created = story is None
        _refuse_a_label_that_did_not_happen(story, document)
        if story is not None:
            _refuse_undoing_what_readers_were_told(story, document)
            _refuse_moving_a_live_address(story, document)
        live = story.live_version_or_none if story is not None else None
        if live is not None and _is_published_as(story, document, site_texts):
            # The same document again, as when an interrupted import is run once more: what
            # readers get stays exactly as it is, and no revision says it was updated.
            return ImportResult(story=story, created=False, changed=False)
        if live is not None:
            dateline = live.dateline
        elif keep_dateline and story is not None:
            dateline = story.dateline
        else:
            dateline = Story.dateline_for(published_at=published_at, edition_start=edition_start.date())
        taken = Story.objects.filter(dateline=dateline, slug=document["slug"]).exclude(desk_id=desk_id)
        other = taken.values_list("desk_id", flat=True).first()
        if other is not None:
            raise desk.DeskError(
                [desk.Problem("slug", f"{document['slug']!r} is already used on {dateline} by story {other}")]
            )
        newsroom = _newsroom_for(document)
        beat, _ = Beat.objects.get_or_create(
            newsroom=newsroom, slug=document["beat"], defaults={"title": _title_from_slug(document["beat"])}
        )
        edition_model = Story._meta.get_field("edition").related_model
        edition_model.objects.bulk_create([edition_model(key=document["edition"])], ignore_conflicts=True)
        _seed_manifests(document)

        story = story or Story(desk_id=desk_id)
        writer = document.get("writer")
        story.slug = document["slug"]
        story.dateline = dateline
        if created or story.status not in (Story.Status.PUBLISHED, Story.Status.RETRACTED):
            # New content: whatever checks the old content had, it waits to be submitted again.
            story.status = Story.Status.DRAFT
        story.newsroom = newsroom
        story.beat = beat
        story.edition_id = document["edition"]
        story.audience = document.get("audience")
        story.angle = document["angle"]
        story.headline = document["headline"]
        story.dek = document["dek"]
        story.published_at = live.published_at if live is not None else published_at
        story.trust = document["labels"]["trust"]
        story.writer_agent = writer["agent"] if writer else None
        story.writer_run_id = writer["run_id"] if writer else ""
        story.omitted_keys = [key for key in desk.OPTIONAL_LIST_KEYS if key not in document]
        _pin_site_texts(story, site_texts)
        try:
            # A savepoint, so a lost race for the id or the address is reported like any other
            # problem, and the outer block rolls back everything written before it.
            with transaction.atomic():
                story.save()
        except IntegrityError as error:
            raise desk.DeskError(
                [_lost_race(error, desk_id=desk_id, slug=document["slug"], dateline=dateline)]
            ) from None
        if not created:
            _delete_parts(story)
        _create_parts(story, document)
        if note is None:
            note = ("created" if created else "updated") + (" as a draft" if as_draft else "") + " by import"
        story_record_change(story=story, actor=actor, note=note, document=document)
    return ImportResult(story=story, created=created)


def _is_published_as(story: Story, document: dict[str, Any], site_texts: dict[str, SiteText | None]) -> bool:
    """The story is live with exactly this document's content, site-wide texts and corrections,
    its working copy holding nothing else: importing the document would change nothing."""
    if story.status != Story.Status.PUBLISHED or story.has_unpublished_changes:
        return False
    if desk.content_hash(document) != story.content_hash:
        return False
    # Not the disclosure: the gate pinned the one for the label the version passed with (an
    # unchecked story's, say), and would choose it again from the document's.
    pinned = {field: version for field, version in site_texts.items() if field != "disclosure"}
    if any(getattr(story, f"{field}_id") != (version.pk if version else None) for field, version in pinned.items()):
        return False
    # None was dropped (refused above), so the same number is the same corrections.
    return len(document.get("corrections", [])) == story.corrections.count()


def revision_as_restored(revision: Revision, story: Story) -> tuple[dict[str, Any], dict[str, Any]]:
    """The story's working copy now and what restoring ``revision`` would make of it, as desk/1
    documents: the revision's content, with the corrections readers were told and the intended
    publication time kept as they are now (neither is content). The desk shows the two's diff
    before it restores."""
    document = dict(revision.document)
    current = desk.export_story(Story.objects.with_parts().get(pk=story.pk))
    document.pop("corrections", None)
    if current.get("corrections"):
        document["corrections"] = current["corrections"]
    document.pop("published_at", None)
    if "published_at" in current:
        document["published_at"] = current["published_at"]
    return current, document


def story_restore_revision(*, revision: Revision, user: Any) -> Story:
    """Make a revision's content the story's working copy again, recorded as a new revision.

    The same path as an import (``story_import_desk``): every part is rewritten from the
    revision's desk/1 document, all or nothing. What is not content stays as it is now: the
    corrections readers were told, the story's dateline and intended publication time. A live
    story's slug cannot move, and a retracted story is not brought back: both are refused with
    a ``desk.DeskError`` naming the field. Readers get nothing new until a publish passes.
    """
    story = Story.objects.select_related("newsroom").get(pk=revision.story_id)
    if user is None or not may_write(user, story.newsroom_id):
        raise WorkflowPermissionDenied("Restoring a revision needs a role in the story's newsroom")
    target = Newsroom.objects.filter(slug=revision.document.get("newsroom")).first()
    if target is not None and target.pk != story.newsroom_id and not may_write(user, target.pk):
        raise WorkflowPermissionDenied("That revision belongs to a newsroom you have no role in")
    when = timezone.localtime(revision.created_at).strftime("%Y-%m-%d %H:%M %Z")
    result = story_import_desk(
        document=revision_as_restored(revision, story)[1],
        actor=actor_of(user),
        note=f"restored the revision of {when} (#{revision.pk}, by {revision.actor})",
        keep_dateline=True,
    )
    return result.story


def story_schedule(*, story: Story, user: Any, publish_at: datetime | None) -> Story:
    """Give a story a future publication time (``None`` takes it off the schedule).

    At that time the beat task takes it through the publish gate with the role of ``user``,
    who must be a chief of its newsroom; a refusal then is kept on the story, never skipped.
    """
    require_chief(user, story, "Scheduling a publication")
    if publish_at is not None:
        if timezone.is_naive(publish_at):
            raise WorkflowError("A publication time needs its time zone")
        if publish_at <= timezone.now():
            raise WorkflowError("A publication time must be in the future; to publish now, use Publish")
    with transaction.atomic():
        current = Story.objects.select_for_update().get(pk=story.pk)
        if current.status == Story.Status.RETRACTED:
            raise WorkflowError("A retracted story stays withdrawn; it cannot be scheduled")
        current.publish_at = publish_at
        current.scheduled_by = user if publish_at is not None else None
        current.schedule_problem = ""
        current.save(update_fields=["publish_at", "scheduled_by", "schedule_problem", "updated_at"])
        when = desk.format_utc(publish_at) if publish_at is not None else None
        note = f"scheduled for publication at {when}" if when else "taken off the publication schedule"
        story_record_change(story=current, actor=actor_of(user), note=note)
    return current


# --- The live version: what readers get --------------------------------------------------------
# Only the publish gate (verification.gate) freezes a version; corrections and retractions
# change the live one at once. Each sends ``story_changed`` after commit with the cache tags of
# every page that showed the story before or shows it after.


@dataclass(frozen=True)
class Artifacts:
    """What readers get, rendered from a desk/1 document by the renderer in settings."""

    page_html: str
    markdown: str
    search_text: str
    render_format: int


def _renderer() -> Any:
    # The renderer lives in the public site, a floor above; settings name it, as they name a
    # template or cache backend, so this room needs nothing from up there.
    return import_string(settings.STORY_ARTIFACT_RENDERER)


def _render(document: dict[str, Any], *, withdrawn: bool = False) -> Artifacts:
    return _renderer()(document, withdrawn=withdrawn)


def current_render_format() -> int:
    """The format the renderer in settings renders in: versions of another are rendered again."""
    return _renderer().render_format


def _fill_version(version: PublishedVersion, document: dict[str, Any], *, withdrawn: bool = False) -> None:
    artifacts = _render(document, withdrawn=withdrawn)
    version.document = desk.dumps(document)
    version.page_html = artifacts.page_html
    version.markdown = artifacts.markdown
    version.search_text = artifacts.search_text
    version.render_format = artifacts.render_format
    version.rendered_at = timezone.now()
    version.page_html_etag = etag_of(version.page_html.encode())
    version.document_etag = etag_of(version.document.encode())
    version.markdown_etag = etag_of(version.markdown.encode())
    version.page_html_gzip = gzipped(version.page_html.encode())
    version.document_gzip = gzipped(version.document.encode())
    version.markdown_gzip = gzipped(version.markdown.encode())
    version.correction_count = len(document.get("corrections", []))


def _announce(story: Story, action: str, tags: list[str]) -> None:
    transaction.on_commit(lambda: story_changed.send(sender=Story, story=story, action=action, tags=tags))


def version_freeze(*, story: Story, actor: str, gate: str, verification: dict[str, Any]) -> PublishedVersion:
    """Freeze the story's working copy as its live version, rendering what readers get.

    Called by the publish gate alone, inside its transaction, once the gate has opened for the
    story's current content (``gate`` says how: the passing run, or an override and its reason;
    ``verification`` is the record readers are told, ``labels.verification_record``).
    A republished story keeps its address and its first publication time.
    """
    story = Story.objects.with_parts().get(pk=story.pk)
    document = labels.document_with_record(desk.export_story(story), verification)
    if desk.content_hash(document) != story.content_hash:
        # Rows changed without their change being recorded: this is not the content the gate
        # opened for, so nothing is frozen.
        raise WorkflowError(
            f"Story {story.desk_id} changed since its content was last recorded; submit it again to check it"
        )
    version = PublishedVersion.objects.select_related("newsroom", "beat").filter(pk=story.pk).first()
    tags_before = version.cache_tags() if version is not None else []
    now = timezone.now()
    if version is None:
        version = PublishedVersion(story=story, desk_id=story.desk_id)
    version.dateline = story.dateline
    version.slug = story.slug
    version.newsroom = story.newsroom
    version.beat = story.beat
    version.edition_id = story.edition_id
    version.headline = story.headline
    version.dek = story.dek
    version.trust = story.trust
    version.source_count = document["source_count"]
    version.published_at = story.published_at or now
    version.modified_at = now
    version.content_hash = story.content_hash
    version.gate = gate[:400]
    version.published_by = actor
    version.withdrawn_at = None
    version.withdrawn_reason = ""
    version.flag = ""
    version.flagged_at = None
    version.label = verification["state"]
    version.verification = verification
    _fill_version(version, document)
    version.save()
    LiveCitation.objects.filter(version=version).delete()
    LiveCitation.objects.bulk_create(
        LiveCitation(version=version, manifest_id=manifest_id) for manifest_id in document["cited_manifest_ids"]
    )
    _announce(story, "published", sorted(set(tags_before) | set(version.cache_tags())))
    return version


def version_rerender(*, version: PublishedVersion) -> bool:
    """Render a live version again from its frozen document, with what the stores now say of
    its manifests, newsroom and beat, and the current render format. Its content stays what
    was checked. Returns whether anything readers get changed."""
    version = PublishedVersion.objects.select_related("newsroom", "beat", "story").get(pk=version.pk)
    document = desk.refresh_from_store(json.loads(version.document), newsroom_title=version.newsroom.title)
    # The record is what readers are told of the checks: the document says it as the row does.
    document = labels.document_with_record(document, version.verification)
    shown_before = (version.document, version.page_html, version.markdown, version.search_text)
    format_before = version.render_format
    _fill_version(version, document, withdrawn=version.withdrawn_at is not None)
    changed = (version.document, version.page_html, version.markdown, version.search_text) != shown_before
    if not changed and version.render_format == format_before:
        return False
    if changed:
        version.modified_at = timezone.now()
    version.save()
    if changed:
        _announce(version.story, "rerendered", version.cache_tags())
    return changed


def version_flag(*, version: PublishedVersion, flag: str, failed: list[str]) -> bool:
    """Set (or, with ``flag=""``, clear) a live version's re-check flag: ``flag`` is for its
    editors, and its page, twins and feeds carry a dated notice naming the ``failed`` checks
    until a chief acts (a republish, a retraction). Returns whether anything changed."""
    with transaction.atomic():
        version = (
            PublishedVersion.objects.select_for_update().select_related("newsroom", "beat", "story").get(pk=version.pk)
        )
        if version.flag == flag:
            return False
        now = timezone.now()
        record = labels.without_notice(
            version.verification
            or labels.verification_record(label=version.label, published_at=desk.format_utc(version.published_at))
        )
        if flag:
            record = labels.with_notice(record, at=desk.format_utc(now), failed=failed)
        version.flag = flag
        version.flagged_at = now if flag else None
        version.verification = record
        if version.withdrawn_at is None:
            _fill_version(version, labels.document_with_record(json.loads(version.document), record))
            version.modified_at = now
        version.save()
        _announce(version.story, "flagged" if flag else "unflagged", version.cache_tags())
    return True


# --- Workflow: what happens to a story after publication ---------------------------------------
# Submitting and publishing need verification runs and live in verification.workflow (this room
# never imports the one above it); retracting and correcting touch only the story.

# A retraction reason is kept in the revision's note, which holds 300 characters.
RETRACTION_REASON_MAX = 280


class WorkflowError(Exception):
    """A workflow step was refused; ``message`` says why, in words an editor can act on."""

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


class WorkflowPermissionDenied(WorkflowError):
    """The user lacks the permission the step needs."""


def actor_of(user: Any) -> str:
    """The name a revision records for a user."""
    return user.get_username() if user is not None else ""


def require_chief(user: Any, story: Story, what: str) -> None:
    """Refuse unless the user is a chief of the story's newsroom (a superuser is chief everywhere)."""
    if user is None or not may_publish(user, story.newsroom_id):
        raise WorkflowPermissionDenied(f"{what} needs the chief role in the story's newsroom")


def _written(text: Any, what: str) -> str:
    if not isinstance(text, str) or not text.strip():
        raise WorkflowError(f"{what} must be written out; it is empty")
    problem = text_problem(text, multiline=True)
    if problem:
        raise WorkflowError(f"{what} {problem}")
    return text.strip()


def story_retract(*, story: Story, user: Any, reason: str) -> Story:
    """Withdraw a published story at once: its live version becomes the withdrawn notice
    (410 Gone on the page and both twins), and its URL stays reserved.

    The reason is kept on the version and in the revision. Retracting a retracted story
    changes nothing.
    """
    reason = _written(reason, "A retraction reason")
    if len(reason) > RETRACTION_REASON_MAX:
        raise WorkflowError(f"A retraction reason is at most {RETRACTION_REASON_MAX} characters, not {len(reason)}")
    require_chief(user, story, "Retracting a story")
    with transaction.atomic():
        # Lock the story row: two retractions, or a retraction racing a publication or a
        # correction, change the story one after the other.
        current = Story.objects.select_for_update().get(pk=story.pk)
        version = PublishedVersion.objects.select_related("newsroom", "beat").filter(pk=current.pk).first()
        if version is not None and version.withdrawn_at is not None:
            return current
        if version is None:
            raise WorkflowError(f"Only a published story can be retracted; this one is {current.get_status_display()}")
        now = timezone.now()
        Story.objects.filter(pk=current.pk).update(status=Story.Status.RETRACTED, updated_at=now)
        current.status = Story.Status.RETRACTED
        version.withdrawn_at = now
        version.withdrawn_reason = reason
        version.modified_at = now
        _fill_version(version, json.loads(version.document), withdrawn=True)
        version.save()
        story_record_change(story=current, actor=actor_of(user), note=f"retracted: {reason}")
        _announce(current, "retracted", version.cache_tags())
    return current


def story_add_correction(*, story: Story, text: str, user: Any) -> Correction:
    """Append a correction, dated now, to a published story: to its live version at once (the
    page, both twins, feeds and JSON-LD) and to its working copy. Never edited away."""
    text = _written(text, "A correction")
    require_chief(user, story, "Correcting a story")
    with transaction.atomic():
        # Lock the story row so two corrections added at once take positions one after the other.
        current = Story.objects.select_for_update().get(pk=story.pk)
        version = PublishedVersion.objects.select_related("newsroom", "beat").filter(pk=current.pk).first()
        if version is None or version.withdrawn_at is not None:
            state = "retracted" if version is not None else current.get_status_display()
            raise WorkflowError(f"Only a published story can be corrected; this one is {state}")
        now = timezone.now()
        last = current.corrections.order_by("-position").values_list("position", flat=True).first()
        correction = Correction.objects.create(
            story=current, position=0 if last is None else last + 1, published_at=now, text=text
        )
        document = desk.with_correction(
            json.loads(version.document), {"published_at": desk.format_utc(now), "text": text}
        )
        version.modified_at = now
        _fill_version(version, document)
        version.save()
        story_record_change(story=current, actor=actor_of(user), note="correction added")
        _announce(current, "corrected", version.cache_tags())
    return correction
