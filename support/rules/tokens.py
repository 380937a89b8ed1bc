"""A text read for the rules: its ``Token``s and the ``Clause`` that ``clause_of`` makes of
them, with names, negations and modals marked. Also the readings of a clause the tokenizer and
several rules share: whether a word is a verb, its numbers, where a clause ends.
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass, field
from functools import lru_cache

from .. import text as lex
from .words import (
    _ADJUNCT_PREPOSITIONS,
    _ALL,
    _AUXILIARIES,
    _BASE_VERBS,
    _BE,
    _BOTH_WAYS,
    _CAUSATIVES,
    _CLAUSE_WORDS,
    _DETERMINERS,
    _FORECAST_WORDS,
    _FUTURE_UNITS,
    _HEDGES,
    _KEEPING,
    _MODALS,
    _NEGATED_ADJUNCT,
    _NEGATOR_FIRST_WORDS,
    _NEGATOR_PHRASES,
    _NEGATORS,
    _NOBODY,
    _NOT_NEGATING_NEXT,
    _OBJECT_NEGATORS,
    _ORDINAL_WORDS,
    _PLAN_WORDS,
    _PREPOSITIONS,
    _PREVENTIONS,
    _PRONOUNS,
    _REMOVALS,
    _SUBJECT_BEFORE,
    _VERB_FORMS,
    _VERBAL_NEGATORS,
    MONTHS,
    NEGATION_REACH,
    NUMBER_WORDS,
    POLARITY,
    WEEKDAYS,
    _forms,
)

_TOKEN = re.compile(
    r"(?P<word>[A-Za-z][A-Za-z0-9]*(?:'[A-Za-z]+)?)"
    r"|(?P<number>[$€£¥]?\d(?:\d|,(?=\d))*(?:\.\d+)?%?)"
    r"|(?P<punct>[.,;:!?()\"]|\s[-\u2013\u2014]\s)"
)


@dataclass(slots=True)
class Token:
    text: str
    low: str
    stem: str
    start: int
    end: int
    kind: str  # word, number or punct
    content: bool = False
    boundary: bool = False  # ends a clause
    name: bool = False
    negated: bool = False
    head: bool = False  # the first word a negation covers: the one it is about
    nominal: bool = False  # negated by 'no', 'without', 'none': a noun's negation
    verbal: bool = False  # negated by 'not', 'never', 'failed to': a verb's negation
    cue: bool = False  # part of a negation cue
    in_negated_clause: bool = False  # a negation cue stands earlier in its clause
    removed: bool = False  # taken away by a verb ('removing the critic'): negated, but no movement
    subject_negated: bool = False  # after 'none of ...', 'nobody': what the clause says, said of no one

    @property
    def key(self) -> str:
        return _key(self.stem)


@dataclass
class Clause:
    """A text (one sentence of a passage, or one claim) read for the rules."""

    text: str
    tokens: list[Token]
    stems: frozenset[str]
    names: list[tuple[int, int, str]] = field(default_factory=list)  # (first, last token, lowered)
    modals: list[tuple[int, int]] = field(default_factory=list)  # (marker token, governed token)
    hedged: bool = False  # any hint of a plan, forecast, possibility or obligation
    found_names: frozenset[str] | None = None
    contexts: dict[int, frozenset[str]] = field(default_factory=dict)
    movements: dict[int, tuple[str, int]] | None = None
    verbs: list[int] | None = None
    all_stems: frozenset[str] | None = None
    numbers: dict[str, list[int]] | None = None
    word_index: dict[str, list[int]] | None = None
    doers: list[tuple[int, list[int]]] | None = None
    prefixed: dict[str, int] | None = None
    owners: dict[int, frozenset[str]] | None = None
    told_apart: dict[int, tuple[frozenset[str], list[frozenset[str]]]] | None = None


def real_names(clause: Clause) -> frozenset[str]:
    """What ``lex.names`` finds in a text: names, not capitalised sentence openers."""
    if clause.found_names is None:
        clause.found_names = frozenset(name.lower() for name in lex.names(clause.text)) if clause.names else frozenset()
    return clause.found_names


def _key(stem: str) -> str:
    """The stem without a final 'e', so 'hire' meets 'hired' ('hir') and 'close' 'closed'."""
    return stem[:-1] if stem.endswith("e") and len(stem) > 3 else stem


def _tokens(text: str) -> list[Token]:
    tokens = []
    stopwords, clause_words, stem = lex.STOPWORDS, _CLAUSE_WORDS, lex.stem
    for match in _TOKEN.finditer(text):
        kind = match.lastgroup
        raw = match.group()
        if kind == "word":
            low = raw.lower()
            bare = low[:-2] if low.endswith("'s") else low
            content = len(bare) > 2 and bare not in stopwords
            tokens.append(Token(raw, low, stem(low), match.start(), match.end(), kind, content, low in clause_words))
        else:
            raw = raw.strip()
            tokens.append(Token(raw, raw, raw, match.start(), match.end(), kind, False, kind == "punct"))
    return tokens


def _mark_names(clause: Clause) -> None:
    """Capitalised words that are not stopwords or dates, merged into spans ('Delmar Chemicals').
    A sentence's first word counts too: the rules use names found on both sides, so a common
    word that opens a sentence is harmless here."""
    tokens = clause.tokens
    index = 0
    while index < len(tokens):
        token = tokens[index]
        bare = token.low[:-2] if token.low.endswith("'s") else token.low
        if (
            token.kind == "word"
            and token.text[0].isupper()
            and bare not in lex.STOPWORDS
            and bare not in MONTHS
            and bare not in WEEKDAYS
            and bare not in _ORDINAL_WORDS
        ):
            last = index
            while last + 1 < len(tokens) and not tokens[last].low.endswith("'s"):
                following = tokens[last + 1]
                if (
                    following.kind == "word" and following.text[0].isupper() and following.low not in lex.STOPWORDS
                ) or _glued(clause.text, tokens[last], following):
                    last += 1  # 'Delmar Chemicals', 'GPT-4.5', 'KRM-8B', 'Llama-3.1-70B-Instruct'
                elif (
                    following.kind == "number" and _VERSION.fullmatch(following.text) and not _counts(tokens, last + 2)
                ):
                    last += 1  # 'Claude Sonnet 4 used', 'Grok 3'
                elif (
                    following.kind == "number"
                    and last + 2 < len(tokens)
                    and tokens[last + 2].kind == "word"
                    and tokens[last + 2].text[0].isupper()
                    and tokens[last + 2].low not in lex.STOPWORDS
                    and tokens[last + 2].low not in MONTHS
                ):
                    last += 2  # 'Gemini 2.5 Pro', 'Claude 3.5 Sonnet'
                else:
                    break
            span = " ".join((t.low[:-2] if t.low.endswith("'s") else t.low) for t in tokens[index : last + 1])
            for t in tokens[index : last + 1]:
                t.name = True
            clause.names.append((index, last, span))
            index = last + 1
        else:
            index += 1


# A version after a name ('Claude Opus 4', 'Grok 3.5'), unless the number counts what follows.
_VERSION = re.compile(r"\d{1,2}(?:\.\d)?")
_COUNTED = _forms(
    "percent per point points million billion trillion times years months weeks days hours minutes seconds people of"
)


def _counts(tokens: list[Token], index: int) -> bool:
    return index < len(tokens) and (tokens[index].low in _COUNTED or tokens[index].low in NUMBER_WORDS)


def _glued(text: str, previous: Token, token: Token) -> bool:
    """A version, size or suffix written onto a name: '-4.5', '-8B', '-Instruct', '3'."""
    joint = text[previous.end : token.start]
    if token.kind == "punct" or joint not in ("", "-", "."):
        return False
    return token.kind == "number" or joint == "" or token.text[0].isupper() or token.text[0].isdigit()


def _mark_negation(tokens: list[Token]) -> None:
    for index, token in enumerate(tokens):
        if token.kind != "word":
            continue
        cue_end = None
        verbal = True
        removal = prevention = False
        if token.low in _NEGATOR_FIRST_WORDS:
            for phrase in _NEGATOR_PHRASES:
                if tuple(t.low for t in tokens[index : index + len(phrase)]) == phrase:
                    if phrase[0] in _DECLINE and not _verb_after_to(tokens, index + 2):
                        break  # 'declined to about 29%': a fall, not a refusal
                    cue_end = index + len(phrase) - 1
                    verbal = phrase[0] not in ("rather", "instead", "absence")
                    break
        following_word = tokens[index + 1] if index + 1 < len(tokens) else None
        if (
            cue_end is None
            and (token.low in _REMOVALS or token.low in _PREVENTIONS)
            and following_word is not None
            and (
                following_word.low in _DETERMINERS
                or following_word.low in _ALL
                # 'eliminates synchronous idle bubbles'; a 'drop' needs its determiner, so 'sales
                # dropped sharply' stays a movement.
                or (following_word.content and not token.low.startswith("drop"))
            )
        ):
            # 'dropping the learned critic' says what 'without a learned critic' says: a noun's
            # negation; 'prevented divergence' what 'no divergence' says.
            cue_end, verbal, removal = index, False, token.low in _REMOVALS
            prevention = not removal
        if (
            cue_end is None
            and token.low == "out"
            and index
            and tokens[index - 1].low in _KEEPING
            and following_word is not None
            and following_word.low == "of"
        ):
            # 'customer data stays out of training sets': the data is not in them.
            cue_end, verbal, removal = index + 1, False, True
        if cue_end is None and token.low in _NEXT_TO_NOTHING and _did_nothing(tokens, index):
            continue  # 'did nothing to curb', 'says little about': the verb is denied
        if cue_end is None and _elliptic_negation(tokens, index):
            continue  # 'but that storing pirated copies was not': the subject is denied the predicate
        if cue_end is None and (token.low in _NEGATORS or token.low.endswith("n't")):
            following = tokens[index + 1].low if index + 1 < len(tokens) else ""
            if following in _NOT_NEGATING_NEXT or (following_word is not None and following_word.kind == "number"):
                continue  # 'not only', 'barely 5%': no negation of what follows
            if token.low == "not" and index and tokens[index - 1].low == "or":
                continue  # 'whether or not they were correct': both ways, no negation
            if token.low == "without" and index > 1 and (tokens[index - 2].low, tokens[index - 1].low) in _BOTH_WAYS:
                continue  # 'code written with and without AI help': both ways, no absence
            if (token.low == "not" or token.low.endswith("n't")) and _until_in_clause(tokens, index):
                continue  # 'would not launch until accuracy improved': put off, not denied
            if token.low in _OBJECT_NEGATORS and _negate_verb_before(tokens, index):
                continue
            cue_end = index
            verbal = token.low in _VERBAL_NEGATORS or token.low.endswith("n't")
            if token.low in _OBJECT_NEGATORS and following == "of":
                # 'none of the 11 models reached': the predicate is negated, not the models.
                _negate_verb_after(tokens, index)
                token.cue = True
                continue
        if cue_end is None:
            continue
        for t in tokens[index : cue_end + 1]:
            t.cue = True
        reached = 0
        # A verb's negation covers the verb; 'no'/'without' cover a noun and its modifier.
        reach = NEGATION_REACH if verbal else NEGATION_REACH + 1
        for offset, t in enumerate(tokens[cue_end + 1 : cue_end + 7]):
            if t.boundary and not (offset == 0 and t.low in _NEGATED_ADJUNCT):
                break
            after = cue_end + 2 + offset
            if t.name and not verbal and after < len(tokens) and tokens[after].content:
                t.negated = True  # 'out of Vellum Labs' training sets': the name qualifies what is negated
                continue
            if t.content:
                t.negated = True
                # A prevention ('prevented severe illness', said also 'effective against severe
                # illness') agrees with a negation but is no contradiction's head.
                t.head = reached == 0 and token.low not in ("rather", "instead") and not prevention
                t.verbal = verbal
                t.nominal = not verbal
                t.removed = removal
                reached += 1
                if reached == reach:
                    break
    for previous, token in itertools.pairwise(tokens):
        # 'critic-free': without a critic.
        if token.low == "free" and token.start == previous.end + 1 and previous.content:
            previous.negated = previous.head = True
    nobody = False
    for index, token in enumerate(tokens):
        if token.boundary:
            nobody = False
        elif nobody and not token.head:
            # 'no model exceeded 25%': the verb a subject's 'no' reaches is said of no one too.
            token.subject_negated = True
        following = tokens[index + 1].low if index + 1 < len(tokens) else ""
        if token.low in _NOBODY or (token.low == "not" and following in ("one", "single")):
            nobody = True  # 'none of the models passed', 'not one of the chatbots refused'
        elif _opens_subject(tokens, index):
            nobody = True  # 'said no model scored above 25%': said of no model
    negated_clause = False
    denied_reason = False  # 'not because the model is bad, but ...': the reason is denied
    for index, token in enumerate(tokens):
        # 'did not help the smallest or the largest model': an 'or' goes on with the denial.
        if token.boundary and token.low != "or" and not (denied_reason and token.low in ("because", "since", ",")):
            negated_clause = False
        if token.low == "but" or token.low in (".", ";", ":"):
            denied_reason = False
        token.in_negated_clause = negated_clause or token.negated or denied_reason
        if token.cue:
            negated_clause = True
            following = tokens[index + 1].low if index + 1 < len(tokens) else ""
            denied_reason = denied_reason or (token.low == "not" and following in ("because", "since"))


# 'did nothing to curb reward hacking', 'did little to slow', 'says little about the flaws':
# the verb after 'to', or the verb of saying before 'about', is denied.
_NEXT_TO_NOTHING = _forms("nothing little")
_DOING = _forms("do does did done doing")
_TELLING = _forms("say says said tell tells told reveal reveals revealed show shows showed")


def _did_nothing(tokens: list[Token], index: int) -> bool:
    """Mark the verb 'nothing' or 'little' denies, if it denies one; whether it did."""
    previous = tokens[index - 1].low if index else ""
    following = tokens[index + 1].low if index + 1 < len(tokens) else ""
    if previous in _DOING and following == "to" and _verb_after_to(tokens, index + 2):
        verb = index + 2
    elif previous in _TELLING and following in ("about", "of"):
        verb = index - 1
    else:
        return False
    tokens[index].cue = True
    _negate(tokens[verb])
    return True


ELLIPSIS_WORDS = 4
_ELLIPTIC_VERBS = _forms("was were is are did does do has have had")


def _elliptic_negation(tokens: list[Token], index: int) -> bool:
    """'..., but that storing pirated copies was not.': a 'not' that ends its clause after a
    form of 'be', 'do' or 'have' denies the earlier predicate of its clause's subject. Marks the
    subject's words denied; whether it was one."""
    token = tokens[index]
    if token.low != "not" or index < 2 or tokens[index - 1].low not in _ELLIPTIC_VERBS:
        return False
    if index + 1 < len(tokens) and not (tokens[index + 1].kind == "punct" or tokens[index + 1].boundary):
        return False
    subject = []
    position = index - 2
    while position >= 0 and not tokens[position].boundary and tokens[position].low != "that":
        if tokens[position].content:
            subject.append(tokens[position])
        position -= 1
    if not subject or len(subject) > ELLIPSIS_WORDS:
        return False
    token.cue = True
    for word in subject:
        _negate(word)
    return True


_DECLINE = _forms("decline declines declined")
# After 'declined to', what a fall reaches rather than a verb refused.
_FALL_TARGETS = _forms("about around roughly nearly almost just below under record level levels low lows zero")


def _verb_after_to(tokens: list[Token], index: int) -> bool:
    """Whether the word after 'to' reads as a verb ('declined to comment'), not a level."""
    if index >= len(tokens):
        return False
    token = tokens[index]
    return (
        token.kind == "word"
        and token.low not in _DETERMINERS
        and token.low not in NUMBER_WORDS
        and token.low not in _FALL_TARGETS
        and not token.name
    )


def _opens_subject(tokens: list[Token], index: int) -> bool:
    """A 'no' that opens its clause's subject: 'said no model scored above 25%'."""
    return tokens[index].low == "no" and (
        not index or tokens[index - 1].boundary or tokens[index - 1].low in _SUBJECT_BEFORE
    )


def _until_in_clause(tokens: list[Token], index: int) -> bool:
    for token in tokens[index + 1 :]:
        if token.boundary:
            return False
        if token.low == "until":
            return True
    return False


def _negate(token: Token) -> None:
    token.negated = token.head = token.verbal = True


def _negate_verb_before(tokens: list[Token], index: int) -> bool:
    """'beat AdamW on none of the six': a 'none' or 'neither' after its clause's verb negates
    the verb. Whether there was such a verb."""
    verbs = []
    position = index - 1
    while position >= 0 and not tokens[position].boundary:
        if tokens[position].content and _verb_form(tokens, position):
            verbs.append(position)
        position -= 1
    if not verbs:
        return False
    # 'sold shares to neither': a past or irregular form is surer a verb than a plural noun.
    sure = [
        position for position in verbs if not tokens[position].low.endswith("s") or tokens[position].low in POLARITY
    ]
    tokens[index].cue = True
    _negate(tokens[(sure or verbs)[0]])
    return True


NONE_OF_REACH = 10


def _negate_verb_after(tokens: list[Token], index: int) -> None:
    """'None of the 11 models evaluated by the authors reached 20%': the verb after the
    'none of' phrase, not a participle of it ('evaluated by'), is what is negated."""
    for position in range(index + 2, min(len(tokens), index + NONE_OF_REACH)):
        token = tokens[position]
        if token.boundary and token.kind == "punct":
            return
        # 'evaluated by the authors', 'planted in 2020' describe the things; 'were verified by'
        # is the verb.
        following = tokens[position + 1].low if position + 1 < len(tokens) else ""
        participle = following == "by" or (
            token.low.endswith("ed") and tokens[position - 1].content and following in _ADJUNCT_PREPOSITIONS
        )
        if participle and tokens[position - 1].low in _BE:
            participle = False
        if token.content and not participle and _verb_form(tokens, position):
            _negate(token)
            return


def _verb_form(tokens: list[Token], index: int) -> bool:
    """A verb by its form or place, for reading a clause's negation (names are no verbs)."""
    token = tokens[index]
    if token.name or token.kind != "word":
        return False
    previous = tokens[index - 1].low if index else ""
    if previous in _DETERMINERS:
        return False
    low = token.low
    return (
        previous in _AUXILIARIES
        or previous.endswith("n't")
        or low in POLARITY
        or low in _VERB_FORMS
        or low in _BASE_VERBS
        or any(low.endswith(suffix) and low[: -len(suffix)] in _BASE_VERBS for suffix in ("s", "es", "ed", "d", "ing"))
        or (low.endswith("ed") and len(low) > 4)
    )


def _mark_modals(clause: Clause) -> None:
    tokens = clause.tokens
    for index, token in enumerate(tokens):
        if token.kind != "word":
            continue
        following = tokens[index + 1].low if index + 1 < len(tokens) else ""
        if (
            token.low in _FORECASTING
            and index > 0
            and (tokens[index - 1].name or tokens[index - 1].low in _PRONOUNS)
            and following not in ("to", "that", ",")
            and index + 1 < len(tokens)
            and not tokens[index + 1].boundary
        ):
            # 'Quarry AI projects Q3 revenue of $84 million': a forecast of what follows.
            clause.modals.append((index, _governed(tokens, index)))
            continue
        if token.low in _CONJECTURES and following == "that":
            # 'proposes that vendors publish', 'hypothesize that collapse is driven': what the
            # that-clause says is put forward, not found.
            verb = _that_verb(clause, index + 2)
            if verb is not None:
                clause.modals.append((index, verb))
            continue
        if token.low in _PLAN_WORDS:
            # 'plans to', 'is expected to', 'set to', 'agreed to': a plan, not a result.
            marker = following == "to" or (
                token.low in ("plan", "plans") and index > 0 and tokens[index - 1].low in ("a", "the", "its", "their")
            )
            if not marker and token.low in _EXPECTING:
                # 'expect the model to reach': the forecast's verb comes after its subject.
                to = next((i for i in range(index + 2, min(len(tokens), index + 7)) if tokens[i].low == "to"), None)
                if to is not None and all(not t.boundary for t in tokens[index + 1 : to]):
                    clause.modals.append((index, _governed(tokens, to)))
                    continue
        elif token.low in _WEIGHING:
            marker = True  # 'is considering a sale': a plan, whatever follows
        else:
            marker = (
                token.low in _MODALS
                or token.low in ("won't", "wouldn't", "couldn't", "shouldn't")
                or (token.low == "may" and not token.text[0].isupper())  # 'May' the month
                or token.low in _FORECAST_WORDS
                or (token.low in ("next", "coming") and following in _FUTURE_UNITS)
                or (token.low == "later" and following == "this")
                or (token.low == "on" and following in ("track", "course"))
                or (token.low in ("is", "are") and following == "to")
            )
        if not marker:
            continue
        clause.modals.append((index, _governed(tokens, index)))


def _governed(tokens: list[Token], index: int) -> int:
    """The first telling word after a modal marker: its verb ('could one day complete')."""
    end = index + 1
    while end < min(len(tokens), index + 6) and not tokens[end].boundary:
        end += 1  # a modal governs no word past its clause: 'next year, the lab says'
    return next(
        (
            position
            for position in range(index + 1, end)
            if (
                tokens[position].content
                or (tokens[position].kind == "word" and tokens[position - 1].low == "to")  # 'to last'
            )
            and tokens[position].low not in _PLAN_WORDS
            and tokens[position].low not in _NOT_GOVERNED
            # 'may partly reflect': the adverb qualifies the verb that follows it
            and not (tokens[position].low.endswith("ly") and position + 1 < end and tokens[position + 1].content)
        ),
        index,
    )


# Verbs that forecast their object: 'projects revenue of', 'forecasts a loss'.
_FORECASTING = _forms("projects projected forecasts forecast forecasted predicts anticipates anticipated expects")

# Verbs that put a that-clause forward as an idea, a hypothesis or advice, not as a finding.
_CONJECTURES = _forms(
    "propose proposes proposed hypothesize hypothesizes hypothesized hypothesise hypothesises hypothesised "
    "speculate speculates speculated posit posits posited conjecture conjectures conjectured theorize "
    "theorizes theorized theorise theorises theorised recommend recommends recommended urge urges urged"
)


def _that_verb(clause: Clause, start: int) -> int | None:
    """The verb of a that-clause starting at ``start``: 'that RL vendors publish', 'that
    entropy collapse in GRPO is driven by'."""
    tokens = clause.tokens
    end = start
    while end < min(len(tokens), start + 10) and not tokens[end].boundary:
        end += 1
    after_be = [i for i in range(start + 1, end) if tokens[i].content and tokens[i - 1].low in _BE]
    if after_be:
        return after_be[0]  # 'collapse is driven by': the noun before 'is' is no verb
    verbs = [i for i in range(start + 1, end) if tokens[i].content and not tokens[i].name and _verb_like(clause, i)]
    return verbs[0] if verbs else None


# 'expect X to', 'predicts X will': a forecast whose subject stands between.
_EXPECTING = _forms("expect expects expected predict predicts predicted forecast forecasts want wants wanted")
# A plan or possibility weighed, not done: 'is considering a sale', 'is threatening a strike'.
_WEIGHING = _forms(
    "considering weighing mulling exploring contemplating eyeing threatening threatens threatened threaten"
)
# Between a modal and its verb: 'could one day complete', 'will soon open'.
_NOT_GOVERNED = _forms("one day someday soon eventually also still likely probably ultimately finally course track")


@lru_cache(maxsize=4096)
def clause_of(text: str) -> Clause:
    tokens = _tokens(text)
    clause = Clause(text, tokens, frozenset(t.stem for t in tokens if t.content))
    _mark_names(clause)
    _mark_negation(tokens)
    _mark_modals(clause)
    # 'set' hedges only as 'set to': 'a small set of tokens' is no plan.
    clause.hedged = bool(clause.modals) or any(t.low in _HEDGES and t.low != "set" for t in tokens)
    return clause


# Readings of a clause that several rules share -----------------------------------------------


def _numbers(clause: Clause) -> dict[str, list[int]]:
    if clause.numbers is None:
        clause.numbers = {}
        for index, token in enumerate(clause.tokens):
            if token.kind == "number":
                clause.numbers.setdefault(_number_value(token), []).append(index)
    return clause.numbers


def _number_value(token: Token) -> str:
    return token.low.strip("$€£¥%").replace(",", "")


def _verb_like(clause: Clause, index: int) -> bool:
    """A verb by its place or its form: after a modal, 'to' or 'not', or after a causative's
    object ('lets farmers sell'); a past form not after a determiner; a known verb, plain or
    with -s, -es, -ed; a word right after a name ('Acme sues')."""
    tokens = clause.tokens
    token = tokens[index]
    previous = tokens[index - 1].low if index > 0 else ""
    if previous in _DETERMINERS:
        return False
    if previous in _AUXILIARIES or previous.endswith("n't"):
        return True
    if index > 1 and tokens[index - 2].low in _CAUSATIVES:
        return True
    low = token.low
    if low in POLARITY or low in _VERB_FORMS or low in _BASE_VERBS:
        return True
    for suffix in ("s", "es", "ed", "d", "ing"):
        if low.endswith(suffix) and low[: -len(suffix)] in _BASE_VERBS:
            return True
    if low.endswith("ing") and low[:-3] + "e" in _BASE_VERBS:
        return True  # 'retiring', 'closing'
    if _doubled(low) in _BASE_VERBS:
        return True  # 'flagged', 'banning'
    if low.endswith("ied") and low[:-3] + "y" in _BASE_VERBS:
        return True
    if low.endswith("s") and not low.endswith("ss") and index > 0 and tokens[index - 1].name:
        return True
    return low.endswith("ed") and len(low) > 4


def _doubled(low: str) -> str:
    """The plain verb of a form that doubles its last consonant: 'flagged', 'banning'."""
    for suffix in ("ed", "ing"):
        stem = low[: -len(suffix)]
        if low.endswith(suffix) and len(stem) > 2 and stem[-1] == stem[-2] and stem[-1] not in "aeiouls":
            return stem[:-1]
    return ""


_INTRODUCING_A_NOUN = (_PREPOSITIONS - _forms("to by")) | _forms("as")


def _adjectival(clause: Clause, index: int) -> bool:
    """A participle used as an adjective, between a preposition or a determiner (an adverb
    may stand between) and its noun: 'from newly acquired skills', 'of the recently opened
    plant', 'against structured criteria'. What the sentence asserts is elsewhere."""
    tokens = clause.tokens
    if tokens[index].low.endswith("ing"):
        return False  # 'by detecting deception': a gerund, what the sentence says is done
    before = index - 1
    while before >= 0 and tokens[before].low.endswith("ly") and tokens[before].content:
        before -= 1
    following = tokens[index + 1] if index + 1 < len(tokens) else None
    # Right after a preposition, with no adverb, too ('against structured criteria', 'such as
    # leaked answers'); not after 'to' (an infinitive) or 'by' ('by paid contractors' may be what
    # the sentence adds).
    right_after = before == index - 1 and before >= 0 and tokens[before].low in _INTRODUCING_A_NOUN
    return (
        (before < index - 1 or right_after)
        and before >= 0
        and (tokens[before].low in _PREPOSITIONS or tokens[before].low in _DETERMINERS or right_after)
        and following is not None
        and following.content
        and not following.name
    )


def _compound_modifier(clause: Clause, index: int) -> bool:
    """A participle hyphened to the word before it ('the CoSIR-trained model', 'rubric-guided
    scaffolding', 'human-written tests'): one modifier of the noun after it, not a verb."""
    token = clause.tokens[index]
    return (
        index > 0
        and token.start > 0
        and clause.text[token.start - 1] == "-"
        and clause.tokens[index - 1].kind != "punct"
    )


def clause_bounds(tokens: list[Token], first: int, last: int | None = None) -> tuple[int, int]:
    """The first and last token of the clause (between boundaries) around tokens first..last."""
    last = first if last is None else last
    while first > 0 and not tokens[first - 1].boundary:
        first -= 1
    while last + 1 < len(tokens) and not tokens[last + 1].boundary:
        last += 1
    return first, last


def _clause_end(tokens: list[Token], start: int) -> int:
    """Where the clause of token ``start`` ends. A comparison's 'as' does not end it: 'took
    twice as long to collect diamonds', 'as many as 40 people'."""
    end = start
    while end < len(tokens) and not (tokens[end].boundary and not _comparing_as(tokens, end)):
        end += 1
    return end


_AS_MUCH = _forms("twice half thrice times just almost nearly about not")


def _comparing_as(tokens: list[Token], index: int) -> bool:
    if tokens[index].low != "as":
        return False
    before = tokens[index - 1].low if index else ""
    return before in _AS_MUCH or (index + 2 < len(tokens) and tokens[index + 2].low == "as")
