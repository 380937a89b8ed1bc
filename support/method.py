"""Is a passage backed by the claims it cites? A lexical method that explains itself.

Four tests, each with a reason a person can act on:

1. **Figures.** Every figure written with digits (30.7%, 1,200, $2.5bn, 64k, 4th, 10x) must
   have its value in a cited claim, however the claim writes it (30.7 percent, 1200, 2.5
   billion, 64,000, 'half' for 50%). A figure written as a word ('four environment scales') is
   held to the same rule when it counts something the claims talk about. Values are compared
   exactly: a changed or rounded number is always reported, unless a hedge allows the rounding
   ('nearly 40%' for 39.6%). A value a reporter computes from the claims' figures (69% for 2,900
   of 4,200, 150% for a rise from 12 to 30, '60 cents' for $0.60, 'five times' for 'a fifth of
   the price') is backed when it matches to the passage figure's own precision.
2. **Names.** Coined names (ProgAgent, GSM8K, Qwen3-8B, MMLU) and capitalised words inside a
   sentence (Invisible Technologies) must be mentioned by a cited claim, or by the title of
   the cited manifest. A name the claims give in other letters counts: a place for its people
   ('Dane' for Denmark, 'America' for the US), an acronym of the claims' words ('TfL' for
   Transport for London, 'UNEP' for UN Environment Programme), a unit's name for its symbol
   ('Celsius' for °C).
3. **Words.** The passage's content words (no stopwords, lightly stemmed, a synonym of a
   claim's word counting as the word) must mostly be in the cited claims, and so must each
   sentence's: a passage half backed by its claims and half about something else fails on
   the sentence that is not backed. Words are weighed by how much they say: a word news copy
   uses about anything ('people', 'level', 'following') counts half.
4. **What a fact-checker looks for** (``support.rules``): negation, direction,
   dates, quantities, swapped names, modality, predicates no claim makes, and verbs the claims
   do not say. Each reason names its kind, quotes the passage and the claim, and has a code.

The verdict (``verdict_of``): ``unsupported`` when a reason quotes a contradiction or a figure
the claims do not give (``UNSUPPORTED_CODES``); ``review`` when any other reason stands, or the
passage is too little in the claims' words for the rules to show it; ``supported`` otherwise.
No entailment model can run here, so the rules never guess: what they cannot show, the desk reads.

Thresholds are fractions of weighted content words; they were set on the tuning sets (see
``bench/supported_eval.py``), never on the measuring sets (blind-d, -g, -h, held-out).
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from decimal import ROUND_HALF_UP, Decimal
from functools import lru_cache

from . import rules
from . import text as lex

# A passage needs this share of its content words in the cited claims...
PASSAGE_COVERAGE = 0.30
# ...and each sentence of at least SENTENCE_MIN_WORDS content words needs this share. Both were
# 0.45 and 0.34, set on the first hand-written sets; writers the rules never saw reword more
# freely (a faithful paraphrase keeps a third of the claim's words), and the count of shared words
# alone then caught two unsupported passages for every ten supported ones it refused. What a
# passage adds is the new-predicate rule's to find; this floor still refuses a passage about
# something else.
SENTENCE_COVERAGE = 0.25
SENTENCE_MIN_WORDS = 4
# A number word counts as a figure when one of the next few content words is in the claims.
SPELLED_LOOKAHEAD = 3
# Units a count in words counts that stopword lists leave out: 'twelve years'.
_COUNTED_UNITS = frozenset(["years", "months", "weeks", "days", "hours", "minutes", "times"])
# How many missing words an explanation lists.
SHOWN_WORDS = 6
# The longest passage the check reads. A news paragraph runs to a few hundred characters (the
# seeds' longest is 715); some rules compare a passage's words pairwise, so a page-long one
# would hold a worker for seconds. Longer is refused with a reason, never half read.
PASSAGE_MOST_CHARACTERS = 4_000


SUPPORTED, UNSUPPORTED, REVIEW = "supported", "unsupported", "review"
# The codes of reasons that quote a contradiction both sides, or a figure the claims do not
# give: such a passage is unsupported. Every other reason is a weaker signal (a word the claims
# do not use, a name they do not give, a verb they do not say) that sends it to the desk.
UNSUPPORTED_CODES = frozenset(
    ["figure_mismatch", "figure_not_in_claims", "negation", "direction", "date", "quantity", "passage_too_long"]
)
# A passage no rule faults is supported only when this share of its content words is in the
# cited claims; below, the rules cannot show it and the desk reads it.
SUPPORTED_COVERAGE = 0.6
# A verb no cited claim says ('took ... to court' for 'sued') may be a reporter's word for the
# claim's or a new action. One a sentence is taken for a paraphrase when the passage keeps to
# the claims' other words (VERB_COVERAGE of them); more, or one in looser wording, go to the desk.
UNSAID_VERB = "verb_not_in_claims"
UNSAID_VERBS_FOR_REVIEW = 2  # a sentence
VERB_COVERAGE = 0.7


@dataclass
class Support:
    """The verdict on one passage (``supported``, ``unsupported`` or ``review``) and every
    reason why it is not supported, each with its code."""

    verdict: str
    problems: list[rules.Reason] = field(default_factory=list)
    coverage: float = 1.0
    content_words: int = 0
    # The codes of every reason the rules found, before the verdict: what the eval weighs.
    found: tuple[str, ...] = ()
    sentences: int = 1

    @property
    def supported(self) -> bool:
        return self.verdict == SUPPORTED

    @property
    def reasons(self) -> list[str]:
        return [reason.text for reason in self.problems]


def verdict_of(
    codes: Iterable[str],
    coverage: float,
    sentences: int = 1,
    *,
    unsupported: frozenset[str] = UNSUPPORTED_CODES,
    supported_coverage: float = SUPPORTED_COVERAGE,
    unsaid_verbs_for_review: int = UNSAID_VERBS_FOR_REVIEW,
    verb_coverage: float = VERB_COVERAGE,
) -> str:
    """The verdict for a passage's reasons' codes (one per reason), its coverage and its count
    of sentences:
    ``bench/supported_eval.py`` tries other boundaries through the keywords."""
    codes = list(codes)
    if unsupported.intersection(codes):
        return UNSUPPORTED
    verbs = codes.count(UNSAID_VERB)
    if len(codes) > verbs or verbs >= (unsaid_verbs_for_review - 1) * max(sentences, 1) + 1:
        return REVIEW
    if coverage < (verb_coverage if verbs else supported_coverage):
        return REVIEW
    return SUPPORTED


def _quote(text: str, limit: int = 60) -> str:
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "\u2026"


def _figure_reason(figure: str, claims: str) -> rules.Reason:
    """A figure no cited claim gives, quoted beside the figures they do give: a mismatch when
    they give some, else a figure they do not state at all."""
    shown = list(dict.fromkeys(str(figure) for figure in lex.digit_figures(claims)))
    if not shown:
        return rules.Reason("figure_not_in_claims", f"{figure} is in none of the cited claims (they state no figures)")
    more = f" and {len(shown) - 5} more" if len(shown) > 5 else ""
    offered = ", ".join(shown[:5]) + more
    return rules.Reason("figure_mismatch", f"{figure} is in none of the cited claims (they give {offered})")


# A hedged figure ('nearly 40%', 'more than 200', 'about 1.2 million') may round a claim's
# figure: by at most this share of it, and in the direction its hedge says.
ROUNDING = Decimal("0.05")
_APPROXIMATELY = ("about", "around", "roughly", "approximately", "some", "circa", "an estimated")
_BELOW = (
    "nearly",
    "almost",
    "close to",
    "just under",
    "well under",
    "under",
    "less than",
    "fewer than",
    "up to",
    "shy of",
    "short of",
)
_ABOVE = (
    "more than",
    "over",
    "above",
    "just over",
    "well over",
    "well above",
    "at least",
    "upwards of",
    "in excess of",
)
_HEDGE = re.compile(
    r"\b(" + "|".join(sorted(_APPROXIMATELY + _BELOW + _ABOVE, key=len, reverse=True)) + r")\s+(?:[A-Z]{1,3}\$)?$",
    re.IGNORECASE,
)


# A figure rounded without a hedge keeps at least this many significant digits: '31.9' for
# 31.85 and '1.19 million' for 1,187,000 drop only the last digit; '40%' for 39.6% is a change.
PLAIN_ROUNDING_DIGITS = 3


def _rounds_plainly(figure: lex.Figure, offered: frozenset[Decimal]) -> bool:
    """Whether a figure is a claim's value correctly rounded to the figure's own precision,
    keeping PLAIN_ROUNDING_DIGITS significant digits."""
    value = figure.value
    if not value or len(value.normalize().as_tuple().digits) < PLAIN_ROUNDING_DIGITS or _is_year(figure):
        return False  # '2030' is no rounding of 2025: a year is exact
    quantum = Decimal(1).scaleb(value.normalize().as_tuple().exponent)
    return any(
        other != value
        and other.normalize().as_tuple().exponent < quantum.as_tuple().exponent
        and other.quantize(quantum, rounding=ROUND_HALF_UP) == value
        for other in offered
    )


def _rounds(passage: str, figure: lex.Figure, offered: Iterable[Decimal], exact: bool = True) -> bool:
    """Whether a hedged figure is a rounding of a value a claim gives: 'nearly 40%' for 39.6%.

    ``exact`` says the offered values are figures as a claim writes them, so the passage's
    must be rounder; a value the claims' figures imply ('about 69%' for 2,900 of 4,200) is not."""
    hedge = _HEDGE.search(passage[max(0, figure.start - 20) : figure.start])
    if not hedge or not figure.value:
        return False
    word = hedge.group(1).lower()
    # A bound ('more than 200' for 214) may sit further from the value than a plain rounding.
    tolerance = ROUNDING if word in _APPROXIMATELY else 2 * ROUNDING
    quantum = _precision(figure)
    for value in offered:
        # A figure written to the half ('two and a half') is itself no finer than a quarter.
        if not value or abs(figure.value - value) > max(abs(value) * tolerance, quantum / 2 if figure.spelled else 0):
            continue
        # 'a quarter of a billion' is a rounding in words, however many digits its value has.
        coarse = figure.spelled and " of " in figure.text
        if (
            exact
            and not coarse
            and value.normalize().as_tuple().exponent >= quantum.as_tuple().exponent
            and value % quantum == 0
        ):
            continue  # not rounder than the claim's figure: 'some 1,101' for 1,100 is a change
        if word in _APPROXIMATELY and (value / quantum).quantize(Decimal(1), ROUND_HALF_UP) * quantum != figure.value:
            continue  # 'about 1.2 million' rounds 1,187,000; 'about 1.3 million' does not
        if word in _BELOW and value > figure.value:
            continue  # 'nearly 40%' cannot round 41%
        if word in _ABOVE and value < figure.value:
            continue  # 'more than 200' cannot round 190
        return True
    return False


def _precision(figure: lex.Figure) -> Decimal:
    """The step a figure is written to: 1 for '40', 0.1 for '2.4', a half for 'two and a half'."""
    if figure.spelled and figure.value % 1:
        return Decimal("0.5")
    return Decimal(1).scaleb(figure.value.normalize().as_tuple().exponent)


@lru_cache(maxsize=8192)
def _plain(claim: str) -> str:
    return lex.plain_text(claim)


@lru_cache(maxsize=8192)
def _claim_values(claim: str) -> frozenset[Decimal]:
    """Every value one claim offers as a value, however written; a story cites a claim from
    many passages. Digits inside names are ``_name_values``."""
    # A model's size in its name: 'Qwen3-8B' backs '8B' and 'the 8-billion-parameter model'.
    sizes = {
        (Decimal(digits) * _SIZE_SCALES[scale.upper()]).normalize() for digits, scale in _MODEL_SIZE.findall(claim)
    }
    return frozenset(lex.figure_values(claim) | lex.implied_values(claim) | sizes)


@lru_cache(maxsize=8192)
def _differences(claims: str) -> frozenset[Decimal]:
    return frozenset(lex.differences(claims))


@lru_cache(maxsize=8192)
def _name_values(claim: str) -> frozenset[Decimal]:
    """Version numbers inside a claim's names ('Llama-3': 3). They back a passage's digits
    ('Llama 3'), never a number in words: 'three times' is no version of 'Qwen3'. Only
    version-like numbers: a year inside a name ('FY2024') backs no year of the passage's."""
    return frozenset(value for digits in _NAME_DIGITS.findall(claim) if (value := Decimal(digits)) < 1000)


def _is_year(figure: lex.Figure) -> bool:
    return figure.text.isdigit() and len(figure.text) == 4 and 1800 <= int(figure.text) <= 2199


_is_percent = lex.is_percent


@dataclass(frozen=True)
class Derived:
    """Values a reporter computes from a claim's figures, kept unrounded: the passage's figure
    must match one to its own precision ('69%' for 2,900 of 4,200), so a changed one still fails."""

    percents: frozenset[Decimal]  # shares, changes in percent
    complements: frozenset[tuple[Decimal, Decimal]]  # the rest of a share, with the share
    wholes: frozenset[Decimal]  # 'all', 'every': 100%, exactly
    shares: frozenset[Decimal]  # the claim's percentages and ratios ('1 in 12'), as written
    factors: frozenset[Decimal]  # how many times one figure is another; reciprocals of fractions
    plain: frozenset[Decimal]  # a year before the claim's, the year in 'mid-2027'
    amounts: frozenset[Decimal] = frozenset()  # a share of a count, a rate times a count


# A claim with more figures than this is a table: no pairwise arithmetic.
_MOST_FIGURES_FOR_ARITHMETIC = 6
_PERCENT_AFTER = re.compile(r"[\s-]*(?:percent|per\s+cent)\b", re.IGNORECASE)
_YEAR_PART = re.compile(r"\b(?:mid|early|late|end|start)-((?:19|20)\d\d)\b", re.IGNORECASE)


@lru_cache(maxsize=8192)
def _derived(claim: str) -> Derived:
    figures = [figure for figure in lex.digit_figures(claim) if figure.value and not _is_year(figure)]
    percents: set[Decimal] = set()
    factors: set[Decimal] = set()
    plain: set[Decimal] = set()
    # 'agreed 82%' for 'disagreed on 18%'
    complements = {
        (100 - figure.value, figure.value) for figure in figures if _is_percent(figure) and figure.value < 100
    }
    amounts: set[Decimal] = set()
    counts = [figure for figure in figures if not _is_percent(figure) and "point" not in figure.text]
    if len(figures) <= _MOST_FIGURES_FOR_ARITHMETIC:
        for first, second in itertools.permutations(figures, 2):
            share = _is_percent(first) and (
                bool(_SHARE_AFTER.match(claim, first.start + len(first.text)))
                or bool(_WHOLE_BEFORE.search(claim[max(0, second.start - 20) : second.start]))
            )
            if second in counts and (share or (first in counts and _is_rate(claim, first))):
                # '11% of 1,800 tasks': about 200 of them; '$0.80 a claim' for 48,000 claims: $38,400
                amounts.add(first.value * second.value / (100 if _is_percent(first) else 1))
            if second in counts and _is_percent(first) and rules.is_change(claim, first):
                # 'rose 20% to $1.2 billion': $1 billion before; 'up 100% from 24,000': 48,000 after
                for change in (first.value, -first.value):
                    if change > -100:
                        amounts |= {second.value * 100 / (100 + change), second.value * (100 + change) / 100}
            if _is_percent(first) != _is_percent(second):
                continue
            factors.add(second.value / first.value)  # 'more than twice as long': 97 against 41
            if not _is_percent(first):
                percents.add((second.value - first.value) * 100 / first.value)  # 12 to 30: 150% more
                if second.value < first.value:
                    percents.add(second.value * 100 / first.value)  # 2,900 of 4,200: 69%
    for value, reciprocal in lex.fractions(claim):
        percents.add(value)  # 'one-ninth': about 11%
        amounts |= {value * count.value / 100 for count in counts}  # 'a third of its 1,800 staff': 600
        if reciprocal:
            factors.add(reciprocal)  # 'a fifth of the price': five times cheaper
    years = [figure.value for figure in lex.digit_figures(claim) if _is_year(figure)]
    if rules.YEAR_EARLIER.search(claim):
        plain |= {year - 1 for year in years}  # 'August 2025, up 34% from a year earlier': 2024
    plain |= {Decimal(match.group(1)) for match in _YEAR_PART.finditer(claim)}
    shares = {figure.value for figure in lex.digit_figures(claim) if _is_percent(figure)}
    # 'Forty percent of respondents' states a share as a digit figure's '40%' does.
    shares |= {
        figure.value
        for figure in lex.spelled_figures(claim)
        if _PERCENT_AFTER.match(claim, figure.start + len(figure.text))
    }
    shares |= {share for _, share in lex.ratios(claim)}
    return Derived(
        frozenset(percents),
        frozenset(complements),
        frozenset(lex.implied_shares(claim)),
        frozenset(shares),
        frozenset(factors),
        frozenset(plain),
        frozenset(amounts),
    )


# A percentage that is a share of what a claim counts: '11% of 1,800 tasks', '1,800 tasks, and 11%
# had', 'of the 1,800 tasks, 11%'; not a change ('rose from 34% to 67% over 18 months').
_SHARE_AFTER = re.compile(r"\s+(?:of|had|have|has|were|was|are|is|said|did|do)\b", re.IGNORECASE)
_WHOLE_BEFORE = re.compile(r"\b(?:of|among)\s+(?:the\s+|its\s+|their\s+|all\s+)?$", re.IGNORECASE)
# 'costs $0.80 a claim', '$12 per seat', '40,000 a month': a figure for each one of something.
_PER_AFTER = re.compile(r"\s*(?:per|a|an|each|/)\s*[A-Za-z]", re.IGNORECASE)


def _is_rate(text: str, figure: lex.Figure) -> bool:
    return bool(_PER_AFTER.match(text, figure.start + len(figure.text)))


# 'needed 40% fewer labels' is 'took 60% as many': a cut and the level it leaves add up to 100.
_CUT_AFTER = re.compile(r"\s+(?:fewer|less|lower|smaller|cheaper|shorter|below)\b", re.IGNORECASE)
_LEVEL_AFTER = re.compile(r"\s+(?:as\s+(?:many|much|long|large)|of\s+(?:the|its|their|what))\b", re.IGNORECASE)
_FRACTION_LEVEL_AFTER = re.compile(r"\s+(?:the|its|their|what)\b", re.IGNORECASE)  # 'a third the cost'


@lru_cache(maxsize=8192)
def _cut_and_level(claim: str) -> tuple[frozenset[Decimal], frozenset[Decimal]]:
    """The level each of a claim's cuts in percent leaves ('40% fewer': 60), and the cut each
    of its levels in percent makes ('60% as many': 40)."""
    levels, cuts = set(), set()
    # A fraction in words is a level too: 'costs one-tenth as much' is 'costs 90% less'.
    for phrase, percent, _ in lex.fraction_phrases(claim):
        end = claim.find(phrase) + len(phrase)
        if _LEVEL_AFTER.match(claim, end) or _FRACTION_LEVEL_AFTER.match(claim, end):
            cuts.add(100 - percent)
    for figure in lex.digit_figures(claim):
        if not _is_percent(figure) or figure.value >= 100:
            continue
        end = figure.start + len(figure.text)
        if _CUT_AFTER.match(claim, end):
            levels.add(100 - figure.value)
        elif _LEVEL_AFTER.match(claim, end):
            cuts.add(100 - figure.value)
    return frozenset(levels), frozenset(cuts)


def _level_or_cut_backs(passage: str, figure: lex.Figure, claim_lines: Sequence[str]) -> bool:
    """'60% as many labels' for a claim's '40% fewer labels', and the reverse."""
    if not _is_percent(figure):
        return False
    end = figure.start + len(figure.text)
    pick = 0 if _LEVEL_AFTER.match(passage, end) else 1 if _CUT_AFTER.match(passage, end) else None
    if pick is None:
        return False
    # A fraction's cut is no whole number ('a third as much': 66.66...): matched to the figure's precision.
    return any(_matches_derived(passage, figure, _cut_and_level(claim)[pick]) for claim in claim_lines)


def _matches_derived(passage: str, figure: lex.Figure, derived: Iterable[Decimal]) -> bool:
    """Whether a derived value, rounded to the figure's own precision (never coarser than a
    unit), is the figure; or, when the figure is hedged, whether the hedge allows it. A hedge
    rounds only a value finer than the figure: 'less than 53%' is no rounding of a claim's half."""
    exponent = min(figure.value.normalize().as_tuple().exponent, 0)
    quantum = Decimal(1).scaleb(exponent)
    candidates = set(derived)
    if any(value.quantize(quantum, rounding=ROUND_HALF_UP) == figure.value for value in candidates):
        return True
    return _rounds(passage, figure, candidates)


_TIMES_AFTER = re.compile(r"\s*(?:times|-fold|fold|x\b)", re.IGNORECASE)
_CENTS_AFTER = re.compile(r"\s+(?:cents?|pence)\b", re.IGNORECASE)
_YEAR_RANGE_BEFORE = re.compile(r"\b((?:19|20)\d)\d[-\u2013]$")
# 'just two, English and Spanish': a count followed by the items it counts.
_LISTED = re.compile(
    r"[^.;,:\u2014(]{0,30}?[,:\u2014(]\s*((?:[\w'-]+(?:\s[\w'-]+)?,\s+)*[\w'-]+(?:\s[\w'-]+)?,?\s+(?:and|or)\s+[\w'-]+)"
)


def _counts_its_list(passage: str, figure: lex.Figure, backing: rules.Backing) -> bool:
    """'tested in just two, English and Spanish': the passage lists what it counts, and the
    claims back each item listed."""
    match = _LISTED.match(passage, figure.start + len(figure.text))
    if not match:
        return False
    items = re.split(r",\s+(?:and\s+|or\s+)?|,?\s+(?:and|or)\s+", match.group(1))
    if Decimal(len(items)) != figure.value:
        return False
    return all(lex.stem(word) in backing for item in items for word in lex.content_words(item))


_MODEL_SIZE = re.compile(r"(?<=[A-Za-z0-9][-.])(\d+(?:\.\d+)?)([BbMmKkTt])\b")
_SIZE_SCALES = {"K": Decimal(1_000), "M": Decimal(1_000_000), "B": Decimal(1_000_000_000), "T": Decimal(10**12)}


_METRES = re.compile(r"\d+(?:\.\d+)?m")
_NAME_DIGITS = re.compile(r"(?<=[A-Za-z][-.])\d+(?:\.\d+)?|(?<=[A-Za-z])\d+(?:\.\d+)?")


def _figure_reasons(passage: str, claims: str, backing: rules.Backing) -> list[rules.Reason]:
    digits, spelled = lex.digit_figures(passage), lex.spelled_figures(passage)
    if not digits and not spelled:
        return []
    claim_lines = claims.split("\n")
    # Values the claims state as values: what a number in words needs. Digits of names back digits.
    stated_values = frozenset().union(*(_claim_values(claim) for claim in claim_lines))
    offered = stated_values.union(*(_name_values(claim) for claim in claim_lines))
    derived = [_derived(claim) for claim in claim_lines]
    if len(claim_lines) > 1:
        # A reporter computes from figures in two claims as from two in one: '11.3 points' for
        # one claim's 77.3% and another's 66.0%, 'tripled' for $3 billion in one and $9 billion in
        # the other. The same cap on how many figures holds over the claims together.
        derived.append(_derived(claims))
        offered |= _differences(claims)
    factors = frozenset().union(*(item.factors for item in derived))
    offered |= frozenset().union(*(item.plain for item in derived))
    # The rest of a share the passage does not give itself: with '58%' and '35%' in the passage,
    # '42%' is no complement of the claims' 58%.
    stated = {figure.value for figure in digits}
    complements = {rest for item in derived for rest, share in item.complements if share not in stated}
    # A share the passage writes as a ratio may be the rest of the claims' share too: 'fewer than
    # one in a hundred went wrong' for '99.1% accuracy'.
    unbacked = any(_is_percent(figure) and figure.value not in offered for figure in digits) or bool(
        lex.ratios(passage)
    )
    if not (complements and unbacked and _states_the_rest(passage, claims)):
        complements = set()  # the wording is read last: most passages need no complement
    percents = frozenset().union(*(item.percents for item in derived), complements)
    wholes = frozenset().union(*(item.wholes for item in derived))
    amounts = frozenset().union(*(item.amounts for item in derived))
    # '3 in 10' for a claim's 30%: the ratio's own figures are not held to the claims.
    in_ratios = set()
    written_shares = frozenset().union(*(item.shares for item in derived))
    shares = percents | written_shares
    for match, percent in lex.ratios(passage):
        if _share_backed(passage, match, percent, shares) or _ratio_bound_backed(
            passage, match, percent, written_shares
        ):
            in_ratios |= set(range(match.start(), match.end()))
    reasons = []
    digits = [figure for figure in digits if figure.start not in in_ratios]
    spelled = [figure for figure in spelled if figure.start not in in_ratios and not _counts_months(passage, figure)]
    # 'two years later' after '2019': a date counted from another, which the date rule checks.
    for start, end in rules.counted_date_spans(passage):
        digits = [figure for figure in digits if not start <= figure.start < end]
        spelled = [figure for figure in spelled if not start <= figure.start < end]
    # 'tripled in eight months' where one claim dates the start and another the end: the span
    # between two dates the claims give is theirs.
    spans = [figure for figure in digits + spelled if rules.span_unit(passage, figure.start + len(figure.text))]
    if spans:
        between = rules.spans_between(claims)
        counted = {
            figure.start
            for figure in spans
            if figure.value in between[rules.span_unit(passage, figure.start + len(figure.text))]
        }
        digits = [figure for figure in digits if figure.start not in counted]
        spelled = [figure for figure in spelled if figure.start not in counted]

    def backed(reading: lex.Figure) -> bool:
        return (
            reading.value in offered
            or _rounds(passage, reading, offered)
            or _rounds_plainly(reading, offered)
            or _derived_backs(passage, reading, percents, factors)
            or (_is_percent(reading) and reading.value in wholes)
            or _level_or_cut_backs(passage, reading, claim_lines)
            or (not _is_percent(reading) and _matches_derived(passage, reading, amounts))
        )

    for figure in digits:
        if _METRES.fullmatch(figure.text) and Decimal(figure.text[:-1]) in offered and "met" in claims.lower():
            continue  # '5.4m' for a claim's '5.4 metres': 'm' is the unit here, not million
        if backed(figure):
            continue
        reading = _read_in_context(passage, figure)
        if reading is not figure and backed(reading):
            continue
        reasons.append(_figure_reason(f"'{figure}'", claims))
    for figure in spelled:
        if (
            figure.value in stated_values
            or _rounds(passage, figure, stated_values)
            or _derived_backs(passage, figure, (), factors)
        ):
            continue  # 'about five points' for 4.97
        if _counts_its_list(passage, figure, backing):
            continue
        if figure.value >= 1000 or _TIMES_AFTER.match(passage, figure.start + len(figure.text)):
            # 'a quarter of a billion dollars' states an amount, 'three times as long' a factor,
            # whatever they are of.
            reasons.append(_figure_reason(f"'{figure}'", claims))
            continue
        unit = rules.span_unit(passage, figure.start + len(figure.text))
        if unit and rules.spans_between(claims)[unit]:
            # 'in seven months' where the claims date the start and the end eight months apart.
            reasons.append(_figure_reason(f"'{figure}' ({unit}s)", claims))
            continue
        following = [
            word
            for word in lex.words(passage[figure.start + len(figure.text) :])[: SPELLED_LOOKAHEAD + 2]
            if len(word) > 2 and (word.lower() not in lex.STOPWORDS or word.lower() in _COUNTED_UNITS)
        ][:SPELLED_LOOKAHEAD]
        counted = [word for word in following if lex.stem(word) in backing]
        if counted:
            reasons.append(_figure_reason(f"'{figure}' ({counted[0]})", claims))
    return list(dict.fromkeys(reasons))


# A complement ('agreed 82%' for 'disagreed on 18%') is the same fact only when the passage
# says the other side: 'the rest', or a word the claim's opposite ('agreed', 'disagreed').
_REST = re.compile(r"\b(?:rest|remaining|remainder|others?|otherwise)\b", re.IGNORECASE)
_SUCCESS_WORDS = ("accuracy", "accurate", "correct", "success", "successful", "succeeded", "passed", "solved", "uptime")
_FAILURE_WORDS = (
    *("wrong", "error", "errors", "erred", "incorrect", "mistake", "mistakes"),
    *("failed", "failure", "failures"),
)
_OPPOSITE_PREFIXES = ("dis", "un", "in", "im", "il", "ir", "non", "mis")
_OPPOSITES = {
    frozenset(pair)
    for pair in (
        ("right", "wrong"),
        ("correct", "wrong"),
        ("pass", "fail"),
        ("passed", "failed"),
        ("succeeded", "failed"),
        ("success", "failure"),
        ("approved", "rejected"),
        ("accepted", "rejected"),
        ("won", "lost"),
        ("support", "oppose"),
        ("for", "against"),
        ("kept", "lost"),
        # what a change keeps against what it costs: 'retained 97%' is 'cost it 3%'
        *((kept, lost) for kept in ("kept", "retained", "preserved") for lost in ("lost", "cost", "sacrificed")),
        ("present", "absent"),
        # a rate of success against the rate of failure: '99.1% accuracy' is 'one in a hundred went wrong'
        *((good, bad) for good in _SUCCESS_WORDS for bad in _FAILURE_WORDS),
    )
}


def _without_ly(word: str) -> str:
    return word[:-2] if word.endswith("ly") and len(word) > 5 else word  # 'wrongly' is 'wrong'


@lru_cache(maxsize=4096)
def _plain_words(text: str) -> frozenset[str]:
    return frozenset(_without_ly(word.lower()) for word in lex.words(text))


def _states_the_rest(passage: str, claims: str) -> bool:
    if _REST.search(passage):
        return True
    mine, theirs = _plain_words(passage), _plain_words(claims)
    only_mine, only_theirs = mine - theirs, theirs - mine
    for words, others in ((only_mine, only_theirs), (only_theirs, only_mine)):
        for word in words:
            for prefix in _OPPOSITE_PREFIXES:
                rest = word[len(prefix) :]
                if word.startswith(prefix) and len(rest) >= 4 and rest in others:
                    return True  # 'agreed' against 'disagreed', 'correct' against 'incorrect'
    return any(frozenset((a, b)) in _OPPOSITES for a in only_mine for b in only_theirs)


# A hedge right before a figure, a ratio or a share in words: the figure rule holds it.
_HEDGED = re.compile(
    r"\b("
    + "|".join(
        sorted(
            _APPROXIMATELY + _BELOW + _ABOVE + ("a little over", "a little under", "just shy of"), key=len, reverse=True
        )
    )
    + r")\s+(?=[$\d]|(?:[A-Z]{1,3}\$)|(?:a|one|two|three|four|five|six|seven|eight|nine|ten|half|twice)\b)",
    re.IGNORECASE,
)


_HEDGE_PHRASES = tuple(phrase + " " for phrase in _APPROXIMATELY + _BELOW + _ABOVE)


def _hedge_words(passage: str) -> set[str]:
    lowered = passage.lower()
    if not any(phrase in lowered for phrase in _HEDGE_PHRASES):
        return set()  # most passages: substring tests instead of the pattern
    return {lex.stem(word) for match in _HEDGED.finditer(passage) for word in lex.words(match.group(1))}


def _share_words(passage: str, claims: str) -> set[str]:
    """The words of a share in words that a claim's percentage gives ('a fifth' for 20%, 'nearly
    a quarter' for 23.4%), as the share rule allows it."""
    phrases = lex.fraction_phrases(passage)
    if not phrases:
        return set()
    percents = frozenset().union(*(_derived(claim).shares for claim in claims.split("\n")))
    return {
        lex.stem(word)
        for phrase, percent, _ in phrases
        if any(abs(percent - value) <= rules.SHARE_SLACK_HEDGED for value in percents)
        for word in lex.words(phrase)
    }


def _derived_backs(passage: str, figure: lex.Figure, percents: frozenset[Decimal], factors: frozenset[Decimal]) -> bool:
    """Whether the figure is a value the claims' figures give by arithmetic: a share or a change
    for a percentage, a ratio for 'N times'."""
    if _is_percent(figure):
        return _matches_derived(passage, figure, percents)
    if _TIMES_AFTER.match(passage, figure.start + len(figure.text)):
        return _matches_derived(passage, figure, factors)
    return False


def _read_in_context(passage: str, figure: lex.Figure) -> lex.Figure:
    """The value a figure has in its sentence: '60 cents' is $0.60, the '25' of '2023-25' is 2025."""
    after_dash = figure.start > 0 and passage[figure.start - 1] in "-\u2013"
    if not (after_dash or "cent" in passage or "pence" in passage):
        return figure  # the common case, and a cheap test
    if _CENTS_AFTER.match(passage, figure.start + len(figure.text)):
        return lex.Figure(figure.text, (figure.value / 100).normalize(), figure.start)
    century = _YEAR_RANGE_BEFORE.search(passage[max(0, figure.start - 6) : figure.start])
    if century and len(figure.text) == 2 and figure.text.isdigit():
        return lex.Figure(figure.text, Decimal(century.group(1)[:2] + figure.text), figure.start)
    return figure


def _share_backed(passage: str, match: re.Match, percent: Decimal, offered: frozenset[Decimal]) -> bool:
    """'3 in 10' for 30%; 'nearly three in five' for 58%, 'more than four in five' for 83%: a
    ratio is a share written coarsely, held to a point unless hedged, then as any hedged figure.
    'One in N' is written by choosing N, so N is what is rounded: 'one in twelve' for 8% (12.5),
    never 'one in twenty' for 4% (25), though the two are a point apart."""
    whole = lex.ratio_number(match["whole"]) if lex.ratio_number(match["part"]) == 1 else None
    hedge = _HEDGE.search(passage[max(0, match.start() - 20) : match.start()])
    side = 0 if not hedge else -1 if hedge.group(1).lower() in _BELOW else 1 if hedge.group(1).lower() in _ABOVE else 0
    if any(
        abs(percent - value) <= 1
        and (whole is None or side or _whole_rounds(whole, value))
        and (value - percent) * side >= 0  # 'fewer than one in ten' is below 10%, never above
        for value in offered
    ):
        return True
    share = lex.Figure(f"{percent:.1f}%", percent, match.start())
    return _rounds(passage, share, offered, exact=False)


def _whole_rounds(whole: int, percent: Decimal) -> bool:
    """Whether 'one in <whole>' rounds 'one in 100/percent': to the unit below a hundred, and
    a round hundred or thousand to its own last digit ('one in 200' for 0.45%, one in 222)."""
    if not percent:
        return False
    zeros = len(str(whole)) - len(str(whole).rstrip("0")) if whole >= 100 else 0
    return abs(whole - 100 / percent) <= Decimal(10**zeros) / 2


def _ratio_bound_backed(passage: str, match: re.Match, percent: Decimal, written: frozenset[Decimal]) -> bool:
    """A bound on a ratio holds up to the next ratio of its whole: 'more than four in ten' is
    40-50%, so it is a claim's 45%; 'fewer than one in ten' is no claim's 18%. Only the claims'
    own percentages count, not what arithmetic on their figures gives."""
    hedge = _HEDGE.search(passage[max(0, match.start() - 20) : match.start()])
    if not hedge or hedge.group(1).lower() in _APPROXIMATELY:
        return False
    step = Decimal(100) / Decimal(lex.ratio_number(match["whole"]))
    if hedge.group(1).lower() in _ABOVE:
        return any(percent < value < percent + step for value in written)
    return any(percent - step < value < percent for value in written)


# 'the first three months of 2026' is a date, the date rule's: its 'three' counts nothing.
_MONTHS_SPAN = re.compile(r"\s+months\b", re.IGNORECASE)
_MONTHS_IN = {"quarter": 3, "half": 6}


def _counts_months(passage: str, figure: lex.Figure) -> bool:
    end = figure.start + len(figure.text)
    if not _MONTHS_SPAN.match(passage, end):
        return False
    window = passage[max(0, figure.start - 10) : end + 40]
    return any(
        _MONTHS_IN.get(mention.kind) == figure.value and mention.text in window for mention in rules.dates(passage)
    )


def _name_reasons(
    passage: str, claims: str, backing: rules.Backing, context_texts: Sequence[str]
) -> list[rules.Reason]:
    found = lex.names(passage)
    if not found:
        return []
    plainly = (claims + "\n" + "\n".join(context_texts)).lower()
    found = [name for name in found if not _written_in(name.lower(), plainly)]
    if not found:
        return []  # every name is in the claims as written: the common case, and a cheap test
    claim_stems = backing.index
    context = "\n".join(context_texts)
    text = claims + "\n" + context
    # Names inside coined names count as mentioned: 'Lean4AgenticRL' mentions 'RL'.
    backing_lower = (text + "\n" + lex.split_camel_case(text)).lower()
    backing_stems = lex.StemIndex(claim_stems.stems | lex.content_stems(context)) if context else claim_stems
    abbreviated = _abbreviated_names(passage, text)
    return [
        rules.Reason("name_not_in_claims", f"'{name}' is named but no cited claim mentions it")
        for name in found
        if name not in abbreviated
        and not _unit_symbol_backed(passage, name, claims)
        and name not in _COMMON_KNOWLEDGE
        and name not in _COMMON_ACRONYMS
        and not _MONTHS_ONLY.fullmatch(name)  # 'July-September': a date, the date rule's
        and not _PERIOD.fullmatch(name)
        and not _demonym_of(name, backing_lower)
        and not ("." in name and lex.name_is_mentioned(name.replace(".", ""), backing_lower, backing_stems))
        and not any(word in backing_lower for word in _TITLES.get(name) or _TITLES.get(name.rstrip("s"), ()))
        and not _initials_of(name, text)
        and not _abbreviation_in(name, text)
        and not lex.name_is_mentioned(name, backing_lower, backing_stems)
    ]


_UNIT_WORD_AFTER = re.compile(r"\s*([A-Za-z]+(?:-[A-Za-z]+)*)")


def _unit_symbol_backed(passage: str, name: str, claims: str) -> bool:
    """'22.2 Tbps' for a claim's '22.2 terabits-per-second', '5.2 MJ' for '5.2 megajoules': a
    symbol right after a figure is a unit, backed when a claim gives the same value with a unit
    word whose letters it abbreviates in order ('Tbps': t-b-p-s; 'MJ' is no 'megawatts')."""
    if len(name) > 5 or not name.isalpha():
        return False
    symbol = name.lower()
    values = {figure.value for figure in lex.digit_figures(claims)}
    for figure in lex.digit_figures(passage):
        if figure.value not in values:
            continue
        after = _UNIT_WORD_AFTER.match(passage, figure.start + len(figure.text))
        if not after or after.group(1) != name:
            continue
        for other in lex.digit_figures(claims):
            unit = _UNIT_WORD_AFTER.match(claims, other.start + len(other.text))
            if other.value == figure.value and unit and _abbreviates(symbol, unit.group(1).lower()):
                return True
    return False


def _abbreviates(symbol: str, word: str) -> bool:
    """Whether a symbol's letters are the word's first letter and then letters of it in order."""
    if not word.startswith(symbol[0]):
        return False
    rest = iter(word[1:])
    return all(letter in rest for letter in symbol[1:])


def _written_in(lowered: str, text: str) -> bool:
    """Whether a name stands in a text as a word of its own, found without a regular
    expression per name (a story's passages name many things)."""
    start = text.find(lowered)
    while start >= 0:
        end = start + len(lowered)
        if (start == 0 or not text[start - 1].isalnum()) and (end == len(text) or not text[end].isalnum()):
            return True
        start = text.find(lowered, start + 1)
    return False


# A place, its people and its adjective, which the letters of one another do not give:
# 'Dutch' for 'the Netherlands', 'Dane' for 'Denmark', 'America' for 'the US'. Any word of a
# group backs a name that is another of the group.
_PLACE_GROUPS = (
    ("britain", "british", "briton", "uk", "united kingdom"),
    ("netherlands", "holland", "dutch"),
    ("france", "french"),
    ("spain", "spanish", "spaniard"),
    ("sweden", "swedish", "swede"),
    ("switzerland", "swiss"),
    ("poland", "polish", "pole"),
    ("denmark", "danish", "dane"),
    ("finland", "finnish", "finn"),
    ("norway", "norwegian"),
    ("ireland", "irish"),
    ("greece", "greek"),
    ("turkey", "turkiye", "turkish"),
    ("wales", "welsh"),
    ("scotland", "scottish", "scot"),
    ("england", "english"),
    ("germany", "german"),
    ("china", "chinese"),
    ("japan", "japanese"),
    ("america", "american", "united states", "us", "u.s"),
    ("eu", "european union", "european commission", "european parliament"),
)
_PLACES = {word: group for group in _PLACE_GROUPS for word in group}


def _demonym_of(name: str, backing_lower: str) -> bool:
    lowered = name.lower()
    group = _PLACES.get(lowered) or _PLACES.get(lowered.rstrip("s"), ())
    return any(
        re.search(rf"(?<![a-z]){re.escape(place)}(?![a-z])", backing_lower) for place in group if place != lowered
    )


# 'Q3', 'H1', 'FY2025' name a period, not a thing: the date rule compares them.
_PERIOD = re.compile(r"Q[1-4]|H[12]|FY\d{2,4}")
# Abbreviations news copy uses for words a claim spells out.
_TITLES = {
    "CEO": ("chief executive", "boss", "head"),
    "CFO": ("chief financial", "finance chief", "finance director"),
    "CTO": ("chief technology", "technology chief"),
    "COO": ("chief operating",),
    "IPO": ("listing", "public offering", "flotation", "go public", "went public"),
    "GDP": ("economy", "economic output", "gross domestic"),
    "AGM": ("annual general meeting", "annual meeting"),
    # Units of measure: a symbol for the word a claim spells out ('400 MW' for '400-megawatt').
    "MW": ("megawatt",),
    "GW": ("gigawatt",),
    "kW": ("kilowatt",),
    "MWh": ("megawatt",),
    "GWh": ("gigawatt",),
    "kWh": ("kilowatt",),
    "TWh": ("terawatt",),
    "km": ("kilomet",),
    "kg": ("kilogram", "kilo"),
    "mph": ("miles per hour", "miles an hour"),
    "GB": ("gigabyte",),
    "TB": ("terabyte",),
    "GPU": ("gpu", "graphics processor", "graphics chip"),
    "SMS": ("text message", "text-message", "texts"),
    # Units named for people: the symbol a claim writes ('1.6°C') for the name ('Celsius').
    "Celsius": ("\u00b0c", "degrees c", "centigrade"),
    "Fahrenheit": ("\u00b0f", "degrees f"),
}
# Names everyone knows, which no claim need mention ('120 light years from Earth').
_COMMON_KNOWLEDGE = frozenset({"Earth", "Moon", "Sun", "Internet", "Web"})
# Acronyms news copy uses as common nouns, not names: 'AI agents', 'GPUs'.
_COMMON_ACRONYMS = frozenset({"AI", "LLM", "LLMs", "ML", "API", "APIs", "GPU", "GPUs", "CPU", "CPUs", "MP", "MPs"})
_MONTH_NAMES = "January|February|March|April|May|June|July|August|September|October|November|December"
_MONTHS_ONLY = re.compile(rf"(?:{_MONTH_NAMES})(?:[-\u2013](?:(?:to|through|until)[-\u2013])?(?:{_MONTH_NAMES}))+")


_ACRONYM_SHAPE = re.compile(r"[A-Z][A-Za-z]{1,7}")
_WORD_WITH_CASE = re.compile(r"[A-Za-z]+")


def _initials_of(name: str, backing: str) -> bool:
    """Whether an acronym stands for words the claims spell out, each word giving its initial
    or, when it is an acronym itself, all its letters: 'TfL' for 'Transport for London', 'UNEP'
    for 'UN Environment Programme'. The words must follow each other, capitalised but for the
    small words between them."""
    capitals = sum(ch.isupper() for ch in name)
    if capitals < 2 or not _ACRONYM_SHAPE.fullmatch(name) or capitals < len(name) - 1:
        return False
    letters = name.lower()
    words = _WORD_WITH_CASE.findall(backing)

    def spells(position: int, done: int) -> bool:
        if done == len(letters):
            return True
        if position >= len(words):
            return False
        word = words[position]
        small = word.islower() and word in lex.STOPWORDS
        if not (word[0].isupper() or small):
            return False
        whole = word.isupper() and len(word) > 1 and letters.startswith(word.lower(), done)
        if whole and spells(position + 1, done + len(word)):
            return True
        if word[0].lower() == letters[done] and spells(position + 1, done + 1):
            return True
        return small and done > 0 and spells(position + 1, done)  # 'of' left out: 'ECB'

    return any(spells(start, 0) for start, word in enumerate(words) if word[0].isupper())


_SPELLED_WORD = re.compile(r"[A-Za-z]+(?:-[A-Za-z]+)*")


@lru_cache(maxsize=4096)
def _abbreviation_in(name: str, text: str) -> bool:
    """Whether a short name abbreviates words the claims spell out, read as a reader would:
    a unit ('Tbps' for 'terabits-per-second', 'MJ' for 'megajoules') or a name cut short
    ('Fed' for 'Federal Reserve'). A lower-case word is a unit only for a name of two capitals
    or more; otherwise the words must be a name's, capitalised. Kept: a story's passages cite
    the same claims."""
    letters = "".join(ch for ch in name if ch.isalnum()).lower()
    if not 2 <= len(letters) <= 6 or not name[0].isupper():
        return False
    capitals = sum(ch.isupper() for ch in name)
    words = _SPELLED_WORD.findall(text)
    for start, word in enumerate(words):
        if word[0].lower() != letters[0] or not (word[0].isupper() or capitals >= 2 or "-" in word):
            continue
        parts: tuple[str, ...] = ()
        for following in words[start : start + len(letters) + 3]:
            parts += tuple(following.lower().split("-"))
            if len(parts) > len(letters) + 3:
                break
            if rules.abbreviates_words(letters, parts):
                return True
    return False


_EXPANSIONS = {
    "LLM": "large language model models",
    "RLHF": "reinforcement learning human feedback",
    "RL": "reinforcement learning",
    "AI": "artificial intelligence",
    "GPU": "graphics processor chip",
    "SFT": "supervised fine-tuning",
}
_ACRONYM = re.compile(r"\b[A-Z]{2,6}s?\b")
_CAPITALISED_RUN = re.compile(r"\b[A-Z][a-z]+(?:\s+(?:of\s+|for\s+|and\s+|the\s+)*[A-Z][a-z]+)+")


def _abbreviated_names(passage: str, backing: str) -> set[str]:
    """Words of a name the claims give by its initials: 'European Central Bank' for 'ECB'."""
    found: set[str] = set()
    for match in _CAPITALISED_RUN.finditer(passage):
        parts = [word for word in match.group().split() if word[0].isupper() and word.lower() not in lex.STOPWORDS]
        initials = "".join(word[0] for word in parts)
        if len(initials) >= 2 and re.search(r"\b" + initials + r"s?\b", backing):
            found.update(parts)
    return found


def _missing(stems_in_order: Iterable[tuple[str, str]], backing: rules.Backing) -> list[str]:
    return list(dict.fromkeys(word.lower() for word, stem in stems_in_order if stem not in backing))


def _coverage_reason(label: str, pairs: list[tuple[str, str]], backing: rules.Backing) -> rules.Reason:
    distinct = {stem for _, stem in pairs}
    backed = {stem for stem in distinct if stem in backing}
    missing = _missing(pairs, backing)
    more = "\u2026" if len(missing) > SHOWN_WORDS else ""
    return rules.Reason(
        "low_coverage",
        f"{label}only {len(backed)} of {len(distinct)} content words are in the cited claims; "
        f"not in them: {', '.join(missing[:SHOWN_WORDS])}{more}",
    )


def _weighted_coverage(stems: set[str], backing: rules.Backing) -> float:
    total = sum(rules.weight(stem) for stem in stems)
    return sum(rules.weight(stem) for stem in stems if stem in backing) / total if total else 1.0


@lru_cache(maxsize=8192)
def _content_words(sentence: str) -> tuple[str, ...]:
    """A sentence's content words, read once: a story's passages are checked again and again."""
    return tuple(lex.content_words(sentence))


@dataclass(frozen=True)
class _Wording:
    """How much of a passage's wording the cited claims back: the low-coverage reasons, the
    passage's weighted coverage, and its content words (word, stem) in order."""

    reasons: list[rules.Reason]
    coverage: float
    pairs: tuple[tuple[str, str], ...] = ()

    @property
    def count(self) -> int:
        return len({stem for _, stem in self.pairs})


def _word_reasons(sentences: list[str], backing: rules.Backing) -> _Wording:
    """The passage must be mostly backed, and so must each of its sentences. When a sentence
    is not, the reason names that sentence: it is what the writer must fix or cite for."""
    # Counts in words the claims give in digits ('nine out of ten' for '9 in 10') are the figure
    # rule's to check, not the wording's.
    by_sentence = [
        [
            (word, lex.stem(word))
            for word in _content_words(sentence)
            if word.lower() not in rules.NUMBER_WORDS or lex.stem(word) in backing
        ]
        for sentence in sentences
    ]
    pairs = [pair for sentence_pairs in by_sentence for pair in sentence_pairs]
    distinct = {stem for _, stem in pairs}
    if not distinct:
        return _Wording([], 1.0)
    coverage = _weighted_coverage(distinct, backing)
    reasons = []
    if len(sentences) > 1:
        for number, (sentence, sentence_pairs) in enumerate(zip(sentences, by_sentence, strict=True), start=1):
            sentence_stems = {stem for _, stem in sentence_pairs}
            if len(sentence_stems) < SENTENCE_MIN_WORDS:
                continue
            if _weighted_coverage(sentence_stems, backing) < SENTENCE_COVERAGE:
                label = f"sentence {number} ('{_quote(sentence)}') is not backed by the cited claims: "
                reasons.append(_coverage_reason(label, sentence_pairs, backing))
    if coverage < PASSAGE_COVERAGE and not reasons:
        reasons.append(_coverage_reason("", pairs, backing))
    return _Wording(reasons, coverage, tuple(pairs))


def check(
    passage_markdown: str,
    claim_texts: Sequence[str],
    context_texts: Sequence[str] = (),
    labels: Sequence[str] = (),
) -> Support:
    """Whether a passage is backed by the texts of the claims it cites.

    ``labels`` name the claims in reasons ('claim c1 says ...'); by default 'claim 1', 'claim 2'.

    ``context_texts`` (the cited manifests' titles and brief headlines) may back a name, never
    a figure or the wording: a claim is what the source states, a title only what it is about.
    """
    passage = lex.plain_text(passage_markdown)
    if len(passage) > PASSAGE_MOST_CHARACTERS:
        reason = rules.Reason(
            "passage_too_long",
            f"the paragraph is {len(passage):,} characters long; the support check reads paragraphs of up "
            f"to {PASSAGE_MOST_CHARACTERS:,}: split it into paragraphs, each citing its claims",
        )
        return Support(UNSUPPORTED, [reason], coverage=0.0)
    plain_claims = [_plain(claim) for claim in claim_texts]
    claims = "\n".join(plain_claims)
    if len(labels) != len(plain_claims):
        labels = [f"claim {number}" for number in range(1, len(plain_claims) + 1)]
    cited = [rules.Cited(label, rules.clause_of(claim)) for label, claim in zip(labels, plain_claims, strict=True)]
    backing = rules.Backing([item.clause for item in cited])
    if _ACRONYM.search(claims):
        # 'European Central Bank' is backed by a claim's 'ECB', as a name and as words.
        backing.add({lex.stem(word) for word in _abbreviated_names(passage, claims)})
        # Acronyms whose words everyone knows: a claim's 'LLMs' backs 'large language models'.
        backing.add(
            {lex.stem(word) for acronym, words in _EXPANSIONS.items() if acronym in claims for word in words.split()}
        )

    # A period, a factor or a rounding the figure and date rules accept backs its own words:
    # 'April-to-June quarter' for a claim's Q2, 'roughly sixfold' for $2.3 billion to $13.8
    # billion, 'nearly' before a rounded figure.
    backing.add(
        rules.backed_date_words(passage, cited)
        | rules.backed_factor_words(passage, cited)
        | _hedge_words(passage)
        | _share_words(passage, claims)
    )
    reasons = _figure_reasons(passage, claims, backing)
    reasons += _name_reasons(passage, claims, backing, context_texts)
    sentences = list(lex.sentences(passage))
    wording = _word_reasons(sentences, backing)
    reasons += wording.reasons
    reasons += rules.check(sentences, cited, backing)
    found = tuple(reason.code for reason in reasons)
    verdict = verdict_of(found, wording.coverage, len(sentences))
    if verdict == SUPPORTED:
        reasons = []  # a verb taken for the reporter's word for the claim's
    elif any(reason.code != UNSAID_VERB for reason in reasons):
        # Another rule says what is wrong or unclear: the verbs the claims do not say add nothing.
        reasons = [reason for reason in reasons if reason.code != UNSAID_VERB]
    else:
        # No rule faults it, but too little of it is in the claims' words for the rules to show it.
        label = "the rules cannot show the passage from the claims: "
        reasons.append(_coverage_reason(label, list(wording.pairs), backing))
    return Support(
        verdict, reasons, coverage=wording.coverage, content_words=wording.count, found=found, sentences=len(sentences)
    )
