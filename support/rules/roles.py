"""The rules about who and whose: names in swapped roles (``entity_rule``), the doer and the
one done to (``role_rule``), whose figure (``figure_owner_rule``), what two things are paired
with (``pairing_swap_rule``), and the two sides of a comparison swapped
(``comparison_swap_rule``).

- **entity swap**: the claims' names in other roles: who did what to whom (the same verb done
  by another name, 'Harbor Capital led' for 'Kinetic Ventures led'; a sentence's first word
  in a named doer's role), a place in a ranking ('Korea in second place'), a role after the
  same word and preposition ('a cohort from the Mayo Clinic'), whose product ('Oriel Labs'
  Kite-7B'), the two ends of a move, a contest or a deal exchanged (from and to, winner and
  loser, buyer and bought, backer and backed), a description set beside another name, whose
  figure; and what two names or two figures are paired with, exchanged between them ('44.1%
  on SWE-Bench and 58.4% on TerminalBench' for the reverse).
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache, lru_cache

from .. import text as lex
from .backing import same_word
from .context import _names_around
from .polarity import _comparisons, _order
from .quoting import Cited, _claim_says, _phrase, _span
from .tokens import Clause, Token, _clause_end, _number_value, _numbers, _verb_like, clause_of, real_names
from .words import (
    _ADVERBS,
    _AUXILIARIES,
    _BASE_VERBS,
    _BE,
    _DETERMINERS,
    _PLAN_WORDS,
    _PREPOSITIONS,
    _SPEECH,
    LIGHT,
    MONTHS,
    NUMBER_WORDS,
    POLARITY,
    SYNONYMS,
    _forms,
)

# Entities ------------------------------------------------------------------------------------


_SPACING = re.compile(r"[-.' ]")


def _compact(name: str) -> str:
    return _SPACING.sub("", name)


def _mentions(clause: Clause, name: str) -> bool:
    return any(span == name or name in span or span in name for _, _, span in clause.names)


def entity_rule(sentence: Clause, claims: Sequence[Cited]) -> list[str]:
    """Who did what to whom: names of the claims in swapped roles around the same word, and
    a figure given to another of the claims' names."""
    reasons: list[str] = []
    if not sentence.names:
        return reasons
    real = real_names(sentence).union(*(real_names(cited.clause) for cited in claims))

    known: dict[str | None, bool] = {None: False}
    compact_real = {_compact(name) for name in real}

    def is_real(span: str | None) -> bool:
        if span not in known:
            # 'gpt 4.5' as the rules spell 'GPT-4.5'
            known[span] = any(part in real for part in span.split()) or _compact(span) in compact_real  # type: ignore[union-attr,arg-type]
        return known[span]

    mentioned = " ".join(span for cited in claims for _, _, span in cited.clause.names)
    for index in _verbs(sentence):
        token = sentence.tokens[index]
        before, after = _roles_around(sentence, index)
        if not (is_real(before) or is_real(after)) or before == after:
            continue
        passive_here = _passive_at(sentence, index) or _agent_after(sentence, after)
        roles = (after, before) if passive_here else (before, after)  # (doer, done-to)
        for cited in claims:
            for position, other in enumerate(cited.clause.tokens):
                if not other.content or other.name or not same_word(token, other):
                    continue
                if _possessive_at(cited.clause, position):
                    continue
                other_before, other_after = _roles_around(cited.clause, position)
                if other_before is None and other_after is None:
                    continue
                passive = _passive_at(cited.clause, position) or _agent_after(cited.clause, other_after)
                other_roles = (other_after, other_before) if passive else (other_before, other_after)
                swapped = None not in roles and roles[0] != roles[1] and other_roles == roles[::-1]
                # The same doer, another done-to (or the reverse), the passage's name being one
                # the claims use elsewhere: 'hired Tomas Berg' where a claim 'hired Carla Mendes'.
                replaced = next(
                    (
                        (mine, theirs)
                        for role in (0, 1)
                        if roles[1 - role] is not None
                        and roles[1 - role] == other_roles[1 - role]
                        and (mine := roles[role]) is not None
                        and (theirs := other_roles[role]) is not None
                        and is_real(mine)
                        and is_real(theirs)
                        and mine != theirs
                        and mine not in theirs
                        and theirs not in mine
                        and not abbreviates(mine, theirs)  # 'IDC' for 'International Data Corporation'
                        and not abbreviates(theirs, mine)
                        and mine in mentioned
                        and not _mentions(sentence, theirs)
                    ),
                    None,
                )
                if swapped or replaced:
                    start = min(i for i in (_name_start(sentence, before), index) if i is not None)
                    other_start = min(i for i in (_name_start(cited.clause, other_before), position) if i is not None)
                    mine = _span(sentence, start, _name_end(sentence, after, index))
                    theirs = _span(cited.clause, other_start, _name_end(cited.clause, other_after, position))
                    reasons.append(f"entity swap: the paragraph says '{mine}'; {_claim_says(cited, theirs)}")
                    return reasons
    swapped_doer = (
        _doer_swap(sentence, claims, is_real, mentioned)
        or _opener_swap(sentence, claims)
        or _maker_swap(sentence, claims, is_real, mentioned)
        or _ends_swap(sentence, claims, is_real)
        or _ends_swap(sentence, claims, is_real, _contest_ends)
        or _ends_swap(sentence, claims, is_real, _deal_ends)
        or _description_swap(sentence, claims, is_real, mentioned)
        or _rank_swap(sentence, claims, is_real, mentioned)
        or _object_swap(sentence, claims, is_real, mentioned)
    )
    if swapped_doer:
        return [swapped_doer]
    # Whose figure: the nearest name before a figure, in the passage and in the claim giving it.
    for index, token in enumerate(sentence.tokens):
        if token.kind != "number" or token.name or _a_year(token):
            continue  # a number inside a name ('Loom-13B') is no one's figure, nor is a year
        if _sizes_noun(sentence, index):
            continue  # 'headed a $1.2 billion round': the round's size, not the doer's figure
        owner = _figure_name(sentence, index)
        if not is_real(owner):
            continue
        value = _number_value(token)
        # A day after its month ('October 2') is a date, no one's figure: the date rule's.
        givers = [
            (cited, position)
            for cited in claims
            for position in _numbers(cited.clause).get(value, ())
            if not (position and cited.clause.tokens[position - 1].low in MONTHS)
        ]
        if not givers:
            continue
        if any(_name_in_clause(cited.clause, position, owner) for cited, position in givers):
            continue
        if not any(_mentions(cited.clause, owner) for cited in claims):
            continue
        cited, position = givers[0]
        other_owner = next(
            (span for first, last, span in reversed(cited.clause.names) if last < position and position - last <= 8),
            None,
        )
        if (
            not is_real(other_owner)
            or other_owner == owner
            or owner in other_owner
            or other_owner in owner
            or abbreviates(owner, other_owner)  # 'WMO' for 'World Meteorological Organization'
            or abbreviates(other_owner, owner)
        ):
            continue
        reasons.append(
            f"entity swap: the paragraph gives '{token.text}' to {owner.title()}; "
            f"{_claim_says(cited, _phrase(cited.clause, position, before=5, after=1))}"
        )
    return list(dict.fromkeys(reasons))


_SIZING_HEDGES = _forms("about around roughly nearly almost some over under just")


def _sizes_noun(clause: Clause, index: int) -> bool:
    """Whether a figure stands inside a noun phrase, after its article, sizing the noun that
    follows ('a $1.2 billion round', 'a 26-day run', 'the 140-verifier library'): it is the
    noun's measure, not a figure the sentence's subject did or owns."""
    tokens = clause.tokens
    before = index - 1
    while before >= 0 and tokens[before].low in _SIZING_HEDGES:
        before -= 1
    return before >= 0 and tokens[before].low in ("a", "an", "the")


def _figure_name(clause: Clause, index: int) -> str | None:
    """The name a figure is said of: the nearest before it in its clause, or, when that name
    only qualifies an earlier one ('the Veritas library from Orchid Systems racked up 86,000
    downloads'), the earlier one, the head of the noun phrase. A name right after the figure's
    'for' is its owner ('reported 74.5% for Claude Opus 4.1'), and a name before a verb of
    saying is the one who tells the figure, not its owner."""
    tokens = clause.tokens
    at = index + 1
    while at < len(tokens) and at <= index + 3 and tokens[at].low in _SCALES:
        at += 1
    if at + 1 < len(tokens) and tokens[at].low == "for":
        owner = next((span for first, _, span in clause.names if first in (at + 1, at + 2)), None)
        if owner is not None:
            return owner
    for position in range(len(clause.names) - 1, -1, -1):
        first, last, span = clause.names[position]
        if last >= index:
            continue
        # 'trust AI tools, though 84% use them': the name is another clause's
        if index - last > 8 or any(t.boundary for t in tokens[last + 1 : index]):
            return None
        if any(t.low in _SPEECH for t in tokens[last + 1 : index]):
            return None  # 'Anthropic reported 74.5%': the teller, not the owner
        if position and first >= 2 and tokens[first - 1].low in ("and", ",") and tokens[first - 2].name:
            # 'Vega and Rho scored 71% and 69%': the pair's figures, told apart by order
            following = tokens[index + 1 : index + 3]
            if any(t.low == "respectively" for t in tokens) or (
                following and following[0].low in ("and", ",") and any(t.kind == "number" for t in following)
            ):
                return None
        at = first - 1
        while at >= 0 and tokens[at].low in _DETERMINERS:
            at -= 1
        if at < 1 or tokens[at].low not in _QUALIFYING_PREPOSITIONS or not position:
            return span
        _, head_last, head = clause.names[position - 1]
        between = range(head_last + 1, at)  # 'library': the head's noun, no verb
        if len(between) > 3 or any(
            tokens[i].boundary or tokens[i].kind != "word" or _verb_like(clause, i) for i in between
        ):
            return span
        return head
    return None


# A name after these, right after another name's noun, qualifies it: 'the library from Orchid'.
_QUALIFYING_PREPOSITIONS = _forms("from of at by")


def _named_doer(clause: Clause, index: int) -> tuple[int, str] | None:
    """The name that does an active verb: the nearest before it in its clause ('Harbor Capital
    led', 'JERA agreed to supply'), where and which."""
    tokens = clause.tokens
    if tokens[index].low.endswith("ing") and index > 0 and tokens[index - 1].low == ",":
        # 'Accenture won the contract, beating Booz Allen': the sentence's doer does it too.
        opener = clause.names[0] if clause.names else None
        if opener is not None and opener[0] == 0 and opener[1] + 1 < index and _verb_like(clause, opener[1] + 1):
            return None if _passive_at(clause, index) else (opener[0], opener[2])
        return None
    for first, last, span in reversed(clause.names):
        if last >= index:
            continue
        if index - last > 5:
            return None  # a doer stands right before its verb: a few auxiliaries at most
        # Only auxiliaries, adverbs and a plan's 'agreed to' between: 'CoreWeave will pay',
        # 'JERA agreed to supply'; not 'Acme said the country installed'.
        between = tokens[last + 1 : index]
        if between and _head_noun(between[0]):
            between = between[1:]  # 'ReAct agents collected': the name's agents do it
        if any(
            not (t.low in _AUXILIARIES or t.low in _ADVERBS or t.low in _BE or t.low in _PLAN_WORDS or t.low == "now")
            for t in between
        ):
            return None
        if tokens[last].low.endswith("'s") or clause.text[tokens[last].end : tokens[last].end + 1] == "'":
            return None  # 'Cobalt AI's platform became': the owner, not the doer
        return None if _passive_at(clause, index) else (first, span)
    return None


def _owner_in(clause: Clause, name: str) -> bool:
    tokens = clause.tokens
    return any(
        _same_name(span, name)
        and (tokens[last].low.endswith("'s") or clause.text[tokens[last].end : tokens[last].end + 1] == "'")
        for _, last, span in clause.names
    )


def _head_noun(token: Token) -> bool:
    """A plural noun a name qualifies ('ReAct agents', 'Qwen models'): not a verb form."""
    low = token.low
    return (
        token.kind == "word"
        and not token.name
        and len(low) > 3
        and low.endswith("s")
        and not low.endswith("ss")
        and low[:-1] not in _BASE_VERBS
        and low[:-2] not in _BASE_VERBS
        and low not in _SPEECH
    )


def _same_name(one: str, other: str) -> bool:
    if one == other or one in other or other in one:
        return True
    if abbreviates(one, other) or abbreviates(other, one):
        return True  # 'IDC' and 'International Data Corporation'
    # The words of one within the other, or the same first word: 'Harbor Capital' and 'Harbor',
    # not 'Mayo Clinic' and 'Cleveland Clinic', nor 'NW-RM-12B' and 'KRM-8B' (a size letter).
    mine, theirs = ({part for part in name.split() if len(part) > 1 and not part[0].isdigit()} for name in (one, other))
    return bool(mine and theirs) and (mine <= theirs or theirs <= mine or one.split()[0] == other.split()[0])


_NAME_PARTS = re.compile(r"[^\W_]+")
_LONGEST_ABBREVIATION = 6


def abbreviates(short: str, long: str) -> bool:
    """Whether ``short`` is an abbreviation of the words of ``long``, all of them: each word
    gives its first letter and maybe more of its letters in order, small words may give none
    ('IDC' for 'International Data Corporation', 'Tbps' for 'terabits-per-second', 'MJ' for
    'megajoules', 'Fed' for 'Federal'). One word must be long for its letters to be chosen
    from it: 'MS' is no abbreviation of 'most'."""
    letters = "".join(_NAME_PARTS.findall(short)).lower()
    return abbreviates_words(letters, tuple(word.lower() for word in _NAME_PARTS.findall(long)))


@lru_cache(maxsize=16384)
def abbreviates_words(letters: str, words: tuple[str, ...]) -> bool:
    """``abbreviates`` for letters and words already lower-cased and split."""
    if not 2 <= len(letters) <= _LONGEST_ABBREVIATION or not words or len(words) > len(letters) + 3:
        return False
    if len(words) == 1 and (len(words[0]) < 2 * len(letters) + 1 or words[0] == letters):
        return False

    @cache
    def spells(done: int, word: int) -> bool:
        if word == len(words):
            return done == len(letters)
        current = words[word]
        if current in lex.STOPWORDS and spells(done, word + 1):
            return True
        if done == len(letters) or current[0] != letters[done]:
            return False
        # The word's initial, then any of its letters in order, then the next word.
        at, taken = 1, done + 1
        if spells(taken, word + 1):
            return True
        while taken < len(letters):
            found = current.find(letters[taken], at)
            if found < 0:
                return False
            at, taken = found + 1, taken + 1
            if spells(taken, word + 1):
                return True
        return False

    return spells(0, 0)


def _doer_swap(sentence: Clause, claims: Sequence[Cited], is_real: Callable[[str | None], bool], mentioned: str) -> str:
    """The same verb done by another of the claims' names: 'Harbor Capital led the round, with
    Kinetic Ventures participating' where a claim says 'Kinetic Ventures led the round'. No claim
    may give the verb to the passage's doer; speech and light verbs say nothing of roles."""
    for index in _verbs(sentence):
        token = sentence.tokens[index]
        following = sentence.tokens[index + 1].low if index + 1 < len(sentence.tokens) else ""
        if token.low in _SPEECH or token.stem in LIGHT or following == "to":
            continue  # 'agreed to be acquired': the verb after 'to' has the roles
        doer = _named_doer(sentence, index)
        if doer is None or not is_real(doer[1]) or doer[1] not in mentioned:
            continue
        others = []
        for cited in claims:
            for position in _same_words(cited.clause, token):
                if position not in _verbs(cited.clause):
                    continue
                theirs = _named_doer(cited.clause, position)
                if theirs is not None:
                    others.append((cited, position, theirs))
        mine = _joint_doers(sentence, doer[0])
        if not others or any(
            _same_name(one, other)
            for cited, _, theirs in others
            for other in _joint_doers(cited.clause, theirs[0])
            for one in mine
        ):
            continue
        cited, position, theirs = others[0]
        if not is_real(theirs[1]) or _owner_in(sentence, theirs[1]):
            continue  # 'Corvid Health licensed Ivy Labs' model': the claim's doer owns what is done to
        return (
            f"entity swap: the paragraph says '{_doer_quote(sentence, doer[0], index)}'; "
            f"{_claim_says(cited, _doer_quote(cited.clause, theirs[0], position))}"
        )
    return ""


def _opener_swap(sentence: Clause, claims: Sequence[Cited]) -> str:
    """A sentence's first word, capitalised, doing what the claims have a named doer do,
    where no claim says that word at all: 'Arm agreed to buy Ampere' against 'SoftBank agreed
    to acquire Ampere'. The names test leaves a sentence's first word alone (it cannot tell
    'Arm' from 'Researchers'); here the word holds a name's role, and a plural ('Analysts
    said') is a common noun."""
    if not sentence.names or sentence.names[0][:2] != (0, 0):
        return ""
    opener = sentence.tokens[0]
    bare = opener.low[:-2] if opener.low.endswith("'s") else opener.low
    if bare.endswith("s") or any(bare in cited.clause.text.lower() for cited in claims):
        return ""
    if any(opener.stem in cited.clause.stems for cited in claims):
        return ""
    if len(sentence.tokens) > 1 and sentence.tokens[1].low in _SPEECH:
        # 'Windsurf says' for 'Cursor said': any verb of saying gives the same role, the speaker's
        for cited in claims:
            tokens = cited.clause.tokens
            speaker = next(
                (
                    (first, last, span)
                    for first, last, span in cited.clause.names
                    if last + 1 < len(tokens) and tokens[last + 1].low in _SPEECH and _name_like(cited.clause, span)
                ),
                None,
            )
            if speaker is not None and not _mentions(sentence, speaker[2]):
                first, last, _ = speaker
                return (
                    f"entity swap: the paragraph says '{_span(sentence, 0, 1)}'; "
                    f"{_claim_says(cited, _span(cited.clause, first, last + 1))}"
                )
    for index in _verbs(sentence):
        token = sentence.tokens[index]
        following = sentence.tokens[index + 1].low if index + 1 < len(sentence.tokens) else ""
        if token.stem in LIGHT or following == "to" or _named_doer(sentence, index) != (0, bare):
            continue
        for cited in claims:
            for position in _same_words(cited.clause, token):
                if position not in _verbs(cited.clause):
                    continue
                theirs = _named_doer(cited.clause, position)
                if theirs is None or not _name_like(cited.clause, theirs[1]) or _mentions(sentence, theirs[1]):
                    continue
                return (
                    f"entity swap: the paragraph says '{_doer_quote(sentence, 0, index)}'; "
                    f"{_claim_says(cited, _doer_quote(cited.clause, theirs[0], position))}"
                )
    return ""


# Verbs that make a thing: 'Kite-7B was developed by DeepLattice', 'Corvid AI trained Corvid-34B'.
_MAKING = _forms(
    "develop develops developed build builds built make makes made release releases released train trains "
    "trained create creates created design designs designed launch launches launched"
)
_MAKERS_BETWEEN = 4


@lru_cache(maxsize=4096)
def _makers(text: str) -> tuple[tuple[str, str, int, int], ...]:
    """Each (thing, maker, first, last) a clause says, both names: 'Oriel Labs' Kite-7B', 'Atlas-
    70B, a model from Verity Labs', 'Kite-7B was developed by DeepLattice', 'Corvid AI trained
    Corvid-34B'. First and last are the tokens a reason quotes."""
    clause = clause_of(text)
    tokens = clause.tokens
    names = clause.names
    found = []
    for first, last, _ in names:
        # 'Oriel Labs' Kite-7B' is read as one span: the apostrophe splits maker and thing
        inner = next((i for i in range(first, last) if clause.text[tokens[i].end : tokens[i].end + 1] == "'"), None)
        if inner is not None:
            maker = " ".join(t.low for t in tokens[first : inner + 1])
            found.append((" ".join(t.low for t in tokens[inner + 1 : last + 1]), maker, first, last))
    for number, (first, last, span) in enumerate(names):
        if number + 1 >= len(names):
            break
        next_first, next_last, next_span = names[number + 1]
        between = tokens[last + 1 : next_first]
        possessive = tokens[last].low.endswith("'s") or clause.text[tokens[last].end : tokens[last].end + 1] == "'"
        if possessive and not between:
            found.append((next_span, span, first, next_last))  # 'Oriel Labs' Kite-7B'
            continue
        if len(between) > _MAKERS_BETWEEN or not between:
            continue
        words = [t.low for t in between]
        marker = words[-1]
        if marker not in ("from", "by") or any(t.boundary and t.low != "," for t in between):
            continue
        if len(words) == 1 or (words[0] == "," and words[1] in ("a", "an", "the")):
            found.append((span, next_span, first, next_last))  # 'Atlas-70B, a model from Verity Labs'
        elif marker == "by" and any(t.low in _MAKING for t in between):
            found.append((span, next_span, first, next_last))  # 'Kite-7B was developed by DeepLattice'
    for index, token in enumerate(tokens):
        if token.low not in _MAKING or not _active(clause, index):
            continue
        doer = _named_doer(clause, index)
        thing = next((named for named in names if named[0] > index), None)
        if doer is None or thing is None:
            continue
        if all(t.low in _DETERMINERS for t in tokens[index + 1 : thing[0]]) and not (
            tokens[thing[1]].low.endswith("'s") or clause.text[tokens[thing[1]].end : tokens[thing[1]].end + 1] == "'"
        ):
            found.append((thing[2], doer[1], doer[0], thing[1]))  # 'Corvid AI trained Corvid-34B'
    return tuple(found)


def _maker_swap(
    sentence: Clause, claims: Sequence[Cited], is_real: Callable[[str | None], bool], mentioned: str
) -> str:
    """A thing given another maker of the claims' names: 'Oriel Labs' Kite-7B' where a claim
    says 'Kite-7B was developed by DeepLattice' and Oriel Labs makes something else."""
    mine = _makers(sentence.text)
    if not mine:
        return ""
    theirs = [(cited, made) for cited in claims for made in _makers(cited.clause.text)]
    for thing, maker, first, last in mine:
        if not is_real(maker) or maker not in mentioned:
            continue
        others = [(cited, made) for cited, made in theirs if _same_name(made[0], thing)]
        if not others or any(_same_name(made[1], maker) for _, made in others):
            continue
        cited, (_, _, other_first, other_last) = others[0]
        return (
            f"entity swap: the paragraph says '{_span(sentence, first, last)}'; "
            f"{_claim_says(cited, _span(cited.clause, other_first, other_last))}"
        )
    return ""


# Where a move (of a person, of goods) starts and where it ends: 'left Quillon', 'a former
# DeepLattice researcher', 'moved from Oriel Labs to Quillon', 'joined DeepLattice', 'Quorum Bio
# hired', 'JERA will supply gas to Shell'.
_ORIGINS = _forms("from left leaving leaves leave quit quits quitting former departed departing exited")
_DESTINATIONS = _forms("joined join joins joining")
_HIRING = _forms("hired hires hire hiring poached poaches recruited recruits appointed appoints")
# A transfer's giver does these ('JERA agreed to supply gas to Shell'), its receiver these
# ('Shell will get gas from JERA'). Not 'license': 'Corvid licensed Ivy's model' is the receiver.
_GIVING = _forms(
    "supply supplies supplied sell sells sold give gives gave award awards awarded "
    "lend lends lent ship ships shipped provide provides provided deliver delivers delivered"
)
_GETTING = _forms(
    "get gets got receive receives received buy buys bought obtain obtains obtained win wins won acquire "
    "acquires acquired"
)


_RANGE_REACH = 6


@lru_cache(maxsize=4096)
def _move_ends(text: str) -> tuple[tuple[str, str, int, int], ...]:
    """Each (name, 'origin' or 'destination', first and last token quoted) of a move a clause tells."""
    clause = clause_of(text)
    tokens = clause.tokens
    # 'from Oriel Labs to Quillon', 'to Quillon from Oriel Labs': a 'to' is a move's end beside
    # a 'from' a name, not in 'tying scaling to GPU memory'
    origins = [first - 1 for first, _, _ in clause.names if first and tokens[first - 1].low == "from"]
    givers = [index for index, token in enumerate(tokens) if token.low in _GIVING]  # 'supply gas to Shell'
    found = []
    for first, last, span in clause.names:
        at = first - 1
        while at >= 0 and tokens[at].low in _DETERMINERS:
            at -= 1
        if at < 0:
            continue
        word = tokens[at].low
        if word in _ORIGINS:
            found.append((span, "origin", at, last))
        elif word in _DESTINATIONS or (
            word == "to"
            and (
                any(abs(at - origin) <= _RANGE_REACH for origin in origins)
                or any(
                    0 < at - giver <= _RANGE_REACH and not any(t.boundary for t in tokens[giver:at]) for giver in givers
                )
            )
            and not _owner_at(clause, first)
        ):
            found.append((span, "destination", at, last))
        elif word == "by" and at and tokens[at - 1].low in _HIRING:
            found.append((span, "destination", at - 1, last))  # 'was hired by Quorum Bio'
    for index, token in enumerate(tokens):
        if (token.low in _HIRING or token.low in _GETTING or token.low in _GIVING) and _active(clause, index):
            doer = _named_doer(clause, index)
            if doer is not None:
                # 'Quorum Bio hired', 'Shell will get', 'JERA agreed to supply'
                found.append((doer[1], "origin" if token.low in _GIVING else "destination", doer[0], index))
    return tuple(found)


def _ends_swap(
    sentence: Clause,
    claims: Sequence[Cited],
    is_real: Callable[[str | None], bool],
    ends: Callable[[str], tuple[tuple[str, str, int, int], ...]] = _move_ends,
) -> str:
    """A move's two ends exchanged: 'moved from Oriel Labs to Quillon' where a claim has her
    leave Quillon to join Oriel Labs; 'JERA will get gas from Shell' where JERA supplies Shell.
    A name the paragraph makes where a move starts, a claim makes where it ends (or the
    reverse), and no claim where the paragraph does; each side tells one move. ``ends`` reads
    another kind of two-ended event the same way (a contest's winner and loser)."""
    mine = ends(sentence.text)
    if not mine:
        return ""
    theirs = [(cited, end) for cited in claims for end in ends(cited.clause.text)]
    if not (_one_move(mine) and _one_move([end for _, end in theirs])):
        return ""  # 'A gave B access, and B gave A credits': two moves, each end both ways
    for name, role, first, last in mine:
        if not is_real(name):
            continue
        same = [(cited, end) for cited, end in theirs if _same_name(end[0], name)]
        if not same or any(end[1] == role for _, end in same):
            continue
        cited, (_, _, other_first, other_last) = same[0]
        return (
            f"entity swap: the paragraph says '{_span(sentence, first, last)}'; "
            f"{_claim_says(cited, _span(cited.clause, other_first, other_last))}"
        )
    return ""


def _owner_at(clause: Clause, first: int) -> bool:
    """Whether the name starting at ``first`` owns the word after it: 'access to OpenAI's models'."""
    last = next(end for start, end, _ in clause.names if start == first)
    tokens = clause.tokens
    return tokens[last].low.endswith("'s") or clause.text[tokens[last].end : tokens[last].end + 1] == "'"


def _one_move(ends: Sequence[tuple[str, str, int, int]]) -> bool:
    """Whether the ends a text tells are of one move: one name at each end."""
    for role in {end[1] for end in ends}:
        names = [end[0] for end in ends if end[1] == role]
        if any(not _same_name(name, names[0]) for name in names):
            return False
    return True


# A contest's winner does these to its loser ('CoachRL-4B surpassed Llama'), its loser these
# to its winner ('Kite-7B trailed Pathfinder').
_WINNING = _forms(
    "beat beats beating beaten defeat defeats defeated defeating outperform outperforms outperformed "
    "outperforming surpass surpasses surpassed surpassing outscore outscores outscored outscoring best bests "
    "bested edge edges edged edging overtake overtakes overtook overtaken"
)
_LOSING = _forms("trail trails trailed trailing lag lags lagged lagging")
_PREFERRING = _forms(
    "prefer prefers preferred preferring favour favours favoured favor favors favored choose chooses chose "
    "chosen pick picks picked rate rates rated"
)
_CONTEST_REACH = 4


@lru_cache(maxsize=4096)
def _contest_ends(text: str) -> tuple[tuple[str, str, int, int], ...]:
    """Each (name, 'winner' or 'loser', first and last token quoted) of a contest a clause tells: 'Llama edged out
    CoachRL-4B', 'o3 was beaten by Grok 4', 'Kite-7B trailed Pathfinder'."""
    clause = clause_of(text)
    tokens = clause.tokens
    found = []
    for index, token in enumerate(tokens):
        if token.low == "over":
            # 'graders preferred Claude's summaries over GPT-4o's': the one preferred wins
            verb = next(
                (i for i in range(index - 1, -1, -1) if tokens[i].low in _PREFERRING or tokens[i].boundary), None
            )
            if verb is None or tokens[verb].boundary:
                continue
            chosen = next((name for name in reversed(clause.names) if verb < name[0] and name[1] < index), None)
            other = next((name for name in clause.names if index < name[0] <= index + 2), None)
            if chosen is not None and other is not None:
                found += [(chosen[2], "winner", verb, other[1]), (other[2], "loser", verb, other[1])]
            continue
        winning = token.low in _WINNING
        if not winning and token.low not in _LOSING:
            continue
        after = next(
            (
                (first, last, span)
                for first, last, span in clause.names
                if index < first <= index + _CONTEST_REACH
                and not any(t.boundary for t in tokens[index + 1 : first])
                and not _owner_at(clause, first)
            ),
            None,
        )
        before = next(((first, last, span) for first, last, span in reversed(clause.names) if last < index), None)
        if _passive_at(clause, index):
            if after is None or tokens[after[0] - 1].low != "by":
                continue
            doer, done_to = after, before  # 'o3 was beaten by Grok 4'
        else:
            named = _named_doer(clause, index)
            doer = next((name for name in clause.names if named and name[0] == named[0]), None)
            done_to = after
        quoted = [index] + [position for name in (doer, done_to) if name is not None for position in name[:2]]
        for name, does in ((doer, True), (done_to, False)):
            if name is not None:
                found.append((name[2], "winner" if does == winning else "loser", min(quoted), max(quoted)))
    return tuple(found)


# A deal's two sides: who buys and what is bought ('Halden acquired Pell', 'paid $90 million
# for Pell'), who backs and who is backed ('led a round in Lumen Forge', 'Lumen Forge raised').
_BUYING = _forms("acquire acquires acquired acquiring buy buys bought buying purchase purchases purchased")
_PAYING = _forms("pay pays paid paying")
_BACKING = _forms("invest invests invested investing back backs backed backing fund funds funded funding")
_ROUND_LEADING = _forms("lead leads led leading head heads headed heading")
_RAISING = _forms("raise raises raised raising")
_DEAL_REACH = 6


def _name_after(clause: Clause, index: int, words: frozenset[str] | None = None) -> tuple[int, int, str] | None:
    """The first name after token ``index`` in its clause, within _DEAL_REACH tokens, after
    one of ``words`` when given ('paid $90 million for Pell'), not an owner ('Acme's unit')."""
    tokens = clause.tokens
    for first, last, span in clause.names:
        if first <= index or first > index + _DEAL_REACH or any(t.boundary for t in tokens[index + 1 : first]):
            continue
        at = first - 1
        while at > index and tokens[at].low in _DETERMINERS:
            at -= 1
        if (words is None or tokens[at].low in words) and not _owner_at(clause, first):
            return first, last, span
        return None
    return None


@lru_cache(maxsize=4096)
def _deal_ends(text: str) -> tuple[tuple[str, str, int, int], ...]:
    """Each (name, side, first and last token quoted) of a deal a clause tells: 'buyer' and
    'bought', 'backer' and 'backed'."""
    clause = clause_of(text)
    tokens = clause.tokens
    has_round = any(t.low in ("round", "rounds") for t in tokens)
    found = []

    def both(
        doer: tuple[int, int, str] | None, done_to: tuple[int, int, str] | None, sides: tuple[str, str], index: int
    ) -> None:
        quoted = [index] + [position for name in (doer, done_to) if name is not None for position in name[:2]]
        for name, side in zip((doer, done_to), sides, strict=True):
            if name is not None:
                found.append((name[2], side, min(quoted), max(quoted)))

    for index, token in enumerate(tokens):
        low = token.low
        named = _named_doer(clause, index)
        doer = next((name for name in clause.names if named and name[0] == named[0]), None)
        if low in _BUYING:
            if _passive_at(clause, index):
                agent = _name_after(clause, index, frozenset(["by"]))
                subject = next((name for name in reversed(clause.names) if name[1] < index), None)
                both(agent, subject if agent else None, ("buyer", "bought"), index)
            else:
                both(doer, _name_after(clause, index), ("buyer", "bought"), index)
        elif low in _PAYING:
            both(doer, _name_after(clause, index, frozenset(["for"])), ("buyer", "bought"), index)
        elif low in _BACKING:
            if _passive_at(clause, index):
                agent = _name_after(clause, index, frozenset(["by"]))
                subject = next((name for name in reversed(clause.names) if name[1] < index), None)
                both(agent, subject if agent else None, ("backer", "backed"), index)
            else:
                both(
                    doer,
                    _name_after(clause, index, frozenset(["in", "into"]) if low.startswith("invest") else None),
                    ("backer", "backed"),
                    index,
                )
        elif low in _ROUND_LEADING and has_round:
            if _passive_at(clause, index):
                both(_name_after(clause, index, frozenset(["by"])), None, ("backer", "backed"), index)
            else:
                both(doer, _name_after(clause, index, frozenset(["in", "for", "into"])), ("backer", "backed"), index)
        elif low in _RAISING and _active(clause, index):
            both(None, doer, ("backer", "backed"), index)  # 'Lumen Forge raised $1.2 billion'
    return tuple(found)


@lru_cache(maxsize=4096)
def _descriptions(text: str) -> tuple[tuple[str, frozenset[str], int, int], ...]:
    """Each (name, words, first and last token quoted) of a description set beside a name between commas: 'Tidewater
    AI, a maker of RL environments for finance,'."""
    clause = clause_of(text)
    tokens = clause.tokens
    found = []
    for first, last, span in clause.names:
        if last + 2 >= len(tokens) or tokens[last + 1].low != "," or tokens[last + 2].low not in ("a", "an", "the"):
            continue
        end = _clause_end(tokens, last + 3)
        words = frozenset(t.stem for t in tokens[last + 3 : end] if t.content and t.stem not in LIGHT)
        if words:
            found.append((span, words, first, min(end, last + 7)))
    return tuple(found)


def _description_swap(
    sentence: Clause, claims: Sequence[Cited], is_real: Callable[[str | None], bool], mentioned: str
) -> str:
    """A claim's description of one name set beside another: 'Halcyon Labs, a maker of RL
    environments for finance,' where a claim says 'Tidewater AI, a maker of RL environments'."""
    mine = _descriptions(sentence.text)
    if not mine:
        return ""
    theirs = [(cited, found) for cited in claims for found in _descriptions(cited.clause.text)]
    for name, words, first, last in mine:
        if not is_real(name) or name not in mentioned:
            continue
        alike = [(cited, found) for cited, found in theirs if len(words & found[1]) * 2 > len(words)]
        if not alike or any(_same_name(found[0], name) for _, found in alike):
            continue
        cited, (other, _, other_first, other_last) = alike[0]
        if not is_real(other):
            continue
        return (
            f"entity swap: the paragraph says '{_span(sentence, first, last)}'; "
            f"{_claim_says(cited, _span(cited.clause, other_first, other_last))}"
        )
    return ""


def _name_like(clause: Clause, span: str) -> bool:
    """A name by what the names test finds, or a capitalised span that is no plural common
    noun: 'Sorensen Group' or 'Cursor' opening a claim, not 'Analysts'."""
    return span in real_names(clause) or " " in span or not span.endswith("s")


def _joint_doers(clause: Clause, first: int) -> list[str]:
    """A doer and those joined to it before: 'OpenAI and Microsoft signed' has two doers."""
    tokens = clause.tokens
    spans = {start: (last, span) for start, last, span in clause.names}
    found = [spans[first][1]]
    at = first - 1
    while at >= 1 and tokens[at].low in ("and", ",", "or"):
        previous = next((start for start, (last, _) in spans.items() if last == at - 1), None)
        if previous is None:
            break
        found.append(spans[previous][1])
        at = previous - 1
    return found


def _doer_quote(clause: Clause, first: int, verb: int) -> str:
    """'Harbor Capital led'; a doer far from its verb as 'Accenture Federal Services … beating'."""
    if verb - first <= 8:
        return _span(clause, first, verb)
    last = next(last for start, last, _ in clause.names if start == first)
    return f"{_span(clause, first, last)} \u2026 {_span(clause, verb, verb)}"


# Places in a ranking, and the words between a name and its place ('Denmark second', 'Korea
# in second place', 'Gemini 2.5 Pro ranked first', 'GPT-4.5 took first place').
_PLACES_IN_RANK = _forms("first second third fourth fifth top")
_RANK_LINKS = _forms("took take takes ranked ranks came comes placed finished finishes was is were in at the its")


def _place_holder(clause: Clause, index: int) -> tuple[int, str] | None:
    tokens = clause.tokens
    for first, last, span in reversed(clause.names):
        if last >= index:
            continue
        between = tokens[last + 1 : index]
        if len(between) > 4 or any(
            t.boundary or not (t.kind == "number" or t.low in _RANK_LINKS or t.name) for t in between
        ):
            return None
        if tokens[last].low.endswith("'s") or clause.text[tokens[last].end : tokens[last].end + 1] == "'":
            return None  # 'Acme's first product': an owner, not a place
        return first, span
    return None


def _rank_swap(sentence: Clause, claims: Sequence[Cited], is_real: Callable[[str | None], bool], mentioned: str) -> str:
    """A place in a ranking given to another of the claims' names: 'Denmark topped the index,
    with Korea in second place' where a claim ranks 'Korea first and Denmark second'."""
    for index, token in enumerate(sentence.tokens):
        if token.low not in _PLACES_IN_RANK:
            continue
        holder = _place_holder(sentence, index)
        if holder is None or not is_real(holder[1]) or holder[1] not in mentioned:
            continue
        others = [
            (cited, position, theirs)
            for cited in claims
            for position, other in enumerate(cited.clause.tokens)
            if other.low == token.low and (theirs := _place_holder(cited.clause, position)) is not None
        ]
        if not others or any(_same_name(holder[1], theirs[1]) for _, _, theirs in others):
            continue
        cited, position, theirs = others[0]
        if is_real(theirs[1]) and _mentions(sentence, theirs[1]):
            return (
                f"entity swap: the paragraph says '{_span(sentence, holder[0], index)}'; "
                f"{_claim_says(cited, _span(cited.clause, theirs[0], position))}"
            )
    return ""


_ROLE_PREPOSITIONS = _forms("from for to against by with")
_POSSESSIVES = _forms("its their his her our your")


def _prepositional_names(clause: Clause) -> list[tuple[str, int, str]]:
    """Each name after a preposition, with what it is said of: the word or figure before the
    preposition ('cohort from the Mayo Clinic', '97 minutes for ReAct agents', 'gas to Shell')."""
    found = []
    tokens = clause.tokens
    for first, last, span in clause.names:
        if tokens[last].low.endswith("'s") or clause.text[tokens[last].end : tokens[last].end + 1] == "'":
            continue  # 'for Cobalt AI's platform': an owner, not the one the role is given to
        at = first - 1
        while at >= 0 and tokens[at].low in _DETERMINERS:
            if tokens[at].low in _POSSESSIVES:
                break  # 'for its Foundry platform': the owner is another name
            at -= 1
        if at < 1 or tokens[at].low not in _ROLE_PREPOSITIONS:
            continue
        anchor = at - 1
        if tokens[anchor].kind == "word" and not tokens[anchor].content and anchor > 0:
            anchor -= 1
        head = tokens[anchor]
        if head.name or head.boundary:
            continue
        if head.kind == "number":
            key = _number_value(head)
        elif head.content:
            key = head.key
            if anchor > 0 and tokens[anchor - 1].kind == "number":
                key = f"{_number_value(tokens[anchor - 1])} {key}"  # '14 seconds with NCCL'
        else:
            continue
        found.append((f"{key} {tokens[at].low}", first, span))
        # 'to Apple and Google': each name joined on holds the same role.
        spans = {start: (end, joined) for start, end, joined in clause.names}
        end = last
        while end + 2 < len(tokens) and tokens[end + 1].low in ("and", ",", "or") and end + 2 in spans:
            start = end + 2
            end, joined = spans[start]
            found.append((f"{key} {tokens[at].low}", start, joined))
    return found


def _object_swap(
    sentence: Clause, claims: Sequence[Cited], is_real: Callable[[str | None], bool], mentioned: str
) -> str:
    """The same role, after the same word and preposition, given to another of the claims'
    names that the passage names elsewhere: 'a validation cohort from the Mayo Clinic' where a
    claim has 'a validation cohort from Cleveland Clinic' and the Mayo Clinic elsewhere."""
    for key, first, span in _prepositional_names(sentence):
        if not is_real(span) or span not in mentioned:
            continue
        theirs = [
            (cited, other_first, other)
            for cited in claims
            for other_key, other_first, other in _prepositional_names(cited.clause)
            if other_key == key
        ]
        if not theirs or any(_same_name(span, other) for _, _, other in theirs):
            continue
        cited, other_first, other = theirs[0]
        if _named_after(cited.clause, other_first, span) and not _named_after(sentence, first, other):
            continue  # 'trained with GRPO on the DAPO dataset': the passage's name is the word's too
        if is_real(other) and _mentions(sentence, other):
            return (
                f"entity swap: the paragraph says '{_phrase(sentence, first, before=3, after=2)}'; "
                f"{_claim_says(cited, _phrase(cited.clause, other_first, before=3, after=2))}"
            )
    return ""


def _named_after(clause: Clause, position: int, name: str) -> bool:
    """Whether ``name`` stands after token ``position`` in its clause: another role of the same
    word ('trained with GRPO on the DAPO-Math-17K dataset')."""
    tokens = clause.tokens
    end = next((i for i in range(position + 1, len(tokens)) if tokens[i].boundary), len(tokens))
    return any(position < first and last < end and _same_name(span, name) for first, last, span in clause.names)


def _roles_around(clause: Clause, index: int) -> tuple[str | None, str | None]:
    """The names around a verb within its clause: in 'AMD supplied the memory and Nvidia the
    chips', Nvidia is not what AMD supplied."""
    before, after = _names_around(clause, index)
    tokens = clause.tokens
    if after is not None:
        start = _name_start(clause, after)
        if start is not None and start > index and any(t.boundary for t in tokens[index + 1 : start]):
            after = None
    if before is not None:
        # the nearest span before the verb named so
        last = max((end for first, end, span in clause.names if span == before and end < index), default=None)
        if last is not None and any(t.boundary for t in tokens[last + 1 : index]):
            before = None
    return before, after


def _verbs(clause: Clause) -> list[int]:
    """Where the clause's verbs stand that may carry roles: content words, not names, not a
    noun between a possessive and its name."""
    if clause.verbs is None:
        clause.verbs = [
            index
            for index, token in enumerate(clause.tokens)
            if token.content
            and not token.name
            and not _possessive_at(clause, index)
            and clause.text[token.end : token.end + 1] != "-"  # 'fine-tuning', 'sim-trained': a modifier
            and _verb_like(clause, index)
            and not _adjective_at(clause, index)
        ]
    return clause.verbs


def _adjective_at(clause: Clause, index: int) -> bool:
    """A participle right after a verb and before a noun is the noun's adjective: 'get
    liquefied natural gas', 'supply liquefied natural gas' say no one liquefied anything."""
    tokens = clause.tokens
    token = tokens[index]
    if not token.low.endswith("ed") or not index or index + 1 >= len(tokens):
        return False
    previous, following = tokens[index - 1], tokens[index + 1]
    return (
        previous.content
        and not previous.name
        and _verb_like(clause, index - 1)
        and following.content
        and not following.name
        and following.kind == "word"
    )


def _name_in_clause(clause: Clause, position: int, name: str) -> bool:
    """Whether ``name`` is in the clause of token ``position``, or anywhere before it."""
    tokens = clause.tokens
    end = next((i for i in range(position + 1, len(tokens)) if tokens[i].boundary), len(tokens))
    return any((span == name or name in span or span in name) and last < end for _, last, span in clause.names)


def _name_start(clause: Clause, name: str | None) -> int | None:
    return next((first for first, _, span in clause.names if span == name), None)


def _name_end(clause: Clause, name: str | None, index: int) -> int:
    return next((last for first, last, span in clause.names if span == name and first > index), index + 2)


def _agent_after(clause: Clause, name: str | None) -> bool:
    """Whether the name after a verb follows 'by': the doer of a passive further on ('agreed
    to be acquired by Merriam Steel')."""
    start = _name_start(clause, name)
    return start is not None and start > 0 and clause.tokens[start - 1].low == "by"


def _passive_at(clause: Clause, index: int) -> bool:
    """'was acquired by', 'a round led by': the name after the verb is its doer."""
    tokens = clause.tokens
    if any(_agent_by(clause, at) for at in range(index + 1, min(len(tokens), index + 3))):
        return True
    if not any(t.low in ("was", "were", "is", "are", "been", "be", "being") for t in tokens[max(0, index - 2) : index]):
        return False
    for at in range(index + 1, len(tokens)):
        if tokens[at].kind == "punct":
            return False
        if _agent_by(clause, at):
            return True
    return False


def _agent_by(clause: Clause, index: int) -> bool:
    """A 'by' that names a doer, not a measure: 'lifts TreeOPSD by 4.97 points' is active."""
    tokens = clause.tokens
    if tokens[index].low != "by":
        return False
    following = next((t for t in tokens[index + 1 : index + 4] if t.low not in _SIZING_HEDGES), None)
    return following is None or following.kind != "number"


def _possessive_at(clause: Clause, index: int) -> bool:
    """'Jupiter's moon Europa', 'Europa, a moon of Jupiter': names around a noun, not a doer
    and a done-to."""
    tokens = clause.tokens
    return (index > 0 and tokens[index - 1].low.endswith("'s")) or (
        index + 1 < len(tokens) and tokens[index + 1].low == "of"
    )


# Roles ---------------------------------------------------------------------------------------


def _subject(clause: Clause, verb: int) -> list[int]:
    """The words right before a verb, up to three, skipping auxiliaries: who does it."""
    tokens = clause.tokens
    found: list[int] = []
    index = verb - 1
    while index >= 0 and (tokens[index].low in _AUXILIARIES or tokens[index].low in _ADVERBS):
        index -= 1
    while index >= 0 and len(found) < 3:
        token = tokens[index]
        if token.boundary or token.kind != "word" or token.low in _DETERMINERS or not token.content:
            break
        found.append(index)
        index -= 1
    return found


def _active(clause: Clause, verb: int) -> bool:
    """Not a passive: no 'be' before the verb, no 'by' after it, an adverb or two between
    ('powered only by sunlight', 'led jointly by'), and no word hyphened to it before: 'sunlight-
    powered' is 'powered by sunlight'."""
    tokens = clause.tokens
    before = tokens[verb - 1].low if verb else ""
    if tokens[verb].start and clause.text[tokens[verb].start - 1] == "-":
        return False
    after = verb + 1
    while (
        after < len(tokens)
        and after <= verb + 2
        and (tokens[after].low in _ADVERBS or tokens[after].low == "only" or tokens[after].low.endswith("ly"))
    ):
        after += 1
    return before not in _BE and before != "being" and (after >= len(tokens) or not _agent_by(clause, after))


def _word_keys(token: Token) -> list[str]:
    """Keys under which ``same_word`` may find a token: its key, its long prefix, its synonym groups."""
    keys = ["k:" + token.key]
    if len(token.stem) >= 6:
        keys.append("p:" + token.stem[:6])
    keys += [f"g:{group}" for group in SYNONYMS.get(token.stem, ())]
    return keys


def _same_words(clause: Clause, token: Token) -> list[int]:
    """Positions of a clause's content words that are ``token``'s word, found through an index
    built once a clause (a story cites the same claims from many sentences)."""
    if clause.word_index is None:
        index: dict[str, list[int]] = {}
        for position, other in enumerate(clause.tokens):
            if other.content:
                for key in _word_keys(other):
                    index.setdefault(key, []).append(position)
        clause.word_index = index
    found = {position for key in _word_keys(token) for position in clause.word_index.get(key, ())}
    return sorted(position for position in found if same_word(token, clause.tokens[position]))


def _done_to(clause: Clause, verb: int, stems: set[str]) -> bool:
    """Whether all these words stand after the verb in its clause: the one it is done to."""
    after = set()
    tokens = clause.tokens
    for position in range(verb + 1, min(len(tokens), verb + 13)):
        token = tokens[position]
        # 'and' joins the verb's objects ('builds environments and verifiers for clients').
        if token.boundary and token.low != "and":
            break
        if token.low.endswith("'s") or clause.text[token.end : token.end + 1] == "'":
            return False  # 'licensed Ivy Labs' model': an owner, not the one done to
        if token.low == "by" and any(t.low in _BE for t in tokens[max(verb, position - 3) : position]):
            break  # 'agreed to be acquired by Merriam': the doer of a passive, not the one done to
        after.add(token.stem)
    return stems <= after


# Movement words that also take an object, whose doer can be swapped: 'raised $45 million',
# 'beat the baselines', 'cut its forecast'.
_TRANSITIVE_MOVES = _forms(
    "raise raises raised raising beat beats beating outperform outperforms outperformed surpass surpasses "
    "surpassed cut cuts cutting lift lifts lifted boost boosts boosted lower lowers lowered acquire acquires "
    "acquired buy buys bought sell sells sold trail trails trailed"
)


def _plural_noun_at(clause: Clause, index: int) -> bool:
    """'Phone sales at the firm': an -s word after the sentence's first word is a noun, not a
    verb whose doer that word is."""
    token = clause.tokens[index]
    if index != 1 or not token.low.endswith("s") or token.low.endswith("ss"):
        return False
    return token.low[:-1] not in _BASE_VERBS and token.low[:-2] not in _BASE_VERBS  # 'Acme sues' is a verb


def _nominal_at(clause: Clause, index: int, subject: list[int]) -> bool:
    """Whether a verb-like word and the words before it are a noun phrase, not a doer and its
    verb: 'the number of steps needed to reach' (a preposition before the 'doer'), 'model-
    generated tests stood in' (the '-s' word is the subject of the verb after it)."""
    tokens = clause.tokens
    before = min(subject) - 1
    while before >= 0 and tokens[before].low in _DETERMINERS:
        before -= 1
    if before >= 0 and tokens[before].low in _PREPOSITIONS:
        return True
    low = tokens[index].low
    following = index + 1
    return (
        low.endswith("s")
        and not low.endswith("ss")
        and following < len(tokens)
        and tokens[following].content
        and not tokens[following].low.endswith("s")
        and _verb_like(clause, following)
    )


def _doers(clause: Clause) -> list[tuple[int, list[int]]]:
    """Each active verb of a clause with the words right before it (its doer), once a clause."""
    if clause.doers is None:
        clause.doers = []
        for index, token in enumerate(clause.tokens):
            if (
                not token.content
                or token.name
                or (token.low in POLARITY and token.low not in _TRANSITIVE_MOVES)
                or not _verb_like(clause, index)
                or not _active(clause, index)
                or _plural_noun_at(clause, index)
            ):
                continue
            subject = _subject(clause, index)
            if subject and not _nominal_at(clause, index, subject):
                clause.doers.append((index, subject))
    return clause.doers


def role_rule(sentence: Clause, claims: Sequence[Cited]) -> list[str]:
    """Who did it, swapped: the passage's verb has for its doer what the claim's same verb has
    in another role, and the claim's doer stands elsewhere in the passage ('Pelham Telecom
    fined the regulator' against 'the regulator fined Pelham Telecom'). Both verbs active:
    a passive turns the roles round on purpose."""
    mine_by_verb = dict(_doers(sentence))
    if not mine_by_verb:
        return []
    for cited in claims:
        claim = cited.clause
        for position, theirs in _doers(claim):
            theirs_stems = {claim.tokens[j].stem for j in theirs}
            if not theirs_stems <= sentence.stems:
                continue  # the claim's doer is not in the sentence at all: no swap (and cheap)
            for index in _same_words(sentence, claim.tokens[position]):
                mine = mine_by_verb.get(index)
                if not mine or not theirs_stems.isdisjoint(sentence.tokens[i].stem for i in mine):
                    continue  # the same doer (the common case, and a cheap test)
                if any(same_word(sentence.tokens[i], claim.tokens[j]) for i in mine for j in theirs):
                    continue
                # Each doer is the one done to on the other side: a swap, not a new doer.
                if _done_to(sentence, index, theirs_stems) and _done_to(
                    claim, position, {sentence.tokens[i].stem for i in mine}
                ):
                    return [
                        f"entity swap: the paragraph says '{_span(sentence, min(mine), index + 2)}'; "
                        f"{_claim_says(cited, _span(claim, min(theirs), position + 2))}"
                    ]
    return []


# Whose figure, for things that are not names -------------------------------------------------


FIGURE_OWNER_REACH = 5
_YEAR = re.compile(r"(?:19|20)\d\d")


def _a_year(token: Token) -> bool:
    """A year is written bare: '2,000', '$2025' and '2000%' are figures."""
    return _YEAR.fullmatch(token.low) is not None


def _owner(clause: Clause, index: int) -> frozenset[str]:
    """The words a figure is said of: up to FIGURE_OWNER_REACH words before it in its clause
    ('the direct-tool-calling baselines reached 30.7%'), light and movement words left out.
    Kept once a clause: a story cites the same claims from many sentences."""
    if clause.owners is None:
        clause.owners = {}
    owner = clause.owners.get(index)
    if owner is None:
        owner = clause.owners[index] = _read_owner(clause, index)
    return owner


_RANGE_LINKS = _forms("to from")


def _read_owner(clause: Clause, index: int) -> frozenset[str]:
    found = set()
    first = max(0, index - FIGURE_OWNER_REACH)
    for position in range(index - 1, first - 1, -1):
        t = clause.tokens[position]
        if t.kind == "number" and t.start and clause.text[t.start - 1] in "-.":
            continue  # digits inside a name: 'ProgAgent-14B'
        if t.kind == "number" and any(between.low in _RANGE_LINKS for between in clause.tokens[position + 1 : index]):
            # 'latency from 14 seconds to 5': the two ends of a range measure the same thing
            return _owner(clause, position)
        if t.boundary or t.kind == "number" or t.low in MONTHS:
            break  # another figure's words, or a date's, are not this figure's
        if (
            t.content
            and t.stem not in LIGHT
            and t.low not in POLARITY
            and t.low not in NUMBER_WORDS
            and not _verb_like(clause, position)  # 'reached', 'scored': what is said, not of what
        ):
            found.add(t.stem)
    return frozenset(found)


def _sized(clause: Clause, index: int) -> bool:
    """A number glued to a unit letter: the size in 'a 17B model', '4x', part of a name."""
    end = clause.tokens[index].end
    return end < len(clause.text) and clause.text[end].isalpha()


def _owns_elsewhere(sentence: Clause, index: int, theirs: frozenset[str]) -> bool:
    """Whether what the claim gives this figure to has another figure in the sentence, or
    stands after this one ('against 97 for SkillForge agents'): the figures were exchanged,
    not said of the same thing in other words."""
    tokens = sentence.tokens
    for position, token in enumerate(tokens):
        figure = (token.kind == "number" and not token.name) or token.low in NUMBER_WORDS or token.low == "zero"
        if position != index and figure and theirs & _owner(sentence, position):
            return True
    # 'against 97 for SkillForge agents', '97 minutes for the baseline': whose, after 'for'.
    marker = next((i for i in range(index + 1, min(len(tokens), index + 4)) if tokens[i].low == "for"), None)
    if marker is None:
        return False
    after = {t.stem for t in tokens[marker + 1 : _clause_end(tokens, marker + 1)] if t.content}
    return bool(theirs & after)


def figure_owner_rule(sentence: Clause, claims: Sequence[Cited]) -> list[str]:
    """A figure said of something the claim says another figure of: 'the baselines reached a
    30.7% pass rate, where ProgAgent-14B scored zero' against a claim giving the 30.7% to
    ProgAgent-14B and zero to the baselines.

    Owners are compared by the words that tell a claim's figures apart: in 'the planner agents
    reached 30.7%, the baseline agents 12.4%', 'planner' and 'baseline', not 'agents'."""
    for index, token in enumerate(sentence.tokens):
        if token.kind != "number" or token.name:
            continue  # a number inside a name ('GPT-4.1') is no one's figure
        value = _number_value(token)
        if _a_year(token) or _sized(sentence, index):
            continue  # a year dates a sentence; it is no one's figure
        givers = [(cited, position) for cited in claims for position in _numbers(cited.clause).get(value, ())]
        if not givers:
            continue
        mine = _owner(sentence, index)
        if not mine:
            continue
        owners = [(cited, position, *_told_apart(cited.clause, position)) for cited, position in givers]
        if any(mine & theirs for _, _, theirs, _ in owners):
            continue  # a cited claim gives this value to the same thing
        after = _owner_after(sentence, index)
        if any(after & theirs for _, _, theirs, _ in owners):
            continue  # '$30.9 billion of revenue': the owner said after the figure
        for cited, position, theirs, others in owners:
            # A swap, not a rewording: the passage's owner is the owner of another of the
            # claim's figures ('where the baselines scored zero'), and the claim's owner of this
            # one has another figure in the passage.
            if (
                theirs
                and theirs <= sentence.stems
                and any(mine & other for other in others)
                and _owns_elsewhere(sentence, index, theirs)
            ):
                claim = cited.clause
                return [
                    f"entity swap: the paragraph gives '{token.text}' to "
                    f"'{_span(sentence, max(0, index - FIGURE_OWNER_REACH), index - 1)}'; "
                    f"{_claim_says(cited, _span(claim, max(0, position - FIGURE_OWNER_REACH), position))}"
                ]
    return []


_SCALES = _forms("thousand million billion trillion k m bn mn percent per cent points percentage")


def _owner_after(clause: Clause, index: int) -> frozenset[str]:
    """What a figure is of when said after it: '$30.9 billion of revenue', '40% of the tasks'."""
    tokens = clause.tokens
    at = index + 1
    while at < len(tokens) and tokens[at].low in _SCALES:
        at += 1
    if at >= len(tokens) or tokens[at].low not in ("of", "in", "off"):
        return frozenset()
    found = set()
    for token in tokens[at + 1 : at + 4]:
        if token.boundary or token.kind == "number" or token.low in _PREPOSITIONS:
            break
        if token.content:
            found.add(token.stem)
    return frozenset(found)


def _told_apart(claim: Clause, position: int) -> tuple[frozenset[str], list[frozenset[str]]]:
    """The owner of a claim's figure and those of its other figures, each less the words they
    share ('agents' of 'the planner agents' and 'the baseline agents'). Kept once a clause."""
    if claim.told_apart is None:
        claim.told_apart = {}
    found = claim.told_apart.get(position)
    if found is None:
        found = claim.told_apart[position] = _read_told_apart(claim, position)
    return found


def _read_told_apart(claim: Clause, position: int) -> tuple[frozenset[str], list[frozenset[str]]]:
    others = [
        _owner(claim, i)
        for i, t in enumerate(claim.tokens)
        if i != position
        and (t.kind == "number" or t.low in NUMBER_WORDS or t.low == "zero")
        and not (t.start and claim.text[t.start - 1] in "-.")  # not 'Lumen-7'
        and not t.name  # not 'Claude Opus 4'
        and not _a_year(t)
        and not _sized(claim, i)  # not 'a 17B model'
    ]
    theirs = _owner(claim, position)
    shared = theirs.intersection(*others) if others else frozenset()
    if shared == theirs:
        return theirs, [other - theirs for other in others]
    return theirs - shared, [other - shared for other in others]


# Comparisons swapped -------------------------------------------------------------------------


def comparison_swap_rule(sentence: Clause, claims: Sequence[Cited]) -> list[str]:
    """The two sides of a comparison swapped with the same comparing word: 'rollout volume
    matters more than verifier quality' where a claim has 'verifier quality matters more than
    rollout volume'; 'months rather than days' against 'days rather than months'. Or the
    sides kept and the direction turned: '45% higher than direct calling' against '45% fewer
    ... than direct calling'. 'A costs less than B' says what 'B costs more than A' says."""
    for mine in _comparisons(sentence):
        for cited in claims:
            for theirs in _comparisons(cited.clause):
                if mine.sign is not None and theirs.sign is not None:
                    opposite = mine.sign != theirs.sign
                elif lex.stem(mine.word) == lex.stem(theirs.word):
                    opposite = False
                else:
                    continue
                order = _order(mine.left, mine.right, theirs.left, theirs.right)
                if order == "unclear" or (order == "swapped") == opposite:
                    continue
                if order == "swapped":
                    change = "the sides of the comparison are swapped"
                else:
                    change = "the comparison goes the other way"
                return [
                    f"direction: the paragraph says '{_phrase(sentence, mine.than, before=3, after=3)}'; "
                    f"{_claim_says(cited, _phrase(cited.clause, theirs.than, before=3, after=3))}: {change}"
                ]
    return []


# Pairings exchanged --------------------------------------------------------------------------

# What splits a sentence into the parts that each pair a thing with what is said of it: 'Loom
# scored 58.4% on SWE-Bench and 44.1% on TerminalBench', 'A led the round, while B joined'.
_PAIR_SPLITTERS = _forms("and while whereas but against versus vs ;")
# ... and after a comma: 'topped it at 71.2%, ahead of Sable at 68.9%'.
_PAIR_SPLITTERS_AFTER_COMMA = _forms("with ahead behind compared beating trailing")


def _pair_segments(clause: Clause) -> list[tuple[int, int]]:
    """The parts of a clause that pair things up, as (first, end) token ranges. A clause that
    pairs its lists by order ('scored 71% and 69% respectively') is no such part at all."""
    tokens = clause.tokens
    if any(t.low == "respectively" for t in tokens):
        return []
    segments, first = [], 0
    for index, token in enumerate(tokens):
        following = tokens[index + 1].low if index + 1 < len(tokens) else ""
        if (token.low in _PAIR_SPLITTERS and not _ends_list(tokens, index)) or (
            token.low == "," and following in _PAIR_SPLITTERS_AFTER_COMMA
        ):
            if index > first:
                segments.append((first, index))
            first = index + 1
    if first < len(tokens):
        segments.append((first, len(tokens)))
    return segments


LIST_ITEM_WORDS = 3


def _ends_list(tokens: list[Token], index: int) -> bool:
    """Whether an 'and' ends a list ('GSM8K, MMLU and IFEval'): its items share one role."""
    at = index - 1
    if at >= 0 and tokens[at].low == ",":
        at -= 1
    words = 0
    while at >= 0 and tokens[at].kind == "word" and not tokens[at].boundary and words < LIST_ITEM_WORDS:
        at -= 1
        words += 1
    return words > 0 and at >= 0 and tokens[at].low == ","


@lru_cache(maxsize=4096)
def _said_parts(text: str) -> tuple[tuple[int, int, frozenset[str], tuple[str, ...]], ...]:
    """The parts of a text that pair things up, each as (first, end, items, names): its figures
    ('f:', years left to the date rule) and telling words ('w:', a long stem by its first six
    letters) as items, its names apart, for the claims decide how a name is spelled. Kept once
    a text: a story cites the same claims from many passages."""
    clause = clause_of(text)
    parts = []
    for first, end in _pair_segments(clause):
        items = set()
        for token in clause.tokens[first:end]:
            if token.name:
                continue
            if token.kind == "number":
                if not _YEAR.fullmatch(token.low):  # a year, not '2,000'
                    items.add("f:" + _number_value(token))
            elif (
                token.content
                and token.stem not in LIGHT
                and token.low not in POLARITY
                and token.low not in _SPEECH
                and token.low not in NUMBER_WORDS
                and token.low not in MONTHS  # a date moved is the date rule's
            ):
                items.add("w:" + (token.stem[:6] if len(token.stem) >= 6 else token.stem))
        names = tuple(span for _, last, span in clause.names if first <= last < end)
        parts.append((first, end, frozenset(items), names))
    return tuple(parts)


@dataclass(frozen=True)
class _Part:
    """A part of a sentence or claim that pairs things up, and what it says as items."""

    clause: Clause
    label: str  # how a reason names the claim; '' for the paragraph
    first: int
    end: int
    items: frozenset[str]

    def quote(self) -> str:
        return _span(self.clause, self.first, self.end - 1)


def _parts(clauses: Sequence[tuple[Clause, str]], name_key: Callable[[str], str | None]) -> list[_Part]:
    return [
        _Part(clause, label, first, end, items | {"n:" + key for span in names if (key := name_key(span)) is not None})
        for clause, label in clauses
        for first, end, items, names in _said_parts(clause.text)
    ]


def _homes(parts: list[_Part]) -> dict[str, int]:
    """The one part that says each name or figure, for those said in one part only."""
    seen: dict[str, list[int]] = {}
    for number, part in enumerate(parts):
        for item in part.items:
            if item[0] in "nf":
                seen.setdefault(item, []).append(number)
    return {item: numbers[0] for item, numbers in seen.items() if len(numbers) == 1}


def pairing_swap_rule(sentences: Sequence[Clause], claims: Sequence[Cited]) -> list[str]:
    """Two things that swapped what is said of them: the claims pair A with X and B with Y,
    the paragraph A with Y and B with X. 'Loom scored 44.1% on SWE-Bench and 58.4% on
    TerminalBench' against '58.4% on SWE-Bench and 44.1% on TerminalBench'; 'Harbor led
    Meridian's round, while Arcadia headed Lumen's' against the reverse. A and B are names or
    figures each said in one part on each side; what moved must have left its side: a word the
    claims say of both, or the paragraph of both, is no exchange."""
    if sum(len(_said_parts(sentence.text)) for sentence in sentences) < 2:
        return []
    claim_names = {_compact(span) for cited in claims for _, _, span in cited.clause.names}
    real = set().union(*(real_names(cited.clause) for cited in claims))

    def name_key(span: str) -> str | None:
        """A name as the claims spell it ('Harbor Point' for 'Harbor Point Partners')."""
        compact = _compact(span)
        if compact in claim_names:
            return compact
        found = next((key for key in claim_names if len(key) > 3 and (key in compact or compact in key)), None)
        return found if found is not None else (compact if span in real else None)

    theirs = _parts([(cited.clause, cited.label) for cited in claims], name_key)
    if len(theirs) < 2:
        return []
    mine = _parts([(sentence, "") for sentence in sentences], name_key)
    mine_homes, their_homes = _homes(mine), _homes(theirs)
    # Two names or two figures: peers whose pairings can be exchanged. Peers said in the same
    # parts on both sides are tested once.
    homes = sorted({(item[0], home, their_homes[item]) for item, home in mine_homes.items() if item in their_homes})
    for (kind_a, mine_a, theirs_a), (kind_b, mine_b, theirs_b) in itertools.combinations(homes, 2):
        if mine_a == mine_b or theirs_a == theirs_b or kind_a != kind_b:
            continue
        said_a, said_b, claimed_a, claimed_b = mine[mine_a], mine[mine_b], theirs[theirs_a], theirs[theirs_b]
        moved_to_b = (claimed_a.items & said_b.items) - claimed_b.items - said_a.items
        moved_to_a = (claimed_b.items & said_a.items) - claimed_a.items - said_b.items
        if moved_to_b and moved_to_a:
            claimed = f"{claimed_a.label} says '{claimed_a.quote()}'"
            if claimed_b.clause is claimed_a.clause:
                claimed += f" and '{claimed_b.quote()}'"
            else:
                claimed += f"; {claimed_b.label} says '{claimed_b.quote()}'"
            return [f"entity swap: the paragraph says '{said_a.quote()}' and '{said_b.quote()}'; {claimed}"]
    return []
