"""The assertions of every rule's twin test: the supported paraphrase passes, the changed
passage does not, and one of its reasons says what was found."""

from __future__ import annotations

from collections.abc import Sequence

from support.method import REVIEW, UNSAID_VERB, Support, check

# What a paraphrase may be left for the desk for: a reporter's verb the claims do not say, and
# so how little of it the rules can show ('moved' for 'handled', 'declined' for 'refused').
REWORDED = {UNSAID_VERB, "low_coverage"}


def assert_passes_or_waits_on_its_verb(verdict: Support) -> None:
    """A faithful paraphrase is supported, or sent to review only because its verb is not the
    claims' own: never refused, never for another reason."""
    if verdict.supported:
        return
    assert verdict.verdict == REVIEW, verdict.reasons
    assert UNSAID_VERB in verdict.found, verdict.reasons
    assert {reason.code for reason in verdict.problems} <= REWORDED, verdict.reasons


def assert_twin_passes_and_change_is_caught(claims: Sequence[str], supported: str, changed: str, said: str) -> None:
    assert_passes_or_waits_on_its_verb(check(supported, claims))
    verdict = check(changed, claims)
    assert not verdict.supported
    assert any(said in reason for reason in verdict.reasons), verdict.reasons
