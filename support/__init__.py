"""Is a passage backed by the claims it cites? The support check, free of Django.

One door: ``check(passage, claims, context, labels)`` gives the passage's verdict
(``supported``, ``unsupported`` or ``review``) and every reason, each with its stable code.
How it reads English is in this package's README; ``method`` holds the lexical tests and the
verdict, ``rules`` what a fact-checker looks for, ``text`` the words, stems and figures.
"""

from __future__ import annotations

from .method import REVIEW, SUPPORTED, UNSUPPORTED, Support, check

__all__ = ["REVIEW", "SUPPORTED", "UNSUPPORTED", "Support", "check"]
