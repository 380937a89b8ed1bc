"""The negation and direction rule (``negation_and_direction``), and the reading of
movements and of comparisons ('A ... than B') that the comparison swap in ``roles`` shares.

- **negation**: the passage negates what a claim asserts, or asserts what a claim negates
  ('did not improve' against 'improved by 12%'), in the same words or others about the same
  things ('cannot stand in for real user logs' against 'can substitute for real user logs'),
  or has a thing the claim says is absent ('needs a learned critic', 'without a learned
  critic'). A negation is read where it stands: 'beat AdamW on none of the six' negates
  'beat', 'None of the models evaluated by the authors reached' negates 'reached'; a subject's
  'no' and a 'without' after its verb cancel out ('No answer comes without a citation'); what a
  claim says of both or all, said of part only ('one of the two, but not the other'), is denied;
- **direction**: opposite movement or comparison (rose/fell, beat/trailed, higher/lower). A
  rank or comparison is read with its two sides: the opposite word with the sides swapped
  says the same ('X trailed Y' for 'Y ... above X'), the same word with them swapped does not;
  and a ranking or a level compared between two names the claims give figures of is read
  against those figures ('Sable-72B finished ahead of Atlas-70B' where Atlas-70B scored more);
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache

from .. import text as lex
from .backing import _all_stems, same_word
from .context import _context, _names_around
from .quoting import Cited, _claim_says, _phrase, _span
from .tokens import (
    Clause,
    Token,
    _adjectival,
    _compound_modifier,
    _opens_subject,
    _verb_form,
    _verb_like,
    clause_bounds,
    clause_of,
)
from .words import (
    _ADJUNCT_PREPOSITIONS,
    _ALL,
    _ALSO_BOUND,
    _BE,
    _CARRIER_VERBS,
    _CESSATION,
    _DETERMINERS,
    _FUTURE_UNITS,
    _PREPOSITIONS,
    _PREVENTIONS,
    _REMOVALS,
    _VERBAL_NEGATORS,
    _WEAK_POLARITY,
    MONTHS,
    NUMBER_WORDS,
    OPPOSITE_ACTIONS,
    POLARITY,
    _forms,
)


def negation_and_direction(sentence: Clause, claims: Sequence[Cited]) -> list[str]:
    reasons: list[str] = []
    flagged: set[int] = set()
    # Negation of the same word: 'did not improve' against 'improved'.
    for index, token in enumerate(sentence.tokens):
        if not token.head or _every_one_has(sentence, index):
            continue
        context = _context(sentence, index)
        best: tuple[int, Cited, int] | None = None
        agrees = False
        for cited in claims:
            for position, other in enumerate(cited.clause.tokens):
                if other.content and _same_or_inflected(token, other):
                    if (
                        other.in_negated_clause
                        or (token.nominal and _scarce(sentence, index, cited.clause))
                        or _prefix_negative(token, other)
                        or _negation_moved(sentence, index, cited.clause, position)
                        or (token.nominal and _predicate_negated(cited.clause, position))
                        or _replaced_at(cited.clause, position)  # 'no longer relies on X', 'replaced X'
                        # 'no longer sells' and 'stopped selling'
                        or (position and cited.clause.tokens[position - 1].low in _CESSATION)
                        or _awaited(cited.clause, position)  # 'has not yet approved', 'awaits approval'
                    ):
                        agrees = (
                            True  # 'no accuracy gain' and 'did not improve accuracy'; 'not authorized', 'unauthorized'
                        )
                        continue
                    if token.verbal and position and cited.clause.tokens[position - 1].kind == "number":
                        continue  # 'did not pass' against '30.7% pass rate': a verb against a measure's name
                    if token.nominal and _subject_at(cited.clause, position):
                        continue  # 'won without its star striker' against 'though its star striker was injured'
                    score = len(context & _context(cited.clause, position))
                    if best is None or score > best[0]:
                        best = (score, cited, position)
        # 'no ferries sailed' may say what 'ferry services were cancelled' says: a noun's
        # negation needs more of the claim's clause in common than a verb's.
        needed = 2 if token.nominal else 1
        if best is not None and not agrees and (best[0] >= needed or (len(claims) == 1 and not token.nominal)):
            _, cited, position = best
            reasons.append(
                f"negation: the paragraph says '{_phrase(sentence, index)}'; "
                f"{_claim_says(cited, _phrase(cited.clause, position))}"
            )
            flagged.add(index)
    # The claims negate what the passage asserts.
    for cited in claims:
        for position, other in enumerate(cited.clause.tokens):
            # Only a verb's negation: a claim's 'without a learned critic' or 'no exact verifier
            # exists' is often said the other way round ('critic-free', 'resists exact verifiers').
            # A noun's 'no' counts when the passage has the verb before it too: 'found no link'
            # against 'found a link'.
            if not (other.head and (other.verbal or _found_no(cited.clause, position, sentence))):
                continue
            for index, token in enumerate(sentence.tokens):
                if (
                    index in flagged
                    or not token.content
                    or token.in_negated_clause
                    or not _same_or_inflected(token, other)
                ):
                    continue
                if _prefix_negative(token, other):
                    continue  # 'unauthorized' says what 'not authorized' says
                if index and sentence.tokens[index - 1].low in _CESSATION:
                    continue  # 'stopped selling' says what 'no longer sells' says
                if not (_context(sentence, index) & _context(cited.clause, position)):
                    continue
                if any(t.negated and same_word(t, other) for t in sentence.tokens):
                    continue
                if _denies_same_object(sentence, cited.clause, position):
                    continue  # 'cannot produce rubrics' where the claim has 'cannot write rubrics'
                if _awaited(sentence, index):
                    continue  # 'still awaits approval' says what 'has not approved' says
                if _predicate_negated(sentence, index):
                    continue  # 'keeping pirated copies was not fair use': said of it, denied
                if index + 1 < len(sentence.tokens) and sentence.tokens[index + 1].cue:
                    continue  # 'needs no external cooling' says 'does not require external cooling'
                if _replaced_at(sentence, index) or _replaced_after(sentence, index):
                    continue  # 'human raters were swapped out' says 'no longer uses human raters'
                if _gerund_noun(sentence, index):
                    continue  # 'stalls on rubric writing': a gerund names the activity, asserts nothing
                reasons.append(
                    f"negation: the paragraph says '{_phrase(sentence, index)}'; "
                    f"{_claim_says(cited, _phrase(cited.clause, position))}, which negates it"
                )
                flagged.add(index)
                break
    # The same contradiction in other shapes, tried in turn until one is found.
    for find, before, after in _OTHER_NEGATIONS:
        if flagged:
            break
        found = find(sentence, claims)
        if found:
            reasons.append(_negation_found(sentence, found, before, after))
            flagged.add(found[0])
    # Direction: opposite signs of one concept about the same thing.
    for index in _movements(sentence):
        if flagged:
            break  # one contradiction, one reason: a negation found already says it
        if _every_one_has(sentence, index):
            continue  # 'No answer from the legal agent comes without a citation': nothing denied
        reason = _direction(sentence, index, claims)
        if reason:
            reasons.append(reason)
            flagged.add(index)
    reasons += _comparatives(sentence, claims)
    if not flagged and not reasons:
        # 'missed 92% of the flawed proofs' where a claim has 'caught' them; after direction, which
        # says more of a movement ('added 12% to' against 'cut by 12%').
        found = _opposite_actions(sentence, claims)
        if found:
            reasons.append(_negation_found(sentence, found, before=1, after=4))
    if not flagged and not reasons:
        reasons += _figures_decide(sentence, claims)
    return reasons


def _negation_found(sentence: Clause, found: tuple[int, Cited, int], before: int, after: int) -> str:
    """The reason for a negation found at a place in the passage and one in a claim, each quoted
    with ``before`` and ``after`` words around it."""
    index, cited, position = found
    return (
        f"negation: the paragraph says '{_phrase(sentence, index, before=before, after=after)}'; "
        f"{_claim_says(cited, _phrase(cited.clause, position, before=before, after=after))}"
    )


def _every_one_has(clause: Clause, index: int) -> bool:
    """'No answer from the agent comes without a citation': a 'no' that opens the subject and a
    'without' after its verb cancel out, saying every answer has one. (A verb's 'not' before
    'without', 'could not finish without help', says help was needed: no such case.)"""
    tokens = clause.tokens
    first, last = clause_bounds(tokens, index)
    opening = next((i for i in range(first, last + 1) if tokens[i].cue), None)
    return (
        opening is not None
        and _opens_subject(tokens, opening)
        and any(t.low == "without" for t in tokens[opening + 1 : last + 1])
    )


# Verbs that take away what they govern by putting another thing in its place.
_REPLACING = _forms(
    "replace replaces replaced replacing substitute substitutes substituted substituting supplant supplants "
    "supplanted swap swaps swapped swapping"
)


def _replaced_at(clause: Clause, index: int) -> bool:
    """'replacing the learned critic with ...' takes the critic away, as 'dropping the learned
    critic in favour of ...' does: a replacement verb shortly before the word."""
    tokens = clause.tokens
    for position in range(index - 1, max(-1, index - 4), -1):
        if tokens[position].boundary:
            return False
        if tokens[position].low in _REPLACING:
            return True
    return False


# What is awaited has not happened yet: 'awaits approval', 'approval is pending'.
_AWAITING = _forms("await awaits awaited awaiting pending")
AWAIT_REACH = 4


def _awaited(clause: Clause, index: int) -> bool:
    tokens = clause.tokens
    nearby = tokens[max(0, index - AWAIT_REACH) : index + 3]
    return any(t.low in _AWAITING for t in nearby)


def _replaced_after(clause: Clause, index: int) -> bool:
    """'human raters were swapped out for a verifier': a replacement verb shortly after."""
    for token in clause.tokens[index + 1 : index + 5]:
        if token.boundary:
            return False
        if token.low in _REPLACING:
            return True
    return False


# Verbs whose object carries the predicate ('had an effect', 'made changes').
_LIGHT_VERBS = _forms("have has had having get gets got getting make makes made making do does did take takes took")
# Words that say 'almost none': 'little effect', 'few changes'.
_FEW = _forms("little few fewer rarely seldom hardly barely scarcely")
OBJECT_REACH = 5
OBJECT_WORDS = 3
# Verbs that already say 'not': their negation is no plain denial ('did not stop').
_NEGATIVE_VERBS = _REMOVALS | _PREVENTIONS | _CESSATION


def _object_of(clause: Clause, index: int) -> frozenset[str]:
    """The first content words after a verb in its clause: what it is about ('for real user
    logs', 'in human tissue samples')."""
    found: list[str] = []
    tokens = clause.tokens
    if index + 1 < len(tokens) and tokens[index + 1].low == "that":
        return frozenset()  # 'does not establish that the foods cause depression': a clause, no object
    # The reach starts at the first content word: 'caught up with those trained on ...'.
    start = index + 1
    while (
        start < len(tokens) and tokens[start].kind == "word" and not (tokens[start].content or tokens[start].boundary)
    ):
        start += 1
    for token in tokens[start : start + OBJECT_REACH]:
        if token.boundary:
            break
        if token.content and token.low not in POLARITY:
            found.append(token.stem)
            if len(found) == OBJECT_WORDS:
                break
    return frozenset(found)


def _predicate_negated(clause: Clause, index: int) -> bool:
    """'the trial date has not been set' says what 'no date has been set' says: the word is the
    subject of a verb its clause negates."""
    for token in clause.tokens[index + 1 :]:
        if token.boundary:
            return False
        if token.cue and (token.low in _VERBAL_NEGATORS or token.low.endswith("n't")):
            return True
    return False


def _negation_moved(sentence: Clause, index: int, claim: Clause, position: int) -> bool:
    """'without requiring a reboot' says what 'needs no reboot' says: the claim's word is
    followed closely by a negation of a word the passage's negation also covers."""
    if claim.tokens[position].cue or sentence.tokens[index].cue:
        return False  # 'eliminates X' takes X away: no negation moved
    mine = [t for t in sentence.tokens[index + 1 : index + 5] if t.negated and not t.removed]
    return any(
        t.negated and not t.removed and t.nominal and any(same_word(t, other) for other in mine)
        for t in claim.tokens[position + 1 : position + 4]
    )


def _gerund_noun(clause: Clause, index: int) -> bool:
    """'stalls on rubric writing': an -ing word after a noun and before no object of its own
    names an activity; 'evidence linking the sweetener to cancer' asserts the link."""
    tokens = clause.tokens
    following = tokens[index + 1] if index + 1 < len(tokens) else None
    return (
        tokens[index].low.endswith("ing")
        and index > 0
        and tokens[index - 1].content
        and (following is None or following.boundary or not (following.content or following.low in _DETERMINERS))
    )


def _denies_same_object(sentence: Clause, claim: Clause, position: int) -> bool:
    """Whether the passage too negates a verb about what the claim's negated verb is about:
    'the team cannot produce rubrics' for 'teams cannot write rubrics'."""
    theirs = _object_of(claim, position) | {claim.tokens[position].stem}
    return any(
        token.head and token.verbal and len((_object_of(sentence, index) | {token.stem}) & theirs) >= 2
        for index, token in enumerate(sentence.tokens)
    )


def _plain_verb(clause: Clause, index: int) -> bool:
    """A verb that is neither negated nor a word of direction or taking away: a plain assertion."""
    token = clause.tokens[index]
    return (
        token.content
        and clause.text[token.start - 1 : token.start] != "-"  # 'ultra-processed food': no verb
        and not token.in_negated_clause
        and not token.subject_negated
        and token.low not in POLARITY
        and token.low not in _NEGATIVE_VERBS
        and token.low not in _FEW
        and (_verb_form(clause.tokens, index) or _other_verb_form(clause.tokens, index))
    )


def _other_verb_form(tokens: list[Token], index: int) -> bool:
    """A verb the shared test misses: an irregular past, or an '-ing' after a form of 'be'
    ('was running at full power')."""
    low = tokens[index].low
    if tokens[index].name or tokens[index].kind != "word":
        return False
    return lex.irregular_past(low) or (low.endswith("ing") and index > 0 and tokens[index - 1].low in _BE)


def _negated_in_other_words(sentence: Clause, claims: Sequence[Cited]) -> tuple[int, Cited, int] | None:
    """A verb negated on one side and another verb asserted on the other about the same
    things (two or more of the words after each): 'cannot stand in for real user logs' against
    'can substitute for real user logs', 'have not yet been replicated in human tissue samples'
    against 'have been reproduced in human tissue samples'. Words of direction are the
    direction rule's ('did not rise' may say 'fell')."""
    for cited in claims:
        claim = cited.clause
        for mine, theirs, passage_negated in ((sentence, claim, True), (claim, sentence, False)):
            for index, token in enumerate(mine.tokens):
                if not (token.head and token.verbal) or token.low in POLARITY or token.low in _NEGATIVE_VERBS:
                    continue
                about = _object_of(mine, index)
                if len(about) < 2:
                    continue
                for position, other in enumerate(theirs.tokens):
                    if _same_or_inflected(token, other) or not _plain_verb(theirs, position):
                        continue
                    if theirs.tokens[position].low in _LIGHT_VERBS:
                        continue  # 'had little effect': the predicate is in the noun, not the verb
                    if any(
                        t.low in POLARITY or t.low in _FEW
                        for t in theirs.tokens[position + 1 : position + 1 + OBJECT_REACH]
                    ):
                        continue  # 'rated below the standard' may say 'did not reach the standard'
                    if len(_object_of(theirs, position) & about) >= 2 and not any(t.cue for t in theirs.tokens):
                        return (index, cited, position) if passage_negated else (position, cited, index)
    return None


# Prefixes that make a word its own negative ('unsafe', 'ineffective', 'destabilize').
_NEGATIVE_PREFIXES = ("un", "in", "im", "il", "ir", "dis", "de", "non")


_FREE_PREFIXES = ("un", "non")


def _prefix_negative(a: Token, b: Token) -> bool:
    """Whether one word is the other's negative by prefix: 'unauthorized' and 'authorized'."""
    for longer, shorter in ((a.stem, b.stem), (b.stem, a.stem)):
        for prefix in _NEGATIVE_PREFIXES:
            if longer.startswith(prefix) and len(shorter) >= 4 and lex.stems_match(longer[len(prefix) :], shorter):
                return True
    return False


def _prefixed_forms(clause: Clause) -> dict[str, int]:
    """Each word's negative by prefix and its positive without one ('stabiliz' for
    'destabiliz'), with the word's position: computed once a clause."""
    if clause.prefixed is None:
        forms: dict[str, int] = {}
        for index, token in enumerate(clause.tokens):
            if not token.content or token.name:
                continue
            stem = token.stem
            for prefix in _NEGATIVE_PREFIXES:
                # 'un' and 'non' make a negative of nearly any word; the others also begin words of
                # their own ('disclosed' is no 'closed' denied), so they need a longer base.
                shortest = 4 if prefix in _FREE_PREFIXES else 5
                if len(stem) >= shortest:
                    forms.setdefault(prefix + stem, index)
                if stem.startswith(prefix) and len(stem) - len(prefix) >= shortest:
                    forms.setdefault(stem[len(prefix) :], index)
        clause.prefixed = forms
    return clause.prefixed


def _prefix_negations(sentence: Clause, claims: Sequence[Cited]) -> list[tuple[int, Cited, int]]:
    """Where the passage has a word's negative by prefix and a claim the word, or the reverse,
    neither side having the other's form."""
    forms = _prefixed_forms(sentence)
    found = []
    for cited in claims:
        claim = cited.clause
        for hit in forms.keys() & claim.stems:
            index = forms[hit]
            if sentence.tokens[index].stem in claim.stems or hit in sentence.stems:
                continue
            position = next(
                (i for i, other in enumerate(claim.tokens) if other.stem == hit and other.content and not other.name),
                None,
            )
            # 'had not authorized' says what 'unauthorized' says: a negated word and its negative.
            if position is not None and (
                sentence.tokens[index].in_negated_clause == claim.tokens[position].in_negated_clause
            ):
                found.append((index, cited, position))
    return found


_NEED_NOUNS = _forms("need needs requirement")
# Before a need's object: what says it is still needed ('still has to wait', 'must wait').
_NEEDING = _forms("need needs needed require requires required must has have had")
NEEDED_WORDS = 3


def _removed_needs(clause: Clause) -> tuple[tuple[int, list[Token]], ...]:
    """Each need a clause takes away ('removes the need to wait for multiple trajectories',
    'no need for a critic'): the need word's place and the first content words it needs. Read
    once a text: a story cites the same claims from many sentences."""
    return _removed_needs_of(clause.text)


@lru_cache(maxsize=4096)
def _removed_needs_of(text: str) -> tuple[tuple[int, list[Token]], ...]:
    tokens = clause_of(text).tokens
    found = []
    for index, token in enumerate(tokens[:-1]):
        if token.low not in _NEED_NOUNS or not token.negated or tokens[index + 1].low not in ("to", "for", "of"):
            continue
        words = []
        for t in tokens[index + 2 : index + 2 + NEEDED_WORDS + 3]:
            if t.boundary and t.kind == "punct":
                break
            if t.content:
                words.append(t)
                if len(words) == NEEDED_WORDS:
                    break
        if len(words) >= 2:
            found.append((index, words))
    return tuple(found)  # cached: shared by every caller


def _still_needed(clause: Clause, at: list[int]) -> bool:
    """Whether what starts at ``at[0]`` follows a word of needing ('has to wait', 'needs')."""
    tokens = clause.tokens
    return any(t.low in _NEEDING for t in tokens[max(0, at[0] - 3) : at[0]])


def _need_removed(sentence: Clause, claims: Sequence[Cited]) -> tuple[int, Cited, int] | None:
    """A need taken away on one side and still there on the other, of the same words in order."""
    for cited in claims:
        claim = cited.clause
        for mine, theirs, passage_removes in ((sentence, claim, True), (claim, sentence, False)):
            for index, words in _removed_needs(mine):
                at = _asserted_at(theirs, words)
                if at is not None and _still_needed(theirs, at) and _says_nothing_negative(theirs, at[0], at[-1]):
                    return (index, cited, at[0]) if passage_removes else (at[0], cited, index)
    return None


ALTERNATIVE_REACH = 10


def _alternatives(clause: Clause) -> tuple[tuple[int, frozenset[str]], ...]:
    """What a clause turns down for another thing: the cue's place and the first content words
    up to its clause's end after 'rather than', 'instead of' or a comma's 'not' ('evaluation,
    not training, ...'). Read once a text: a story cites the same claims from many sentences."""
    return _alternatives_of(clause.text)


@lru_cache(maxsize=4096)
def _alternatives_of(text: str) -> tuple[tuple[int, frozenset[str]], ...]:
    tokens = clause_of(text).tokens
    found = []
    for index, token in enumerate(tokens[:-1]):
        pair = (token.low, tokens[index + 1].low)
        comma_not = token.low == "not" and index and tokens[index - 1].text == ","
        if pair not in (("rather", "than"), ("instead", "of")) and not comma_not:
            continue
        start = index + 1 if comma_not else index + 2
        words = []
        for t in tokens[start : start + ALTERNATIVE_REACH]:
            if t.kind == "punct" or (t.boundary and t.low not in ("or", "and")):
                break
            if t.content:
                words.append(t.stem)
        if words:
            found.append((index, frozenset(words)))
    return tuple(found)


def _swapped_alternatives(sentence: Clause, claims: Sequence[Cited]) -> tuple[int, Cited, int] | None:
    """The passage turns down what a claim prefers and prefers what the claim turns down:
    'boils outputs down to a single pass/fail signal rather than grading them on several
    dimensions' against 'scores outputs across multiple dimensions rather than a single pass
    or fail signal'."""
    mine = _alternatives(sentence)
    if not mine:
        return None
    kept = _all_stems(sentence).difference(*(words for _, words in mine))
    for cited in claims:
        theirs = _alternatives(cited.clause)
        if not theirs:
            continue
        other_kept = _all_stems(cited.clause).difference(*(words for _, words in theirs))
        for index, rejected in mine:
            for position, other_rejected in theirs:
                if rejected & other_rejected:
                    continue  # both turn down the same thing
                if rejected & other_kept and other_rejected & kept:
                    return index, cited, position
    return None


_SCARCITY = _forms("bottleneck bottlenecks scarce scarcity shortage shortages constraint constraints missing")


def _scarce(sentence: Clause, index: int, claim: Clause) -> bool:
    """'for lack of expertise' says what 'expertise is the bottleneck' says."""
    cue = index - 1
    while cue >= 0 and not sentence.tokens[cue].cue:
        cue -= 1
    return (
        cue >= 0
        and sentence.tokens[cue].low in ("lack", "lacks", "lacked", "lacking", "absence")
        and any(t.low in _SCARCITY for t in claim.tokens)
    )


def _with_against_without(sentence: Clause, claims: Sequence[Cited]) -> list[tuple[int, Cited, int]]:
    """Where the passage has 'with X' and a claim 'without X' (the head noun after each)."""
    found = []
    tokens = sentence.tokens
    for index, token in enumerate(tokens):
        if token.low != "with":
            continue
        noun = next((i for i in range(index + 1, min(len(tokens), index + 4)) if tokens[i].content), None)
        if noun is None or tokens[noun].in_negated_clause:
            continue  # 'with no human stepping in' says 'without human intervention'
        for cited in claims:
            other_tokens = cited.clause.tokens
            for position, other in enumerate(other_tokens):
                if other.low != "without" or not other.cue:
                    continue  # 'with and without AI help' says both
                theirs = next(
                    (i for i in range(position + 1, min(len(other_tokens), position + 4)) if other_tokens[i].content),
                    None,
                )
                if theirs is not None and same_word(tokens[noun], other_tokens[theirs]):
                    found.append((noun, cited, theirs))
    return found


# Verbs that report speech: what follows is a clause, not their object.
_SAYING = _forms(
    "say says said tell tells told report reports reported note notes noted add adds added argue argues argued "
    "write writes wrote state states stated claim claims claimed announce announces announced"
)


# Cues that say a thing is absent: 'without a learned critic', 'no new orders', 'for lack of'.
_ABSENCE = _forms("without no lack lacks lacked lacking")
# Verbs of doing without: 'dispenses with preference labels' says 'requires no preference labels'.
_DOING_WITHOUT = _forms(
    "resist resists resisted resisting dispense dispenses dispensed dispensing forgo forgoes forgoing forwent "
    "forgone eschew eschews eschewed eschewing skip skips skipped skipping waive waives waived waiving bypass "
    "bypasses bypassed bypassing shun shuns shunned spare spares spared sparing"
)
ABSENT_CONTEXT = 2
PHRASE_GAP = 4


def _absent_phrase(clause: Clause, index: int) -> list[int] | None:
    """The negated words after an absence cue whose head is token ``index``, when they are two
    or more ('without a learned critic': learned, critic)."""
    tokens = clause.tokens
    cue = index - 1
    while cue >= 0 and not tokens[cue].cue:
        cue -= 1
    if cue < 0 or tokens[cue].low not in _ABSENCE or _opens_subject(tokens, cue):
        return None  # 'said no model scored above 25%' is said of no model: the subject's case
    words = [i for i in range(cue + 1, min(len(tokens), cue + 8)) if tokens[i].negated and tokens[i].content]
    return words if len(words) >= 2 else None


def _says_nothing_negative(clause: Clause, first: int, last: int) -> bool:
    """No negation, taking away or downward word in the clause around tokens first..last."""
    tokens = clause.tokens
    first, last = clause_bounds(tokens, first, last)
    return not any(
        t.cue
        or t.in_negated_clause
        or t.low in _NEGATIVE_VERBS
        or t.low in _DOING_WITHOUT
        or POLARITY.get(t.low, ("", 1))[1] < 0
        for t in tokens[first : last + 1]
    )


# Words for what shows a thing is there: 'no evidence of an atmosphere' against 'signs of an
# atmosphere'.
_EVIDENCE = _forms("evidence sign signs trace traces hint hints indication indications proof")


def _same_or_evidence(a: Token, b: Token) -> bool:
    return same_word(a, b) or (a.low in _EVIDENCE and b.low in _EVIDENCE)


def _asserted_at(clause: Clause, words: list[Token]) -> list[int] | None:
    """Where a clause has these words in order, each within PHRASE_GAP tokens of the one
    before ('orders for its 15-megawatt'), none of them negated."""
    tokens = clause.tokens
    for start, token in enumerate(tokens):
        if not _same_or_evidence(token, words[0]) or token.in_negated_clause or not token.content:
            continue
        found, position = [start], start
        for word in words[1:]:
            position = _next_word(tokens, position, word)
            if position is None or tokens[position].in_negated_clause:
                break
            found.append(position)
        else:
            return found
    return None


def _next_word(tokens: list[Token], position: int, word: Token) -> int | None:
    """The next token after ``position`` that is ``word``, within PHRASE_GAP tokens; small words
    between ('data from some of its commercial customers') do not count against the gap."""
    counted = 0
    for i in range(position + 1, len(tokens)):
        if _same_or_evidence(tokens[i], word):
            return i
        if tokens[i].kind == "punct":
            return None
        counted += 1 if tokens[i].content or tokens[i].kind == "number" else 0
        if counted >= PHRASE_GAP or i - position >= 2 * PHRASE_GAP:
            return None
    return None


def _subject_at(clause: Clause, index: int) -> bool:
    """Whether the words at ``index`` open a clause of their own ('even though its star striker
    was out injured', 'which its critics ...'): a subject said of in passing, not a thing had or
    used. A sentence's own subject is not ('The retrieval step was used')."""
    position = index - 1
    while position >= 0 and clause.tokens[position].kind == "word" and not clause.tokens[position].content:
        if clause.tokens[position].boundary:
            return clause.tokens[position].low in _SUBORDINATE
        position -= 1
    return False


_SUBORDINATE = _forms("though although while whereas because which who whom")


def _absent_on_one_side(sentence: Clause, claims: Sequence[Cited]) -> tuple[int, Cited, int] | None:
    """A thing said absent on one side ('without a learned critic', 'received no new orders for
    its offshore turbine') and present on the other ('needs a learned critic', 'booked new
    orders for its offshore turbine'): two or more of its words in order, none negated, in a
    clause that says nothing negative and shares more words with the absence's clause."""
    for cited in claims:
        claim = cited.clause
        for mine, theirs, passage_absent in ((sentence, claim, True), (claim, sentence, False)):
            for index, token in enumerate(mine.tokens):
                if not (token.head and token.nominal):
                    continue
                phrase = _absent_phrase(mine, index)
                if phrase is None:
                    continue
                at = _asserted_at(theirs, [mine.tokens[i] for i in phrase])
                if at is None or not _says_nothing_negative(theirs, at[0], at[-1]) or _subject_at(theirs, at[0]):
                    continue
                named = {mine.tokens[i].stem for i in phrase}
                around = _clause_words_at(mine, index) - named
                if len(around & _all_stems(theirs)) < ABSENT_CONTEXT:
                    continue
                return (index, cited, at[0]) if passage_absent else (at[0], cited, index)
    return None


def _found_no(claim: Clause, position: int, sentence: Clause) -> bool:
    """Whether a claim's 'VERB no NOUN' ('found no link') has its verb in the passage."""
    tokens = claim.tokens
    cue = position - 1
    while cue >= 0 and not tokens[cue].cue:
        cue -= 1
    if (
        cue < 1
        or tokens[cue].low != "no"
        or tokens[cue - 1].kind != "word"
        or tokens[cue - 1].low in _BE
        or tokens[cue - 1].low in _SAYING  # 'said no model scored above 25%': what was said, not found
    ):
        return False
    verb = tokens[cue - 1]
    return any(t.kind == "word" and not t.in_negated_clause and same_word(t, verb) for t in sentence.tokens)


_EVERY_ONE = _forms("both all every each")
# What says the predicate holds of part only: 'but not the other', 'not all', 'one of the two'.
_PART_ONLY = (("not", "the", "other"), ("not", "the", "others"), ("not", "all"), ("one", "of", "the", "two"))
_PART_ONLY_FIRST = frozenset(words[0] for words in _PART_ONLY)
EVERY_NOUN_REACH = 3


def _part_only_at(clause: Clause) -> int | None:
    tokens = clause.tokens
    for index, token in enumerate(tokens):
        if token.low not in _PART_ONLY_FIRST:
            continue
        lows = tuple(t.low for t in tokens[index : index + 4])
        if any(lows[: len(words)] == words for words in _PART_ONLY):
            return index
    return None


def _some_against_all(sentence: Clause, claims: Sequence[Cited]) -> tuple[int, Cited, int] | None:
    """A predicate a claim says holds of both or all ('on both model families tested') that the
    passage says holds of part only ('for one of the two model families tested, but not the
    other'), of the same noun."""
    tokens = sentence.tokens
    part = _part_only_at(sentence)
    if part is None or any(_part_only_at(cited.clause) is not None for cited in claims):
        return None  # the claims say part only too
    for cited in claims:
        claim = cited.clause
        for position, token in enumerate(claim.tokens):
            if token.low not in _EVERY_ONE or token.in_negated_clause:
                continue
            nouns = [t for t in claim.tokens[position + 1 : position + 1 + EVERY_NOUN_REACH] if t.content]
            if nouns and any(t.content and same_word(t, nouns[0]) for t in tokens):
                return part, cited, position
    return None


def _acts(clause: Clause, index: int) -> bool:
    """A word used as a verb that does something to what follows it: not a modifier of the noun
    after it ('closed models' after another verb, 'open-weight', 'the recently opened plant'),
    nor a noun after a preposition ('from start to finish'), nor a verb of saying ('added
    that', 'the mayor added.'), which is why 'added' is not a content word."""
    tokens = clause.tokens
    token = tokens[index]
    following = tokens[index + 1] if index + 1 < len(tokens) else None
    previous = tokens[index - 1] if index else None
    says = following is None or following.kind == "punct" or following.low == "that"
    hyphened_on = token.end < len(clause.text) and clause.text[token.end] == "-"
    # After a plain verb form ('overtook closed models'), not after a plural noun that
    # _verb_like may take for a verb ('Federal prosecutors cleared').
    after_a_verb = (
        previous is not None
        and previous.content
        and not previous.name
        and (previous.low in POLARITY or previous.low.endswith("ed"))
    )
    after_a_preposition = previous is not None and previous.low in _PREPOSITIONS and previous.low != "to"
    past = token.low.endswith("ed") and not (previous is not None and previous.low in _DETERMINERS)  # 'died'
    return (
        not says
        and (_verb_like(clause, index) or past or _phrasal_at(clause, index) is not None)
        and not hyphened_on
        and not after_a_verb
        and not after_a_preposition
        and not _adjectival(clause, index)
        and not _compound_modifier(clause, index)
    )


def _phrasal_at(clause: Clause, index: int) -> frozenset[tuple[int, int]] | None:
    """The actions of a verb and the particle right after it ('laid off', 'fell short'), if the
    table has them."""
    tokens = clause.tokens
    if index + 1 >= len(tokens):
        return None
    return OPPOSITE_ACTIONS.phrasal.get((tokens[index].stem, tokens[index + 1].low))


def _actions_at(clause: Clause, index: int) -> frozenset[tuple[int, int]]:
    """The actions the word at ``index`` is a side of: its phrasal verb's ('cut off'), else its own ('cut')."""
    phrasal = _phrasal_at(clause, index)
    if phrasal is not None:
        return phrasal
    return OPPOSITE_ACTIONS.words.get(clause.tokens[index].stem, frozenset())


def _doer(clause: Clause, index: int) -> frozenset[str]:
    """The content words before a verb in its clause: who does it."""
    start, _ = clause_bounds(clause.tokens, index)
    return frozenset(t.stem for t in clause.tokens[start:index] if t.content)


@lru_cache(maxsize=4096)
def _claim_actions(text: str) -> tuple[tuple[int, frozenset[tuple[int, int]]], ...]:
    """The actions a claim asserts, each with its place: read once a claim, as a story cites the
    same claims from many sentences."""
    claim = clause_of(text)
    found = []
    for position, token in enumerate(claim.tokens):
        actions = _actions_at(claim, position)
        if actions and not token.name and not token.in_negated_clause and _acts(claim, position):
            found.append((position, actions))
    return tuple(found)


def _opposite_actions(sentence: Clause, claims: Sequence[Cited]) -> tuple[int, Cited, int] | None:
    """The passage's verb is the opposite action of a claim's verb about the same things ('the
    verifier missed 92% of the flawed proofs' against 'caught 92% of the flawed proofs'); the
    passage lacks the claim's word and no claim has the passage's. A reporter's own verb is read
    as the claim's only when it is not its opposite. Neither side negated: 'did not hire' and
    'did not fire' deny nothing of each other, and a negation against an assertion is the
    negation rules' to read. Converses ('exported to' against 'imported from') are opposites only
    said of the same doer."""
    for index, token in enumerate(sentence.tokens):
        actions = _actions_at(sentence, index)
        if not actions or token.name or token.in_negated_clause:
            continue
        if any(token.stem in _all_stems(cited.clause) for cited in claims):
            continue  # 'closed in March ... reopened in November': another claim has this action
        if not _acts(sentence, index):
            continue
        opposites = {(action, 1 - side) for action, side in actions}
        context = _context(sentence, index)
        for cited in claims:
            claim = cited.clause
            for position, claim_actions in _claim_actions(claim.text):
                found = opposites & claim_actions
                if (
                    found
                    and claim.tokens[position].stem not in _all_stems(sentence)
                    and context & _context(claim, position)
                    and (
                        any(action not in OPPOSITE_ACTIONS.converse for action, _ in found)
                        or _doer(sentence, index) & _doer(claim, position)
                    )
                ):
                    return index, cited, position
    return None


def _first(find: Callable[[Clause, Sequence[Cited]], list[tuple[int, Cited, int]]]) -> Callable:
    return lambda sentence, claims: next(iter(find(sentence, claims)), None)


# The negations ``negation_and_direction`` looks for when no word is negated on one side and
# asserted on the other, in turn, each with how many words around it a reason quotes:
_OTHER_NEGATIONS = (
    # A negation of the claim's predicate in other words: 'cannot stand in for real user logs'
    # against 'can substitute for real user logs'.
    (_negated_in_other_words, 1, 4),
    # 'with a learned critic' where a claim has 'without a learned critic'.
    (_first(_with_against_without), 2, 2),
    # 'without any Nvidia H100 chips' where the other side has the Nvidia H100 chips.
    (_absent_on_one_side, 2, 2),
    # 'a single pass/fail signal rather than several dimensions' where a claim has 'several
    # dimensions rather than a single pass/fail signal'.
    (_swapped_alternatives, 3, 3),
    # 'still has to wait for multiple trajectories' where a claim 'removes the need to wait for
    # multiple trajectories'.
    (_need_removed, 3, 3),
    # A word and its negative by prefix: 'destabilizes' against 'stabilizes'.
    (_first(_prefix_negations), 1, 2),
    # 'for one of the two model families, but not the other' where a claim has 'on both model
    # families'.
    (_some_against_all, 2, 4),
)


# What 'up from' and 'down from' start from when it is a value: 'the 2025 level', 'Beacon-1's rate'.
_LEVEL_NOUNS = _forms("level levels rate rates figure figures share total peak high low record mark pace average")
FROM_REACH = 5


def _from_a_level(tokens: list[Token], start: int) -> bool:
    return any(
        t.kind == "number" or t.low in _LEVEL_NOUNS or t.low in MONTHS or t.low in _FUTURE_UNITS
        for t in tokens[start : start + FROM_REACH]
    )


_EFFECTS = _forms("effect effects impact change difference")
# Words of an earlier time a change is measured from: '56% less than a year earlier'.
_EARLIER = _forms("earlier ago before previous prior last")


def _level_after(tokens: list[Token], start: int) -> bool:
    """Whether what follows 'N% below'/'N% less than' is a level or an earlier time ('the
    year-earlier figure', 'a year earlier'), not a rival ('the older parser')."""
    if start < len(tokens) and tokens[start].low == "than":
        start += 1
    # A figure after it ('below the 47.5 that ... posted') is a rival's: a comparison.
    return any(
        t.low in _LEVEL_NOUNS or t.low in _EARLIER or t.low in _FUTURE_UNITS or t.low in MONTHS
        for t in tokens[start : start + FROM_REACH]
    )


_MOTION = _forms(
    "edged ticked went moved crept go goes going gone is are was were be been picked picks shot "
    "sped speed speeds speeding"  # 'sped up convergence': made it faster
)
# 'prices 12% below the year-earlier level': a change from a level, not a rank.
_OFF_A_LEVEL = {"above": 1, "below": -1, "more": 1, "less": -1, "higher": 1, "lower": -1}
_LOSING = _forms("lose loses lost losing")
_ADDING_ON = _forms("add adds added adding")
_TAKING_OFF = _forms(
    "shave shaves shaved shaving knock knocks knocked knocking take takes took taking trim trims trimmed"
)
# Movement words that also take things away ('dropped the tasks'): before a pronoun standing for
# things ('dropping them'), they remove what the pronoun stands for; a level has no 'them'.
_REMOVING_TOO = _forms("drop drops dropped dropping")
_THINGS_SAID_BEFORE = _forms("them those these")
_UNITS_OFF = _forms("percent points")


@lru_cache(maxsize=4096)
def _gerund_movement(low: str) -> tuple[str, int] | None:
    """'without reducing task success': the lists' other forms give an '-ing' form's direction."""
    if low.endswith("ing") and len(low) > 5 and low not in POLARITY:
        for base in (low[:-3], low[:-3] + "e", low[:-4]):
            if POLARITY.get(base, ("", 0))[0] == "level":
                return POLARITY[base]
    return None


def _polarity(clause: Clause, index: int) -> tuple[str, int] | None:
    """The concept and sign of token ``index``: its word's, or for 'up'/'down' after a motion
    verb or before a figure ('edged up', 'sales were down 3%')."""
    tokens = clause.tokens
    low = tokens[index].low
    following_low = tokens[index + 1].low if index + 1 < len(tokens) else ""
    if low in _LOSING and following_low == "to":
        return ("rank", -1)  # 'bigger models lose to the 8B one': ranked below it
    if low in _ADDING_ON or low in _TAKING_OFF:
        # 'added 18% to the steps required', 'shaved two points off the error rate': a figure put
        # on or taken off a level moves it.
        figure = next((i for i in range(index + 1, min(len(tokens), index + 4)) if tokens[i].kind == "number"), None)
        after = {t.low for t in tokens[figure + 1 : figure + 4]} if figure is not None else set()
        if low in _ADDING_ON and "to" in after:
            return ("level", 1)
        if low in _TAKING_OFF and "off" in after:
            return ("level", -1)
    if _off_a_level(clause, index):
        # '56% below the year-earlier figure' is down 56% from it; '4.5 points above the older
        # parser' is a rank.
        return ("level", _OFF_A_LEVEL[low])
    if low in POLARITY:
        concept, sign = POLARITY[low]
        if low in _REMOVING_TOO and following_low in _THINGS_SAID_BEFORE:
            return None  # 'dropping them boosted scores': things taken away, no level moved
        if concept == "continue" and following_low[:1].isdigit():
            return None  # 'stopped 92% of phishing emails': a count blocked, no activity ended
        if sign == 0 and index and tokens[index - 1].low in ("more", "less"):
            return (concept, 1 if tokens[index - 1].low == "more" else -1)  # 'less stable': stability fell
        return concept, sign
    gerund = _gerund_movement(low) if tokens[index].head else None
    if gerund:
        return gerund  # a denied '-ing' ('without reducing task success'); others may be nouns
    if low in _EFFECTS and "no" in (tokens[index - 1].low if index else "", tokens[index - 2].low if index > 1 else ""):
        return ("level", 0)  # 'had no effect on local rainfall': it stayed as it was
    if low in ("expensive", "costly", "pricey") and index and tokens[index - 1].low in ("more", "less"):
        return ("level", 1 if tokens[index - 1].low == "more" else -1)  # 'more expensive': pricier
    if low in ("slowly", "quickly", "rapidly") and index and tokens[index - 1].low in ("more", "less"):
        fast = low != "slowly"
        return ("level", 1 if (tokens[index - 1].low == "more") == fast else -1)  # 'more slowly': slower
    if low in ("more", "less") and index and tokens[index - 1].low in ("cost", "costs", "costing"):
        return ("level", 1 if low == "more" else -1)  # 'costs less': cheaper
    if low == "down" and index and tokens[index - 1].low in ("turned", "turn", "turns", "turning"):
        return ("outcome", -1)  # 'turned down the offer': rejected it
    if low in ("up", "down"):
        previous = tokens[index - 1].low if index else ""
        following = tokens[index + 1] if index + 1 < len(tokens) else None
        # 'edged up', 'down 3%', 'up from the 2025 level' (not 'came down from the hills')
        if (
            previous in _MOTION
            or (following is not None and following.kind == "number")
            or (following is not None and following.low == "from" and _from_a_level(tokens, index + 2))
        ):
            return ("level", 1 if low == "up" else -1)
    return None


# A movement named as a thing: what a second movement word can change ('growth slowed').
_MOVEMENT_NOUNS = _forms(
    "growth decline declines increase increases rise rises fall falls loss losses gain gains slowdown drop "
    "drops expansion contraction deficit surplus downturn upturn"
)


# How fast a movement went: after a movement word, it speeds or slows that movement.
_PACE = _forms("slowly quickly rapidly faster slower quicker")
PACE_REACH = 5  # 'declined cognitively 27% more slowly'


# After a movement noun, what makes it the name of a measure: 'its growth forecast'.
_MEASURED = _forms(
    "forecast forecasts outlook target targets estimate estimates projection projections rate rates "
    "figure figures data number numbers strategy plan plans prospects"
)


# Verbs a movement noun after them carries the meaning of: 'never turned a profit'.
_CARRYING = _LIGHT_VERBS | _CARRIER_VERBS | _forms("turn turns turned book books booked report reports reported")


def _light_verb_denied(clause: Clause, index: int) -> bool:
    """'has never turned a profit', 'did not post gains': a denied light verb denies its object."""
    tokens = clause.tokens
    if tokens[index].head or not tokens[index].in_negated_clause:
        return False
    for position in range(index - 1, max(-1, index - 4), -1):
        if tokens[position].head:
            return tokens[position].verbal and tokens[position].low in _CARRYING
        if tokens[position].boundary:
            return False
    return False


def _cue_before(clause: Clause, index: int) -> str | None:
    """The first word of the negation cue that covers token ``index``, a few words back in its
    noun phrase ('avoiding any rise', not 'avoided layoffs by cutting')."""
    tokens = clause.tokens
    for position in range(index - 1, max(-1, index - 5), -1):
        low = tokens[position].low
        if not (tokens[position].cue or tokens[position].content or low in _DETERMINERS or low in _ALL):
            return None
        if tokens[position].cue:
            while position > 0 and tokens[position - 1].cue:
                position -= 1
            return tokens[position].low
    return None


def _off_a_level(clause: Clause, index: int) -> bool:
    """'56% less than a year earlier': a figure's change from a level, no bound on it."""
    tokens = clause.tokens
    return (
        tokens[index].low in _OFF_A_LEVEL
        and index > 0
        and (tokens[index - 1].text.endswith("%") or tokens[index - 1].low in _UNITS_OFF)
        and _level_after(tokens, index + 1)
    )


def _names_a_measure(clause: Clause, index: int) -> bool:
    """'revised its growth forecast upward': the noun names what moved, it does not move."""
    tokens = clause.tokens
    return tokens[index].low in _MOVEMENT_NOUNS and index + 1 < len(tokens) and tokens[index + 1].low in _MEASURED


def _movements(clause: Clause) -> dict[int, tuple[str, int]]:
    """Each direction word of a clause with its concept and sign, negation applied; two of
    one concept close together in a clause read as one ('growth slowed' goes down, 'slowed
    their decline' up), kept at the last of them."""
    if clause.movements is not None:
        return clause.movements
    found: dict[int, tuple[str, int]] = {}
    last: int | None = None
    noun_start: int | None = None  # where a group begun by a movement noun starts
    for index, token in enumerate(clause.tokens):
        if token.boundary:
            last = noun_start = None
            continue
        polarity = _polarity(clause, index) if token.kind == "word" else None
        if polarity is None or _names_a_measure(clause, index) or _awaited(clause, index):
            continue  # 'still awaits approval': nothing approved or refused yet
        if _is_bound(clause, index) and not _off_a_level(clause, index):
            continue
        concept, sign = polarity
        # 'will not go up': the motion verb carries the negation for its 'up'.
        motion_head = token.low in ("up", "down") and (token.in_negated_clause or clause.tokens[index - 1].head)
        # 'stopped selling' is a negated selling, as 'no longer sells' is.
        ceased = index > 0 and clause.tokens[index - 1].low in _CESSATION
        cue = _cue_before(clause, index) if token.negated and not token.head else None
        if cue in ("rather", "instead"):
            continue  # 'rather than raise fees': a movement turned down, none asserted
        # 'avoiding any rise in workload' is no rise, as 'without increasing workload' is.
        prevented = cue in _PREVENTIONS or _light_verb_denied(clause, index)
        negated = (token.head and not token.removed) or motion_head or token.subject_negated or ceased or prevented
        sign = -sign if negated else sign
        # 'decline in home prices slowed' (the noun first, the verb up to six words on), 'slowed
        # their decline' (the verb first, the noun close after).
        reach = 0
        if last is not None:
            # 'declined 27% more slowly' is a slowed decline: a pace after a movement changes it.
            reach = 3 if token.low in _MOVEMENT_NOUNS else PACE_REACH if token.low in _PACE else 0
            if noun_start is not None and index - noun_start <= 6:
                reach = index - last  # 'the deficit grew wider': one movement of the deficit
        if last is not None and found[last][0] == concept and index - last <= reach:
            sign *= found.pop(last)[1]
        elif token.low in _MOVEMENT_NOUNS:
            noun_start = index
        else:
            noun_start = None
        found[index] = (concept, sign)
        last = index
    clause.movements = found
    return found


def _direction(sentence: Clause, index: int, claims: Sequence[Cited]) -> str | None:
    token = sentence.tokens[index]
    concept, sign = _movements(sentence)[index]
    context = _context(sentence, index)
    # About the same thing: two shared words around it, or one in a short passage.
    needed = 2 if len(context) >= 3 else 1
    names = _names_around(sentence, index)
    # The claim's words for the passage's other direction words ('ban' in 'overturned the ban')
    # are theirs to match, not this word's.
    others = {sentence.tokens[i].stem for i in _movements(sentence) if i != index}
    candidates = []
    for cited in claims:
        for position, (other_concept, other_sign) in _movements(cited.clause).items():
            other = cited.clause.tokens[position]
            # 'lagged the smaller one' against 'scored higher than the smaller one': a level
            # compared is a rank.
            compared_rank = {concept, other_concept} == {"rank", "level"} and (
                _than_after(sentence, index) if concept == "level" else _than_after(cited.clause, position)
            )
            if (
                other_concept != concept
                and not compared_rank
                and not (
                    {concept, other_concept} == {"level", "outcome"}
                    and (token.low in _LEVEL_TOO or other.low in _LEVEL_TOO)
                    # 'lifted accuracy' against 'did not improve accuracy'; two negations say little
                    and not (token.negated and other.negated)
                )
            ):
                continue
            if other.stem in others and other.stem != token.stem:
                continue
            compared = _than_after(sentence, index) and _than_after(cited.clause, position)
            # The same word with its sides swapped needs names to show it ('A beat B', 'B beat
            # A'); the words around tell a turned word's sides, not a repeated one's.
            swapped = (
                _names_swapped(names, _names_around(cited.clause, position))
                if other.stem == token.stem and (_noun_use(sentence, index) or _noun_use(cited.clause, position))
                else _swapped(sentence, index, cited.clause, position, names)
            )
            if (concept == "rank" or compared or compared_rank) and swapped:
                # 'B trailed A' says what 'A beat B' says, 'Porto's rents are lower than Lisbon's'
                # what 'rents in Lisbon are higher than in Porto': reversed roles reverse the sign.
                other_sign = -other_sign
            # A figure both sides give the movement ('by 2.8 points') says which of a claim's
            # movements the passage's is.
            mine, theirs = _figures_near(sentence, index), _figures_near(cited.clause, position)
            figures = len(mine & theirs)
            shared = len(context & _context(cited.clause, position))
            if (
                other.stem == token.stem
                and other_sign == sign
                and (figures or not (mine and theirs))
                and (shared or sign)
            ):
                # The claim uses the very word the same way (of the same figure); 'no effect' the same
                # only if about the same things.
                return None
            if figures and shared < needed:
                # The same figure moved by both, said of the same thing a little further back:
                # 'licensing revenue also edged up 9%' against 'licensing revenue in the quarter
                # ended September 2025 fell 9%'.
                shared = max(shared, len(_sides(sentence, index)[0] & _sides(cited.clause, position)[0]))
            if shared + bool(figures) >= needed:  # a figure both give is one more thing shared
                # Words of the word's own clause break ties: 'its MMLU score slipped' is about
                # MMLU, whatever the next clause says.
                own = len(_clause_words_at(sentence, index) & _clause_words_at(cited.clause, position))
                candidates.append((shared + own + FIGURE_WEIGHT * figures, other_sign, cited, position, figures))
    if not candidates:
        return None
    best = max(score for score, *_ in candidates)
    top = [candidate for candidate in candidates if candidate[0] == best]
    if any(other_sign == sign for _, other_sign, _, _, _ in top):
        return None
    if (sign == 0 or any(other_sign == 0 for _, other_sign, _, _, _ in top)) and (
        _negated_movement(token)
        or any(_negated_movement(cited.clause.tokens[position]) for _, _, cited, position, _ in top)
    ):
        return None  # 'did not rise' may say 'was unchanged'
    _, _, cited, position, figures = top[0]
    other = cited.clause.tokens[position]
    weak = _weak(sentence, index), _weak(cited.clause, position)
    # A word that moves only in some uses ('led') counts against a plain one ('trailed') when
    # both give the same figure ('led ... by 2.8 points', 'trailed ... by 2.8 points').
    if all(weak) or (any(weak) and not figures):
        return None
    negated = (token.head and not token.removed) or (other.head and not other.removed)
    # 'no effect on hiring' against 'boosted hiring' is a negation too.
    no_effect = token.low in _EFFECTS or other.low in _EFFECTS
    kind = "negation" if negated or no_effect or token.subject_negated or other.subject_negated else "direction"
    return (
        f"{kind}: the paragraph says '{_phrase(sentence, index)}'; "
        f"{_claim_says(cited, _phrase(cited.clause, position))}"
    )


# Outcome words that also move a level: 'improves stability' against 'lowers stability'.
_LEVEL_TOO = _forms(
    "improve improves improved improving worsen worsens worsened hurt hurts harm harms harmed damaged "
    "boost boosts boosted"
)


def _clause_words_at(clause: Clause, index: int) -> frozenset[str]:
    """The content words of the clause token ``index`` stands in, between boundaries."""
    tokens = clause.tokens
    first, last = clause_bounds(tokens, index)
    return frozenset(t.stem for t in tokens[first : last + 1] if t.content and t.low not in POLARITY)


_INFLECTIONS = ("ed", "d", "s", "es", "ing")


def _same_or_inflected(a: Token, b: Token) -> bool:
    """``same_word``, or one word the other with an inflection ('ordered', 'order'), which the
    stemmer may cut apart ('ord' and 'order')."""
    if same_word(a, b):
        return True
    longer, shorter = (a.low, b.low) if len(a.low) > len(b.low) else (b.low, a.low)
    return len(shorter) >= 4 and any(longer == shorter + ending for ending in _INFLECTIONS)


def _negated_movement(token: Token) -> bool:
    """'did not rise': a movement denied, which may say it stayed flat ('no effect' is no such)."""
    return token.head and (token.low in POLARITY or _gerund_movement(token.low) is not None)


def _weak(clause: Clause, index: int) -> bool:
    """A word that carries a direction only in some uses; 'costs more' is no such use."""
    tokens = clause.tokens
    if tokens[index].low in ("more", "less") and index and tokens[index - 1].low in ("cost", "costs", "costing"):
        return False
    return tokens[index].low in _WEAK_POLARITY


FIGURE_WEIGHT = 4
FIGURE_REACH = 6


def _figures_near(clause: Clause, index: int) -> frozenset[str]:
    """The nearest figure on each side of token ``index``, within FIGURE_REACH tokens and not
    past a comma or a clause word: what a movement or a rank is by ('trailed ... by 2.8
    points'), not the next movement's ('dropped 2% in May following a 1% increase')."""
    tokens = clause.tokens
    found = set()
    for step in (-1, 1):
        position = index + step
        while 0 <= position < len(tokens) and abs(position - index) <= FIGURE_REACH:
            token = tokens[position]
            if token.boundary:
                break
            if token.kind == "number" and not (token.start and clause.text[token.start - 1] in "-."):
                found.add(token.text.rstrip("%,"))
                # 'fell to 33% from 43%': both ends of one movement are its figures.
                ends = tokens[position + 1 : position + 3]
                if step == 1 and len(ends) == 2 and ends[0].low in ("from", "to") and ends[1].kind == "number":
                    found.add(ends[1].text.rstrip("%,"))
                break
            position += step
    return frozenset(found)


SIDE_BEFORE = 10
SIDE_AFTER = 6
# Words that end a side: another clause's subject follows ('ahead of cost, while ...').
_SIDE_ENDS = _forms("but while whereas although though because which who whom")


def _sides(clause: Clause, index: int) -> tuple[frozenset[str], frozenset[str]]:
    """The words before and after a rank or comparison word in its sentence: who is ahead and
    who behind. Commas and 'and' do not end a side ('ahead of Micron and Samsung')."""
    tokens = clause.tokens

    def side(positions: range, cut: bool = False) -> frozenset[str]:
        found = set()
        for position in positions:
            token = tokens[position]
            if token.low in (".", ";", ":") or token.low in _SIDE_ENDS:
                break
            if cut and found and token.low in _ADJUNCT_PREPOSITIONS:
                break  # 'ranked below the new model | on the reading test': an adjunct, no side
            # The verbs ('ranked below') belong to neither side.
            if (
                token.content
                and _identifies(token)
                and token.low not in _STAND_INS
                and not _verb_form(tokens, position)
            ):
                found.add(token.stem)
        return frozenset(found)

    return (
        side(range(index - 1, max(-1, index - SIDE_BEFORE - 1), -1)),
        side(range(index + 1, min(len(tokens), index + SIDE_AFTER + 1)), cut=True),
    )


# Words that stand in for a side's noun ('the larger one'): they tell no side apart.
_STAND_INS = _forms("one ones")


def _swapped(sentence: Clause, index: int, claim: Clause, position: int, names: tuple[str | None, str | None]) -> bool:
    """Whether the claim's rank or comparison word has the passage's two sides the other way
    round: by the names on each side, else by the words ('The strongest baseline trailed
    DebateRM' against 'DebateRM ... above the strongest baseline')."""
    return _swapped_sides(sentence, index, claim, position, names) != (
        _rank_passive(sentence, index) != _rank_passive(claim, position)
    )


def _noun_use(clause: Clause, index: int) -> bool:
    """'sales of trail passes': a rank word used as a noun or modifier, with no sides."""
    previous = clause.tokens[index - 1].low if index else ""
    return previous in _DETERMINERS or previous == "of"


def _names_swapped(names: tuple[str | None, str | None], other_names: tuple[str | None, str | None]) -> bool:
    return None not in names and names[0] != names[1] and names == other_names[::-1]


def _rank_passive(clause: Clause, index: int) -> bool:
    """'The deadline was met by the team', 'was beaten by': the doer comes after the word."""
    tokens = clause.tokens
    return any(t.low in _BE for t in tokens[max(0, index - 2) : index]) and any(
        t.low == "by" for t in tokens[index + 1 : index + 3]
    )


def _swapped_sides(
    sentence: Clause, index: int, claim: Clause, position: int, names: tuple[str | None, str | None]
) -> bool:
    other_names = _names_around(claim, position)
    if None not in names and None not in other_names and names[0] != names[1]:
        if names == other_names[::-1]:
            return True
        if names == other_names:
            return False
    mine = _comparison_at(sentence, index)
    theirs = _comparison_at(claim, position)
    if mine and theirs:
        return _order(mine.left, mine.right, theirs.left, theirs.right) == "swapped"
    left, right = _sides(sentence, index)
    other_left, other_right = _sides(claim, position)
    # Words both sides have ('model' of 'the older model ... the new model') tell neither apart.
    left, right, other_left, other_right = (
        left - right,
        right - left,
        other_left - other_right,
        other_right - other_left,
    )
    same = len(left & other_left) + len(right & other_right)
    crossed = len(left & other_right) + len(right & other_left)
    return crossed > same and (same == 0 or (bool(left & other_right) and bool(right & other_left)))


def _than_after(clause: Clause, index: int) -> bool:
    return any(t.low == "than" for t in clause.tokens[index + 1 : index + 3])


_COMPARATIVES = {"more": 1, "less": -1, "fewer": -1}


def _comparatives(sentence: Clause, claims: Sequence[Cited]) -> list[str]:
    """'more harmless requests' against 'fewer harmless requests': the same words, compared
    the other way (bounds on figures, 'more than 200', are the quantity rule's)."""
    reasons = []
    tokens = sentence.tokens
    for index, token in enumerate(tokens[:-1]):
        if token.low not in _COMPARATIVES or _is_bound(sentence, index) or tokens[index + 1].kind != "word":
            continue
        following = tokens[index + 1]
        for cited in claims:
            other_tokens = cited.clause.tokens
            for position, other in enumerate(other_tokens[:-1]):
                if (
                    other.low in _COMPARATIVES
                    and _COMPARATIVES[other.low] != _COMPARATIVES[token.low]
                    and other_tokens[position + 1].stem == following.stem
                    and not _is_bound(cited.clause, position)
                    and not _turned_round(sentence, index, cited.clause, position)
                ):
                    reasons.append(
                        f"direction: the paragraph says '{_phrase(sentence, index, before=0)}'; "
                        f"{_claim_says(cited, _phrase(cited.clause, position, before=0))}"
                    )
    return reasons


def _turned_round(sentence: Clause, index: int, claim: Clause, position: int) -> bool:
    """'Random ordering burned more steps than the curriculum' says what 'the curriculum used
    fewer steps than random ordering' says: the opposite word with the sides swapped."""
    mine, theirs = _comparison_at(sentence, index), _comparison_at(claim, position)
    return bool(mine and theirs) and _order(mine.left, mine.right, theirs.left, theirs.right) == "swapped"


def _is_bound(clause: Clause, index: int) -> bool:
    """'more than 200', 'below 5%': a bound on a figure (the quantity rule's), not a direction."""
    tokens = clause.tokens
    if tokens[index].low not in _ALSO_BOUND:
        return False
    following = tokens[index + 1 : index + 3]
    if any(t.kind == "number" for t in following):
        return True
    if not following or following[0].low != "than":
        return False
    # 'more than 200', 'more than half': a bound; 'cost more than sampling': a comparison.
    after = tokens[index + 2 : index + 4]
    return not after or any(t.kind == "number" or t.low in NUMBER_WORDS or t.low in _BOUND_NOUNS for t in after)


_BOUND_NOUNS = _forms("half third quarter double twice triple a an one")


# Comparisons ---------------------------------------------------------------------------------


_TIME_SPANS = _forms("days months years weeks hours minutes seconds decades")


def _identifies(token: Token) -> bool:
    """A word that can tell a side apart: not a rank or comparing word; a level word may
    ('the cheaper plan', 'the larger model')."""
    polarity = POLARITY.get(token.low)
    return token.low not in _COMPARATIVES and (polarity is None or polarity[0] == "level")


def _operand(token: Token) -> str:
    return token.text.rstrip(",") if token.kind == "number" else token.stem


def _side_ends(tokens: list[Token], index: int) -> bool:
    """A side ends at a boundary, or after a figure that took in its comma ('over 65, ...')."""
    return tokens[index].boundary or (index > 0 and tokens[index - 1].text.endswith(","))


def _operand_word(token: Token) -> bool:
    # Figures tell sides apart too: 'adults under 30 than those over 65'.
    return (token.kind == "word" and (token.content or token.low in _TIME_SPANS)) or token.kind == "number"


@dataclass(frozen=True)
class Comparison:
    """An 'A ... than B': where 'than' stands, the comparing word before it ('more', 'denser',
    'rather') and its place, its direction when it has one (+1 'more', -1 'fewer'), and the
    content words that tell each side apart."""

    than: int
    word: str
    at: int
    sign: int | None
    left: frozenset[str]
    right: frozenset[str]


COMPARING_REACH = 5


def _comparing_word(clause: Clause, than: int) -> tuple[int, int | None]:
    """The word that compares, and its sign: the nearest 'more', 'fewer' or direction word
    before 'than' ('consumed 45% fewer context tokens than'), else the word before 'than'."""
    tokens = clause.tokens
    for position in range(than - 1, max(-1, than - COMPARING_REACH - 1), -1):
        token = tokens[position]
        if token.boundary:
            break
        if token.low in _COMPARATIVES:
            return position, _COMPARATIVES[token.low]
        polarity = _polarity(clause, position) if token.kind == "word" else None
        if polarity is not None and polarity[0] in ("level", "rank") and polarity[1]:
            return position, polarity[1]
    return than - 1, None


_WH_SIDES = _forms("how what whatever")


@lru_cache(maxsize=4096)
def _comparisons_of(text: str) -> tuple[Comparison, ...]:
    """Each 'A ... than B' of a text, with the content words of each side within the clause."""
    clause = clause_of(text)
    found = []
    tokens = clause.tokens
    for index, token in enumerate(tokens):
        if token.low != "than" or index == 0 or _is_bound(clause, index - 1):
            continue  # 'more than 200': a bound, the quantity rule's
        start, _ = clause_bounds(tokens, index - 1)
        # The other side: the words right after 'than', to the first function word after them
        # ('than verifier quality in the early stages': verifier quality).
        end = index + 1
        while end < len(tokens) and not _side_ends(tokens, end) and (end == index + 1 or _operand_word(tokens[end])):
            end += 1
        if index + 1 < len(tokens) and tokens[index + 1].low in _WH_SIDES:
            # 'than how good the verifier is', 'than what the rivals spent': a clause as the side.
            while end < len(tokens) and not _side_ends(tokens, end):
                end += 1
        at, sign = _comparing_word(clause, index)
        left = {
            _operand(t)
            for t in tokens[start : index - 1]
            if _operand_word(t) and _identifies(t) and t is not tokens[at]
        }
        right = {
            _operand(t) for t in tokens[index + 1 : end] if _operand_word(t) and _identifies(t) and t is not tokens[at]
        }
        if not right - left:
            # 'than agents using direct tool calling': what tells it apart comes after a function word.
            while end < len(tokens) and not _side_ends(tokens, end):
                end += 1
            right = {
                _operand(t)
                for t in tokens[index + 1 : end]
                if _operand_word(t) and _identifies(t) and t is not tokens[at]
            }
        # What tells the sides apart: 'terminal rewards' against 'process rewards'.
        left, right = left - right, right - left
        if left and right:
            found.append(Comparison(index, tokens[index - 1].low, at, sign, frozenset(left), frozenset(right)))
    return tuple(found)


def _comparisons(clause: Clause) -> tuple[Comparison, ...]:
    return _comparisons_of(clause.text)


def _comparison_at(clause: Clause, index: int) -> Comparison | None:
    """The comparison whose comparing word is token ``index`` ('fewer' of 'fewer steps than')."""
    return next((found for found in _comparisons(clause) if found.at == index), None)


def _order(left: frozenset[str], right: frozenset[str], other_left: frozenset[str], other_right: frozenset[str]) -> str:
    """Whether two comparisons have their sides the 'same' way round, 'swapped', or it is
    'unclear'."""
    if not (right & other_right) and right & other_left and left & other_right:
        return "swapped"
    if not (right & other_left) and right & other_right and not (left & other_right):
        return "same"
    return "unclear"


# Comparisons the claims' figures decide -------------------------------------------------------

# A name right after these is where a figure was measured ('scored 71.2% on AgentBench'), not
# whose figure it is.
_SETTING_BEFORE = _forms("on in at across over during under")
FIGURE_OWNER_REACH = 8
SIDE_NAME_REACH = 10
# Measures where less is better: ranking words ('beat', 'ahead', 'worse') run against their values.
_LESS_IS_BETTER = _forms(
    "error errors latency loss losses cost costs time times seconds minutes hours days price prices failure "
    "failures staleness perplexity"
)
# 'edged out', 'pulled ahead of': a rank said in two words.
_RANK_PAIRS = {("edged", "out"): 1, ("pipped", "by"): -1}


@dataclass(frozen=True)
class _Scored:
    value: float
    percent: bool
    cited: Cited
    at: int  # the figure
    owner: tuple[int, int]  # the name's first and last token


def _claims_figures(claims: Sequence[Cited]) -> dict[str, _Scored]:
    """Each name the claims give one figure of, with that figure. A name with two different
    figures is left out: which one a comparison means is unclear."""
    found: dict[str, _Scored] = {}
    unclear: set[str] = set()
    for cited in claims:
        owned = _owned_figures(cited.clause.text)
        # 'Acme's model scored 80% on ToolBench and 70% on WebShop': a figure of the claim whose
        # owner is not read may be the name's too, on another measure; which one a comparison
        # means is unclear.
        ownerless = _figure_count(cited.clause) > len(owned)
        for span, value, percent, at, owner in owned:
            scored = _Scored(value, percent, cited, at, owner)
            if ownerless or (span in found and found[span].value != value):
                unclear.add(span)
            found.setdefault(span, scored)
    return {span: scored for span, scored in found.items() if span not in unclear}


@lru_cache(maxsize=4096)
def _owned_figures(text: str) -> tuple[tuple[str, float, bool, int, tuple[int, int]], ...]:
    """Each figure of a claim with its owner, the nearest name in its stretch of clause
    ('Corvid-Agent-34B scored 61.8%', '87% with AdamW'); a name where the figure was measured
    ('on AgentBench') owns none. Read once a claim: a story cites it from many sentences."""
    clause = clause_of(text)
    tokens = clause.tokens
    found = []
    for index, token in enumerate(tokens):
        if token.kind != "number" or token.name or (token.start and not text[token.start - 1].isspace()):
            continue  # 'pass^1', 'x2': a number inside a term, not a figure
        owners = sorted(
            (first - index if first > index else index - last, first, last, span)
            for first, last, span in clause.names
            if not (first and tokens[first - 1].low in _SETTING_BEFORE)
            and (last < index or first > index)
            and (first - index if first > index else index - last) <= FIGURE_OWNER_REACH
            and not any(t.boundary or _sets_apart(t) for t in tokens[min(last, index) + 1 : max(first, index)])
        )
        if not owners or (len(owners) > 1 and owners[0][0] == owners[1][0]):
            continue  # no owner, or two as near: whose it is is unclear
        _, first, last, span = owners[0]
        found.append((span, float(_number_text(token)), token.text.endswith("%"), index, (first, last)))
    return tuple(found)


def _sets_apart(token: Token) -> bool:
    """A word between a name and a figure that puts them on two sides: 'beat Corvid with 61.8%'
    is the beater's figure, not Corvid's."""
    return token.low in ("than", "versus", "against", "vs") or POLARITY.get(token.low, ("",))[0] == "rank"


def _figure_count(clause: Clause) -> int:
    """The claim's figures that may be someone's: numbers that are no part of a name or a term
    ('pass@1') and no year."""
    return sum(
        1
        for token in clause.tokens
        if token.kind == "number"
        and not token.name
        and (token.start == 0 or clause.text[token.start - 1] in " (")
        and not (len(token.text) == 4 and token.text[:2] in ("19", "20"))
    )


def _number_text(token: Token) -> str:
    return token.text.strip("$€£¥%,").replace(",", "")


def _side_name(clause: Clause, index: int, step: int, figured: dict[str, _Scored]) -> tuple[int, int, str] | None:
    """The nearest name the claims give a figure of, before (step -1) or after (+1) token
    ``index`` in its sentence, not past a full stop, colon or semicolon."""
    for first, last, span in clause.names if step > 0 else reversed(clause.names):
        edge = first if step > 0 else last
        if (edge - index) * step <= 0 or abs(edge - index) > SIDE_NAME_REACH:
            continue
        if any(t.low in (".", ";", ":") for t in clause.tokens[min(edge, index) : max(edge, index)]):
            return None
        if span in figured:
            return first, last, span
    return None


def _comparing_sign(clause: Clause, than: int) -> tuple[int, int] | None:
    """The ranking or level word a 'than' completes, however far back in its clause ('scored
    higher on the company's benchmark with AdamW than'), with its sign."""
    for position in range(than - 1, -1, -1):
        token = clause.tokens[position]
        if token.boundary:
            return None
        # The word's own sign, not a movement it composes with: 'GRPO's drop was bigger than
        # DPO's' compares the drops' sizes.
        polarity = _polarity(clause, position) if token.kind == "word" and position in _movements(clause) else None
        if polarity is not None and polarity[0] in ("rank", "level") and polarity[1]:
            return position, -polarity[1] if token.head and not token.removed else polarity[1]
    return None


def _figures_decide(sentence: Clause, claims: Sequence[Cited]) -> list[str]:
    """'Sable-72B finished ahead of Atlas-70B', 'scored higher with AdamW than with Muon',
    where the claims give each side a figure that orders them the other way: a ranking word
    ('ahead', 'beat', 'worse') or a level compared ('higher ... than') read against the values."""
    figured = _claims_figures(claims)
    if len(figured) < 2:
        return []
    tokens = sentence.tokens
    # 'ahead on latency' is the lower figure: ranking words run against a measure where less is better.
    less_is_better = any(t.low in _LESS_IS_BETTER for t in tokens) or any(
        t.low in _LESS_IS_BETTER for cited in claims for t in cited.clause.tokens
    )
    found = []  # (word, sign, concept, left, right)
    for index, token in enumerate(tokens):
        if token.low == "than":
            compared = _comparing_sign(sentence, index)
            if compared is not None:
                word, sign = compared
                left, right = _side_name(sentence, index, -1, figured), _side_name(sentence, index, 1, figured)
                found.append((word, sign, _movements(sentence)[word][0], left, right))
            continue
        pair = (token.low, tokens[index + 1].low if index + 1 < len(tokens) else "")
        polarity = ("rank", _RANK_PAIRS[pair]) if pair in _RANK_PAIRS else _movements(sentence).get(index)
        if polarity is None or polarity[0] != "rank" or not polarity[1] or _noun_use(sentence, index):
            continue
        if _than_after(sentence, index):
            continue  # read with its 'than'
        left, right = _side_name(sentence, index, -1, figured), _side_name(sentence, index, 1, figured)
        if _rank_passive(sentence, index):
            left, right = right, left
        found.append((index, polarity[1], "rank", left, right))
    for word, sign, concept, left, right in found:
        if left is None or right is None or left[2] == right[2]:
            continue
        mine, theirs = figured[left[2]], figured[right[2]]
        if mine.percent != theirs.percent or mine.value == theirs.value or (concept == "rank" and less_is_better):
            continue
        if (mine.value > theirs.value) == (sign > 0):
            continue
        first, last = min(left[0], right[0], word), max(left[1], right[1], word)
        return [
            f"direction: the paragraph says '{_span(sentence, first, last)}'; "
            f"{_claim_says(mine.cited, _figure_quote(mine))} and {_claim_says(theirs.cited, _figure_quote(theirs))}"
        ]
    return []


def _figure_quote(scored: _Scored) -> str:
    first, last = scored.owner
    return _span(scored.cited.clause, min(first, scored.at), max(last, scored.at))
