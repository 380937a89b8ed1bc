"""Which words the cited claims back: ``Backing`` (stems, synonym groups, movements, and
nominalisations by their roots: 'reduction' for 'reduced'), ``same_word`` for two tokens, and
``weight``, what a word counts for in coverage (light words less).
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from functools import lru_cache

from .. import text as lex
from .tokens import Clause, Token, _key
from .words import LIGHT, LIGHT_WEIGHT, POLARITY, POLARITY_STEMS, SYNONYMS


def _all_stems(claim: Clause) -> frozenset[str]:
    """Every word's stem, as the rules read words and as ``lex.words`` does (hyphens split)."""
    if claim.all_stems is None:
        claim.all_stems = frozenset({t.stem for t in claim.tokens if t.kind == "word"}) | {
            lex.stem(word) for word in lex.words(claim.text)
        }
    return claim.all_stems


class Backing:
    """What the cited claims say, word by word: stems (with the six-letter prefix match) and
    synonym groups."""

    def __init__(self, claims: Sequence[Clause]):
        stems: set[str] = set()
        for claim in claims:
            stems |= _all_stems(claim)
        self.index = lex.StemIndex(stems)
        self.keys = {_key(item) for item in stems}
        self.groups = frozenset(group for item in stems for group in SYNONYMS.get(item, ()))
        self.directions = {POLARITY_STEMS[item] for item in stems if item in POLARITY_STEMS}
        # Every movement, outcome and rank the claims state: 'blocked' says what 'rejected' says.
        self.polarities = {POLARITY[t.low] for claim in claims for t in claim.tokens if t.low in POLARITY}
        # Stems the claims use only inside names: 'air' of 'Norvik Air' backs no plain 'air'.
        in_names = {t.stem for claim in claims for t in claim.tokens if t.name}
        in_words = {t.stem for claim in claims for t in claim.tokens if t.kind == "word" and not t.name}
        self.name_only = in_names - in_words
        # The words the claims' nominalisations were made from, by their first letters.
        self.roots: dict[str, set[str]] = {}
        self.by_start: dict[str, set[str]] = {}
        for item in stems:
            self.by_start.setdefault(item[:MIN_ROOT], set()).add(item)
            for root in _roots(item)[1:]:
                self.roots.setdefault(root[:MIN_ROOT], set()).add(root)

    def add(self, stems: set[str]) -> None:
        if stems:
            self.index = lex.StemIndex(self.index.stems | stems)
            self.keys |= {_key(item) for item in stems}
            for item in stems:
                self.by_start.setdefault(item[:MIN_ROOT], set()).add(item)
                for root in _roots(item)[1:]:
                    self.roots.setdefault(root[:MIN_ROOT], set()).add(root)

    def __contains__(self, stem: str) -> bool:
        return self.backs(stem)

    def backs(self, stem: str) -> bool:
        if stem in self.index or _key(stem) in self.keys or not self.groups.isdisjoint(SYNONYMS.get(stem, ())):
            return True
        if POLARITY_STEMS.get(stem) in self.directions:
            return True  # 'lower' for 'dropped': the same movement
        if _derived_from(stem, self.by_start, self.roots):
            return True  # 'reduction' for 'reduced', 'approval' for 'approved', and the reverse
        # Compounds: 'buy' in 'buyback', 'photo' in 'photograph'.
        return len(stem) >= 3 and any(
            (other.startswith(stem) and len(other) >= max(len(stem) + 3, 5))
            or (len(other) >= 4 and stem.startswith(other) and len(stem) >= len(other) + 3)
            for other in self.index.stems
        )


# Suffixes that make a noun of a verb (or an adjective of a noun), as the stemmer leaves them:
# 'reduction', 'approval', 'closure' ('closur'), 'performance' ('performanc'), 'investor'.
_DERIVING = ("ation", "ition", "ion", "al", "ur", "anc", "enc", "or", "ment", "th")
MIN_ROOT = 4


@lru_cache(maxsize=16384)
def _roots(stem: str) -> tuple[str, ...]:
    """A stem and, when it ends in a deriving suffix, what is left without it: the word the
    noun was made from ('reduct' of 'reduction', 'approv' of 'approval')."""
    found = [stem]
    for suffix in _DERIVING:
        if stem.endswith(suffix) and len(stem) - len(suffix) >= MIN_ROOT:
            found.append(stem[: -len(suffix)])
            break
    return tuple(found)


def _same_root(a: str, b: str) -> bool:
    """Two roots of one word, the noun's spelling drifting at its end: 'reduct'/'reduc',
    'decis'/'decid', 'expans'/'expand', 'acquisit'/'acquir'."""
    shared = next((i for i, (x, y) in enumerate(zip(a, b, strict=False)) if x != y), min(len(a), len(b)))
    return shared >= max(MIN_ROOT, min(len(a), len(b)) - 1)


def _derived_from(stem: str, stems: dict[str, set[str]], roots: dict[str, set[str]]) -> bool:
    """Whether a stem is a nominalisation of a claim's word, or the word of a claim's
    nominalisation (``roots``: the claims' stripped roots by their first letters). Two plain
    stems are not compared this way: 'plan' is no root of 'plant'."""
    mine = _roots(stem)
    if len(mine) > 1:
        root = mine[1]
        start = root[:MIN_ROOT]
        candidates = itertools.chain(roots.get(start, ()), stems.get(start, ()))
        if any(_same_root(root, other) for other in candidates):
            return True
    return any(_same_root(stem, other) for other in roots.get(stem[:MIN_ROOT], ()))


def weight(stem: str) -> float:
    return LIGHT_WEIGHT if stem in LIGHT else 1.0


def same_word(a: Token, b: Token) -> bool:
    return (
        a.key == b.key
        or lex.stems_match(a.stem, b.stem)
        or not SYNONYMS.get(a.stem, frozenset()).isdisjoint(SYNONYMS.get(b.stem, frozenset()))
    )
