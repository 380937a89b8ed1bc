"""The parts a run leaves to the desk, and what the desk decided about them.

The support check passes a part only when its rules can show the cited claims back it; a
part it can neither show nor refute is left for review (``CheckStatus.REVIEW``). An editor or
chief reads the passage beside the cited claims' texts and confirms its support or finds it
not supported (``ReviewDecision``, keyed by the hashes of exactly what was read).

``review_outcome`` says what a run that needs review amounts to for its story: every part
confirmed, it is as good as passed (the gate publishes it, auto-publish acts on it); one part
found not supported, the story failed; else it still waits on the desk.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field, replace

from manifests.models import Claim
from stories.models import Story
from stories.paths import describe_path

from .checks import checkable, claim_ids_of, parts
from .models import CheckStatus, ReviewDecision, VerificationRun


@dataclass(frozen=True)
class CitedClaim:
    manifest_id: str
    claim_id: str
    # None when the claim's text is not in the store.
    text: str | None


@dataclass(frozen=True)
class ReviewItem:
    """One part waiting on (or decided by) the desk: the passage, what it cites, and why the
    check could not vouch for it."""

    at: str
    passage: str
    claims: list[CitedClaim]
    # (code, message) for each reason the check gave.
    reasons: list[tuple[str, str]]
    passage_hash: str
    claims_hash: str
    decision: ReviewDecision | None = field(default=None, compare=False)

    @property
    def where(self) -> str:
        return describe_path(self.at)

    @property
    def state(self) -> str:
        """``open``, or the decision's verdict (``confirmed``, ``not_supported``)."""
        return self.decision.verdict if self.decision is not None else "open"


def _digest(value: object) -> str:
    return hashlib.sha256(json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode()).hexdigest()


def reading_hashes(passage: str, claims: list[CitedClaim]) -> tuple[str, str]:
    """The hashes a decision is kept under: the passage's text, and the cited claims' ids and
    texts in citation order."""
    return _digest(passage), _digest([[claim.manifest_id, claim.claim_id, claim.text] for claim in claims])


def review_problems(run: VerificationRun) -> dict[str, list[tuple[str, str]]]:
    """The run's problems left for review, by part path, in the order found."""
    found: dict[str, list[tuple[str, str]]] = {}
    for check in run.checks:
        for problem in check.get("problems", []):
            if problem.get("status") == CheckStatus.REVIEW:
                found.setdefault(problem["at"], []).append((problem.get("code", ""), problem["message"]))
    return found


def review_items(run: VerificationRun) -> list[ReviewItem]:
    """The parts the run left for review, as the story and the claim store hold them now, with
    the decision that matches what they say now (None when there is none, or it is stale).

    A fixed number of queries, whatever the story's size."""
    wanted = review_problems(run)
    if not wanted:
        return []
    story = checkable(Story.objects.filter(pk=run.story_id)).get()
    by_path = {part.at: part for part in parts(story) if part.at in wanted}
    manifest_ids = {cite.manifest_id for part in by_path.values() for cite in part.cites}
    texts = {
        (manifest_id, claim_id): text
        for manifest_id, claim_id, text in Claim.objects.filter(manifest__manifest_id__in=manifest_ids).values_list(
            "manifest__manifest_id", "claim_id", "text"
        )
    }
    items = []
    for at, reasons in wanted.items():
        part = by_path.get(at)
        passage = part.text if part is not None else ""
        claims = [
            CitedClaim(cite.manifest_id, str(claim_id), texts.get((cite.manifest_id, claim_id)))
            for cite in (part.cites if part is not None else [])
            for claim_id in claim_ids_of(cite)
        ]
        passage_hash, claims_hash = reading_hashes(passage, claims)
        items.append(ReviewItem(at, passage, claims, reasons, passage_hash, claims_hash))
    decisions = {
        (decision.passage_hash, decision.claims_hash): decision
        for decision in ReviewDecision.objects.filter(
            story_id=run.story_id, passage_hash__in=[item.passage_hash for item in items]
        )
    }
    return [replace(item, decision=decisions.get((item.passage_hash, item.claims_hash))) for item in items]


def review_outcome(run: VerificationRun, items: list[ReviewItem] | None = None) -> str:
    """What a run left for review now amounts to for its story: ``Story.Status.VERIFIED`` when
    the desk confirmed every part, ``FAILED`` when it found one not supported, else ``REVIEW``."""
    items = review_items(run) if items is None else items
    states = {item.state for item in items}
    if ReviewDecision.Verdict.NOT_SUPPORTED in states:
        return Story.Status.FAILED
    if items and states == {ReviewDecision.Verdict.CONFIRMED}:
        return Story.Status.VERIFIED
    return Story.Status.REVIEW


def run_allows_publication(run: VerificationRun) -> bool:
    """Passed, overridden, or left for review with every part confirmed by the desk on what
    the parts and their cited claims say now."""
    if run.allows_publication:
        return True
    return run.status == VerificationRun.Status.REVIEW and review_outcome(run) == Story.Status.VERIFIED
