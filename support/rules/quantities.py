"""The quantity rule (``quantity_rule``): units, bounds, shares, factors, ratios and
quantifiers against the claims'; and the value-direction rule (``value_direction_rule``): 'from A
to B' where a claim has the same values the other way round.

- **quantity**: percent against percentage points, 'more than' against 'less than', doubled
  against tripled, the fifth against the sixth, a unit by its symbol or its name ('GW',
  'gigawatts'), a factor in words against the one a claim states ('roughly double' for a 70%
  rise), a share in words against a claim's percentage, 'weeks of' against 'months of';
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Sequence
from decimal import ROUND_HALF_UP, Decimal
from functools import lru_cache

from .. import text as lex
from .quoting import Cited, _claim_says
from .words import _LOWER_BOUNDS, _MULTIPLIERS, _ORDINAL_WORDS, _UPPER_BOUNDS, POLARITY, _forms


def _unit(figure: lex.Figure) -> str:
    text = figure.text.lower()
    if "point" in text or text.endswith(("pp", "pts")):
        return "points"  # before percent: 'percentage points' holds 'percent'
    if "%" in text or "percent" in text or "per cent" in text:
        return "percent"
    return ""


# Words that give a bound away; 'up', 'to', 'at' alone are too common to say so.
_BOUND_WORDS = _forms("less fewer under below most nearly almost short more over above least exceeding upwards excess")


def _bound(text: str, start: int) -> tuple[int, str] | None:
    """+1 for a lower bound ('more than 200'), -1 for an upper one ('nearly 200'), and the words."""
    before = text[max(0, start - 30) : start].lower().split()
    for sign, phrases in ((1, _LOWER_BOUNDS), (-1, _UPPER_BOUNDS)):
        for phrase in sorted(phrases, key=len, reverse=True):
            if tuple(before[-len(phrase) :]) == phrase:
                return sign, " ".join(phrase)
    return None


@lru_cache(maxsize=4096)
def _lower_words(text: str) -> tuple[str, ...]:
    return tuple(re.findall(r"[a-z]+", text.lower()))


@lru_cache(maxsize=4096)
def _figures(text: str) -> tuple[lex.Figure, ...]:
    return tuple(lex.digit_figures(text))


_FRACTIONS = {
    "half": Decimal(50),
    "a third": Decimal("33.3"),
    "one third": Decimal("33.3"),
    "one-third": Decimal("33.3"),
    "two thirds": Decimal("66.7"),
    "two-thirds": Decimal("66.7"),
    "a quarter": Decimal(25),
    "one quarter": Decimal(25),
    "three quarters": Decimal(75),
    "three-quarters": Decimal(75),
    "a fifth": Decimal(20),
    "one fifth": Decimal(20),
    "a tenth": Decimal(10),
    "one tenth": Decimal(10),
}
# A share of something: 'a third of the staff', 'half those of its predecessor', 'half what it cost'.
_FRACTION = re.compile(
    r"\b(" + "|".join(sorted(_FRACTIONS, key=len, reverse=True)) + r")\b(?=\s+(?:of|those|that|what)\b)",
    re.IGNORECASE,
)
_VAGUE = {"dozens": 1, "hundreds": 2, "thousands": 3, "millions": 6, "billions": 9}
_VAGUE_WORD = re.compile(r"\b(?:(tens|hundreds)\s+of\s+)?(dozens|hundreds|thousands|millions|billions)\s+of\b", re.I)
_CURRENCIES = {"$": "dollar", "€": "euro", "£": "pound", "¥": "yen"}
_CURRENCY_WORDS = {"dollars": "dollar", "euros": "euro", "pounds": "pound", "yen": "yen", "yuan": "yuan"}
_RATE = re.compile(r"^\s*(?:a|an|per|each)\s+(hour|day|week|month|year|quarter|minute|second)\b", re.I)
# Units of measure, each written several ways ('GW', 'gigawatt', 'gigawatts'): a unit is
# compared by the name it stands for, so '250 GW' is a claim's '250 gigawatts'.
_UNIT_FORMS = {
    "kilometre": "kilometres kilometers kilometre kilometer km",
    "mile": "miles mile",
    "metre": "metres meters metre meter",
    "foot": "feet foot ft",
    "inch": "inches inch",
    "centimetre": "centimetres centimeters centimetre centimeter cm",
    "millimetre": "millimetres millimeters millimetre millimeter mm",
    "kilogram": "kilograms kilogram kg",
    "gram": "grams gram",
    "tonne": "tonnes tonne",
    "ton": "tons ton",
    "pound": "pounds pound lb lbs",
    "litre": "litres liters litre liter",
    "gallon": "gallons gallon",
    "hectare": "hectares hectare",
    "acre": "acres acre",
    "degree": "degrees degree",
    "celsius": "celsius",
    "fahrenheit": "fahrenheit",
    "hour": "hours hour",
    "minute": "minutes minute",
    "second": "seconds",
    "day": "days day",
    "week": "weeks week",
    "month": "months month",
    "year": "years year",
    "decade": "decades decade",
    "megawatt": "megawatts megawatt mw",
    "gigawatt": "gigawatts gigawatt gw",
    "kilowatt": "kilowatts kilowatt kw",
    "token": "tokens token",
    "parameter": "parameters parameter",
}
_MEASURES = {form: unit for unit, forms in _UNIT_FORMS.items() for form in forms.split()}


# How far (in points) a share in words may sit from a claim's percentage: plain and hedged.
SHARE_SLACK = 2
SHARE_SLACK_HEDGED = 4
_SHARE_HEDGE = re.compile(
    r"\b(?:nearly|almost|about|around|roughly|some|approximately|close to|just under|just over|more than|"
    r"over|under|less than|upwards of)\s+$",
    re.IGNORECASE,
)


@lru_cache(maxsize=4096)
def _shares(text: str) -> tuple[tuple[str, Decimal], ...]:
    """Shares a text states as words or ratios: 'a third of' (33.3), 'one in five' (20)."""
    found = [(match.group(1), _FRACTIONS[match.group(1).lower()]) for match in _FRACTION.finditer(text)]
    found += [
        (match.group(), Decimal(100) / _END_PARTS[match["part"].lower()])
        for match in _END_SHARE.finditer(text)
        if not _NOT_A_PERIOD_END.match(text, match.end())
    ]
    return tuple(found + [(match.group(), value) for match, value in lex.ratios(text)])


# 'the first tenth of training compute', 'the top fifth of earners': a share by its end.
_END_PARTS = {"half": Decimal(2), "third": Decimal(3), "quarter": Decimal(4), "fifth": Decimal(5), "tenth": Decimal(10)}
_END_SHARE = re.compile(
    r"\b(?:first|last|final|top|bottom)\s+(?P<part>half|third|quarter|fifth|tenth)(?=\s+of\b)", re.I
)
# '... quarter of 2025', 'half of the fiscal year': a period, the date rule's.
_NOT_A_PERIOD_END = re.compile(
    r"\s+of\s+(?:(?:the|its|their|this|last|next|that|current|coming|following|previous|same|new)\s+)*"
    r"(?:(?:19|20)\d\d|year|fiscal|financial|calendar|FY|season|decade|century)",
    re.IGNORECASE,
)


@lru_cache(maxsize=8192)
def _currency(text: str, figure: lex.Figure) -> str | None:
    if figure.text[:1] in _CURRENCIES:
        return _CURRENCIES[figure.text[0]]
    following = text[figure.start + len(figure.text) :].split()[:1]
    return _CURRENCY_WORDS.get(following[0].lower().strip(".,;")) if following else None


@lru_cache(maxsize=8192)
def _measure(text: str, figure: lex.Figure) -> str | None:
    after = text[figure.start + len(figure.text) :]
    rate = _RATE.match(after)
    if rate:
        return "a " + rate.group(1).lower()
    following = after.split()[:1]
    word = following[0].lower().strip(".,;") if following else ""
    return _MEASURES.get(word)


def _units_differ(passage: str, figure: lex.Figure, same_value: list[tuple[Cited, lex.Figure]]) -> str | None:
    """A reason when the claims give this value only in another currency, rate or measure."""
    for reading, label in ((_currency, "currency"), (_measure, "unit")):
        mine = reading(passage, figure)
        if mine is None:
            continue
        theirs = [(cited, other, reading(cited.clause.text, other)) for cited, other in same_value]
        if theirs and all(unit is not None and unit != mine for _, _, unit in theirs):
            cited, other, unit = theirs[0]
            return (
                f"quantity: the paragraph says '{figure}' in {mine}; {cited.label} says '{other}' in {unit} ({label})"
            )
    return None


# A figure counting things: '2.4 turns', '310 tickets' (a plural noun right after it).
_COUNTED_AFTER = re.compile(r"\s+([a-z]+s)\b")
_PER_WHOLE = re.compile(r"\s+(?:of|in|out\s+of)\s+(?:every|each|a|an)\b", re.IGNORECASE)


def _share_as_count(passage: str, figure: lex.Figure, same_value: list[tuple[Cited, lex.Figure]]) -> str | None:
    """'fell from 9.1 to 2.4 turns' where the claims give 9.1% and 2.4%: a share is no count of
    things."""
    if _unit(figure) or figure.text[:1] in _CURRENCIES:
        return None
    counted = _COUNTED_AFTER.match(passage, figure.start + len(figure.text))
    if not counted or counted.group(1) in lex.STOPWORDS or counted.group(1) in _MEASURES:
        return None
    if _PER_WHOLE.match(passage, counted.end()):
        return None  # '85 cents of every dollar', '3 tasks in every 10': a share by its parts
    if all(_unit(other) == "percent" for _, other in same_value):
        cited, other = same_value[0]
        return f"quantity: the paragraph says '{figure} {counted.group(1)}'; {cited.label} says '{other}' (a share)"
    return None


@lru_cache(maxsize=8192)
def _change_of(text: str, figure: lex.Figure) -> str | None:
    """'to' for a level reached ('rose to 5%'), 'by' for a change ('rose by 5%'), None
    otherwise."""
    before = text[max(0, figure.start - 40) : figure.start].split()[-2:]
    if not before:
        return None
    last = before[-1].lower()
    if last == "to" and len(before) == 2 and before[0].lower() in POLARITY:
        return "to"
    if last == "by" and len(before) == 2 and before[0].lower() in POLARITY:
        return "by"
    return None  # 'rose 3.4%' may give a change or, for a rate, a level: not read


def _by_or_to(passage: str, figure: lex.Figure, same_value: list[tuple[Cited, lex.Figure]]) -> str | None:
    """'rose to 5%' is not 'rose 5%': a level reached against a change by that much."""
    mine = _change_of(passage, figure)
    if mine is None:
        return None
    theirs = [(cited, other, _change_of(cited.clause.text, other)) for cited, other in same_value]
    if all(change is not None and change != mine for _, _, change in theirs):
        cited, other, change = theirs[0]
        return f"quantity: the paragraph says '{mine} {figure}'; {cited.label} says '{change} {other}'"
    return None


def _share_of(text: str, share: str) -> str | None:
    """The stem of what a share is of: 'a third of the staff' -> 'staff', 'of the teacher's
    accuracy' -> 'accuracy'."""
    # 'a 19% share of the global market' is 19% of it.
    pattern = re.escape(share) + r"(?:\s+share)?\s+of\s+(?:the\s+|its\s+|their\s+)?([A-Za-z]+)('s)?(?:\s+([A-Za-z]+))?"
    match = re.search(pattern, text)
    if not match:
        return None
    word = match.group(3) if match.group(2) and match.group(3) else match.group(1)
    if word.lower() in _PRONOUN_WHOLES:
        return _ANY_WHOLE  # 'a third of them': of whatever the claims count
    return lex.stem(word.lower())


# Words that stand for what a sentence before counted: 'about a third of them'.
_PRONOUN_WHOLES = frozenset(["them", "those", "these", "it", "that", "this"])
_ANY_WHOLE = "*"


# Words without which a passage states no factor or share in words: a cheap test first.
_FACTOR_WORDS = frozenset(_MULTIPLIERS) | {"half", "third", "quarter", "quarters", "thirds", "fifth", "tenth"}
# A share reached or held, in words: 'fell to about a quarter', 'stood at a third'.
_LEVEL_SHARE = re.compile(
    r"\b(?:to|at)\s+(?P<hedge>(?:nearly|almost|about|around|roughly|some|approximately|just\s+under|just\s+over|"
    r"more\s+than|over|under|less\s+than)\s+)?(?P<share>"
    + "|".join(sorted(_FRACTIONS, key=len, reverse=True))
    + r")\b(?!\s+of\b)",
    re.IGNORECASE,
)
_LEVEL_BEFORE = re.compile(r"\b(?:to|at)\s+(?:[a-z]+\s+)?$", re.IGNORECASE)


# A span given by its unit alone: 'after months of pressure' is not 'after weeks of pressure'.
_VAGUE_SPAN = re.compile(
    r"\b(?:(?:several|many|a\s+few|few)\s+)?(minutes|hours|days|weeks|months|years|decades)\s+of\b", re.I
)


_SPAN_UNITS = frozenset(["minutes", "hours", "days", "weeks", "months", "years", "decades"])
_COUNTED_SPAN = re.compile(
    r"\b(?:two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|several|many|few)\s+"
    r"(minutes|hours|days|weeks|months|years|decades)\b",
    re.IGNORECASE,
)


def _vague_span_reasons(passage: str, claims: Sequence[Cited]) -> list[str]:
    if _SPAN_UNITS.isdisjoint(_lower_words(passage)):
        return []
    mine = [(match.group(), match.group(1).lower()) for match in _VAGUE_SPAN.finditer(passage)]
    if not mine:
        return []
    theirs = [
        (cited, match.group(), match.group(1).lower())
        for cited in claims
        for match in _VAGUE_SPAN.finditer(cited.clause.text)
    ]
    # A claim's '3 years' backs 'years of work'.
    counted = {_measure(cited.clause.text, figure) for cited in claims for figure in _figures(cited.clause.text)} | {
        _MEASURES.get(match.group(1).lower()) for cited in claims for match in _COUNTED_SPAN.finditer(cited.clause.text)
    }
    reasons = []
    for text, unit in mine:
        if _MEASURES.get(unit, unit) in counted:
            continue
        if theirs and all(other != unit for _, _, other in theirs):
            cited, other_text, _ = theirs[0]
            reasons.append(f"quantity: the paragraph says '{text}'; {cited.label} says '{other_text}'")
    return reasons


def _level_share_reasons(passage: str, claims: Sequence[Cited]) -> list[str]:
    """'dropped to about a quarter' where the claims say it fell to 34.4%."""
    reasons: list[str] = []
    if _FACTOR_WORDS.isdisjoint(_lower_words(passage)):
        return reasons
    for match in _LEVEL_SHARE.finditer(passage):
        value = _FRACTIONS[match["share"].lower()]
        levels = [
            (cited, figure)
            for cited in claims
            for figure in _figures(cited.clause.text)
            if _unit(figure) == "percent"
            and _LEVEL_BEFORE.search(cited.clause.text[max(0, figure.start - 20) : figure.start])
        ]
        slack = SHARE_SLACK_HEDGED if match["hedge"] else SHARE_SLACK
        if levels and all(abs(value - figure.value) > slack for _, figure in levels):
            cited, figure = levels[0]
            reasons.append(f"quantity: the paragraph says '{match.group()}'; {cited.label} says 'to {figure}'")
    return reasons


_SHARE_BELOW = ("nearly", "almost", "close", "just under", "under", "less")
_SHARE_ABOVE = ("just over", "more", "over", "upwards")


def _share_fits(hedge: str, share: Decimal, percent: Decimal, slack: Decimal | int) -> bool:
    """Whether a claim's percentage is a share in words as its hedge puts it. A bound ('nearly
    half', 'just over a third') is met on its own side only, up to a tenth of the share or the
    hedged slack, whichever is more: 'nearly half' is 45%, not 52%; 'just over half' is no 46%."""
    hedge = " ".join(hedge.lower().split())
    reach = max(share / 10, Decimal(slack))
    if hedge.startswith(_SHARE_BELOW):
        return share - reach <= percent <= share
    if hedge.startswith(_SHARE_ABOVE):
        return share <= percent <= share + reach
    return abs(share - percent) <= slack


def _share_reasons(passage: str, claims: Sequence[Cited]) -> list[str]:
    """'a quarter of the staff' where the claims give a third; 'hundreds' where they say thousands."""
    reasons = []
    mine = _shares(passage)
    if mine:
        theirs = [(cited, text, value) for cited in claims for text, value in _shares(cited.clause.text)]
        percents = [
            (cited, figure) for cited in claims for figure in _figures(cited.clause.text) if _unit(figure) == "percent"
        ]
        for text, value in mine:
            # A hedged share ('nearly two-thirds', 'about a quarter') may round a claim's figure.
            hedge = _SHARE_HEDGE.search(passage[: passage.find(text)])
            slack = SHARE_SLACK_HEDGED if hedge else SHARE_SLACK
            if any(abs(value - other) <= slack for _, _, other in theirs) or any(
                _share_fits(hedge.group() if hedge else "", value, figure.value, slack) for _, figure in percents
            ):
                continue
            # A claim's percentage is the same share only when it is of the same thing.
            whole = _share_of(passage, text)
            percents = [
                (c, f)
                for c, f in percents
                if whole and (whole == _ANY_WHOLE or _share_of(c.clause.text, f.text) == whole)
            ]
            if theirs:
                cited, other, _ = theirs[0]
                reasons.append(f"quantity: the paragraph says '{text}'; {cited.label} says '{other}'")
            elif percents:
                cited, figure = percents[0]
                reasons.append(f"quantity: the paragraph says '{text}'; {cited.label} says '{figure}'")
    reasons += _level_share_reasons(passage, claims)
    reasons += _vague_span_reasons(passage, claims)
    vague = [
        (match.group(), _VAGUE[match.group(2).lower()] + (1 if match.group(1) else 0))
        for match in _VAGUE_WORD.finditer(passage)
    ]
    for text, magnitude in vague:
        others = [
            (cited, match.group(), _VAGUE[match.group(2).lower()] + (1 if match.group(1) else 0))
            for cited in claims
            for match in _VAGUE_WORD.finditer(cited.clause.text)
        ]
        if others and all(other != magnitude for _, _, other in others):
            cited, other, _ = others[0]
            reasons.append(f"quantity: the paragraph says '{text}'; {cited.label} says '{other}'")
    return reasons


# How far a hedged figure may sit from the claim's it rounds ('nearly 5' for 4.97), as a share.
_HEDGED_ROUNDING = Decimal("0.05")
_ROUNDING_HEDGE = re.compile(
    r"\b(?:about|around|roughly|approximately|some|nearly|almost|close\s+to|just\s+(?:under|over)|more\s+than|"
    r"over|under|less\s+than|upwards\s+of)\s+$",
    re.IGNORECASE,
)


def _rounded_from(
    passage: str, figure: lex.Figure, claim_figures: list[tuple[Cited, lex.Figure]]
) -> list[tuple[Cited, lex.Figure]]:
    """The claims' figures a passage figure rounds: to its own precision ('5.0' for 4.97), or
    hedged, within a twentieth ('nearly 5' for 4.97)."""
    quantum = Decimal(1).scaleb(figure.value.normalize().as_tuple().exponent)
    hedged = bool(_ROUNDING_HEDGE.search(passage[max(0, figure.start - 20) : figure.start]))
    return [
        (cited, other)
        for cited, other in claim_figures
        if other.value
        and abs(other.value - figure.value) <= max(quantum / 2, other.value * _HEDGED_ROUNDING if hedged else 0)
    ]


def quantity_rule(passage: str, claims: Sequence[Cited]) -> list[str]:
    reasons = _share_reasons(passage, claims)
    claim_figures = [(cited, figure) for cited in claims for figure in _figures(cited.clause.text)]
    bounded = not _BOUND_WORDS.isdisjoint(passage.lower().split())
    by_value: dict[Decimal, list[tuple[Cited, lex.Figure]]] = {}
    for cited, other in claim_figures:
        by_value.setdefault(other.value, []).append((cited, other))
    for figure in _figures(passage):
        same_value = by_value.get(figure.value, [])
        if not same_value:
            # A rounded figure keeps its unit: 'nearly 5 percent' is no rounding of 4.97 points.
            rounded = _rounded_from(passage, figure, claim_figures)
            unit = _unit(figure)
            if unit and rounded and all(_unit(other) and _unit(other) != unit for _, other in rounded):
                cited, other = rounded[0]
                reasons.append(
                    f"quantity: the paragraph says '{figure}' ({unit}); {cited.label} says '{other}' "
                    f"({_unit(other)}): a percentage point is not a percent"
                )
            continue  # otherwise the figure rule reports it
        differ = (
            _units_differ(passage, figure, same_value)
            or _by_or_to(passage, figure, same_value)
            or _share_as_count(passage, figure, same_value)
        )
        if differ:
            reasons.append(differ)
            continue
        if not bounded and not _unit(figure):
            continue
        unit = _unit(figure)
        if unit and all(_unit(other) and _unit(other) != unit for _, other in same_value):
            cited, other = same_value[0]
            reasons.append(
                f"quantity: the paragraph says '{figure}' ({unit}); {cited.label} says '{other}' ({_unit(other)}): "
                "a percentage point is not a percent"
            )
            continue
        bound = _bound(passage, figure.start) if bounded else None
        if bound is None:
            continue
        for cited, other in same_value:
            other_bound = _bound(cited.clause.text, other.start)
            if other_bound and other_bound[0] != bound[0]:
                reasons.append(
                    f"quantity: the paragraph says '{bound[1]} {figure}'; {cited.label} says '{other_bound[1]} {other}'"
                )
                break
    # Multipliers: 'doubled' against 'tripled'.
    passage_words = _lower_words(passage)
    claim_multipliers = [
        (cited, word, _MULTIPLIERS[word])
        for cited in claims
        for word in _lower_words(cited.clause.text)
        if word in _MULTIPLIERS
    ]
    claim_values = {figure.value for _, figure in claim_figures}
    for word in passage_words:
        if word not in _MULTIPLIERS:
            continue
        value = _MULTIPLIERS[word]
        if any(other == value for _, _, other in claim_multipliers) or value in claim_values:
            continue
        if claim_multipliers:
            cited, other_word, _ = claim_multipliers[0]
            reasons.append(f"quantity: the paragraph says '{word}'; {cited.label} says '{other_word}'")
    if not claim_multipliers:
        reasons += _factor_reasons(passage, claims)
    reasons += _one_unit_reasons(passage, claims)
    reasons += _ratio_part_reasons(passage, claims)
    reasons += _points_as_percent_reasons(passage, claims, claim_values)
    reasons += _level_against_cut_reasons(passage, claims)
    reasons += _quantifier_reasons(passage, claims)
    # Ordinals: 'the fifth month' against 'the sixth month'.
    if _ORDINAL_WORDS.keys().isdisjoint(passage_words):
        return list(dict.fromkeys(reasons))
    for match in re.finditer(r"\b(" + "|".join(_ORDINAL_WORDS) + r")\b", passage, re.IGNORECASE):
        word = match.group().lower()
        value = _ORDINAL_WORDS[word]
        if value <= 2 or re.match(r"[\s-]+(quarter|half)\b", passage[match.end() :], re.IGNORECASE):
            continue
        offered = [
            (cited, other.group().lower())
            for cited in claims
            for other in re.finditer(r"\b(" + "|".join(_ORDINAL_WORDS) + r")\b", cited.clause.text, re.IGNORECASE)
            if _ORDINAL_WORDS[other.group().lower()] > 2
        ]
        if any(_ORDINAL_WORDS[other] == value for _, other in offered) or Decimal(value) in claim_values:
            continue
        if offered:
            cited, other = offered[0]
            reasons.append(f"quantity: the paragraph says '{match.group()}'; {cited.label} says '{other}'")
    return list(dict.fromkeys(reasons))


# A multiplier in words ('roughly doubled', 'cut nearly in half') against the factor a claim
# gives ('a 70% increase', '2.1 times', 'by 38%'): plainly within this share of it, hedged
# within twice that.
FACTOR_TOLERANCE = Decimal("0.05")
_MULTIPLIER_WORD = re.compile(
    r"\b(?:(?P<hedge>roughly|about|around|nearly|almost|approximately|some|close\s+to|more\s+than|over|"
    r"less\s+than|under)\s+)?(?P<word>" + "|".join(sorted(_MULTIPLIERS, key=len, reverse=True)) + r"|in\s+half)\b"
    # 'double-digit', 'twice a year' say no factor
    r"(?![\s-]+(?:digits?|a\s+(?:day|week|month|year)|daily|weekly|monthly|yearly)\b)",
    re.IGNORECASE,
)
_TIMES_FIGURE = re.compile(r"(\d+(?:\.\d+)?)\s*(?:times\b|x\b|\u00d7|-?fold\b)", re.IGNORECASE)
# A percentage that is a change: 'rose 20%', 'up 34% from', 'a 12% increase', '40% cheaper'.
_CHANGE_BEFORE = re.compile(
    r"\b(?:by|up|down|rose|fell|grew|increased|decreased|cut|reduced|jumped|climbed|dropped|declined|gained|lost|"
    r"surged|slipped)\s+$",
    re.IGNORECASE,
)
_CHANGE_AFTER = re.compile(
    r"\s+(?:increase|rise|jump|gain|growth|decrease|drop|fall|decline|reduction|cut|more|less|higher|lower|"
    r"fewer|up|down|faster|slower|cheaper|improvement|boost)\b",
    re.IGNORECASE,
)


def is_change(text: str, figure: lex.Figure) -> bool:
    """Whether a percentage in ``text`` is a change of something rather than a level or share."""
    return bool(
        _CHANGE_BEFORE.search(text[max(0, figure.start - 12) : figure.start])
        or _CHANGE_AFTER.match(text, figure.start + len(figure.text))
    )


def _stated_factors(text: str) -> list[tuple[str, Decimal]]:
    """Factors a claim states: '2.1 times', a change in percent ('a 70% increase': 1.7; 'cut
    by 38%': 0.62), and a change in points to a level ('rose 10 points to 30%': 1.5), each with
    its words."""
    found = [(match.group(), Decimal(match.group(1))) for match in _TIMES_FIGURE.finditer(text)]
    # 'reduced training time by 2.1x', '2x faster': the time is 1/2.1 of what it was.
    found += [(written, 1 / factor) for written, factor in found if factor]
    for match in _PERCENT_FROM_TO.finditer(text):
        before, after = Decimal(match["before"]), Decimal(match["after"])
        if before and after:
            found.append((match.group(), after / before))  # 'from 46% to 89%': 1.9 times the level
    for match in _POINTS_TO_LEVEL.finditer(text):
        change, level = Decimal(match["change"]), Decimal(match["level"])
        if level > change:
            found.append((match.group(), level / (level - change)))
        found.append((match.group(), level / (level + change)))
    for figure in _figures(text):
        if _unit(figure) != "percent":
            continue
        if is_change(text, figure):
            found += [(figure.text, 1 + figure.value / 100), (figure.text, 1 - figure.value / 100)]
    return found


_PERCENT_FROM_TO = re.compile(
    r"\bfrom\s+(?P<before>\d+(?:\.\d+)?)\s*(?:%|percent)\s+to\s+(?P<after>\d+(?:\.\d+)?)\s*(?:%|percent)", re.I
)
_POINTS_TO_LEVEL = re.compile(
    r"(?P<change>\d+(?:\.\d+)?)\s*(?:percentage\s+points?|points?|pp)\s+to\s+(?P<level>\d+(?:\.\d+)?)\s*(?:%|percent)",
    re.IGNORECASE,
)
# 'rose by a third', 'fell by half': a change stated as a share of the level before.
_CHANGE_BY_SHARE = re.compile(
    r"\b(?:rose|grew|increased|climbed|jumped|fell|dropped|declined|decreased|shrank|cut|reduced|up|down)\s+by\s+"
    r"(?P<hedge>(?:nearly|almost|about|around|roughly|some|more\s+than|over|less\s+than|under)\s+)?(?P<share>"
    + "|".join(sorted(_FRACTIONS, key=len, reverse=True))
    + r")\b(?!\s+of\b)",
    re.IGNORECASE,
)


# 'shaved nearly half off the time', 'took a third off': a cut by that share of the whole.
_SHARE_OFF = re.compile(
    r"\b(?P<hedge>(?:nearly|almost|about|around|roughly|some|more\s+than|over|less\s+than|under)\s+)?(?P<share>"
    + "|".join(sorted(_FRACTIONS, key=len, reverse=True))
    + r")\s+off\b",
    re.IGNORECASE,
)


def _pair_factors(text: str) -> set[Decimal]:
    """How many times one figure of a claim is another ('to around 40 GW from 21 GW': 1.9)."""
    values = [figure.value for figure in _figures(text) if figure.value and _unit(figure) != "percent"]
    return {second / first for first in values for second in values if first != second}


# 'from 32,000 a year earlier', 'compared with 29', 'up from 12': a claim's two figures as a
# level and the one it is set against.
_AGAINST = re.compile(
    r"\b(?:from|compared\s+(?:with|to)|against|versus|vs\.?)\s+(?:just\s+|only\s+)?[$€£]?(?!(?:19|20)\d\d\b)\d", re.I
)


_YEAR_FIGURE = re.compile(r"(?:18|19|20|21)\d\d")


def _before_and_after(text: str) -> bool:
    """Whether a claim sets one count against another, so a multiplier in words is its ratio."""
    counts = [
        figure
        for figure in _figures(text)
        if figure.value and _unit(figure) != "percent" and not _YEAR_FIGURE.fullmatch(figure.text)
    ]
    return 2 <= len(counts) <= 4 and bool(_AGAINST.search(text))


def _passage_factors(passage: str) -> list[tuple[re.Match, list[Decimal]]]:
    """Factors a passage states in words: 'roughly doubled' (2), 'cut in half' (0.5), 'rose by a
    third' (4/3, or 2/3 had it fallen)."""
    found: list[tuple[re.Match, list[Decimal]]] = []
    if _FACTOR_WORDS.isdisjoint(_lower_words(passage)):
        return found  # most passages: a set lookup instead of the patterns below
    for match in _MULTIPLIER_WORD.finditer(passage):
        word = match["word"].lower()
        found.append((match, [Decimal("0.5") if word.startswith("in") else Decimal(_MULTIPLIERS[word])]))
    for match in _CHANGE_BY_SHARE.finditer(passage):
        share = _FRACTIONS[match["share"].lower()] / 100
        found.append((match, [1 + share, 1 - share]))
    for match in _SHARE_OFF.finditer(passage):
        found.append((match, [1 - _FRACTIONS[match["share"].lower()] / 100]))
    return found


_ABOVE_HEDGES = frozenset(["more than", "over"])


def _factor_fits(value: Decimal, factor: Decimal, hedge: str | None) -> bool:
    """Whether a claim's factor is what a multiplier in words says. A plain or rounding word
    ('roughly doubled') is within FACTOR_TOLERANCE (twice that hedged); a bound ('more than
    doubled') holds up to the next whole multiplier: 2.2 times, not 3; 'more than halves' is a
    cut below a half, not below a third."""
    word = " ".join(hedge.lower().split()) if hedge else ""
    tolerance = FACTOR_TOLERANCE * (2 if word else 1)
    if abs(factor - value) <= value * tolerance:
        return True
    if word not in _ABOVE_HEDGES:
        return False
    if value >= 1:
        return value < factor < value + 1
    return 1 / (1 / value + 1) < factor < value  # a cut: 'more than halves' is 0.33 to 0.5


def _factor_reasons(passage: str, claims: Sequence[Cited]) -> list[str]:
    return [
        f"quantity: the paragraph says '{match.group()}'; {said}"
        for match, fits, said in _factor_readings(passage, claims)
        if not fits
    ]


def backed_factor_words(passage: str, claims: Sequence[Cited]) -> set[str]:
    """Stems of a multiplier's words the claims' figures give ('grew roughly sixfold' for $2.3
    billion to $13.8 billion): the change is backed, so are the words that state it. A
    comparison ('twice as many diamonds') is not: what it compares is the other rules' to read."""
    return {
        lex.stem(word)
        for match, fits, _ in _factor_readings(passage, claims)
        if fits and (match.groupdict().get("word") or "").lower() not in _COMPARING_MULTIPLIERS
        for word in lex.words(match.group())
    }


_COMPARING_MULTIPLIERS = frozenset(["twice", "double", "triple", "quadruple"])


def _factor_readings(passage: str, claims: Sequence[Cited]) -> list[tuple[re.Match, bool, str]]:
    """Each multiplier in words the passage states that the claims can be held to: whether the
    claims' figures give it, and what they give."""
    readings: list[tuple[re.Match, bool, str]] = []
    factors = _passage_factors(passage)
    if not factors:
        return readings
    # One claim may give the level and another the one it is set against: '2.3 billion in
    # October' and 'up from 1.1 billion in July' are a before and after as one claim's are.
    pooled = "\n".join(cited.clause.text for cited in claims)
    for match, values in factors:
        stated = [
            (_claim_says(cited, text), factor)
            for cited in claims
            for text, factor in _stated_factors(cited.clause.text)
        ]
        pairs = {factor for cited in claims for factor in _pair_factors(cited.clause.text)}
        if len(claims) > 1:
            pairs |= _pair_factors(pooled)
        if not stated:
            # No factor stated, but a before and after: 'tripled' against 58 and 29 (2 times).
            befores = [cited for cited in claims if _before_and_after(cited.clause.text)]
            if befores:
                stated = [(_claim_says(befores[0], _figures_written(befores[0].clause.text)), Decimal(0))]
            elif len(claims) > 1 and _before_and_after(pooled):
                said = [cited for cited in claims if _figures(cited.clause.text)]
                labels = ", ".join(cited.label for cited in said[:-1]) + " and " + said[-1].label
                stated = [(f"{labels} give '{_figures_written(pooled)}'", Decimal(0))]
            else:
                continue
        candidates = {factor for _, factor in stated if factor} | pairs
        fits = any(_factor_fits(value, factor, match["hedge"]) for factor in candidates for value in values)
        readings.append((match, fits, stated[0][0]))
    return readings


def _figures_written(text: str) -> str:
    """A claim's amounts as it writes them, for a reason: '58 and 29', without its years."""
    written = [str(figure) for figure in _figures(text) if not _YEAR_FIGURE.fullmatch(figure.text)]
    return ", ".join(written[:-1]) + " and " + written[-1] if len(written) > 1 else "".join(written)


# 'under a second', 'more than a year': a bound on one of a unit.
_ONE_UNIT = re.compile(
    r"\b(?P<bound>less\s+than|under|below|at\s+most|within|more\s+than|over|above|at\s+least)\s+(?:a|an|one)\s+"
    r"(?P<unit>second|minute|hour|day|week|month|year)\b",
    re.IGNORECASE,
)
_UPPER_WORDS = ("less", "under", "below", "at most", "within")
_ONE_UNIT_WORDS = frozenset(["second", "minute", "hour", "day", "week", "month", "year"])


def _one_unit_reasons(passage: str, claims: Sequence[Cited]) -> list[str]:
    """'to under a second' where every claim's figure in seconds is above one."""
    reasons: list[str] = []
    if _ONE_UNIT_WORDS.isdisjoint(_lower_words(passage)):
        return reasons
    for match in _ONE_UNIT.finditer(passage):
        unit = match["unit"].lower()
        upper = match["bound"].lower().startswith(_UPPER_WORDS)
        same_unit = [
            (cited, figure)
            for cited in claims
            for figure in _figures(cited.clause.text)
            if _measure(cited.clause.text, figure) == unit and not _unit(figure)
        ]
        if same_unit and all((figure.value > 1) if upper else (figure.value < 1) for _, figure in same_unit):
            cited, figure = same_unit[-1]
            reasons.append(f"quantity: the paragraph says '{match.group()}'; {cited.label} says '{figure} {unit}s'")
    return reasons


@lru_cache(maxsize=4096)
def _ratios(text: str) -> tuple[tuple[re.Match, Decimal], ...]:
    return tuple(lex.ratios(text))


def _ratio_part_reasons(passage: str, claims: Sequence[Cited]) -> list[str]:
    """'12%' where a claim's 12 is the whole of a ratio ('1 in 12', 8.3%)."""
    reasons: list[str] = []
    if not any(_ratios(cited.clause.text) for cited in claims):
        return reasons
    for figure in _figures(passage):
        if _unit(figure) != "percent":
            continue
        for cited in claims:
            text = cited.clause.text
            ratios = _ratios(text)
            if not ratios:
                continue
            same = [other for other in _figures(text) if other.value == figure.value]
            in_ratio = [
                (match, share)
                for match, share in ratios
                for other in same
                if match.start() <= other.start < match.end() and abs(share - figure.value) > 1
            ]
            if same and len(in_ratio) == len(same):
                match, share = in_ratio[0]
                reasons.append(
                    f"quantity: the paragraph says '{figure}'; {cited.label} says '{match.group()}' ({share:.1f}%)"
                )
    return reasons


# 'took 40% fewer labels' is not 'took 40% as many': a cut by a share against the level left.
_CUT_WORDS = re.compile(r"\s+(?:fewer|less|lower|smaller|cheaper|shorter)\b", re.IGNORECASE)
_LEVEL_WORDS = re.compile(r"\s+as\s+(?:many|much|long|large)\b", re.IGNORECASE)


def _level_against_cut_reasons(passage: str, claims: Sequence[Cited]) -> list[str]:
    reasons: list[str] = []
    if " as " not in passage and " as " not in " ".join(cited.clause.text for cited in claims):
        return reasons
    for figure in _figures(passage):
        if _unit(figure) != "percent":
            continue
        end = figure.start + len(figure.text)
        mine = "level" if _LEVEL_WORDS.match(passage, end) else "cut" if _CUT_WORDS.match(passage, end) else None
        if mine is None:
            continue
        for cited in claims:
            text = cited.clause.text
            for other in _figures(text):
                if other.value != figure.value or _unit(other) != "percent":
                    continue
                after = other.start + len(other.text)
                theirs = (
                    "level" if _LEVEL_WORDS.match(text, after) else "cut" if _CUT_WORDS.match(text, after) else None
                )
                if theirs and theirs != mine:
                    said = (_LEVEL_WORDS.match(passage, end) or _CUT_WORDS.match(passage, end)).group()
                    given = (_LEVEL_WORDS.match(text, after) or _CUT_WORDS.match(text, after)).group()
                    reasons.append(
                        f"quantity: the paragraph says '{figure}{said}'; {cited.label} says '{other}{given}'"
                    )
    return reasons


# 'most of them', 'a majority of', 'a minority of': a share in a word, with the shares it allows.
_QUANTIFIER = re.compile(
    r"\b(?P<word>most|a\s+majority|the\s+majority|a\s+minority|nearly\s+all|almost\s+all)\s+of\b", re.IGNORECASE
)
_QUANTIFIER_RANGES = {
    "most": (Decimal(50), Decimal(100)),
    "a majority": (Decimal(50), Decimal(100)),
    "the majority": (Decimal(50), Decimal(100)),
    "a minority": (Decimal(0), Decimal(50)),
    "nearly all": (Decimal(85), Decimal(100)),
    "almost all": (Decimal(85), Decimal(100)),
}
# 'including 6,000 paid deals', '6,000 of them', '58 of 120': a part of a count a claim gives.
_PART_OF = re.compile(r"\b(?:including|of\s+which|of\s+whom)\s+(?:just\s+|only\s+|some\s+)?(?P<part>\d[\d,]*)\b", re.I)
_PART_OF_WHOLE = re.compile(r"\b(?P<part>\d[\d,]*)\s+(?:of|out\s+of)\s+(?:the\s+|its\s+)?(?P<whole>\d[\d,]*)\b")


def _claim_parts(text: str) -> list[tuple[str, Decimal]]:
    """Shares a claim gives as a part of a count: 'more than 12,500 deals, including 6,000 paid'
    (48%), '58 of 120 tasks' (48%)."""
    found = []
    counts = [figure.value for figure in _figures(text) if figure.value and not _unit(figure)]
    for match in _PART_OF.finditer(text):
        part = Decimal(match["part"].replace(",", ""))
        wholes = [value for value in counts if value > part]
        if part and wholes:
            found.append((match.group(), part * 100 / max(wholes)))
    for match in _PART_OF_WHOLE.finditer(text):
        part, whole = (Decimal(match[key].replace(",", "")) for key in ("part", "whole"))
        if whole and part < whole and not _YEAR_FIGURE.fullmatch(match["whole"]):
            found.append((match.group(), part * 100 / whole))
    return found


def _quantifier_reasons(passage: str, claims: Sequence[Cited]) -> list[str]:
    """'most of them paid' where a claim gives 6,000 paid of more than 12,500: 'most' is more
    than half."""
    reasons: list[str] = []
    if "most" not in passage and "majority" not in passage and "minority" not in passage and " all " not in passage:
        return reasons
    for match in _QUANTIFIER.finditer(passage):
        low, high = _QUANTIFIER_RANGES[" ".join(match["word"].lower().split())]
        given = [(cited, text, share) for cited in claims for text, share in _claim_parts(cited.clause.text)]
        given += [
            (cited, figure.text, figure.value)
            for cited in claims
            for figure in _figures(cited.clause.text)
            if _unit(figure) == "percent" and cited.clause.text.startswith(" of", figure.start + len(figure.text))
        ]
        if given and not any(low < share <= high for _, _, share in given):
            cited, text, share = given[0]
            reasons.append(
                f"quantity: the paragraph says '{match.group()}'; {cited.label} says '{text}' ({share:.0f}%)"
            )
    return reasons


def _points_as_percent_reasons(passage: str, claims: Sequence[Cited], claim_values: set[Decimal]) -> list[str]:
    """'rose by 5.8 percent' where a claim has it rise from 68.5% to 74.3%: the gap between two
    percentages is in percentage points; in percent the rise is 8.5%. The two percentages may
    be in two claims ('A scored 46%', 'B scored 36%': B trails by 10 points, not 10%)."""
    reasons: list[str] = []
    for figure in _figures(passage):
        if _unit(figure) != "percent" or figure.value in claim_values:
            continue
        quantum = Decimal(1).scaleb(min(figure.value.normalize().as_tuple().exponent, 0))
        if any(abs(value - figure.value) <= quantum / 2 for value in claim_values):
            continue  # 'about 5%' rounds a claim's own 5.07%
        for (first_claim, first), (second_claim, second) in _percent_pairs(claims):
            gap = abs(second.value - first.value)
            relative = {gap * 100 / first.value, gap * 100 / second.value}
            if gap.quantize(quantum) != figure.value or any(
                change.quantize(quantum, rounding=ROUND_HALF_UP) == figure.value for change in relative
            ):
                continue
            where = f"{first_claim.label} says '{first}' and " + (
                f"'{second}'" if second_claim is first_claim else f"{second_claim.label} '{second}'"
            )
            reasons.append(
                f"quantity: the paragraph says '{figure}'; {where}, {gap.normalize()} percentage points apart: "
                "a percentage point is not a percent"
            )
    return list(dict.fromkeys(reasons))


# More percentages than this, in a claim or in the claims together, are a table of shares, not
# a before and after.
_MOST_PERCENTS_FOR_GAPS = 4


def _percent_pairs(claims: Sequence[Cited]) -> list[tuple[tuple[Cited, lex.Figure], tuple[Cited, lex.Figure]]]:
    """Pairs of percentages whose gap is a change in points: two of one claim, or of two claims."""
    percents = [
        [(cited, other) for other in _figures(cited.clause.text) if _unit(other) == "percent" and other.value]
        for cited in claims
    ]
    pairs = [
        pair for group in percents if len(group) <= _MOST_PERCENTS_FOR_GAPS for pair in itertools.combinations(group, 2)
    ]
    pooled = [item for group in percents for item in group]
    if len(pooled) <= _MOST_PERCENTS_FOR_GAPS:
        pairs += [(first, second) for first, second in itertools.combinations(pooled, 2) if first[0] is not second[0]]
    return pairs


# Movements by value ------------------------------------------------------------------------


_FIGURE_TEXT = r"[$€£¥]?\d[\d,]*(?:\.\d+)?\s?(?:%|percent|per cent)?"
_FROM_TO = re.compile(rf"\bfrom\s+({_FIGURE_TEXT})\s+to\s+({_FIGURE_TEXT})", re.IGNORECASE)
_TO_FROM = re.compile(
    rf"\b(?:to|at|reaching|hitting)\s+({_FIGURE_TEXT})[^.;:]{{0,40}}?\bfrom\s+({_FIGURE_TEXT})", re.IGNORECASE
)


@lru_cache(maxsize=4096)
def _value_moves(text: str) -> tuple[tuple[Decimal, Decimal, str], ...]:
    """Each 'from A to B' (or 'to B from A') of a text: where a value went, by the values."""
    moves = []
    for pattern, swap in ((_FROM_TO, False), (_TO_FROM, True)):
        for match in pattern.finditer(text):
            first, second = (lex.figure_values(match.group(i)) for i in (1, 2))
            if len(first) == 1 and len(second) == 1:
                start, end = (second, first) if swap else (first, second)
                moves.append((next(iter(start)), next(iter(end)), match.group().strip()))
    return tuple(moves)


def value_direction_rule(passage: str, claims: Sequence[Cited]) -> list[str]:
    """'rose from 22.8% to 26.3%' where a claim has it go from 26.3% to 22.8%: the same two
    values, the other way round, whatever words carry the movement."""
    mine = _value_moves(passage)
    if not mine:
        return []
    for start, end, text in mine:
        for cited in claims:
            for other_start, other_end, other_text in _value_moves(cited.clause.text):
                if (start, end) == (other_end, other_start) and start != end:
                    return [f"direction: the paragraph says '{text}'; {_claim_says(cited, other_text)}"]
    return []
