"""Near-duplicate detection for ``not_repeat``: signatures, the candidate index, the scores.

A story's text becomes a set of features (content-word stems and pairs of neighbouring stems,
from headline, dek, key facts and paragraphs). A one-permutation MinHash squeezes that set into
SIGNATURE_BINS numbers whose agreement estimates the Jaccard similarity of two stories' sets.
The candidate index (``StorySignatureKey``) holds, for every published story, one key per LSH
band of its MinHash and one per cited manifest. A check looks up its own keys in the window
and reads only the stories that share one: similar text shares a band with high probability,
and a story on the same sources shares a manifest. Cost grows with the number of candidates,
not with the number of stories.
"""

from __future__ import annotations

import hashlib
import itertools
import struct
from collections.abc import Iterable
from dataclasses import dataclass

from django.conf import settings

from support import text as lex

SIGNATURE_BINS = 64
BAND_ROWS = 4
BANDS = SIGNATURE_BINS // BAND_ROWS
# Weights of text similarity and cited-manifest overlap in the combined score.
TEXT_WEIGHT = 0.7
MANIFEST_WEIGHT = 0.3
_MASK32 = 0xFFFFFFFF
_EMPTY = _MASK32 + 1


def _hash64(value: bytes) -> int:
    # blake2b, not hash(): the signature must be the same in every process and every release.
    return int.from_bytes(hashlib.blake2b(value, digest_size=8).digest(), "little")


def _signed(value: int) -> int:
    # BigIntegerField is signed 64-bit.
    return value - (1 << 64) if value >= (1 << 63) else value


def features(texts: Iterable[str]) -> set[str]:
    """Content-word stems and neighbouring pairs of them, from each text separately."""
    found: set[str] = set()
    for text in texts:
        stems = [lex.stem(word) for word in lex.content_words(lex.plain_text(text))]
        found.update(stems)
        found.update(f"{a} {b}" for a, b in itertools.pairwise(stems))
    return found


def minhash(feature_set: Iterable[str]) -> list[int]:
    """One-permutation MinHash: one hash a feature, the minimum kept in each of the bins.

    Empty bins (short texts) borrow the next filled bin's value, shifted by the distance, so
    two equal sets still get equal signatures and near sets near ones.
    """
    bins = [_EMPTY] * SIGNATURE_BINS
    for feature in feature_set:
        value = _hash64(feature.encode())
        index = value % SIGNATURE_BINS
        low = (value >> 6) & _MASK32
        if low < bins[index]:
            bins[index] = low
    if all(value == _EMPTY for value in bins):
        return [0] * SIGNATURE_BINS
    filled = list(bins)
    for index, value in enumerate(bins):
        if value == _EMPTY:
            distance = 1
            while bins[(index + distance) % SIGNATURE_BINS] == _EMPTY:
                distance += 1
            filled[index] = (bins[(index + distance) % SIGNATURE_BINS] + distance * 0x9E3779B1) & _MASK32
    return filled


def pack(signature: list[int]) -> bytes:
    return struct.pack(f"<{SIGNATURE_BINS}I", *signature)


def unpack(data: bytes | memoryview) -> tuple[int, ...]:
    return struct.unpack(f"<{SIGNATURE_BINS}I", bytes(data))


def band_keys(signature: list[int] | tuple[int, ...]) -> list[int]:
    keys = []
    for band in range(BANDS):
        rows = signature[band * BAND_ROWS : (band + 1) * BAND_ROWS]
        keys.append(_signed(_hash64(struct.pack(f"<I{BAND_ROWS}I", band, *rows))))
    return keys


def manifest_key(manifest_id: str) -> int:
    return _signed(_hash64(b"manifest:" + manifest_id.encode()))


def index_keys(signature: list[int], manifest_ids: Iterable[str]) -> list[int]:
    """Every key a story is found by: its LSH bands and its cited manifests."""
    return list(dict.fromkeys(band_keys(signature) + [manifest_key(manifest_id) for manifest_id in manifest_ids]))


def text_similarity(a: list[int] | tuple[int, ...], b: list[int] | tuple[int, ...]) -> float:
    """The estimated Jaccard similarity of two feature sets: the share of agreeing bins."""
    return sum(x == y for x, y in zip(a, b, strict=True)) / SIGNATURE_BINS


def manifest_overlap(a: Iterable[str], b: Iterable[str]) -> float:
    first, second = set(a), set(b)
    if not first or not second:
        return 0.0
    return len(first & second) / len(first | second)


@dataclass(frozen=True)
class Scores:
    text: float
    manifests: float

    @property
    def combined(self) -> float:
        return TEXT_WEIGHT * self.text + MANIFEST_WEIGHT * self.manifests

    @property
    def is_repeat(self) -> bool:
        return (
            self.text * 100 >= settings.REPEAT_TEXT_THRESHOLD or self.combined * 100 >= settings.REPEAT_SCORE_THRESHOLD
        )

    def describe(self) -> str:
        return (
            f"text similarity {self.text:.2f}, cited-manifest overlap {self.manifests:.2f}, score {self.combined:.2f}"
        )


def thresholds_text() -> str:
    return (
        f"a repeat has text similarity of at least {settings.REPEAT_TEXT_THRESHOLD / 100:.2f} "
        f"or a score of at least {settings.REPEAT_SCORE_THRESHOLD / 100:.2f} "
        f"({TEXT_WEIGHT:.0%} text, {MANIFEST_WEIGHT:.0%} manifests)"
    )
