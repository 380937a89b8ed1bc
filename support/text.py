"""The lexical toolkit the checks share: plain text from markdown, words, stems, numbers, names.

No model and no corpus: everything here is a rule a person can read, so a check can say
exactly why it decided what it did.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from functools import lru_cache

from lemminflect import getAllLemmas, getInflection

# --- Plain text ----------------------------------------------------------------------------

_MD_LINK = re.compile(r"!?\[([^\]]*)\]\([^)]*\)")
_MD_AUTOLINK = re.compile(r"<(https?://[^>]+)>")
_MD_MARKS = re.compile(r"(\*\*|__|\*|`+|~~|^#{1,6}\s+|^>\s?|^\s*[-+*]\s+|^\s*\d+\.\s+)", re.MULTILINE)
_HTML_TAG = re.compile(r"<[^>]+>")
_URL = re.compile(r"https?://\S+")


_TYPOGRAPHY = str.maketrans(
    {"\u2019": "'", "\u2018": "'", "\u201c": '"', "\u201d": '"', "\u2013": "-", "\u2014": " - ", "\u00a0": " "}
)


_MARKUP_CHARACTERS = frozenset("[<*_`~#>\n")
_LIST_ITEM = re.compile(r"\s*(?:[-+]\s|\d+\.\s)")


def plain_text(markdown: str) -> str:
    """Markdown as a reader sees it: link texts kept, URLs, tags and emphasis marks dropped."""
    if _MARKUP_CHARACTERS.isdisjoint(markdown) and "http" not in markdown and not _LIST_ITEM.match(markdown):
        # Plain prose (most paragraphs and every claim): only the typography to normalise.
        return " ".join(markdown.translate(_TYPOGRAPHY).split())
    text = _MD_LINK.sub(r"\1", markdown)
    text = _MD_AUTOLINK.sub(" ", text)
    text = _HTML_TAG.sub(" ", text)
    text = _URL.sub(" ", text)
    text = _MD_MARKS.sub(" ", text)
    # Typographic quotes and dashes as plain ones, so one pattern reads both.
    text = text.translate(_TYPOGRAPHY)
    return re.sub(r"\s+", " ", text).strip()


# --- Words and stems -----------------------------------------------------------------------

# Function words, and words every news paragraph uses whatever it reports (reporting verbs,
# hedges, connectives): their presence says nothing about support. Scale and currency words
# belong to figures ('2.5 billion dollars'), which are checked as figures.
_STOPWORDS = """
    a about above according across after afterwards again against all almost alone along already also
    although always am among amongst an and another any anyhow anyone anything anyway anywhere are
    around as at back be became because become becomes becoming been before beforehand behind being
    below beside besides between beyond both but by can cannot could did do does doing done down due
    during each either else elsewhere enough etc even ever every everyone everything everywhere except
    few for former formerly from further had has have having he hence her here hereafter hereby herein
    hers herself him himself his how however i if in indeed instead into is it its itself just last
    latter latterly least less let like likely made make makes many may me meanwhile might mine more
    moreover most mostly much must my myself namely neither never nevertheless next no nobody none
    noone nor not nothing now nowhere of off often on once only onto or other others otherwise our ours
    ourselves out over own per perhaps put quite rather re really said same say saying says see seem
    seemed seeming seems several she should since so some somehow someone something sometime sometimes
    somewhere still such than that the their theirs them themselves then thence there thereafter
    thereby therefore therein thereupon these they this those though through throughout thru thus to
    together too toward towards under until up upon us very via was we well were what whatever when
    whence whenever where whereafter whereas whereby wherein whereupon wherever whether which while
    whither who whoever whole whom whose why will with within without would yet you your yours
    yourself yourselves
    argue argues argued argument claim claims claimed note notes noted noting report reports reported
    reporting state states stated tell tells told write writes wrote written writing add adds added
    suggest suggests suggested suggesting show shows showed shown find finds found explain explains
    explained describe describes described call calls called put puts use uses used using
    new recent recently week weeks today yesterday year years month months day days time times
    according way ways thing things kind lot lots part instance example words word other
    first second third finally first-ever overall still simply mainly largely
    researchers authors author paper papers study studies post preprint team teams company companies
    thousand thousands million millions billion billions trillion trillions percent percentage cent
    dollar dollars euro euros pound pounds
"""
STOPWORDS = frozenset(_STOPWORDS.split())

_WORD = re.compile(r"[A-Za-z][A-Za-z'-]*[A-Za-z]|[A-Za-z]")


def _pairs(text: str) -> dict[str, str]:
    return dict(pair.split(":") for pair in text.split())  # type: ignore[misc]


# Nouns whose verb no suffix rule finds, so 'loss' meets 'lost' and 'growth' 'grew'. (Irregular
# verb forms come from lemminflect's dictionary: ``verb_base``.)
NOUN_VERBS = _pairs(
    """
    loss:lose losses:lose growth:grow sale:sell sales:sell choice:choose decision:decide decisions:decide
    failure:fail failures:fail death:die deaths:die proof:prove belief:believe
    """
)


def _regular_forms(lemma: str) -> set[str]:
    """What the suffix rules already read as the lemma: -s, -es, -ed, -d, -ing, -ied, doubled."""
    forms = {lemma, lemma + "s", lemma + "es", lemma + "ed", lemma + "d", lemma + "ing", lemma[:-1] + "ing"}
    forms |= {lemma + lemma[-1] + "ed", lemma + lemma[-1] + "ing", lemma[:-1] + "ied", lemma[:-1] + "ies"}
    return forms


@lru_cache(maxsize=20_000)
def verb_base(word: str) -> str | None:
    """The plain form of an irregular verb form ('built': 'build', 'overtook': 'overtake'), as
    lemminflect's dictionary of English gives it; None for any other word, regular forms
    included (the suffix rules read those)."""
    lemmas = getAllLemmas(word, upos="VERB").get("VERB")
    if not lemmas or lemmas[0] == word or word in _regular_forms(lemmas[0]):
        return None
    return lemmas[0]


def plain_verb(word: str) -> str | None:
    """The verb a word is a form of that no suffix rule finds: a noun's ('loss': 'lose') or an
    irregular form's ('built': 'build'); None otherwise."""
    return NOUN_VERBS.get(word) or verb_base(word)


def irregular_past(word: str) -> bool:
    """A past tense or participle no ending gives away ('dealt', 'ran', 'sought')."""
    base = verb_base(word)
    return base is not None and word in {*getInflection(base, "VBD"), *getInflection(base, "VBN")}


@lru_cache(maxsize=20_000)
def stem(word: str) -> str:
    """A light suffix-stripping stem, enough to match 'verifiers' with 'verifier' and
    'evaluated' with 'evaluation' ('evalu'). Not Porter: shorter rules, fewer surprises.
    Irregular verb forms are read as their plain form first ('built': 'build')."""
    w = word.lower()
    if w.endswith("'s"):
        w = w[:-2]
    w = plain_verb(w) or w
    if len(w) <= 3:
        return w
    for suffix, keep in (
        ("ational", "ate"),
        ("ization", "ize"),
        ("isation", "ize"),
        ("fulness", "ful"),
        ("iveness", "ive"),
        ("ousness", "ous"),
        ("ations", "ate"),
        ("ation", "ate"),
        ("ables", ""),
        ("able", ""),
        ("ibles", ""),
        ("ible", ""),
        ("ives", ""),
        ("ive", ""),
        ("ments", ""),
        ("ment", ""),
        ("ness", ""),
        ("ities", ""),
        ("ity", ""),
        ("ings", ""),
        ("ing", ""),
        ("ies", "y"),
        ("ied", "y"),
        ("edly", ""),
        ("ed", ""),
        ("ers", ""),
        ("er", ""),
        ("ly", ""),
        ("es", ""),
        ("s", ""),
    ):
        if w.endswith(suffix) and len(w) - len(suffix) >= 3:
            if suffix == "s" and w.endswith(("ss", "us", "is")):
                continue
            if suffix == "es" and not w.endswith(("ches", "shes", "xes", "sses", "zes")):
                w = w[:-1]
                break
            w = w[: -len(suffix)] + keep
            break
    if w.endswith("e") and len(w) > 4:
        w = w[:-1]
    if len(w) >= 4 and w[-1] == w[-2] and w[-1] not in "lsz" and w[-1] not in "aeiou":
        w = w[:-1]  # running -> runn -> run
    return w


def words(text: str) -> list[str]:
    """Word tokens of plain text; hyphenated compounds are split into their parts."""
    return [part for token in _WORD.findall(text) for part in token.split("-") if part]


def content_words(text: str) -> list[str]:
    """Words that carry meaning: no stopwords, no one- or two-letter words."""
    return [word for word in words(text) if len(word) > 2 and word.lower() not in STOPWORDS]


def content_stems(text: str) -> set[str]:
    return {stem(word) for word in content_words(text)}


def stems_match(a: str, b: str) -> bool:
    """Equal stems, or long stems sharing their first six letters ('verifiable'/'verifier')."""
    return a == b or (len(a) >= 6 and len(b) >= 6 and a[:6] == b[:6])


class StemIndex:
    """A set of stems that also answers the six-letter prefix match quickly."""

    def __init__(self, stems: set[str]):
        self.stems = stems
        self.prefixes = {item[:6] for item in stems if len(item) >= 6}

    def __contains__(self, item: str) -> bool:
        return item in self.stems or (len(item) >= 6 and item[:6] in self.prefixes)


# --- Numbers -------------------------------------------------------------------------------

_SCALE_WORDS = {
    "thousand": Decimal(1_000),
    "million": Decimal(1_000_000),
    "billion": Decimal(1_000_000_000),
    "trillion": Decimal(1_000_000_000_000),
}
_SCALE_SUFFIXES = {
    "k": Decimal(1_000),
    "m": Decimal(1_000_000),
    "mn": Decimal(1_000_000),
    "mln": Decimal(1_000_000),
    "b": Decimal(1_000_000_000),
    "bn": Decimal(1_000_000_000),
    "t": Decimal(1_000_000_000_000),
    "tn": Decimal(1_000_000_000_000),
}
_UNITS = {
    "zero": 0,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
    "eleven": 11,
    "twelve": 12,
    "thirteen": 13,
    "fourteen": 14,
    "fifteen": 15,
    "sixteen": 16,
    "seventeen": 17,
    "eighteen": 18,
    "nineteen": 19,
    "twenty": 20,
    "thirty": 30,
    "forty": 40,
    "fifty": 50,
    "sixty": 60,
    "seventy": 70,
    "eighty": 80,
    "ninety": 90,
    "hundred": 100,
    "dozen": 12,
}

# A figure written with digits: currency, digits (thousands separators, decimals), then a scale
# or unit. It must not be glued to letters before it (Qwen3, GSM8K are names, not figures).
_FIGURE = re.compile(
    r"""
    (?<![A-Za-z0-9_.,])
    (?P<currency>[$€£¥])?
    (?P<digits>\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?|\.\d+)(?![.,]\d)  # '46.2C' is not '46'
    (?:
        \s?(?P<percent>%|percent\b|per\s?cent\b)
      | \s?(?P<points>percentage[\s-]points?\b|pp\b|points?\b|pts\b)
      | (?P<suffix>k|K|mn|mln|bn|tn|m|M|b|B|t|T)(?![A-Za-z])
      | [\s-](?P<scale>thousand|million|billion|trillion)\b
      | (?P<ordinal>st|nd|rd|th)(?![A-Za-z])
      | (?P<times>x|\u00d7)(?![A-Za-z])
    )?
    (?![A-Za-z0-9])
    """,
    re.VERBOSE,
)
# Compound tokens (word characters joined by '-' or '.'); one that starts with a letter and
# holds a digit is a name, not a figure: ProgAgent-14B, Qwen3-8B, GPT-4o, COVID-19, GSM8K.
_COMPOUND = re.compile(r"(?<![\w.-])[A-Za-z]\w*(?:[-.]\w+)*")
_NUMBER_WORDS = re.compile(
    r"\b(?P<words>(?:(?:zero|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|"
    r"fifteen|sixteen|seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|"
    r"hundred|dozen|one)(?:[\s-](?:and[\s-])?)?)+)(?P<scale>thousand|million|billion|trillion)?\b",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class Figure:
    """A number as written (``text``) and the value it stands for, for comparison."""

    text: str
    value: Decimal
    start: int
    spelled: bool = False

    def __str__(self) -> str:
        return self.text


def _decimal(digits: str) -> Decimal | None:
    try:
        return Decimal(digits.replace(",", ""))
    except InvalidOperation:
        return None


def _normal(value: Decimal) -> Decimal:
    # 30.70 and 30.7 are the same figure; normalize() alone would turn 100 into 1E+2, which
    # still compares equal, so comparisons are by value.
    return value.normalize()


_DIGIT = re.compile(r"\d")
# A letter right before a digit, or before '-'/'.' and a digit: Qwen3, GSM8K, GPT-4, COVID-19.
_LETTER_THEN_DIGIT = re.compile(r"[A-Za-z][-.]?\d")


def _blank_if_digits(match: re.Match) -> str:
    token = match.group()
    return " " * len(token) if _DIGIT.search(token) else token


def mask_identifiers(text: str) -> str:
    """The text with digit-bearing names blanked out (same length), so their digits are not figures."""
    if not _LETTER_THEN_DIGIT.search(text):
        return text  # the common case, and a cheap test
    return _COMPOUND.sub(_blank_if_digits, text)


def digit_figures(text: str) -> list[Figure]:
    """Every figure written with digits: 30.7%, 30.7 percent, 1,200, $2.5bn, 64k, 4th, 10x."""
    masked = mask_identifiers(text)
    figures = []
    for match in _FIGURE.finditer(masked):
        value = _decimal(match["digits"])
        if value is None:
            continue
        if match["suffix"]:
            value *= _SCALE_SUFFIXES[match["suffix"].lower()]
        elif match["scale"]:
            value *= _SCALE_WORDS[match["scale"].lower()]
        figures.append(Figure(text[match.start() : match.end()].strip(), _normal(value), match.start()))
    return figures


def _spelled_value(phrase: str) -> Decimal | None:
    total, current = 0, 0
    for part in re.split(r"[\s-]+", phrase.lower()):
        if part in ("", "and"):
            continue
        if part == "one":
            current += 1
        elif part == "hundred":
            current = max(current, 1) * 100
        elif part in _UNITS:
            current += _UNITS[part]
        else:
            return None
    total += current
    return Decimal(total)


_NUMBER_WORD_SET = frozenset({*_UNITS, "one"})
_SCALE_HINT = re.compile(r"\ban?\s+(?:million|billion|trillion)\b", re.IGNORECASE)
_FRACTION_AFTER = re.compile(r"[\s-]*(?:thirds?|quarters?|fifths?|tenths?|halves)\b", re.IGNORECASE)
_NOT_LETTERS = re.compile(r"[^a-z]+")


def spelled_figures(text: str) -> list[Figure]:
    """Numbers written as words ('four environment scales', 'two million').

    Ordinal words are left out: 'a second preprint' enumerates, it does not report a figure.
    """
    if _NUMBER_WORD_SET.isdisjoint(_NOT_LETTERS.split(text.lower())) and not _SCALE_HINT.search(text):
        return []  # most passages: a set lookup instead of the slower pattern below
    figures = []
    for match in _NUMBER_WORDS.finditer(text):
        phrase = match["words"].strip(" -")
        lowered = phrase.lower()
        if lowered in ("one", "one and") and not match["scale"]:
            # 'one' is more often a pronoun ('no one', 'one of them') than a count; 'one million' is a count.
            continue
        if _FRACTION_AFTER.match(text, match.end()):
            continue  # 'two-thirds' is a share, the quantity rule's, not a count of two
        value = _spelled_value(phrase)
        if value is None:
            continue
        written = match.group().strip()
        ordinal = _ORDINAL_AFTER.match(text, match.end()) if lowered.endswith(_TENS) else None
        if ordinal:
            # 'the twenty-second year running' is the 22nd: a compound ordinal counts.
            value += _ORDINAL_UNITS[ordinal.group(1).lower()]
            written = text[match.start() : ordinal.end()]
        half = _AND_A_HALF.match(text, match.end()) if not match["scale"] else None
        if half and lowered.endswith("and"):
            value += Decimal("0.5")  # 'two and a half times'
            written = text[match.start() : half.end()]
        if match["scale"]:
            value *= _SCALE_WORDS[match["scale"].lower()]
        figures.append(Figure(written, _normal(value), match.start(), spelled=True))
    for match in _SHARE_OF_SCALE.finditer(text):
        share = _spelled_share(match["n"], match["d"])
        if share:
            value = _normal(share * _SCALE_WORDS[match["scale"].lower()])
            figures.append(Figure(match.group(), value, match.start(), spelled=True))
    return figures


_AND_A_HALF = re.compile(r"a\s+half\b", re.IGNORECASE)
_TENS = ("twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety")
_ORDINAL_UNITS = {"first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "sixth": 6, "seventh": 7}
_ORDINAL_UNITS |= {"eighth": 8, "ninth": 9}
_ORDINAL_AFTER = re.compile(r"(?<=-)(" + "|".join(_ORDINAL_UNITS) + r")\b", re.IGNORECASE)
# 'a quarter of a billion', 'three quarters of a million': an amount, in words.
_SHARE_OF_SCALE = re.compile(
    r"\b(?:(?P<n>a|one|two|three)[\s-]+)?(?P<d>half|thirds?|quarters?)\s+(?:of\s+)?an?\s+"
    r"(?P<scale>million|billion|trillion)\b",
    re.IGNORECASE,
)


def _spelled_share(numerator: str | None, denominator: str) -> Decimal | None:
    count = 1 if not numerator or numerator.lower() in ("a", "one") else _UNITS[numerator.lower()]
    parts = _DENOMINATORS[denominator.lower()]
    return Decimal(count) / Decimal(parts) if count < parts else None


def figure_values(text: str) -> set[Decimal]:
    """Every value a text states, however written: what a cited claim offers to back a figure."""
    return {figure.value for figure in digit_figures(text)} | {figure.value for figure in spelled_figures(text)}


# Words that state a value without a digit: what a claim saying 'half' or 'a decade' offers to
# back a passage's '50%' or '10 years'. Only the claim side reads these: a passage's 'half' is
# not held to the figure rule.
_IMPLIED = {
    "half": (Decimal(50), Decimal("0.5"), Decimal(6)),
    "a year": (Decimal(12), Decimal(52), Decimal(365)),
    "annual": (Decimal(12),),
    "year-on-year": (Decimal(12),),
    "a day": (Decimal(24),),
    "an hour": (Decimal(60),),
    "halved": (Decimal(50),),
    "decade": (Decimal(10),),
    "decades": (Decimal(10),),
    "century": (Decimal(100),),
    "quarter": (Decimal(25), Decimal(3)),
    "third": (Decimal(3),),
    "fortnight": (Decimal(2), Decimal(14)),
    "twice": (Decimal(2),),
    "double": (Decimal(2), Decimal(100)),
    "doubled": (Decimal(2), Decimal(100)),
    "tripled": (Decimal(3), Decimal(200)),
    "triple": (Decimal(3), Decimal(200)),
    "triples": (Decimal(3), Decimal(200)),
    "quadrupled": (Decimal(4), Decimal(300)),
    "quadruple": (Decimal(4), Decimal(300)),
    **{
        f"{word}fold": (Decimal(value),)
        for value, word in enumerate(("two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"), 2)
    },
    "a dozen": (Decimal(12),),
    "week": (Decimal(7),),
    "a thousand": (Decimal(1_000),),
    "a million": (Decimal(1_000_000),),
    "half a million": (Decimal(500_000),),
    "a billion": (Decimal(1_000_000_000),),
    "half a billion": (Decimal(500_000_000),),
    "nine in ten": (Decimal(90),),
    "a tenth": (Decimal(10),),
    "quarter point": (Decimal("0.25"), Decimal(25)),
    "quarter-point": (Decimal("0.25"), Decimal(25)),
    "half a point": (Decimal("0.5"), Decimal(50)),
    "half-point": (Decimal("0.5"), Decimal(50)),
    "half a percentage point": (Decimal("0.5"), Decimal(50)),
    "half a year": (Decimal(6),),
    "half-year": (Decimal(6),),
    "both": (Decimal(2),),
    "pair": (Decimal(2),),
    "couple": (Decimal(2),),
    "single": (Decimal(1),),
    "once": (Decimal(1),),
    "none": (Decimal(0),),
    "no": (Decimal(0),),
    "one third": (Decimal(33), Decimal("33.3")),
    "one-third": (Decimal(33), Decimal("33.3")),
    "one and a half": (Decimal("1.5"),),
    "two and a half": (Decimal("2.5"),),
    "first": (Decimal(1),),
    "second": (Decimal(2),),
    "fourth": (Decimal(4),),
    "fifth": (Decimal(5),),
    "sixth": (Decimal(6),),
    "seventh": (Decimal(7),),
    "eighth": (Decimal(8),),
    "ninth": (Decimal(9),),
    "tenth": (Decimal(10),),
    "one in two": (Decimal(50),),
    "one in three": (Decimal(33), Decimal("33.3")),
    "one in four": (Decimal(25),),
    "one in five": (Decimal(20),),
    "one in ten": (Decimal(10),),
    "a third": (Decimal(33), Decimal("33.3")),
    "two thirds": (Decimal(67), Decimal("66.7"), Decimal(66)),
    "two-thirds": (Decimal(67), Decimal("66.7"), Decimal(66)),
    "a fifth": (Decimal(20),),
    "three quarters": (Decimal(75),),
    "three-quarters": (Decimal(75),),
}
# Words that state a share: 'all' backs a passage's 100%, never a count of 100.
_WHOLE_WORD = re.compile(r"\b(?:all|every)\b", re.IGNORECASE)


def implied_shares(text: str) -> set[Decimal]:
    """Percentages a text states without a figure: 'all', 'every' (100)."""
    return {Decimal(100)} if _WHOLE_WORD.search(text) else set()


_IMPLIED_WORD = re.compile(r"\b(" + "|".join(sorted(_IMPLIED, key=len, reverse=True)) + r")\b", re.IGNORECASE)


# 'one in eight', and with what is counted between: 'one recipient in eight', 'one time in five'
# (a singular noun after 'one'; 'two models in five settings' counts two things, no share). The
# whole may be any number: 'one in twelve', 'one in twenty-five', 'one in a hundred', '1 in 1,000'.
_TEEN_WORDS = "eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen"
_TENS_WORDS = "twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety"
_RATIO = re.compile(
    r"\b(?P<part>\d+|one|two|three|four|five|six|seven|eight|nine)\s+(?:(?<=one\s)(?P<counted>[a-z]+)(?<!s)\s+(?=in\s))?"
    r"(?:in(?:\s+every)?|out\s+of(?:\s+every)?|of\s+every)\s+"
    r"(?P<whole>\d{1,3}(?:,\d{3})+|\d+|(?:a\s+|one\s+)?(?:hundred|thousand)|"
    rf"(?:{_TENS_WORDS})(?:-(?:one|two|three|four|five|six|seven|eight|nine))?|{_TEEN_WORDS}|"
    r"two|three|four|five|six|seven|eight|nine|ten)\b(?![\s-]+(?:thousand|million|billion)\b)",
    re.IGNORECASE,
)
_PLURAL_AFTER = re.compile(r"\s+([a-z]+s)\b")


def ratio_number(written: str) -> int:
    """The number a ratio's part or whole is written as: '12', '1,000', 'twelve', 'twenty-five',
    'a hundred'."""
    words = written.lower().replace(",", "").split()
    if words[0].isdigit():
        return int(words[0])
    if words[-1] == "thousand":
        return 1000
    value = _spelled_value(words[-1])
    return int(value) if value is not None else 0


_RATIO_HINT = re.compile(r" (?:in|out of|of every) ", re.IGNORECASE)


def ratios(text: str) -> list[tuple[re.Match, Decimal]]:
    """'3 in 10', 'one out of four', 'one in a hundred': each with the percentage it states (30,
    25, 1)."""
    found: list[tuple[re.Match, Decimal]] = []
    if not _RATIO_HINT.search(text):
        return found
    for match in _RATIO.finditer(text):
        part, whole = ratio_number(match["part"]), ratio_number(match["whole"])
        plural = _PLURAL_AFTER.match(text, match.end()) if match["counted"] else None
        if plural and plural.group(1).lower() not in STOPWORDS:
            continue  # 'one model in five settings' counts things, it states no share; 'one pick in fifty was' does
        if whole and part < whole:
            found.append((match, Decimal(part * 100) / Decimal(whole)))
    return found


def implied_values(text: str) -> set[Decimal]:
    """Values a text states without a figure of their own: 'half' (50), 'a decade' (10),
    '3 in 10' (30), and a rise of 50% as 1.5 times."""
    values = {value for match in _IMPLIED_WORD.finditer(text) for value in _IMPLIED[match.group().lower()]}
    for _, percent in ratios(text):
        values |= {percent.quantize(Decimal(1)), percent.quantize(Decimal("0.1")).normalize()}
    for figure in digit_figures(text):
        if "%" in figure.text or "percent" in figure.text or "per cent" in figure.text:
            values.add((1 + figure.value / 100).normalize())
        if "point" in figure.text:
            values.add((figure.value * 100).normalize())  # 0.25 percentage points: 25 basis points
    for match in _CLOCK.finditer(text):
        values.add(Decimal(match.group(1)))  # '10am': the passage's '10 a.m.'
    values |= differences(text)
    values |= list_counts(text)
    values |= _multiplied_from(text)
    for match in _BASIS_POINTS.finditer(text):
        values.add((Decimal(match.group(1)) / 100).normalize())  # 50 basis points: 0.5 points
    return values


_DENOMINATORS = {
    "half": 2,
    "halves": 2,
    "third": 3,
    "thirds": 3,
    "quarter": 4,
    "quarters": 4,
    "fifth": 5,
    "fifths": 5,
    "sixth": 6,
    "sixths": 6,
    "seventh": 7,
    "sevenths": 7,
    "eighth": 8,
    "eighths": 8,
    "ninth": 9,
    "ninths": 9,
    "tenth": 10,
    "tenths": 10,
    "twelfth": 12,
    "twelfths": 12,
    "twentieth": 20,
    "twentieths": 20,
    "hundredth": 100,
    "hundredths": 100,
    "thousandth": 1000,
    "thousandths": 1000,
}
_FRACTION_WORDS = re.compile(
    r"\b(?P<n>a|one|two|three|four|five|six|seven|eight|nine)[\s-]+(?P<d>"
    + "|".join(sorted(_DENOMINATORS, key=len, reverse=True))
    + r")\b",
    re.IGNORECASE,
)


_FRACTION_HINT = frozenset(_DENOMINATORS)


def fraction_phrases(text: str) -> list[tuple[str, Decimal, Decimal | None]]:
    """Fractions in words as written, each with the percentage it states, unrounded ('one-ninth':
    11.1...), and, for a unit fraction, how many times the whole is the part ('a fifth': 5)."""
    found: list[tuple[str, Decimal, Decimal | None]] = []
    if _FRACTION_HINT.isdisjoint(_NOT_LETTERS.split(text.lower())):
        return found  # most texts: a set lookup instead of the patterns below
    for match in _FRACTION_WORDS.finditer(text):
        numerator = 1 if match["n"].lower() in ("a", "one") else _UNITS[match["n"].lower()]
        denominator = _DENOMINATORS[match["d"].lower()]
        if numerator >= denominator:
            continue
        reciprocal = Decimal(denominator) if numerator == 1 else None
        found.append((match.group(), Decimal(numerator * 100) / Decimal(denominator), reciprocal))
    if not found and (half := _HALF.search(text)):
        found.append((half.group(), Decimal(50), Decimal(2)))  # 'half of voters', 'half the price'
    return found


def fractions(text: str) -> list[tuple[Decimal, Decimal | None]]:
    """Fractions in words: the percentage each states and, for a unit fraction, its reciprocal."""
    return [(percent, reciprocal) for _, percent, reciprocal in fraction_phrases(text)]


_HALF = re.compile(r"\bhalf\b(?![\s-]+(?:a\s+|an\s+)?(?:point|percentage|year|day|hour|million|billion|dozen))", re.I)


# A list of three or more items: 'GRPO, GSPO, and fixed-credit tree policy gradients'.
_LIST = re.compile(r"(?:\b[\w-]+(?: [\w-]+){0,3}, ){2,7}(?:and |or )?[\w-]+")


def list_counts(text: str) -> set[Decimal]:
    """How many items a text lists, so 'three baselines' is backed by a claim naming three."""
    # The list's first items may be a clause's opening words ('Under matched budgets, X beats
    # A, B, and C'): every count from three to the whole run is offered.
    return {Decimal(count) for match in _LIST.finditer(text) for count in range(3, match.group().count(",") + 2)}


_FACTORS = {
    **dict.fromkeys(("doubled", "doubles", "double", "doubling", "twice", "twofold"), Decimal(2)),
    **dict.fromkeys(("tripled", "triples", "triple", "tripling", "threefold"), Decimal(3)),
    **dict.fromkeys(("quadrupled", "quadruples", "quadruple", "fourfold"), Decimal(4)),
    **{f"{word}fold": Decimal(value) for value, word in enumerate(("five", "six", "seven", "eight", "nine", "ten"), 5)},
    **dict.fromkeys(("halved", "halves", "halving"), Decimal("0.5")),
}
_TIMES_WORDS = {"two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10}
# A factor a text states in words or as 'N times' ('doubled', 'double its August volume', 'three
# times the 2024 figure'); 'double-digit', 'twice a year' state none.
_MULTIPLIED = re.compile(
    r"\b(?:(?P<word>"
    + "|".join(sorted(_FACTORS, key=len, reverse=True))
    + r")|(?P<n>\d+(?:\.\d+)?|"
    + "|".join(_TIMES_WORDS)
    + r")[\s-]*(?:times|x)(?!\w))(?![\s-]+(?:digits?|a\s+(?:day|week|month|year)|daily|weekly|monthly|yearly)\b)",
    re.IGNORECASE,
)


def _multiplied_from(text: str) -> set[Decimal]:
    """The value a factor a text states sets its figure against: 'doubled its workforce to 800'
    says it was 400 before, '48,000 claims, double its August volume' that August saw 24,000."""
    factors = []
    for match in _MULTIPLIED.finditer(text):
        if match["word"]:
            factors.append((match, _FACTORS[match["word"].lower()]))
        else:
            count = match["n"].lower()
            factors.append((match, Decimal(_TIMES_WORDS[count]) if count in _TIMES_WORDS else Decimal(count)))
    if not factors:
        return set()
    figures = [figure for figure in digit_figures(text) if figure.value and not _is_date_part(text, figure)]
    return {
        _normal(figure.value / factor)
        for match, factor in factors
        if factor
        for figure in figures
        if not match.start() <= figure.start < match.end()  # not the factor's own digits
    }


# A claim with more figures than this is a table, not a before-and-after: no differences.
_MOST_FIGURES_FOR_DIFFERENCES = 6


def is_percent(figure: Figure) -> bool:
    """Whether a figure is written as a percentage (not as percentage points)."""
    return ("%" in figure.text or "percent" in figure.text or "per cent" in figure.text) and "point" not in figure.text


_is_percent = is_percent


def differences(text: str) -> set[Decimal]:
    """The change between two figures of one kind a text gives ('rose from 68.5% to 74.3%'):
    a fact-checker accepts the passage's '5.8 points' as the claim's own arithmetic."""
    figures = [figure for figure in digit_figures(text) if figure.value]
    if not 2 <= len(figures) <= _MOST_FIGURES_FOR_DIFFERENCES:
        return set()
    # A day of a month and a year are dates, not amounts: '$30' less 'October 9' is no '$21'.
    amounts = [figure for figure in figures if not _is_date_part(text, figure)]
    found = set()
    for first, second in itertools.combinations(amounts, 2):
        if _kind(first) == _kind(second) and first.value != second.value:
            found.add(_normal(abs(first.value - second.value)))
    return found


_MONTH_BEFORE = re.compile(
    r"(?:January|February|March|April|May|June|July|August|September|October|November|December|"
    r"Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sept?|Oct|Nov|Dec)\.?\s+$"
)
_MONTH_AFTER = re.compile(
    r"(?:st|nd|rd|th)?\s+(?:January|February|March|April|May|June|July|August|September|October|November|December)\b"
)


def _is_date_part(text: str, figure: Figure) -> bool:
    """Whether a figure is a year or a day of a month ('October 9', '9 October')."""
    if figure.text.isdigit() and len(figure.text) == 4 and 1800 <= int(figure.text) <= 2199:
        return True
    if not figure.text.isdigit() or len(figure.text) > 2:
        return False
    return bool(
        _MONTH_BEFORE.search(text[max(0, figure.start - 11) : figure.start])
        or _MONTH_AFTER.match(text, figure.start + len(figure.text))
    )


def _kind(figure: Figure) -> tuple[bool, str]:
    """What a figure counts, as far as its writing says: a percentage or not, and its currency."""
    return _is_percent(figure), figure.text[0] if figure.text[0] in "$€£¥" else ""


_CLOCK = re.compile(r"\b(\d{1,2})(?::\d\d)?\s*(?:am|pm|a\.m\.|p\.m\.)", re.IGNORECASE)
_BASIS_POINTS = re.compile(r"\b(\d+)\s*(?:basis points|bps|bp)\b")


# --- Names ---------------------------------------------------------------------------------

# Capitalised words that are not names: days, months, and words often capitalised in prose.
_NOT_NAMES_TEXT = """
    i monday tuesday wednesday thursday friday saturday sunday january february march april may june
    july august september october november december mr mrs ms dr prof
    jan feb mar apr jun jul aug sep sept oct nov dec
"""
_NOT_NAMES = frozenset(_NOT_NAMES_TEXT.split())
_SENTENCE_START = re.compile(r"(?:^|[.!?:;]\s+|[\"'(\[]\s*|\n)$")
_NAME_TOKEN = re.compile(r"[A-Za-z][A-Za-z0-9]*(?:[-.'][A-Za-z0-9]+)*")


_INNER_CAPITAL = re.compile(r".[A-Z]")
_LOWER = re.compile(r"[a-z]")
_CAPITAL_OR_DIGIT = re.compile(r"[A-Z0-9]")


def _shape_is_identifier(token: str) -> bool:
    """CamelCase, ALLCAPS, or letters with digits: a coined name wherever it stands."""
    core = token[:-1] if token.endswith("s") and token[:-1].isupper() else token  # GPUs
    if _DIGIT.search(core):
        return True
    if core.isupper():
        return sum(ch.isalpha() for ch in core) >= 2
    return bool(_INNER_CAPITAL.search(core) and _LOWER.search(core))


def names(text: str) -> list[str]:
    """Names a text uses: coined names anywhere (ProgAgent, GSM8K, MMLU, Qwen3-8B), and
    capitalised words that do not start a sentence (Invisible Technologies, Bayesian).

    A plain capitalised word at the start of a sentence is left to the word overlap: without
    a dictionary it cannot be told from an ordinary word ('Programmatic', 'Researchers').
    """
    found = []
    for match in _NAME_TOKEN.finditer(text):
        token = match.group()
        if not _CAPITAL_OR_DIGIT.search(token):
            continue  # most words: lower case, no digits, not a name
        if token.endswith("'s"):
            token = token[:-2]
        if len(token) < 2 or not token[0].isalpha():
            continue
        if _shape_is_identifier(token):
            found.append(token)
            continue
        if not token[0].isupper() or token.lower() in _NOT_NAMES or token.lower() in STOPWORDS:
            continue
        before = text[max(0, match.start() - 3) : match.start()]
        if _SENTENCE_START.search(before) or match.start() == 0:
            continue
        found.append(token)
    return list(dict.fromkeys(found))


def split_camel_case(text: str) -> str:
    """'Lean4AgenticRL' as 'Lean 4 Agentic RL', so the names inside a coined name can be found."""
    return re.sub(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Za-z])(?=[0-9])|(?<=[A-Z])(?=[A-Z][a-z])", " ", text)


def _is_acronym_of(acronym: str, haystack_lower: str) -> bool:
    """'RL' stands for 'reinforcement learning' when those words follow each other in the text."""
    initials = "".join(word[0] for word in words(haystack_lower))
    if acronym in initials:
        return True
    # 'RLHF': 'reinforcement learning from human feedback', the small words left out.
    return acronym in "".join(word[0] for word in words(haystack_lower) if word not in STOPWORDS)


_SPACING = re.compile(r"[\s._-]+")


def name_is_mentioned(name: str, haystack_lower: str, haystack_stems: StemIndex) -> bool:
    """A name is backed when the backing text contains it (any case), or each of its word
    parts ('ProgAgent-14B' -> 'progagent', '14b'), or its stem ('Bayesian' -> 'bayes'), or,
    for an acronym, the words it abbreviates ('RL' -> 'reinforcement learning')."""
    lowered = name.lower()
    core = name[:-1] if name.endswith("s") and name[:-1].isupper() else name
    if core.isalpha() and core.isupper() and 2 <= len(core) <= 6 and _is_acronym_of(core.lower(), haystack_lower):
        return True
    if re.search(r"(?<![a-z0-9])" + re.escape(lowered) + r"(?![a-z0-9])", haystack_lower):
        return True
    if lowered.endswith("s") and lowered[:-1] in haystack_lower:
        return True
    # 'Qwen2.5' for 'Qwen 2.5', 'OpenAI' for 'Open AI': the same name, spaced or hyphenated otherwise.
    compact = _SPACING.sub("", lowered)
    long_enough = len(compact) >= 6 or (len(compact) >= 4 and any(ch.isdigit() for ch in compact))
    if long_enough and compact in _SPACING.sub("", haystack_lower):
        return True
    parts = [part for part in re.split(r"[-.']", lowered) if part]
    if len(parts) > 1 and all(re.search(r"(?<![a-z0-9])" + re.escape(p), haystack_lower) for p in parts):
        return True
    # 'Berlin-based', 'Nvidia-backed': the name is the capitalised part.
    original_parts = [part for part in re.split(r"[-.']", name) if part]
    named = [part for part in original_parts if part[0].isupper() or any(ch.isdigit() for ch in part)]
    if len(original_parts) > 1 and named and len(named) < len(original_parts):
        return all(name_is_mentioned(part, haystack_lower, haystack_stems) for part in named)
    if lowered.endswith("s") and not lowered.endswith("ss"):
        lowered = lowered[:-1]  # 'Americans', 'Kenyans'
    for suffix in ("ean", "ian", "an", "ese"):
        # A people's name for its place: 'European' for 'Europe', 'Kenyan' for 'Kenya'.
        if lowered.endswith(suffix) and len(lowered) - len(suffix) >= 4 and lowered[: -len(suffix)] in haystack_lower:
            return True
    return not any(ch.isdigit() for ch in lowered) and stem(lowered) in haystack_stems


# --- Sentences -----------------------------------------------------------------------------

_SENTENCE_END = re.compile(r"(?<=[.!?])[\"')\]]*\s+(?=[\"'(\[]?[A-Z0-9])")


def sentences(text: str) -> Iterator[str]:
    """Sentences of plain text, split after . ! ? followed by a capital or digit."""
    for sentence in _SENTENCE_END.split(text):
        sentence = sentence.strip()
        if sentence:
            yield sentence
