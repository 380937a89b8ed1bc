"""The MinHash signature behind not_repeat: it estimates similarity, and it never drifts."""

from __future__ import annotations

from verification import repeat


def feature_set(prefix: str, count: int) -> set[str]:
    return {f"{prefix}{number}" for number in range(count)}


def test_equal_sets_have_equal_signatures_and_share_every_band():
    a = repeat.minhash(feature_set("f", 300))
    b = repeat.minhash(feature_set("f", 300))

    assert repeat.text_similarity(a, b) == 1.0
    assert repeat.band_keys(a) == repeat.band_keys(b)


def test_the_similarity_estimates_the_jaccard_index():
    # 300 shared features and 100 of each one's own: Jaccard 300 / 500 = 0.6.
    shared = feature_set("s", 300)
    a = repeat.minhash(shared | feature_set("a", 100))
    b = repeat.minhash(shared | feature_set("b", 100))

    assert 0.45 <= repeat.text_similarity(a, b) <= 0.75
    assert repeat.text_similarity(repeat.minhash(feature_set("x", 300)), repeat.minhash(feature_set("y", 300))) < 0.1


def test_a_short_text_still_gets_a_full_signature():
    signature = repeat.minhash({"only", "three", "features"})

    assert len(signature) == repeat.SIGNATURE_BINS
    assert repeat.unpack(repeat.pack(signature)) == tuple(signature)


def test_signatures_are_the_same_in_every_process_and_release():
    # Stored signatures and index keys are only comparable with new ones while the hash stays
    # the same: a change here needs 'manage.py index_story_signatures' after deploying it.
    signature = repeat.minhash(repeat.features(["Solar panels supplied 21 percent of the country's electricity."]))

    assert signature[:4] == [145862568, 4177831882, 1523396121, 3163927656]
    assert repeat.manifest_key("1792067182956183080") == -7296042628873715265


def test_features_come_from_content_words_and_their_neighbours():
    assert repeat.features(["The harbour replaces ferries."]) == {
        "harbour",
        "replac",
        "ferry",
        "harbour replac",
        "replac ferry",
    }
