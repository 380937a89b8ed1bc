"""Is a passage backed by the claims it cites? A lexical method that explains itself.

Four tests, each with a reason a person can act on:

1. **Figures.** Every figure written with digits (30.7%, 1,200, $2.5bn, 64k, 4th, 10x) must
   have its value in a cited claim, however the claim writes it (30.7 percent, 1200, 2.5
   billion, 64,000, 'half' for 50%). A figure written as a word ('four environment scales') is
   held to the same rule when it counts something the claims talk about. Values are compared
   exactly: a changed or rounded number is always reported.
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
4. **What a fact-checker looks for** (``verification.support_rules``): negation, direction,
   dates, quantities, swapped names, modality, and predicates no claim makes. Each reason
   names its kind and quotes the passage and the claim.

Thresholds are fractions of weighted content words; they were set on the labelled cases in
``tests/verification/supported_cases.json`` and ``fact_check_cases.json`` (see
``bench/supported_eval.py``), never on ``heldout_cases.json``, which measures.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from decimal import ROUND_HALF_UP, Decimal
from functools import lru_cache

from . import support_rules as rules
from . import text as lex

# A passage needs this share of its content words in the cited claims...
PASSAGE_COVERAGE = 0.45
# ...and each sentence of at least SENTENCE_MIN_WORDS content words needs this share.
SENTENCE_COVERAGE = 0.34
SENTENCE_MIN_WORDS = 4
# A number word counts as a figure when one of the next few content words is in the claims.
SPELLED_LOOKAHEAD = 3
# Units a count in words counts that stopword lists leave out: 'twelve years'.
_COUNTED_UNITS = frozenset(["years", "months", "weeks", "days", "hours", "minutes", "times"])
# How many missing words an explanation lists.
SHOWN_WORDS = 6


@dataclass
class Support:
    """The verdict on one passage: ``supported`` and, when not, every reason why not."""

    supported: bool
    reasons: list[str] = field(default_factory=list)
    coverage: float = 1.0
    content_words: int = 0


def _quote(text: str, limit: int = 60) -> str:
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "\u2026"


def _figures_offered(claim_text: str) -> str:
    shown = list(dict.fromkeys(str(figure) for figure in lex.digit_figures(claim_text)))
    if not shown:
        return "they state no figures"
    more = f" and {len(shown) - 5} more" if len(shown) > 5 else ""
    return "they give " + ", ".join(shown[:5]) + more


# A hedged figure ('nearly 40%', 'more than 200', 'about 1.2 million') may round a claim's
# figure: by at most this share of it, and in the direction its hedge says.
ROUNDING = Decimal("0.05")
_APPROXIMATELY = ("about", "around", "roughly", "approximately", "some", "circa", "an estimated")
_BELOW = ("nearly", "almost", "close to", "just under", "well under", "under", "less than", "fewer than", "up to")
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
    r"\b(" + "|".join(sorted(_APPROXIMATELY + _BELOW + _ABOVE, key=len, reverse=True)) + r")\s+$", re.IGNORECASE
)


# A figure rounded without a hedge keeps at least this many significant digits: '31.9' for
# 31.85 and '1.19 million' for 1,187,000 drop only the last digit; '40%' for 39.6% is a change.
PLAIN_ROUNDING_DIGITS = 3


def _rounds_plainly(figure: lex.Figure, offered: frozenset[Decimal]) -> bool:
    """Whether a figure is a claim's value correctly rounded to the figure's own precision,
    keeping PLAIN_ROUNDING_DIGITS significant digits."""
    value = figure.value
    if not value or len(value.normalize().as_tuple().digits) < PLAIN_ROUNDING_DIGITS:
        return False
    quantum = Decimal(1).scaleb(value.normalize().as_tuple().exponent)
    return any(
        other != value
        and other.normalize().as_tuple().exponent < quantum.as_tuple().exponent
        and other.quantize(quantum, rounding=ROUND_HALF_UP) == value
        for other in offered
    )


def _rounds(passage: str, figure: lex.Figure, offered: set[Decimal]) -> bool:
    """Whether a hedged figure is a rounding of a value a claim gives: 'nearly 40%' for 39.6%."""
    hedge = _HEDGE.search(passage[max(0, figure.start - 20) : figure.start])
    if not hedge or not figure.value:
        return False
    word = hedge.group(1).lower()
    # A bound ('more than 200' for 214) may sit further from the value than a plain rounding.
    tolerance = ROUNDING if word in _APPROXIMATELY else 2 * ROUNDING
    quantum = Decimal(1).scaleb(figure.value.normalize().as_tuple().exponent)
    for value in offered:
        if not value or abs(figure.value - value) > abs(value) * tolerance:
            continue
        if value.normalize().as_tuple().exponent >= quantum.as_tuple().exponent:
            continue  # not rounder than the claim's figure: 'some 1,101' for 1,100 is a change
        if word in _APPROXIMATELY and value.quantize(quantum) != figure.value:
            continue  # 'about 1.2 million' rounds 1,187,000; 'about 1.3 million' does not
        if word in _BELOW and value > figure.value:
            continue  # 'nearly 40%' cannot round 41%
        if word in _ABOVE and value < figure.value:
            continue  # 'more than 200' cannot round 190
        return True
    return False


@lru_cache(maxsize=8192)
def _plain(claim: str) -> str:
    return lex.plain_text(claim)


@lru_cache(maxsize=8192)
def _claim_values(claim: str) -> frozenset[Decimal]:
    """Every value one claim offers, however written; a story cites a claim from many passages."""
    # Digits inside a claim's names count too: 'Llama 3' in a passage for a claim's 'Llama-3'.
    # Only version-like numbers: a year inside a name ('FY2024') backs no year of the passage's.
    inside_names = {value for digits in _NAME_DIGITS.findall(claim) if (value := Decimal(digits)) < 1000}
    # A model's size in its name: 'Qwen3-8B' backs '8B' and 'the 8-billion-parameter model'.
    sizes = {
        (Decimal(digits) * _SIZE_SCALES[scale.upper()]).normalize() for digits, scale in _MODEL_SIZE.findall(claim)
    }
    return frozenset(lex.figure_values(claim) | lex.implied_values(claim) | inside_names | sizes)


_MODEL_SIZE = re.compile(r"(?<=[A-Za-z0-9][-.])(\d+(?:\.\d+)?)([BbMmKkTt])\b")
_SIZE_SCALES = {"K": Decimal(1_000), "M": Decimal(1_000_000), "B": Decimal(1_000_000_000), "T": Decimal(10**12)}


_METRES = re.compile(r"\d+(?:\.\d+)?m")
_NAME_DIGITS = re.compile(r"(?<=[A-Za-z][-.])\d+(?:\.\d+)?|(?<=[A-Za-z])\d+(?:\.\d+)?")


def _figure_reasons(passage: str, claims: str, backing: rules.Backing) -> list[str]:
    digits, spelled = lex.digit_figures(passage), lex.spelled_figures(passage)
    if not digits and not spelled:
        return []
    offered = frozenset().union(*(_claim_values(claim) for claim in claims.split("\n")))
    # '3 in 10' for a claim's 30%: the ratio's own figures are not held to the claims.
    in_ratios = set()
    for match, percent in lex.ratios(passage):
        if any(abs(percent - value) <= 1 for value in offered):
            in_ratios |= set(range(match.start(), match.end()))
    reasons = []
    digits = [figure for figure in digits if figure.start not in in_ratios]
    spelled = [figure for figure in spelled if figure.start not in in_ratios]
    for figure in digits:
        if _METRES.fullmatch(figure.text) and Decimal(figure.text[:-1]) in offered and "met" in claims.lower():
            continue  # '5.4m' for a claim's '5.4 metres': 'm' is the unit here, not million
        if figure.value in offered or _rounds(passage, figure, offered) or _rounds_plainly(figure, offered):
            continue
        reasons.append(f"'{figure}' is in none of the cited claims ({_figures_offered(claims)})")
    for figure in spelled:
        if figure.value in offered or _rounds(passage, figure, offered):
            continue  # 'about five points' for 4.97
        following = [
            word
            for word in lex.words(passage[figure.start + len(figure.text) :])[: SPELLED_LOOKAHEAD + 2]
            if len(word) > 2 and (word.lower() not in lex.STOPWORDS or word.lower() in _COUNTED_UNITS)
        ][:SPELLED_LOOKAHEAD]
        counted = [word for word in following if lex.stem(word) in backing]
        if counted:
            reasons.append(f"'{figure}' ({counted[0]}) is in none of the cited claims ({_figures_offered(claims)})")
    return list(dict.fromkeys(reasons))


def _name_reasons(passage: str, claims: str, backing: rules.Backing, context_texts: Sequence[str]) -> list[str]:
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
        f"'{name}' is named but no cited claim mentions it"
        for name in found
        if name not in abbreviated
        and name not in _COMMON_KNOWLEDGE
        and name not in _COMMON_ACRONYMS
        and not _MONTHS_ONLY.fullmatch(name)  # 'July-September': a date, the date rule's
        and not _PERIOD.fullmatch(name)
        and not _demonym_of(name, backing_lower)
        and not ("." in name and lex.name_is_mentioned(name.replace(".", ""), backing_lower, backing_stems))
        and not any(word in backing_lower for word in _TITLES.get(name) or _TITLES.get(name.rstrip("s"), ()))
        and not _initials_of(name, text)
        and not lex.name_is_mentioned(name, backing_lower, backing_stems)
    ]


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
_MONTHS_ONLY = re.compile(rf"(?:{_MONTH_NAMES})(?:[-\u2013](?:{_MONTH_NAMES}))+")


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


def _coverage_reason(label: str, pairs: list[tuple[str, str]], backing: rules.Backing) -> str:
    distinct = {stem for _, stem in pairs}
    backed = {stem for stem in distinct if stem in backing}
    missing = _missing(pairs, backing)
    more = "\u2026" if len(missing) > SHOWN_WORDS else ""
    return (
        f"{label}only {len(backed)} of {len(distinct)} content words are in the cited claims; "
        f"not in them: {', '.join(missing[:SHOWN_WORDS])}{more}"
    )


def _weighted_coverage(stems: set[str], backing: rules.Backing) -> float:
    total = sum(rules.weight(stem) for stem in stems)
    return sum(rules.weight(stem) for stem in stems if stem in backing) / total if total else 1.0


@lru_cache(maxsize=8192)
def _content_words(sentence: str) -> tuple[str, ...]:
    """A sentence's content words, read once: a story's passages are checked again and again."""
    return tuple(lex.content_words(sentence))


def _word_reasons(sentences: list[str], backing: rules.Backing) -> tuple[list[str], float, int]:
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
        return [], 1.0, 0
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
    return reasons, coverage, len(distinct)


def assess(
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

    reasons = _figure_reasons(passage, claims, backing)
    reasons += _name_reasons(passage, claims, backing, context_texts)
    sentences = list(lex.sentences(passage))
    word_reasons, coverage, count = _word_reasons(sentences, backing)
    reasons += word_reasons
    reasons += rules.check(sentences, cited, backing)
    return Support(supported=not reasons, reasons=reasons, coverage=coverage, content_words=count)
