"""What readers are told was checked, for the published version in front of them.

Every published version records how it passed the gate (``PublishedVersion.label`` and
``.verification``): ``checked`` (every check passed), ``confirmed`` (every check passed, some
parts' support confirmed by the desk), ``overridden`` (a chief published over failed checks,
with a written reason) or ``unchecked`` (an archive imported with ``--unchecked --reason``).
Only the first two carry the checks' promise. A live version whose re-check failed carries a
dated notice until a chief acts.

The record is also the desk/1 document's derived ``verification`` key, which the page, the
Markdown twin, the JSON-LD, the feeds and the API all read, so they say the same. A ``checked``
version without a notice has no such key: its document stays exactly the desk/1 document
(the seeds round-trip byte for byte).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from newsroom.models import PROMISE_LABELS, PROMISE_WORDS, Label

DOCUMENT_KEY = "verification"

# What each check vouches for, in the promise's own words (DESIGN.md), by the check's name.
CHECK_WORDS = {
    "manifests_exist": "every cited manifest exists",
    "manifests_recent": "every cited manifest is recent",
    "claims_belong": "every cited claim id belongs to its manifest",
    "not_repeat": "the story does not repeat a recent story",
    "paragraphs_supported": "each paragraph is supported by the claims it cites",
}
STATUS_WORDS = {"fail": "failed", "unknown": "could not be decided", "review": "left for review", "pending": "not run"}

# The label's name as a reader reads it, before its sentence.
TITLES = {
    Label.CHECKED: "Checked",
    Label.CONFIRMED: "Checked, with the desk",
    Label.OVERRIDDEN: "Published over failed checks",
    Label.UNCHECKED: "Published without checks",
}

EVIDENCE_CHECKED = "checked"
EVIDENCE_CONFIRMED = "confirmed by the desk"


def check_words(name: str) -> str:
    return CHECK_WORDS.get(name, name.replace("_", " "))


def verification_record(
    *,
    label: str,
    published_at: str,
    run_id: int | None = None,
    checks: list[dict[str, Any]] | None = None,
    reason: str = "",
    confirmed: list[str] | None = None,
) -> dict[str, Any]:
    """The record a version keeps of how it passed: its label, when, the run and each check's
    name and status, the reason (an override's, an unchecked import's) and the parts whose
    support the desk confirmed. No names of people: it is shown to readers."""
    if label not in Label.values:
        raise ValueError(f"label: {label!r} is not one of {', '.join(Label.values)}")
    record: dict[str, Any] = {
        "state": label,
        "published_at": published_at,
        "run_id": str(run_id) if run_id is not None else None,
        "checks": [{"name": check["name"], "status": check["status"]} for check in checks or []],
    }
    if reason:
        record["reason"] = reason
    if confirmed:
        record["confirmed"] = list(confirmed)
    return record


def with_notice(record: dict[str, Any], *, at: str, failed: list[str]) -> dict[str, Any]:
    """The record with a re-check's notice: when it ran and which checks no longer pass."""
    return {**record, "notice": {"rechecked_at": at, "failed": list(failed)}}


def without_notice(record: dict[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in record.items() if key != "notice"}


def document_with_record(document: dict[str, Any], record: dict[str, Any]) -> dict[str, Any]:
    """The published document with its ``verification`` key, last, or without one for a plain
    ``checked`` version (whose document is the desk/1 document exactly as written)."""
    document = {key: value for key, value in document.items() if key != DOCUMENT_KEY}
    if not record or (record["state"] == Label.CHECKED and "notice" not in record):
        return document
    if record["state"] not in PROMISE_LABELS and PROMISE_WORDS in document.get("disclosure", ""):
        # The gate pins a text written for the label; a version published before texts had
        # labels still carries its day's promise, which it did not keep: the twin and page drop it.
        del document["disclosure"]
    document[DOCUMENT_KEY] = record
    return document


@dataclass(frozen=True)
class Shown:
    """A version's record as readers are told it: one sentence, per-part evidence, a notice."""

    record: dict[str, Any]

    @classmethod
    def of(cls, document: dict[str, Any]) -> Shown:
        """What a published document says of its checks (no key: ``checked``)."""
        return cls(document.get(DOCUMENT_KEY) or {"state": Label.CHECKED, "checks": []})

    @property
    def state(self) -> str:
        return self.record["state"]

    @property
    def promised(self) -> bool:
        """Whether every check passed on this version: only then may it carry the promise."""
        return self.state in PROMISE_LABELS

    @property
    def title(self) -> str:
        return TITLES[self.state]

    @property
    def failed(self) -> list[dict[str, Any]]:
        return [check for check in self.record.get("checks", []) if check["status"] != "pass"]

    def summary(self) -> str:
        """One plain sentence of what was checked on this version."""
        # After a failed re-check the pass is history, and the sentence says so.
        passed = (
            "When it was published, every server-side check passed on this version"
            if self.notice
            else "Every server-side check passed on this version"
        )
        if self.state == Label.CHECKED:
            return f"{passed}."
        if self.state == Label.CONFIRMED:
            count = len(self.record.get("confirmed", []))
            parts = f"{count} part{'s' * (count != 1)}"
            return f"{passed}; the desk confirmed the support of {parts} the rules could not show."
        reason = self.record.get("reason", "")
        if self.state == Label.OVERRIDDEN:
            failed = "; ".join(
                f"{check_words(check['name'])}: {STATUS_WORDS.get(check['status'], check['status'])}"
                for check in self.failed
            )
            return (
                f"Published by the desk over checks that did not pass on this version ({failed or 'not recorded'}). "
                f"The desk's reason: {reason}"
            )
        return f"Published without server-side checks. The reason: {reason}"

    @property
    def notice(self) -> dict[str, Any] | None:
        return self.record.get("notice")

    def notice_text(self) -> str:
        """The re-check's notice, dated, naming what no longer passes ("" when there is none)."""
        if not self.notice:
            return ""
        failed = self.notice.get("failed", [])
        day = self.notice["rechecked_at"][:10]
        if not failed:
            return (
                f"Notice of {day}: a claim this story cites changed after publication, and this version "
                "could not be checked again yet. The desk has been told."
            )
        what = "; ".join(check_words(name) for name in failed)
        return (
            f"Re-checked on {day}: a claim this story cites changed after publication, and this no "
            f"longer passes: {what}. The desk has been told."
        )

    def evidence(self, path: str) -> str:
        """What the page says of one part's support: "checked", "confirmed by the desk", or
        nothing where the version did not pass its checks, or no longer does (a notice)."""
        if not self.promised or self.notice:
            return ""
        return EVIDENCE_CONFIRMED if path in self.record.get("confirmed", ()) else EVIDENCE_CHECKED
