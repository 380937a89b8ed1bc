"""The modality rule (``modality_rule``): a forecast, plan or possibility against a result,
or the other way round, and a possibility or a step weighed made certain.

- **modality**: a forecast or plan ('will', 'plans to', 'could', 'projects revenue of') where
  the claim reports a result, or a result where the claim reports a plan, a possibility, a
  proposal or a hypothesis ('proposes that', 'hypothesize that', 'could let labs stop'); a
  possibility made certain ('will exceed' for 'could exceed'); a step weighed made decided
  ('will be banned' for 'will consult on banning'); a proposal made a rule ('must log' for
  'proposes that providers log'); a trial or a proposal reported as done or in force ('put
  its agent into full use' for 'piloted its agent'). A plan and a result in different verbs
  are told apart by what both govern ('has taken over its phone support' for 'will replace
  its phone support').
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from .backing import same_word
from .quoting import Cited, _phrase, _span
from .tokens import _CONJECTURES, Clause, Token, _verb_like, clause_of
from .words import (
    _BE,
    _CAUSATIVES,
    _DETERMINERS,
    _HEDGES,
    _PLAN_WORDS,
    _PREPOSITIONS,
    _VERB_FORMS,
    LIGHT,
    NUMBER_WORDS,
    _forms,
)


def modality_rule(sentence: Clause, claims: Sequence[Cited]) -> list[str]:
    """A forecast where the claims report a result, or a result where they report a plan.

    The passage is read narrowly ('will', 'plans to', 'could'), the claims broadly ('must',
    'recommends', 'a plan', 'can'): a reason needs the claim to have no hint of it at all.
    """
    reasons = []
    for marker, governed in sentence.modals:
        following = sentence.tokens[marker + 1].low if marker + 1 < len(sentence.tokens) else ""
        if _purpose_at(sentence, marker) or (sentence.tokens[marker].low == "could" and following == "not"):
            continue  # 'could not find clear evidence': a past inability, reported as a result
        # The forecast's own verb, reported by a claim as done: 'will lower the cost' against
        # 'lowered the cost'. A verb no claim has is the new-predicate rule's.
        # The governed verb, and the first telling word after it ('will lower the cost of labelling').
        said = [governed] if sentence.tokens[governed].content else []
        said += [i for i in _clause_words(sentence, marker)[:1] if i not in said]
        reported = [
            (cited, position)
            for cited in claims
            for i in said
            for position, t in enumerate(cited.clause.tokens)
            if t.content and same_word(sentence.tokens[i], t)
        ]
        # ...or what the verb is done to, which a claim reports done in another verb: 'expects to
        # wrap up a 14-day training run' against 'completed a 14-day training run'.
        reported += [
            (cited, position)
            for cited in claims
            for i in _direct_object(sentence, governed)
            for position, t in enumerate(cited.clause.tokens)
            if t.content and same_word(sentence.tokens[i], t) and _done_to(cited.clause, position)
        ]
        upgraded = (
            _certainty_upgrade(sentence, marker, governed, reported)
            or _certain_of_the_same(sentence, marker, governed, claims)
            or _weighed_only(sentence, reported)
        )
        if upgraded:
            return [upgraded]
        if not reported or any(cited.clause.hedged for cited, _ in reported):
            continue
        if any(
            t.low in _HEDGES and i != marker and any(t.stem in c.clause.stems for c in claims if c.clause.hedged)
            for i, t in enumerate(sentence.tokens)
        ):
            continue  # 'proposed a budget that would add': the claims' own plan, spelled out
        cited, position = reported[0]
        # Quote the claim from its verb: 'lowered the cost of labelling'.
        verb = next((i for i in range(position, max(-1, position - 5), -1) if _verb_like(cited.clause, i)), None)
        if verb is not None:
            position = verb
        reasons.append(
            f"modality: the paragraph says '{_span(sentence, marker, governed)}' (a forecast, plan or possibility); "
            f"{cited.label} reports it as a result: '{_phrase(cited.clause, position, before=0, after=4)}'"
        )
        return reasons
    proposal = _proposal_made_rule(sentence, claims)
    if proposal:
        return [proposal]
    if sentence.hedged:
        return reasons
    # 'is expanding to voice calls' where the claim says 'is considering expanding': a step
    # weighed reported as taken, with no modal on the passage's side.
    weighed = _weighed_only(
        sentence,
        [
            (cited, position)
            for cited in claims
            for position, other in enumerate(cited.clause.tokens)
            if other.content
            and other.low.endswith("ing")
            and position
            and cited.clause.tokens[position - 1].low in _WEIGHING_A_STEP
            and any(t.content and same_word(t, other) for t in sentence.tokens)
        ],
    )
    if weighed:
        return [weighed]
    trial = _trial_made_use(sentence, claims)
    if trial:
        return [trial]
    for cited in claims:
        for marker, governed in cited.clause.modals:
            verb = cited.clause.tokens[governed]
            conjecture = cited.clause.tokens[marker].low in _CONJECTURES
            caused = next(
                (
                    found
                    for position in range(marker + 1, governed + 1)
                    if (found := _caused_verb(cited.clause, position)) is not None
                ),
                None,
            )
            # 'would add 40 buses': the modal's verb is one the stopword lists leave out, and the
            # word it governs is the verb's object.
            plain = cited.clause.tokens[marker + 1] if marker + 1 < governed else None
            plain = plain if plain is not None and plain.low in _STOPWORD_VERBS else None
            if (
                verb.kind != "word"
                or _purpose_at(cited.clause, marker)
                or not (
                    conjecture
                    or caused is not None
                    or plain is not None
                    or _verb_like(cited.clause, governed)
                    or _directly_governed(cited.clause, marker, governed)
                )
            ):
                continue
            verbs = [verb] if plain is None else [verb, plain]
            if caused is not None:
                verbs.append(cited.clause.tokens[caused])  # 'could let labs stop': the stopping
            for index, token in enumerate(sentence.tokens):
                if not (
                    (token.content or token.low in _STOPWORD_VERBS) and any(same_word(token, said) for said in verbs)
                ):
                    continue
                if any(t.low == "to" for t in sentence.tokens[max(0, index - 3) : index]):
                    continue  # 'cards to be replaced', 'unable to complete': not reported as done
                following = cited.clause.tokens[marker + 1].low if marker + 1 < len(cited.clause.tokens) else ""
                # 'could not complete' reports a past inability, not a possibility; a proposal or a
                # hypothesis reported in any tense as what is so is a change of modality.
                possibility = conjecture or (cited.clause.tokens[marker].low in _POSSIBILITY and following != "not")
                if not possibility and not _past_at(sentence, index) and not _past_before(sentence, index):
                    continue  # 'opens in March', 'is cutting': the present may report a plan
                reasons.append(
                    f"modality: the paragraph says '{_phrase(sentence, index)}' as a fact; "
                    f"{cited.label} says '{_span(cited.clause, marker, governed + 1)}' (a forecast, plan or "
                    "possibility)"
                )
                return reasons
            done = _done_to_the_same(sentence, cited.clause, marker, governed)
            if done is not None:
                return [
                    f"modality: the paragraph says '{_phrase(sentence, done, before=1, after=4)}' as done; "
                    f"{cited.label} says '{_span(cited.clause, marker, governed + 3)}' (a forecast, plan or "
                    "possibility)"
                ]
    return reasons


OBJECT_REACH = 6


def _direct_object(clause: Clause, verb: int) -> list[int]:
    """The first telling word a verb takes as its object, no preposition between ('wrap up a
    14-day training run': day); none for a figure ('pay $2.5 million') or an adjunct ('pay 10%
    less in tuition fees')."""
    tokens = clause.tokens
    for position in range(verb + 1, min(len(tokens), verb + 1 + OBJECT_REACH)):
        token = tokens[position]
        if token.boundary or token.low in _PREPOSITIONS or token.low in NUMBER_WORDS:
            return []
        if token.content and not token.name and token.stem not in LIGHT:
            return [position]
    return []


def _done_to(clause: Clause, index: int) -> bool:
    """Whether a past verb, a few words before token ``index`` in its clause and no preposition
    between, governs it: 'completed a 14-day training run'."""
    tokens = clause.tokens
    for position in range(index - 1, max(-1, index - 5), -1):
        if tokens[position].boundary or tokens[position].low in _PREPOSITIONS:
            return False
        if tokens[position].content and _verb_like(clause, position):
            return _past_at(clause, position) and tokens[position].low not in _PLAN_WORDS
    return False


def _done_to_the_same(sentence: Clause, claim: Clause, marker: int, governed: int) -> int | None:
    """'has taken over its tier-one phone support' where the claim says 'will replace its
    tier-one phone support': a plan reported as done in another verb, told by what both govern
    (SAME_THINGS words, names aside). The passage's verb must be past ('has taken', 'replaced')."""
    if marker + 1 < len(claim.tokens) and claim.tokens[marker + 1].low == "not":
        return None  # 'would not open an investigation': a refusal, which 'has declined to' reports
    theirs = {claim.tokens[i].stem for i in _clause_words(claim, marker) if i > governed}
    if len(theirs) < SAME_THINGS:
        return None
    tokens = sentence.tokens
    for index, token in enumerate(tokens):
        if not token.content or token.name or not _verb_like(sentence, index) or not _past_at(sentence, index):
            continue
        if any(t.low == "to" for t in tokens[max(0, index - 3) : index + 2]) or token.low in _PLAN_WORDS:
            continue  # 'is set to have replaced', 'committed to putting': not reported as done
        mine = {tokens[i].stem for i in _clause_words(sentence, index)}
        if len(mine & theirs) >= SAME_THINGS:
            return index
    return None


def _directly_governed(clause: Clause, marker: int, governed: int) -> bool:
    """Whether only adverbs and 'be' stand between a modal and its word: 'may partly reflect',
    'will become generally available'. The word is what the modal hedges."""
    between = clause.tokens[marker + 1 : governed]
    return governed > marker and all(
        t.kind == "word" and (not t.content or t.low.endswith("ly") or t.low in _BE) for t in between
    )


def _caused_verb(clause: Clause, index: int) -> int | None:
    """The verb a causative brings about: 'let labs stop', 'help teams ship'."""
    tokens = clause.tokens
    if tokens[index].low not in _CAUSATIVES:
        return None
    for position in range(index + 2, min(len(tokens), index + 5)):
        if tokens[position].boundary:
            return None
        if tokens[position].content and _verb_like(clause, position):
            return position
    return None


_CERTAIN = _forms("will shall 'll")
# Weighing a step, not taking it: 'will consult on banning', 'is considering cutting'.
_DELIBERATING = _forms(
    "consult consults consulted consulting consultation consider considers considered considering weigh weighs "
    "weighing explore explores exploring study studies studying review reviewing debate debating"
)


# A step weighed, named by its gerund: 'is considering expanding', 'weighing selling'.
_WEIGHING_A_STEP = _forms(
    "consider considers considered considering weigh weighs weighed weighing explore explores explored "
    "exploring mull mulls mulled mulling contemplate contemplates contemplated contemplating"
)


def _weighed_only(sentence: Clause, reported: list[tuple[Cited, int]]) -> str:
    """'will be banned' where the claim says 'will consult on banning': a step weighed made a
    step decided. The passage must weigh nothing itself."""
    if any(t.low in _DELIBERATING for t in sentence.tokens):
        return ""
    for cited, position in reported:
        tokens = cited.clause.tokens
        for before in range(max(0, position - 3), position):
            if tokens[before].low in _DELIBERATING and not any(t.boundary for t in tokens[before + 1 : position]):
                mine = _phrase(sentence, _said_at(sentence, tokens[position]), before=2)
                theirs = _span(cited.clause, before, position + 2)
                return (
                    f"modality: the paragraph says '{mine}' as decided; "
                    f"{cited.label} says '{theirs}' (weighed, not decided)"
                )
    return ""


def _said_at(sentence: Clause, token: Token) -> int:
    return next((i for i, t in enumerate(sentence.tokens) if t.content and same_word(t, token)), 0)


def _certainty_upgrade(sentence: Clause, marker: int, governed: int, reported: list[tuple[Cited, int]]) -> str:
    """'will exceed 70%' where the claim says 'could exceed 70%': a possibility made a certain
    forecast. The passage must keep no hint of possibility anywhere ('may', 'could', 'likely')."""
    if sentence.tokens[marker].low not in _CERTAIN or not sentence.tokens[governed].content:
        return ""
    if any(t.low in _POSSIBILITY or t.low in ("likely", "might", "perhaps", "if") for t in sentence.tokens):
        return ""
    for cited, position in reported:
        claim = cited.clause
        for other_marker, other_governed in claim.modals:
            if other_governed != position or claim.tokens[other_marker].low not in _POSSIBILITY:
                continue
            if not same_word(sentence.tokens[governed], claim.tokens[position]):
                continue
            return (
                f"modality: the paragraph says '{_span(sentence, marker, governed)}' (a certain forecast); "
                f"{cited.label} says '{_span(claim, other_marker, other_governed)}' (a possibility)"
            )
    return ""


# Verbs the stopword lists leave out, which a modal may govern: 'would add', 'will make'.
_STOPWORD_VERBS = _forms("add adds added adding make makes made making use uses used using")

_OBLIGING = _forms("must shall will")
# Words that keep a rule a proposal: 'under the draft code', 'a proposed rule'.
_PROPOSED = _forms("draft proposal proposals proposed recommendation recommendations")


def _proposal_made_rule(sentence: Clause, claims: Sequence[Cited]) -> str:
    """'providers must log every tool call' where the claim says 'proposes that providers log
    every tool call': what a claim puts forward as a proposal or advice, made a rule or a certain
    forecast, the same verb after the passage's 'must' or 'will' and in the claim's that-clause.
    The passage must propose nothing itself."""
    tokens = sentence.tokens
    if any(t.low in _CONJECTURES or t.low in _POSSIBILITY or t.low in _PROPOSED for t in tokens):
        return ""
    for marker, token in enumerate(tokens[:-1]):
        if token.low not in _OBLIGING or not tokens[marker + 1].content:
            continue
        verb = tokens[marker + 1]
        for cited in claims:
            claim = cited.clause
            for position, other in enumerate(claim.tokens):
                if other.low not in _CONJECTURES or position + 1 >= len(claim.tokens):
                    continue
                if claim.tokens[position + 1].low != "that":
                    continue
                end = position + 2
                while end < len(claim.tokens) and end < position + 8 and not claim.tokens[end].boundary:
                    end += 1
                said = next((i for i in range(position + 2, end) if same_word(claim.tokens[i], verb)), None)
                if said is not None:
                    return (
                        f"modality: the paragraph says '{_span(sentence, marker, marker + 3)}' (a rule or a "
                        f"certain forecast); {cited.label} says '{_span(claim, position, said + 2)}' (a proposal)"
                    )
    return ""


# A possibility and a certain forecast of the same things share this many of the words they govern.
SAME_THINGS = 2


def _certain_of_the_same(sentence: Clause, marker: int, governed: int, claims: Sequence[Cited]) -> str:
    """'will take its procurement agent to Europe' where the claim says 'might expand its
    procurement agent to Europe': a possibility made certain in another verb, told by what
    both govern. The passage must keep no hint of possibility anywhere."""
    if sentence.tokens[marker].low not in _CERTAIN or not sentence.tokens[governed].content:
        return ""
    if any(t.low in _POSSIBILITY or t.low in ("likely", "might", "perhaps", "if") for t in sentence.tokens):
        return ""
    mine = {sentence.tokens[i].stem for i in _clause_words(sentence, marker) if i > governed}
    for cited in claims:
        claim = cited.clause
        for other_marker, other_governed in claim.modals:
            if claim.tokens[other_marker].low not in _POSSIBILITY or _purpose_at(claim, other_marker):
                continue
            theirs = [i for i in _clause_words(claim, other_marker) if i > other_governed]
            if len(mine & {claim.tokens[i].stem for i in theirs}) >= SAME_THINGS:
                return (
                    f"modality: the paragraph says '{_span(sentence, marker, governed + 2)}' (a certain forecast); "
                    f"{cited.label} says '{_span(claim, other_marker, other_governed + 2)}' (a possibility)"
                )
    return ""


# A claim's 'may help' is not the passage's 'helps', whatever its tense.
_POSSIBILITY = _forms("may might could possibly potentially")


def _past_at(clause: Clause, index: int) -> bool:
    """A verb reported as done: a past form, or after 'has', 'have', 'had', 'was', 'were'."""
    tokens = clause.tokens
    low = tokens[index].low
    previous = {t.low for t in tokens[max(0, index - 2) : index]}
    if previous & {"has", "have", "had", "was", "were"}:
        return True
    return low.endswith("ed") or low in _VERB_FORMS


def _past_before(clause: Clause, index: int) -> bool:
    """A word reported as done by the verb before it: 'became generally available', 'was
    fully operational'."""
    before = index - 1
    tokens = clause.tokens
    while (
        before >= 0
        and index - before <= 4
        and tokens[before].kind == "word"
        and not tokens[before].boundary
        and (tokens[before].low.endswith("ly") or not tokens[before].content)
        and tokens[before].low not in _BE_PAST
        and tokens[before].low not in _BECOMING
    ):
        before -= 1  # 'has become the first gigawatt-scale', 'was fully operational'
    if before < 0:
        return False
    previous = clause.tokens[before].low
    if previous in _BE_PAST or previous in _VERB_FORMS or (previous.endswith("ed") and len(previous) > 4):
        return True
    return previous in _BECOMING and _past_at(clause, before)  # 'has become', 'has been'


_BECOMING = _forms("become been")


_BE_PAST = _forms("was were became")


def _purpose_at(clause: Clause, marker: int) -> bool:
    """'so their engines could be inspected', 'if it would', 'when it could call a calculator':
    a purpose, condition or ability, not a forecast."""
    before = {t.low for t in clause.tokens[max(0, marker - 3) : marker]}
    return bool(before & {"so", "if", "unless", "whether", "when", "whenever", "once"})


def _clause_words(clause: Clause, marker: int) -> list[int]:
    """Content words a modal governs: from the marker to the end of its clause."""
    found = []
    for index in range(marker + 1, len(clause.tokens)):
        token = clause.tokens[index]
        if token.boundary:
            break
        if token.content and not token.name and token.stem not in LIGHT and token.low not in _PLAN_WORDS:
            found.append(index)
    return found


# A step tried or put forward, not taken: 'piloted its agent', 'is testing an agent', 'proposed
# a fee', 'a draft code'. ('trial' alone is as often the study a result was measured in.)
_TRYING = _forms(
    "pilot pilots piloted piloting trialled trialling trialed trialing propose proposes proposed proposal proposals"
)
# What keeps the passage's own account a trial or a proposal.
_TRIED_TOO = (
    _TRYING
    | _DELIBERATING
    | _CONJECTURES
    | _PLAN_WORDS
    | _forms("test tests tested testing trial trials draft study studying experiment experimental")
    # Proposing in other words: 'put forward a levy', 'floated a cap'.
    | _forms("forward floated suggest suggests suggested mooted pitched consultation")
)
TRIAL_SHARED = 2


def _trying_at(clause: Clause, index: int) -> bool:
    tokens = clause.tokens
    low = tokens[index].low
    previous = tokens[index - 1].low if index else ""
    if low == "testing":
        return previous in _BE  # 'is testing an agent', not 'testing showed'
    if low == "draft":
        return previous in _DETERMINERS or previous.endswith("'s")  # 'the draft code', not 'agents draft'
    return low in _TRYING


@lru_cache(maxsize=4096)
def _trials(text: str) -> tuple[tuple[int, frozenset[str]], ...]:
    """Where a text tries or proposes something, each with its other words (names aside): read
    once a claim, as a story cites the same claims from many sentences."""
    clause = clause_of(text)
    return tuple(
        (index, frozenset(t.stem for i, t in enumerate(clause.tokens) if t.content and not t.name and i != index))
        for index in range(len(clause.tokens))
        if _trying_at(clause, index)
    )


def _trial_made_use(sentence: Clause, claims: Sequence[Cited]) -> str:
    """'put its agent into full use at two hospitals' where the claim says 'piloted its agent
    at two hospitals'; 'now follow a standard' where it says 'has proposed a standard': a trial
    or a proposal reported as a thing done or in force. The passage must try, propose, weigh or
    plan nothing itself, and share TRIAL_SHARED of the claim's words (names aside)."""
    tokens = sentence.tokens
    if any(t.low in _TRIED_TOO for t in tokens):
        return ""
    mine = {t.stem for t in tokens if t.content and not t.name}
    for cited in claims:
        claim = cited.clause
        for index, theirs in _trials(claim.text):
            shared = mine & theirs
            if len(shared) >= TRIAL_SHARED:
                at = next(i for i, t in enumerate(tokens) if t.content and not t.name and t.stem in shared)
                return (
                    f"modality: the paragraph says '{_phrase(sentence, at, before=3, after=3)}' as done or in force; "
                    f"{cited.label} says '{_phrase(claim, index, before=1, after=3)}' (a trial or a proposal)"
                )
    return ""
