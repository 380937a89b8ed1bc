"""The five checks behind every published story's promise.

Each is a plain function of a story that returns a ``CheckResult``: ``pass``, ``fail``,
``unknown`` (it could not decide: the provider is down, a claim's text is not known) or
``review`` (it found nothing wrong it can be sure of, but cannot vouch for a part either: the
desk reads it and confirms), with problems that point into the story by desk/1 path
(``key_facts[2]``, ``sections[1].paragraphs[0].cites[0]``, ``$`` for the whole story), say what
to fix, and carry a stable ``code`` for programs and their own status.

A check reads the story's parts from the prefetch cache when the caller loaded them with
``checkable()`` (a run loads them once for all five), and otherwise loads them itself. The
number of queries a check makes does not grow with the story.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import UTC, date, timedelta
from typing import Any

from django.conf import settings
from django.db.models import Count, Exists, Prefetch, Q, prefetch_related_objects
from django.utils import timezone

import support
from manifests.models import Claim, Manifest
from manifests.services import manifests_fetch
from stories.models import Cite, Paragraph, PublishedVersion, Story

from . import repeat
from .models import CHECK_SEVERITY, CheckStatus, StorySignature, StorySignatureKey

PART_RELATIONS = ("key_facts", "sections", Prefetch("paragraphs", Paragraph.objects.order_by("position")), "cites")
# At most this many stories sharing index keys are compared in full.
REPEAT_CANDIDATE_LIMIT = 50


@dataclass(frozen=True)
class Finding:
    """One problem a check found: where (a desk/1 path), what to do about it, a stable code
    (``claim_not_in_manifest``, ``figure_mismatch``...) and its own status: it fails the check,
    leaves it undecided, or asks the desk to review the part."""

    at: str
    message: str
    code: str
    status: str

    def __str__(self) -> str:
        return f"{self.at}: {self.message}"

    def as_dict(self) -> dict[str, str]:
        return {"at": self.at, "message": self.message, "code": self.code, "status": self.status}


@dataclass(frozen=True)
class CheckResult:
    name: str
    status: str
    problems: list[Finding] = field(default_factory=list)
    # Facts a person may want even when the check passes (not_repeat: the closest story).
    details: dict[str, Any] = field(default_factory=dict)

    def as_dict(self) -> dict[str, Any]:
        return {"name": self.name, "status": self.status, "problems": [problem.as_dict() for problem in self.problems]}


class _Findings:
    """Problems as a check finds them: failing it, leaving it undecided, or for the desk's review.

    The check's status is its worst problem's (``CheckStatus.worst``); problems are listed
    worst first, in the order found within each status.
    """

    def __init__(self, name: str):
        self.name = name
        self.found: list[Finding] = []

    def fail(self, at: str, message: str, *, code: str) -> None:
        self.found.append(Finding(at, message, code, str(CheckStatus.FAIL)))

    def unknown(self, at: str, message: str, *, code: str) -> None:
        self.found.append(Finding(at, message, code, str(CheckStatus.UNKNOWN)))

    def review(self, at: str, message: str, *, code: str) -> None:
        self.found.append(Finding(at, message, code, str(CheckStatus.REVIEW)))

    def result(self, **details: Any) -> CheckResult:
        status = CheckStatus.worst(problem.status for problem in self.found)
        problems = sorted(self.found, key=lambda problem: CHECK_SEVERITY[problem.status])
        return CheckResult(self.name, str(status), problems, details)


# --- The story's parts ---------------------------------------------------------------------


@dataclass(frozen=True)
class Part:
    """A key fact or a paragraph: its desk/1 path, its text and its cites in order."""

    at: str
    text: str
    cites: list[Cite]


def checkable(queryset: Any = None) -> Any:
    """Stories with everything the checks read, in a fixed number of queries."""
    queryset = Story.objects.all() if queryset is None else queryset
    return queryset.prefetch_related(*PART_RELATIONS)


def _ensure_parts(story: Story) -> None:
    cache = getattr(story, "_prefetched_objects_cache", {})
    if not all(name in cache for name in ("key_facts", "sections", "paragraphs", "cites")):
        prefetch_related_objects([story], *PART_RELATIONS)


def parts(story: Story) -> list[Part]:
    """Key facts, then paragraphs section by section, each with its cites in order."""
    _ensure_parts(story)
    by_fact: dict[int, list[Cite]] = defaultdict(list)
    by_paragraph: dict[int, list[Cite]] = defaultdict(list)
    for cite in sorted(story.cites.all(), key=lambda cite: cite.position):
        if cite.key_fact_id:
            by_fact[cite.key_fact_id].append(cite)
        else:
            by_paragraph[cite.paragraph_id].append(cite)
    found = [
        Part(f"key_facts[{index}]", fact.text, by_fact[fact.pk])
        for index, fact in enumerate(sorted(story.key_facts.all(), key=lambda fact: fact.position))
    ]
    section_index = {
        section.pk: index
        for index, section in enumerate(sorted(story.sections.all(), key=lambda section: section.position))
    }
    paragraphs: dict[int, list[Paragraph]] = defaultdict(list)
    for paragraph in story.paragraphs.all():
        paragraphs[paragraph.section_id].append(paragraph)
    for section_id, index in sorted(section_index.items(), key=lambda item: item[1]):
        for number, paragraph in enumerate(sorted(paragraphs[section_id], key=lambda p: p.position)):
            at = f"sections[{index}].paragraphs[{number}]"
            found.append(Part(at, paragraph.markdown, by_paragraph[paragraph.pk]))
    return found


def claim_ids_of(cite: Cite) -> list[Any]:
    """A cite's claim ids; anything but a list (an admin slip) counts as no ids at all."""
    return cite.claim_ids if isinstance(cite.claim_ids, list) else []


def _cited_manifests(story_parts: list[Part]) -> dict[str, list[str]]:
    """Each cited manifest id, in order of first citation, with the paths of the parts citing it."""
    cited: dict[str, list[str]] = {}
    for part in story_parts:
        for cite in part.cites:
            places = cited.setdefault(cite.manifest_id, [])
            if part.at not in places:
                places.append(part.at)
    return cited


def _also(places: list[str]) -> str:
    if len(places) <= 1:
        return ""
    shown = ", ".join(places[1:4]) + (f" and {len(places) - 4} more" if len(places) > 4 else "")
    return f" (also cited at {shown})"


def _stored(manifest_ids: Iterable[str]) -> dict[str, Manifest]:
    return {
        manifest.manifest_id: manifest
        for manifest in Manifest.objects.filter(manifest_id__in=list(manifest_ids)).annotate(
            claim_count=Count("claims")
        )
    }


def _origin_note(manifest: Manifest) -> str:
    if manifest.origin == Manifest.Origin.STORY_IMPORT:
        return "it is known only from a story import, without its claims"
    return "it has no claims in the store"


# --- 1. Manifests exist --------------------------------------------------------------------


def manifests_exist(story: Story) -> CheckResult:
    """Every cited manifest is in the store, or is fetched from the provider now.

    A manifest known only from a story import has no claim texts; it exists, and the provider
    is asked for its claims so the later checks can read them. The provider saying "no such
    manifest" fails the check; the provider being unreachable leaves it unknown.
    """
    findings = _Findings("manifests_exist")
    cited = _cited_manifests(parts(story))
    stored = _stored(cited)
    wanted = [manifest_id for manifest_id in cited if not getattr(stored.get(manifest_id), "claim_count", 0)]
    outcomes = manifests_fetch(manifest_ids=wanted) if wanted else {}
    for manifest_id, outcome in outcomes.items():
        places = cited[manifest_id]
        manifest = stored.get(manifest_id)
        # A story import only repeats what another story said; every other origin (a file, an
        # editor, the provider itself) is an existing manifest whatever the provider says now.
        attested = manifest is not None and manifest.origin != Manifest.Origin.STORY_IMPORT
        if outcome.status == "missing" and not attested:
            known = " (a story import listed it, but the provider has no such manifest)" if manifest else ""
            findings.fail(
                places[0],
                f"manifest {manifest_id} does not exist{known}: {outcome.message}; cite an existing manifest"
                + _also(places),
                code="manifest_missing",
            )
        elif outcome.status == "error" and manifest is None:
            findings.unknown(
                places[0],
                f"manifest {manifest_id} is not in the store and the provider could not be asked: "
                f"{outcome.message}" + _also(places),
                code="provider_unreachable",
            )
    return findings.result()


# --- 2. Manifests are recent ---------------------------------------------------------------


def _reference_date(story: Story) -> tuple[date, str]:
    if story.published_at is not None:
        day = story.published_at.astimezone(UTC).date()
        return day, f"the story ({day.isoformat()})"
    day = timezone.now().astimezone(UTC).date()
    return day, f"today ({day.isoformat()}; the story is not published)"


def manifests_recent(story: Story) -> CheckResult:
    """Every cited manifest was published within VERIFY_RECENT_DAYS before the story (or
    before today for an unpublished story), and not after it."""
    findings = _Findings("manifests_recent")
    cited = _cited_manifests(parts(story))
    dates = Manifest.objects.filter(manifest_id__in=list(cited)).values_list("manifest_id", "published_date")
    stored = dict(dates)
    window = settings.VERIFY_RECENT_DAYS
    reference, described = _reference_date(story)
    for manifest_id, places in cited.items():
        at, also = places[0], _also(places)
        if manifest_id not in stored:
            findings.unknown(
                at,
                f"manifest {manifest_id} is not in the store, so its date is unknown{also}",
                code="manifest_not_stored",
            )
            continue
        published = stored[manifest_id]
        if published is None:
            findings.unknown(
                at, f"manifest {manifest_id} has no published date in the store{also}", code="manifest_undated"
            )
        elif published > reference:
            days = (published - reference).days
            findings.fail(
                at,
                f"manifest {manifest_id} was published {published.isoformat()}, {days} day{'s' * (days != 1)} "
                f"after {described}; a story cannot rest on a later source{also}",
                code="manifest_after_story",
            )
        elif published < reference - timedelta(days=window):
            days = (reference - published).days
            findings.fail(
                at,
                f"manifest {manifest_id} was published {published.isoformat()}, {days} days before {described}; "
                f"sources must be at most {window} days old{also}",
                code="manifest_too_old",
            )
    return findings.result(window_days=window, reference_date=reference.isoformat())


# --- 3. Claims belong ----------------------------------------------------------------------


def claims_belong(story: Story) -> CheckResult:
    """Every cited claim id is a claim of the manifest it is cited with.

    Membership is an exact lookup of the (manifest id, claim id) pair of strings in the claim
    store; ids are opaque, so nothing is ever inferred from their digits. A manifest whose
    claims are not in the store leaves its cites unknown.
    """
    findings = _Findings("claims_belong")
    story_parts = parts(story)
    cited = _cited_manifests(story_parts)
    stored = _stored(cited)
    pairs = set(
        Claim.objects.filter(manifest__manifest_id__in=list(stored)).values_list("manifest__manifest_id", "claim_id")
    )
    strays: list[tuple[str, Cite, str]] = []
    for part in story_parts:
        for number, cite in enumerate(part.cites):
            at = f"{part.at}.cites[{number}]"
            manifest = stored.get(cite.manifest_id)
            if manifest is None:
                findings.unknown(
                    at,
                    f"manifest {cite.manifest_id} is not in the store; its claims cannot be checked",
                    code="manifest_not_stored",
                )
                continue
            if not manifest.claim_count:
                findings.unknown(
                    at,
                    f"manifest {cite.manifest_id} has no claims to check against: {_origin_note(manifest)}",
                    code="claims_not_stored",
                )
                continue
            if not isinstance(cite.claim_ids, list):
                findings.fail(
                    at,
                    f"claim_ids must be a list of claim id strings, not {cite.claim_ids!r}",
                    code="claim_ids_not_list",
                )
                continue
            for claim_id in cite.claim_ids:
                if not isinstance(claim_id, str):
                    findings.fail(
                        at,
                        f"claim id {claim_id!r} is not a string; claim ids are written as strings",
                        code="claim_id_not_string",
                    )
                elif (cite.manifest_id, claim_id) not in pairs:
                    strays.append((at, cite, claim_id))
    if strays:
        # Where do the stray ids belong? One more query, only when something is wrong.
        homes: dict[str, list[str]] = defaultdict(list)
        for claim_id, manifest_id in Claim.objects.filter(
            claim_id__in={claim_id for _, _, claim_id in strays}
        ).values_list("claim_id", "manifest__manifest_id"):
            homes[claim_id].append(manifest_id)
        for at, cite, claim_id in strays:
            elsewhere = homes.get(claim_id)
            hint = (
                f"; it is a claim of manifest {', '.join(sorted(elsewhere))}: cite it with that manifest"
                if elsewhere
                else "; no manifest in the store has a claim with this id"
            )
            findings.fail(
                at,
                f"claim {claim_id} is not a claim of manifest {cite.manifest_id}{hint}",
                code="claim_not_in_manifest",
            )
    return findings.result()


# --- 4. Not a repeat -----------------------------------------------------------------------


def story_texts(story: Story, story_parts: list[Part] | None = None) -> list[str]:
    """What the repeat check compares: headline, dek, key facts and paragraphs."""
    story_parts = parts(story) if story_parts is None else story_parts
    return [story.headline, story.dek, *(part.text for part in story_parts)]


def _repeat_window(story: Story) -> tuple[Any, Any, Any]:
    """The story's time (now for one not dated yet) and the window either side of it."""
    reference = story.published_at or timezone.now()
    window = timedelta(days=settings.REPEAT_WINDOW_DAYS)
    return reference, reference - window, reference + window


def _may_repeat(story: Story, start: Any, end: Any, *, via: str = "story__") -> Q:
    """The published stories this one may repeat: those dated within the window either side of
    its time, each a story out before it. A document's time is its writer's to set (agents stamp
    a batch or an edition with one time, and a copy may carry its original's time or an earlier
    one), so what came first is read from the stories themselves: every published story came
    before one not yet published; for one already out (checked again), those written before it
    (a lower key), so an original never repeats its own copy. "Out" is this content: a live story
    edited since is judged as any story not yet out. Another newsroom's story counts once readers
    can see it: one scheduled for later is not for this newsroom to learn of, not even its name.
    ``via`` is the way from the model queried to its story ("" for Story itself)."""
    # In the same statement as the candidates, not a query of its own: is this content out already?
    out_already = Exists(PublishedVersion.objects.filter(pk=story.pk, content_hash=story.content_hash))
    visible = Q(published_at__lte=timezone.now()) | Q(**{f"{via}newsroom_id": story.newsroom_id})
    return (
        Q(published_at__gte=start, published_at__lte=end) & visible & (~out_already | Q(**{f"{via}pk__lt": story.pk}))
    )


def not_repeat(story: Story) -> CheckResult:
    """The story is not a near-duplicate of a story out before it and dated within
    REPEAT_WINDOW_DAYS of it (``_may_repeat``).

    Compares text (MinHash of headline, dek and body) and cited manifests with the handful of
    published stories that share an index key with it, and names the closest one.
    """
    findings = _Findings("not_repeat")
    story_parts = parts(story)
    feature_set = repeat.features(story_texts(story, story_parts))
    if not feature_set:
        findings.unknown("$", "the story has no text to compare with other stories", code="no_text")
        return findings.result()
    signature = repeat.minhash(feature_set)
    manifest_ids = list(_cited_manifests(story_parts))
    reference, start, end = _repeat_window(story)
    keys = repeat.index_keys(signature, manifest_ids)
    shared = (
        StorySignatureKey.objects.filter(_may_repeat(story, start, end), key__in=keys)
        .exclude(story_id=story.pk)
        .values("story_id")
        .annotate(shared=Count("id"))
        .order_by("-shared", "story_id")[:REPEAT_CANDIDATE_LIMIT]
    )
    candidate_ids = [row["story_id"] for row in shared]
    candidates = StorySignature.objects.filter(
        story_id__in=candidate_ids, story__status=Story.Status.PUBLISHED
    ).select_related("story")
    best: tuple[repeat.Scores, StorySignature] | None = None
    for candidate in candidates:
        scores = repeat.Scores(
            text=repeat.text_similarity(signature, repeat.unpack(candidate.minhash)),
            manifests=repeat.manifest_overlap(manifest_ids, candidate.manifest_ids),
        )
        if best is None or (scores.combined, scores.text) > (best[0].combined, best[0].text):
            best = (scores, candidate)
    window = f"the {settings.REPEAT_WINDOW_DAYS} days either side of {reference.astimezone(UTC):%Y-%m-%d %H:%M}"
    if best is None:
        if _index_missing(story, start, end):
            findings.unknown(
                "$",
                f"published stories in {window} are not in the repeat index; run "
                "'manage.py index_story_signatures' to build it",
                code="repeat_index_missing",
            )
        return findings.result(closest=None, candidates=0)
    scores, closest = best
    other = closest.story
    details = {
        "closest": {
            "id": str(other.desk_id),
            "slug": other.slug,
            "url": other.absolute_url(),
            "published_at": other.published_at.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
        },
        "scores": {
            "text": round(scores.text, 3),
            "manifests": round(scores.manifests, 3),
            "combined": round(scores.combined, 3),
        },
        "candidates": len(candidate_ids),
    }
    if scores.is_repeat:
        findings.fail(
            "$",
            f"repeats story {other.desk_id} '{other.slug}' ({other.absolute_url()}), published "
            f"{other.published_at.astimezone(UTC):%Y-%m-%d}: {scores.describe()}; {repeat.thresholds_text()}. "
            "Make it a follow-up with new facts, or update the earlier story instead",
            code="repeat",
        )
    return findings.result(**details)


def _index_missing(story: Story, start: Any, end: Any) -> bool:
    """No candidate at all: is that because the window is empty, or because it is not indexed?"""
    window_stories = Story.objects.filter(
        _may_repeat(story, start, end, via=""), status=Story.Status.PUBLISHED
    ).exclude(pk=story.pk)
    if not window_stories.exists():
        return False
    return not StorySignature.objects.filter(_may_repeat(story, start, end)).exclude(story_id=story.pk).exists()


# --- 5. Paragraphs supported ---------------------------------------------------------------


def paragraphs_supported(story: Story) -> CheckResult:
    """Every key fact and paragraph cites a claim and is backed by the cited claims' texts.

    See ``support`` for the method. Each passage gets a verdict: a supported one
    has no problem; an unsupported one (a contradiction or a figure the claims do not give) fails
    the check with its reasons; any other is for the desk's review, with why the rules could not
    show it. Every reason carries the code its rule gives. A passage whose cited claims' texts
    are not all known (a manifest known only from a story import) is unknown rather than failed
    or reviewed when the known texts do not back it.
    """
    findings = _Findings("paragraphs_supported")
    story_parts = parts(story)
    cited = _cited_manifests(story_parts)
    manifests = _stored(cited)
    texts = {
        (manifest_id, claim_id): text
        for manifest_id, claim_id, text in Claim.objects.filter(manifest__manifest_id__in=list(cited)).values_list(
            "manifest__manifest_id", "claim_id", "text"
        )
    }
    for part in story_parts:
        claim_refs = [(cite.manifest_id, claim_id) for cite in part.cites for claim_id in claim_ids_of(cite)]
        if not claim_refs:
            findings.fail(
                part.at, "cites no claim: every key fact and paragraph must cite at least one claim", code="uncited"
            )
            continue
        known_refs = [ref for ref in claim_refs if ref in texts]
        known = [texts[ref] for ref in known_refs]
        unreadable = sorted(
            {
                manifest_id
                for manifest_id, _ in claim_refs
                if manifest_id not in manifests or not manifests[manifest_id].claim_count
            }
        )
        if not known:
            if unreadable:
                findings.unknown(
                    part.at,
                    f"the texts of the cited claims are not in the store (manifest {', '.join(unreadable)}), "
                    "so support cannot be judged",
                    code="claim_texts_not_stored",
                )
            else:
                findings.fail(
                    part.at,
                    "none of the cited claims exists in its manifest (see claims_belong)",
                    code="no_cited_claim_exists",
                )
            continue
        context = [
            text
            for manifest_id in dict.fromkeys(manifest_id for manifest_id, _ in claim_refs)
            if manifest_id in manifests
            for text in (manifests[manifest_id].title, manifests[manifest_id].brief_headline)
            if text
        ]
        # Reasons name claims by id ('claim c1 says ...'), with the manifest when several are cited.
        several = len({manifest_id for manifest_id, _ in known_refs}) > 1
        labels = [f"claim {f'{m}/' if several else ''}{c}" for m, c in known_refs]
        verdict = support.check(part.text, known, context, labels)
        if verdict.supported:
            continue
        for reason in verdict.problems:
            if unreadable:
                findings.unknown(
                    part.at,
                    f"{reason} (some cited claims' texts are not in the store: manifest {', '.join(unreadable)})",
                    code=reason.code,
                )
            elif verdict.verdict == support.UNSUPPORTED:
                findings.fail(part.at, reason.text, code=reason.code)
            else:
                findings.review(part.at, reason.text, code=reason.code)
    return findings.result()


CHECKS: tuple[tuple[str, Callable[[Story], CheckResult]], ...] = (
    ("manifests_exist", manifests_exist),
    ("manifests_recent", manifests_recent),
    ("claims_belong", claims_belong),
    ("not_repeat", not_repeat),
    ("paragraphs_supported", paragraphs_supported),
)
"""The checks in the order a run performs them: manifests_exist first, as it may fetch
manifests the later checks read."""
