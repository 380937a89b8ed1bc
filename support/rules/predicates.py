"""The new-predicate rule (``new_predicate_rule``): a verb the sentence asserts, with the
words it governs, that no cited claim backs; and how a news verb is told from a noun, a figure
or a verb of saying.

- **new predicate**: what the sentence asserts (a verb and the words it governs) is in no
  claim, however many topic words the sentence shares with them; or it ranks something ('the
  strongest open model of its size') where no claim ranks anything. A reporter's own verb for
  the claim's is no new assertion when its doer and what it is done to are the claims' and its
  new words only say how ('ships weights through whichever link is quickest'); a new object,
  recipient or role is ('sold its solar farm to a pension fund', 'sold as a service'). Words that
  look like verbs but modify a noun are not read as one: 'the CoSIR-trained model', 'against
  structured criteria'; nor is 'go' before an adjective ('goes wrong'), which says 'become'.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from .. import text as lex
from .backing import Backing, weight
from .quoting import Cited, _claim_says, _span
from .tokens import (
    Clause,
    Token,
    _adjectival,
    _clause_end,
    _compound_modifier,
    _doubled,
    _number_value,
    _numbers,
    _verb_like,
    clause_bounds,
    clause_of,
)
from .words import (
    _ADVERBS,
    _AUXILIARIES,
    _BASE_VERBS,
    _BE,
    _CARRIER_VERBS,
    _CAUSATIVES,
    _DETERMINERS,
    _PLAN_WORDS,
    _PREPOSITIONS,
    _PRONOUNS,
    _SPEECH,
    LIGHT,
    MONTHS,
    NUMBER_WORDS,
    POLARITY,
    _forms,
)


def _object_like(token: Token) -> bool:
    return token.stem not in LIGHT and token.low not in _ADVERBS and not token.low.endswith("ly")


# A verb's clause (from the verb to the clause's end) with this share of its weighted words, or
# more, backed is a paraphrase of the claim's verb ('has eaten away 30 metres of the cliff').
NEW_PREDICATE_BACKED = 0.5


# Counts in words are figures, the figure rule's to hold to the claims: 'from a single try'.
_COUNTING = NUMBER_WORDS | _forms("single")


# 'hand-built ones': a pro-form standing for a noun said before, nothing new.
_PRO_FORMS = _forms("ones")


def _counting(token: Token) -> bool:
    # 'sixfold' is a figure too: the quantity rule holds a multiple in words to the claims.
    low = token.low
    return low in _COUNTING or low in _PRO_FORMS or (low.endswith("fold") and low[:-4] in NUMBER_WORDS)


# Verbs that link a thing to what is said of it ('proved hard', 'remains the workhorse', 'came
# through largely intact'): they assert nothing of their own; a reporter's characterisation of
# the claim's facts follows them.
_LINKING = _forms(
    "prove proves proved proven remain remains remained stay stays stayed seem seems seemed appear appears "
    "appeared become becomes became come comes came emerge emerges emerged"
)


_GOING = _forms("go goes went gone going")


def _becoming(clause: Clause, index: int) -> bool:
    """'go' before an adjective says 'become' ('when enterprise AI goes wrong', 'fewer than one
    in 200 went wrong'): a linking verb, and what follows it the reporter's characterisation."""
    tokens = clause.tokens
    if tokens[index].low not in _GOING or index + 1 >= len(tokens):
        return False
    following = tokens[index + 1]
    return (
        following.content
        and not following.name
        and following.low not in _PARTICLES
        and following.low not in _PREPOSITIONS
        and not _verb_like(clause, index + 1)
    )


def _clause_backed(clause: Clause, verb: int, backing: Backing) -> float:
    total = backed = 0.0
    tokens = clause.tokens
    for token in tokens[verb + 1 : _governed_end(clause, verb)]:
        if token.kind == "number" or _counting(token):
            total += 1
            backed += 1  # the figure rule holds figures to the claims
        elif token.content and token.low not in _ADVERBS:
            total += weight(token.stem)
            backed += weight(token.stem) if backing.backs(token.stem) else 0
    return backed / total if total else 0.0


# A question as a verb's object: 'predict which benchmarks will leak', 'decide whether to ship'.
_QUESTION_WORDS = _forms("which whether what who how when where")


def _governed_end(clause: Clause, verb: int) -> int:
    """Where the words a verb governs end: its clause's end, read past a clause word that
    opens the verb's own object, a question right after it ('can predict which benchmarks will
    leak into training data'), or past an 'as' that gives what it governs a role ('are sold as
    a service by most cloud providers', 'released as open source'), neither of which begins
    another clause."""
    tokens = clause.tokens
    end = _clause_end(tokens, verb + 1)
    while end < len(tokens) and ((end == verb + 1 and tokens[end].low in _QUESTION_WORDS) or _role_as(clause, end)):
        end = _clause_end(tokens, end + 1)
    return end


def _role_as(clause: Clause, index: int) -> bool:
    """An 'as' before a noun phrase with no verb of its own ('as a service', 'as open source',
    'as customers'), not one that opens a clause ('as the company grew', 'as costs fell') or
    ends a comparison ('twice as fast as')."""
    tokens = clause.tokens
    if tokens[index].low != "as" or index + 1 >= len(tokens):
        return False
    if any(t.low == "as" for t in tokens[max(0, index - 3) : index]):
        return False  # 'as fast as the baselines': a comparison's other side
    following = tokens[index + 1].low
    if following in ("a", "an"):
        return True
    if following in _DETERMINERS:
        return False  # 'as the company grew': most often a clause
    end = _clause_end(tokens, index + 1)
    words = [i for i in range(index + 1, end) if tokens[i].content]
    # A clause after 'as' has a finite verb; an '-ing' word is a noun's ('a push into lending').
    return bool(words) and not any(_verb_like(clause, i) and not tokens[i].low.endswith("ing") for i in words[1:])


# Verbs news copy uses for taking on a problem, whatever the claim's verb: 'attacks the same
# problem', 'tackles', 'handles'.
_FIGURATIVE = frozenset(
    lex.stem(word) for word in ("attack", "tackle", "address", "handle", "approach", "target", "treat")
)
_PARTICLES = _forms("off up out down back over away on in")


def _event_verb(clause: Clause, index: int) -> bool:
    """A news verb used as a verb, in an inflected form or after an auxiliary ('sold', 'has
    sold', 'will sell', 'is being acquired', 'blames'): what the sentence says happened. Plain
    forms after a noun ('a pension fund') and plural nouns ('sales') are left out."""
    tokens = clause.tokens
    token = tokens[index]
    low = token.low
    base = lex.plain_verb(low)
    previous = tokens[index - 1] if index else None
    if (
        low in _SPEECH
        or (base and base in _SPEECH)
        or POLARITY.get(low, ("",))[0] in ("level", "rank", "time")
        or low in _PLAN_WORDS
        or low in _CARRIER_VERBS
    ):
        return False  # speech is attribution; movements and plans are their own rules'
    if token.stem in LIGHT or token.stem in _FIGURATIVE:
        return False
    following = tokens[index + 1 : index + 4]
    if following and following[0].low in _PARTICLES:
        return False  # 'signed off on', 'shut down': a phrasal verb paraphrases more freely
    if any(t.low == "to" for t in following):
        return False  # 'forced the band to call off': the verb after 'to' is what it asserts
    if (
        previous is not None
        and previous.low == "to"
        and index > 1
        and tokens[index - 2].kind != "punct"
        and tokens[index - 2].low not in _PLAN_WORDS
        and tokens[index - 2].low not in _BE
    ):
        return False  # 'put aside money to cover loans': a purpose, not an assertion
    if previous is not None and previous.low in _DETERMINERS:
        return False
    known = base in _BASE_VERBS if base else False
    form = ""
    if not known:
        for suffix in ("ed", "d", "ing", "es", "s"):
            if low.endswith(suffix) and low[: -len(suffix)] in _BASE_VERBS:
                known, form = True, suffix
                break
        if not known and low.endswith("ied") and low[:-3] + "y" in _BASE_VERBS:
            known, form = True, "ed"
        if not known and low.endswith("ing") and low[:-3] + "e" in _BASE_VERBS:
            known, form = True, "ing"
        if not known and _doubled(low) in _BASE_VERBS:
            known, form = True, "ing" if low.endswith("ing") else "ed"  # 'flagged', 'banning'
        if not known and low in _BASE_VERBS:
            known, form = True, "plain"
        if not known and len(low) > 5 and low[:-2] in _BASE_VERBS and low.endswith("ed"):
            known, form = True, "ed"
    if not known:
        return False
    if base or form in ("ed", "d"):
        return True  # 'sold', 'blamed'
    after_auxiliary = previous is not None and (previous.low in _AUXILIARIES or previous.low in _BE)
    if form == "ing":
        # 'is selling', 'by selling', 'recommends retiring': what is done, or urged to be done.
        return previous is not None and (previous.low in _BE or previous.low == "by" or previous.low in _GERUND_TAKERS)
    if form in ("s", "es"):
        return previous is not None and (previous.name or previous.low in _PRONOUNS)
    # 'lets teams train': the verb a causative brings about; 'the authors blame': a plain verb
    # after its plural subject.
    caused = index > 1 and tokens[index - 2].low in _CAUSATIVES
    return after_auxiliary or caused or (previous is not None and _plural_subject(clause, index - 1))


_PAYING = _forms("pay pays paid paying spend spends spent spending")

# Verbs whose object is a gerund: the gerund is what the sentence says is done or urged.
_GERUND_TAKERS = _forms(
    "recommend recommends recommended suggest suggests suggested propose proposes proposed began begun begin "
    "begins start starts started stop stops stopped avoid avoids avoided consider considers considered"
)


def _plural_subject(clause: Clause, index: int) -> bool:
    """A plural noun that can be a verb's subject: 'the authors', 'regulators'; not a verb form
    itself ('sells') and not the sentence's first word (a name or a noun the rules cannot tell)."""
    token = clause.tokens[index]
    low = token.low
    return (
        index > 0
        and token.kind == "word"
        and len(low) > 3
        and not token.name
        and low.endswith("s")
        and not low.endswith("ss")
        and low[:-1] not in _BASE_VERBS
        and low[:-2] not in _BASE_VERBS
        and (clause.tokens[index - 1].low in _DETERMINERS or clause.tokens[index - 1].name)
    )


def _nearest(sentence: Clause, first: int, end: int, claims: Sequence[Cited]) -> str:
    """The cited claim closest to a clause (most words in common), quoted from its first verb:
    what the writer may have meant to say, for the reason's other side."""
    words = {t.stem for t in sentence.tokens[max(0, first - 6) : end] if t.content}
    best = max(claims, key=lambda cited: len(words & cited.clause.stems), default=None)
    if best is None:
        return ""
    tokens = best.clause.tokens
    words = [i for i, t in enumerate(tokens) if t.content and not t.name]
    clear = [i for i in words if tokens[i].low in POLARITY or tokens[i].low.endswith("ed")]
    likely = [i for i in words if _verb_like(best.clause, i)]
    verb = (clear or likely or [None])[0]
    if verb is None:
        return ""
    first = verb
    while first > 0 and tokens[first - 1].low in _AUXILIARIES:
        first -= 1  # 'will build', 'has cut'
    return f"; the nearest, {_claim_says(best, _span(best.clause, first, verb + 4))}"


def _carries_stated_figure(sentence: Clause, verb: int, end: int, claims: Sequence[Cited]) -> bool:
    """A verb whose object is a figure a claim states ('delivered 87% of the training signal',
    'posts 73.6%'): the verb only attaches the figure to its owner, however the reporter words
    it; whether the figure is right is the figure rule's."""
    tokens = sentence.tokens
    for index in range(verb + 1, min(end, verb + 4)):
        token = tokens[index]
        if token.kind == "number" and not token.name:
            value = _number_value(token)
            return any(value in _numbers(cited.clause) for cited in claims)
        if token.low in _PREPOSITIONS or (token.content and token.low not in _ADVERBS and not token.low.endswith("ly")):
            return False  # 'adopted by 10,000 companies': the figure is the doer's, not the object
    return False


# Prepositions that say how a thing was done, not to or for whom: what follows them may be the
# reporter's words for the claim's manner ('ships weights through whichever link is quickest').
_MANNER = _forms("with through over via using without")


def _reworded(sentence: Clause, verb: int, end: int, backing: Backing) -> bool:
    """A reporter's own verb for the claim's: its doer and what it is done to are the claims'
    ('LoongSage ships weights', 'chats were settled by its customer-service agent'), and every
    new word after it says how ('through whichever link is quickest', 'with no hand-off to
    staff'), none a new object, recipient, place or reason ('sold its solar farm to a pension
    fund')."""
    tokens = sentence.tokens
    start, _ = clause_bounds(tokens, verb)
    doer = [
        t
        for t in tokens[start:verb]
        if t.content and t.low not in _AUXILIARIES and t.low not in _BE and not t.low.endswith("ly")
    ]
    # 'Seven in ten inbound chats': a count is the figure rule's to hold to the claims.
    if not doer or not all(t.name or _counting(t) or backing.backs(t.stem) for t in doer):
        return False
    done_to = next((i for i in range(verb + 1, end) if tokens[i].content), None)
    if done_to is None or not (tokens[done_to].name or backing.backs(tokens[done_to].stem)):
        return False
    how = False
    for i in range(done_to + 1, end):
        token = tokens[i]
        if token.low in _PREPOSITIONS or token.low in _MANNER:
            how = token.low in _MANNER
        elif token.content and not token.name and not backing.backs(token.stem) and not how:
            return False
    return True


def _frame_end(sentence: Clause) -> int:
    """Where a sentence's assertion starts: 'To keep this distinct from last week's story: ...'
    frames the sentence, and what it asserts comes after the frame."""
    tokens = sentence.tokens
    if tokens and tokens[0].low == "to":
        return next((i for i, t in enumerate(tokens) if t.kind == "punct"), 0)
    return 0


def _new_verb(sentence: Clause, index: int, backing: Backing) -> bool:
    """Whether a sentence's word is a verb that no cited claim has, nor a form or a synonym of."""
    token = sentence.tokens[index]
    return not (
        not token.content
        or token.name
        or token.low in MONTHS  # 'April-to-June': a date, not a verb after 'to'
        # 'paid $14.3 billion for half of Scale AI': the money side of a purchase the claims report
        or (token.low in _PAYING and any(kind == "trade" for kind, _ in backing.polarities))
        or token.low in _CARRIER_VERBS
        or token.low in _LINKING
        or _becoming(sentence, index)
        or backing.backs(token.stem)
        or not _verb_like(sentence, index)
        or _adjectival(sentence, index)
        or _compound_modifier(sentence, index)
    )


def unsaid_verb_rule(sentence: Clause, backing: Backing, claims: Sequence[Cited] = ()) -> list[str]:
    """Verbs no cited claim has where the rest of their clause is the claims' ('took Alder Health
    to court' for 'sued'): a reporter's word for the claim's, or a new action; the rules cannot
    tell which. One reason a verb, each beside the nearest claim's verb."""
    tokens = sentence.tokens
    start = _frame_end(sentence)
    verbs = dict.fromkeys(
        tokens[index].low
        for index in range(start, len(tokens))
        # A movement the claims make too ('fell' for 'declined') is the direction rule's to read.
        if _new_verb(sentence, index, backing) and POLARITY.get(tokens[index].low) not in backing.polarities
    )
    reasons = []
    for verb in verbs:
        index = next(i for i in range(start, len(tokens)) if tokens[i].low == verb)
        nearest = _nearest(sentence, index, _governed_end(sentence, index), claims)
        reasons.append(f"unsaid verb: '{verb}' is not said in the cited claims{nearest}")
    return reasons


def new_predicate_rule(sentence: Clause, backing: Backing, claims: Sequence[Cited] = ()) -> list[str]:
    """What a sentence asserts that no claim has: a verb in no cited claim whose clause (the
    words it governs, to the clause's end) is mostly in none either ('will replace every
    verifier'). A new verb with backed words after it is a paraphrase of the claim's verb
    ('handed over 214,000 vehicles'); a verb alone says too little to report."""
    tokens = sentence.tokens
    start = _frame_end(sentence)
    reasons = []
    index = start
    while index < len(tokens):
        token = tokens[index]
        if not _new_verb(sentence, index, backing):
            index += 1
            continue
        end = _governed_end(sentence, index)
        new = [
            i
            for i in range(index + 1, end)
            if tokens[i].content
            and not tokens[i].name
            and not _counting(tokens[i])  # counts are the figure rule's
            and not backing.backs(tokens[i].stem)
        ]
        # After the verb, an -s word right after a name is a plural noun ('switched GPU
        # suppliers'), not a verb of that name's.
        governed = [i for i in new if _object_like(tokens[i]) and (not _verb_like(sentence, i) or tokens[i - 1].name)]
        before = index - 1
        while before > 0 and (tokens[before].low in _ADVERBS or tokens[before].low == "now"):
            before -= 1  # 'is now approved'
        passive = before >= 0 and tokens[before].low in _BE
        # The verb's first word after it, new too ('replace every verifier'), unless that word is
        # only in the claims as part of a name ('air' in 'Norvik Air').
        first_word = next(
            (i for i in range(index + 1, end) if tokens[i].content and tokens[i].low not in NUMBER_WORDS), None
        )
        opens_new = first_word is not None and (first_word in new or tokens[first_word].stem in backing.name_only)
        if governed and opens_new and _clause_backed(sentence, index, backing) < NEW_PREDICATE_BACKED:
            first = index
            while first > 0 and tokens[first - 1].low in _AUXILIARIES:
                first -= 1
            words = ", ".join(tokens[i].low for i in [index, *new])
            reasons.append(
                f"new predicate: the paragraph says '{_span(sentence, first, end - 1)}'; no cited claim says "
                f"anything like it (not in them: {words}){_nearest(sentence, index, end, claims)}"
            )
            index = end
            continue
        # Urged or brought about ('recommends retiring 14 benchmarks', 'lets teams train'): the
        # verb is the assertion even when the claims name what it is done to.
        urged = index > 0 and (tokens[index - 1].low in _GERUND_TAKERS or tokens[index - 2].low in _CAUSATIVES)
        # A passive with nothing after it in its clause ('a task that cannot be solved') is a
        # verb alone: too little to tell a new assertion from a reporter's word for the claim's.
        passive = passive and any(tokens[i].content or tokens[i].kind == "number" for i in range(index + 1, end))
        if (
            (governed or passive or urged)
            and (governed or urged or not _carries_stated_figure(sentence, index, end, claims))
            and POLARITY.get(token.low) not in backing.polarities
            and _event_verb(sentence, index)
            and not (not urged and _reworded(sentence, index, end, backing))
        ):
            # What happened, in a verb no claim has nor a synonym of: the sentence's assertion
            # is new however many of its topic words the claims share ('has sold its Nevada
            # solar farm' against 'will build a solar farm in Nevada').
            first = index
            while first > 0 and tokens[first - 1].low in _AUXILIARIES | _BE:
                first -= 1
            reasons.append(
                f"new predicate: the paragraph says '{_span(sentence, first, min(end - 1, index + 4))}'; "
                f"no cited claim says '{token.low}' or anything like it{_nearest(sentence, index, end, claims)}"
            )
            index = end
            continue
        # 'lets teams train', 'recommends retiring': the verb a causative or a verb of advice
        # governs may be the assertion.
        index = index + 1 if token.low in _CAUSATIVES or token.low in _GERUND_TAKERS else end
    if not reasons and claims:
        reasons += _new_ranking(sentence, claims)
    return reasons


# Words that end in -est but rank nothing.
_NOT_SUPERLATIVES = _forms(
    "interest test request guest honest modest forest harvest protest suggest invest digest contest arrest "
    "manifest rest west nest chest earnest priest"
)
# Superlatives of time pick out which one ('the lab's newest agent'), they rank no performance.
_WHICH_ONE = _forms("newest latest oldest earliest")
# What ranks in a claim: a superlative, a rank word ('ahead', 'beat'), a comparison ('than',
# 'higher'), a uniqueness ('the only', 'no other').
_RANKING = _forms(
    "best worst top first most least leading record only other unmatched unrivalled unrivaled surpass surpasses "
    "surpassed exceed exceeds exceeded outpace outpaces outpaced"
)


def _superlative(token: Token) -> bool:
    low = token.low
    return (
        token.kind == "word"
        and not token.name
        and (low in ("best", "worst") or (low.endswith("est") and len(low) > 5 and low not in _NOT_SUPERLATIVES))
    )


def _ranks(claim: Clause) -> bool:
    return _ranks_text(claim.text)


@lru_cache(maxsize=4096)
def _ranks_text(text: str) -> bool:
    """Read once a claim: a story cites the same claims from many sentences."""
    tokens = clause_of(text).tokens
    return any(
        not token.name
        and (
            token.low in _RANKING
            or _superlative(token)
            or POLARITY.get(token.low, ("",))[0] == "rank"
            or (token.low.endswith("er") and POLARITY.get(token.low, ("",))[0] == "level")  # 'higher', 'faster'
            or (token.low == "than" and not (index and tokens[index - 1].low == "rather"))
        )
        for index, token in enumerate(tokens)
    )


def _phrase_start(tokens: list[Token], index: int) -> int:
    """Where a noun phrase begins whose determiner or possessor is token ``index``: 'the lab's'
    in 'the lab's largest model'."""
    first = index
    if tokens[first].low.endswith("'s"):
        while first > 0 and (tokens[first - 1].name or tokens[first - 1].low in _DETERMINERS):
            first -= 1
    return first


def _predicative(tokens: list[Token], determiner: int) -> bool:
    """Whether the noun phrase starting at ``determiner`` is said of something, after a verb or
    its object ('makes it the strongest open model', 'is the fastest'), not a subject or a
    preposition's object that picks out which one ('the lab's largest model scored', 'at the
    earliest')."""
    before = tokens[determiner - 1] if determiner else None
    return before is not None and not before.boundary and before.low not in _PREPOSITIONS and before.low != "at"


def _new_ranking(sentence: Clause, claims: Sequence[Cited]) -> list[str]:
    """A ranking where no claim ranks anything: 'the strongest open model of its size',
    'outperforming every other predictor', 'GRPO the quicker of the two'. A reporter may reword
    a claim's ranking, but one the claims do not make is a new assertion."""
    if any(_ranks(cited.clause) for cited in claims):
        return []
    tokens = sentence.tokens
    for index, token in enumerate(tokens):
        previous = tokens[index - 1].low if index else ""
        following = [t.low for t in tokens[index + 1 : index + 4]]
        if token.low == "other" and previous in ("every", "any", "all"):
            first = index - 1  # 'every other predictor'
        elif (
            _superlative(token)
            and token.low not in _WHICH_ONE
            and (previous in _DETERMINERS or previous.endswith("'s"))
            and _predicative(tokens, _phrase_start(tokens, index - 1))
        ):
            first = index - 1  # 'the strongest open model'
        elif token.low.endswith("er") and following[:2] == ["of", "the"] and following[2:] in (["two"], ["three"]):
            first = index - 1 if previous == "the" else index  # 'the quicker of the two'
        else:
            continue
        last = min(_clause_end(tokens, index + 1), index + 5) - 1
        return [
            f"new predicate: the paragraph says '{_span(sentence, first, last)}' (a ranking); no cited claim "
            "ranks anything"
        ]
    return []
