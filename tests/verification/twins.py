"""The one assertion of every rule's twin test: the supported paraphrase passes, the changed
passage fails, and one of its reasons says what was found."""

from __future__ import annotations

from collections.abc import Sequence

from verification.support import assess


def assert_twin_passes_and_change_is_caught(claims: Sequence[str], supported: str, changed: str, said: str) -> None:
    twin = assess(supported, claims)
    assert twin.supported, twin.reasons
    verdict = assess(changed, claims)
    assert not verdict.supported
    assert any(said in reason for reason in verdict.reasons), verdict.reasons
