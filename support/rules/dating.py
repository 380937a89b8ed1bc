"""The date rule (``date_rule``): the dates a text names (``dates``, ``calendar_dates``,
dates counted from another), compared with the claims', and the date words the claims back.

- **date**: a month, day, weekday, season, quarter or half, or a relative date ('next year'),
  that the claims give differently or not at all, compared as periods however written ('the
  April-to-June quarter' and 'the three months to June' are Q2) and with the year they name
  (years, written with digits, are figures);
"""

from __future__ import annotations

import datetime
import itertools
import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from .. import text as lex
from .quoting import Cited
from .words import _RELATIVE, MONTHS


@dataclass(frozen=True)
class DateMention:
    kind: str  # month, weekday, season, quarter, half, relative
    value: object
    text: str
    year: int | None = None  # 'Q1 2026', 'March 2025': a period of a named year

    def same_date(self, other: DateMention) -> bool:
        """The same period, and of the same year when both name one ('Q1 2026' is not Q1 2025)."""
        return self.value == other.value and (self.year is None or other.year is None or self.year == other.year)


_QUARTER = re.compile(
    r"\b(?:(?P<q>Q[1-4])|(?P<h>H[12])|(?P<ord>first|second|third|fourth|final|1st|2nd|3rd|4th)[\s-]+"
    r"(?P<unit>quarter|half))\b",
    re.IGNORECASE,
)
# 'the first quarter of training compute' is a share of something, not a date: a period's
# 'of' is followed by a year, 'the year' or a fiscal year.
_NOT_A_PERIOD = re.compile(
    r"\s+of\s+(?!(?:(?:the|its|their|this|last|next|that|current|coming|following|previous|same|new)\s+)*"
    r"(?:(?:19|20)\d\d|year|fiscal|financial|calendar|FY|season|decade|century))",
    re.IGNORECASE,
)
# 'the first three months of 2026' is Q1, 'the last six months of 2025' is H2.
_MONTHS_OF = re.compile(
    r"\b(?P<end>first|last|final)\s+(?P<count>two|three|four|five|six|seven|eight|nine|ten|eleven|\d{1,2})\s+months\s+of\b",
    re.IGNORECASE,
)
# Months a year's span of months names: 'the first four months of 2026' is no quarter.
_MONTH_COUNTS = {"two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9}
_MONTH_COUNTS |= {"ten": 10, "eleven": 11}
# 'the last quarter of 2025' is Q4; 'last quarter' alone is the one before now (relative).
_LAST_PERIOD = re.compile(r"\blast\s+(?P<unit>quarter|half)\s+of\b", re.IGNORECASE)
# 'August 5, 2025', '2 August 2025': a day of a month.
_DAY_OF_MONTH = re.compile(
    r"\b(?:(?P<m1>January|February|March|April|May|June|July|August|September|October|November|December)\s+"
    r"(?P<d1>[0-3]?\d)(?:st|nd|rd|th)?\b(?![,.]?\d)|(?P<d2>[0-3]?\d)(?:st|nd|rd|th)?\s+"
    r"(?P<m2>January|February|March|April|May|June|July|August|September|October|November|December)\b)"
)
_ORDINAL_VALUE = {"first": 1, "second": 2, "third": 3, "fourth": 4, "1st": 1, "2nd": 2, "3rd": 3, "4th": 4}
_LAST_OF = {"quarter": 4, "half": 2}
_MONTH_WORD = re.compile(
    r"\b(?P<m>January|February|March|April|May|June|July|August|September|October|November|December|"
    r"Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sept|Sep|Oct|Nov|Dec)\b\.?"
)
_WEEKDAY_WORD = re.compile(r"\b(?:Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday)\b")
_SEASON_WORD = re.compile(r"\b(?:spring|summer|autumn|winter)\b", re.IGNORECASE)
_RELATIVE_WORD = re.compile(
    r"\b(?P<rel>last|previous|past|this|current|next|coming)\s+(?P<unit>year|month|week|quarter|season)\b",
    re.IGNORECASE,
)
_DAYS = {"yesterday": -1, "today": 0, "tomorrow": 1}
_DAY_WORD = re.compile(r"\b(?:yesterday|today|tomorrow)\b", re.IGNORECASE)
_PART_OF_MONTH = re.compile(
    r"\b(early|mid|late)[\s-]+(January|February|March|April|May|June|July|August|September|October|November|"
    r"December)\b",
    re.IGNORECASE,
)
_DECADE = re.compile(r"\b((?:1[5-9]|20)\d0)'?s\b")
_DATE_CONTEXT = re.compile(r"(?:\b(?:in|on|since|until|by|from|to|of|early|late|mid|through|last|next|this)[\s-]+$)")


# 'May-to-June', 'May to July': a month in a range of months reads as a date.
_RANGE_AFTER = re.compile(r"(?:\s*[-\u2013]\s*|[\s-]+(?:to|through|until)[\s-]+)[A-Z][a-z]")
# 'Between April and June' opens a sentence as often as it follows a verb.
_RANGE_HINT = re.compile(r"[-\u2013]|\b(?:to|through|until|between|months|ended|ending|quarter)\b", re.IGNORECASE)
_MONTH_RANGE = re.compile(
    r"\b(?:(?P<between>[Bb]etween)\s+)?([A-Z][a-z]+)(?:\s*(?:-|\u2013)\s*|[\s-]+(?:to|through|until)[\s-]+|\s+(?P<and>and)\s+)"
    r"([A-Z][a-z]+)\b"
)


# 'the three months to September', 'the quarter to June', 'six months ended June': a quarter
# or half by its last month.
_MONTHS_TO = re.compile(
    r"\b(?:(?P<count>three|six|3|6)\s+months|(?P<unit>quarter|half|half-year))\s+(?:to|ended|ending|through)\s+"
    r"(?:the\s+end\s+of\s+)?(?P<m>"
    + "|".join(name.capitalize() for name in MONTHS if len(name) > 3 or name == "may")
    + r")\b"
)

# 'the September quarter': a quarter by its last month, as companies report it.
_MONTH_QUARTER = re.compile(
    r"(?<![-\u2013])(?<!\bto\s)(?<!\bto-)\b(?P<m>March|June|September|December)[\s-]+(?P<unit>quarter)\b"
)


def _quarter_ranges(text: str) -> list[tuple[int, int, str, int, str]]:
    """'July-September', 'April to June', 'between July and September', 'the three months to
    June': a range of months that is a calendar quarter or half, with its span, the period's
    kind and number."""
    found = []
    for match in itertools.chain(_MONTHS_TO.finditer(text), _MONTH_QUARTER.finditer(text)):
        count, unit = match.groupdict().get("count"), (match["unit"] or "").lower()
        months = 3 if count in ("three", "3") or unit == "quarter" else 6
        last = MONTHS[match["m"].lower()]
        if last % months == 0:
            kind = "quarter" if months == 3 else "half"
            found.append((match.start(), match.end(), kind, last // months, match.group()))
    for match in _MONTH_RANGE.finditer(text):
        if match["and"] and not match["between"]:
            continue  # 'in March and June': two months, not a range
        first, last = (MONTHS.get(match.group(i).lower()) for i in (2, 4))
        if not (first and last):
            continue
        start = match.start(2)
        if first % 3 == 1 and last == first + 2:
            found.append((start, match.end(), "quarter", (first + 2) // 3, text[start : match.end()]))
        elif first % 6 == 1 and last == first + 5:
            found.append((start, match.end(), "half", (first + 5) // 6, text[start : match.end()]))
    return found


# The year a period or month is of: 'Q2 2026', 'second quarter of 2025', 'March 3, 2025'.
_YEAR_AFTER_PERIOD = re.compile(
    r"(?:[\s-]+quarter)?(?:\s+of)?(?:\s+(?:the\s+)?(?:fiscal|financial|calendar)(?:\s+year)?)?[\s-]+((?:19|20)\d\d)\b"
)
_YEAR_AFTER_MONTH = re.compile(r"\s*(?:[0-3]?\d(?:st|nd|rd|th)?)?,?\s+((?:19|20)\d\d)\b")


def _dated(text: str, mention: DateMention, start: int, end: int) -> DateMention:
    after = _YEAR_AFTER_MONTH if mention.kind == "month" else _YEAR_AFTER_PERIOD
    year = after.match(text, end)
    if not year:
        return mention
    return DateMention(mention.kind, mention.value, text[start : year.end()], int(year.group(1)))


@lru_cache(maxsize=4096)
def dates(text: str) -> tuple[DateMention, ...]:
    found = []
    ranges = _quarter_ranges(text) if _RANGE_HINT.search(text) else []
    for start, end, kind, number, written in ranges:
        found.append(_dated(text, DateMention(kind, number, written), start, end))
    for match in _MONTH_WORD.finditer(text):
        if any(start <= match.start() < end for start, end, _, _, _ in ranges):
            continue  # a month of a quarter's range: the quarter is the date
        word = match["m"]
        before = text[max(0, match.start() - 12) : match.start()]
        after = text[match.end() : match.end() + 6]
        # 'May' is also a modal verb, 'Mar' a verb: a month when it reads as a date.
        ambiguous = word in ("May", "Mar") or len(word) == 3
        if ambiguous and not (
            _DATE_CONTEXT.search(before.lower()) or re.match(r"\s*\d", after) or _RANGE_AFTER.match(after)
        ):
            continue
        found.append(
            _dated(text, DateMention("month", MONTHS[word.lower().rstrip(".")], word), match.start(), match.end())
        )
    for match in _DAY_OF_MONTH.finditer(text):
        month, day = match["m1"] or match["m2"], match["d1"] or match["d2"]
        if 1 <= int(day) <= 31:
            found.append(DateMention("day", (MONTHS[month.lower()], int(day)), match.group()))
    for match in _MONTHS_OF.finditer(text):
        count = match["count"].lower()
        months = int(count) if count.isdigit() else _MONTH_COUNTS[count]
        first = match["end"].lower() == "first"
        if months in (3, 6):
            kind = "quarter" if months == 3 else "half"
            mention = DateMention(kind, 1 if first else _LAST_OF[kind], match.group()[: -len(" of")])
        else:
            mention = DateMention("span of months", (first, months), match.group()[: -len(" of")])
        found.append(_dated(text, mention, match.start(), match.end()))
    for match in _LAST_PERIOD.finditer(text):
        unit = match["unit"].lower()
        mention = DateMention(unit, _LAST_OF[unit], match.group()[: -len(" of")])
        found.append(_dated(text, mention, match.start(), match.end()))
    for match in _WEEKDAY_WORD.finditer(text):
        found.append(DateMention("weekday", match.group().lower(), match.group()))
    for match in _SEASON_WORD.finditer(text):
        found.append(DateMention("season", match.group().lower(), match.group()))
    for match in _QUARTER.finditer(text):
        if match["q"]:
            found.append(_dated(text, DateMention("quarter", int(match["q"][1]), match.group()), *match.span()))
        elif match["h"]:
            found.append(_dated(text, DateMention("half", int(match["h"][1]), match.group()), *match.span()))
        else:
            unit = match["unit"].lower()
            ordinal = match["ord"].lower()
            value = _LAST_OF[unit] if ordinal == "final" else _ORDINAL_VALUE[ordinal]
            if (unit == "half" and value > 2) or _NOT_A_PERIOD.match(text, match.end()):
                continue
            found.append(_dated(text, DateMention(unit, value, match.group()), *match.span()))
    for match in _DAY_WORD.finditer(text):
        found.append(DateMention("relative:day", _DAYS[match.group().lower()], match.group()))
    for match in _PART_OF_MONTH.finditer(text):
        month = MONTHS[match.group(2).lower()]
        found.append(DateMention(f"part of {match.group(2)}", (month, match.group(1).lower()[:3]), match.group()))
    for match in _DECADE.finditer(text):
        found.append(DateMention("decade", match.group(1), match.group()))
    for match in _RELATIVE_WORD.finditer(text):
        if match["rel"].lower() == "last" and text.startswith(" of", match.end()):
            continue  # 'the last quarter of 2025' is Q4, read above
        found.append(DateMention("relative:" + match["unit"].lower(), _RELATIVE[match["rel"].lower()], match.group()))
    return tuple(found)


def _months_given(mention: DateMention, offered: list[tuple[Cited, DateMention]]) -> bool:
    """Whether the claims give each month a range of months is written with."""
    months = {MONTHS[match["m"].lower().rstrip(".")] for match in _MONTH_WORD.finditer(mention.text)}
    given = {other.value for _, other in offered if other.kind == "month"}
    return len(months) == 2 and months <= given


# 'up 34% from a year earlier': the claim dates the year before its own too.
YEAR_EARLIER = re.compile(
    r"\b(?:a\s+year\s+(?:earlier|before|ago)|(?:the\s+)?(?:previous|prior)\s+year|year[\s-]earlier)\b", re.I
)


def _offered_dates(cited: Cited) -> list[DateMention]:
    mentions = list(dates(cited.clause.text))
    if YEAR_EARLIER.search(cited.clause.text):
        mentions += [DateMention(m.kind, m.value, f"{m.text} (a year earlier)", m.year - 1) for m in mentions if m.year]
    return mentions


def date_rule(passage: str, claims: Sequence[Cited]) -> list[str]:
    mentioned = dates(passage)
    if not mentioned:
        return _offset_date_reasons(passage, claims)
    offered = [(cited, mention) for cited in claims for mention in _offered_dates(cited)]
    reasons = []
    for mention in mentioned:
        same_kind = [(cited, other) for cited, other in offered if other.kind == mention.kind]
        if any(other.same_date(mention) for _, other in same_kind):
            continue
        if mention.kind.startswith("relative:") and (not same_kind or mention.value == 0):
            continue  # 'this year' may be the year a claim names; only a contrary relative date is reported
        if mention.kind in ("quarter", "half") and _months_given(mention, offered):
            continue  # 'grew between January and June' for a claim's 'in January' and 'by June'
        if mention.kind in ("season", "day") and not same_kind:
            continue  # a day no claim dates is the figure rule's: its number must be in a claim
        if same_kind:
            shown = ", ".join(dict.fromkeys(f"'{other.text}'" for _, other in same_kind))
            first = same_kind[0][0]
            reasons.append(f"date: the paragraph says '{mention.text}'; {first.label} says {shown}")
        else:
            reasons.append(f"date: the paragraph says '{mention.text}'; no cited claim gives that {mention.kind}")
    reasons += _offset_date_reasons(passage, claims)
    return list(dict.fromkeys(reasons))


_MONTH_NAMES = "January|February|March|April|May|June|July|August|September|October|November|December"
# A date written in full enough to count from: 'September 9, 2025', '2 August 2025', 'April 2025',
# or a day of a month whose year the text gives elsewhere ('September 12').
_CALENDAR_DATE = re.compile(
    rf"\b(?:(?P<m1>{_MONTH_NAMES})\s+(?P<d1>[0-3]?\d)(?:st|nd|rd|th)?\b(?![,.]?\d)(?:,?\s+(?P<y1>(?:19|20)\d\d))?"
    rf"|(?P<d2>[0-3]?\d)(?:st|nd|rd|th)?\s+(?P<m2>{_MONTH_NAMES})(?:,?\s+(?P<y2>(?:19|20)\d\d))?"
    rf"|(?P<m3>{_MONTH_NAMES}),?\s+(?P<y3>(?:19|20)\d\d))\b"
)
_YEAR_ALONE = re.compile(r"\b(?:in|of|during|by)\s+((?:19|20)\d\d)\b")
_COUNT_WORDS = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7}
_COUNT_WORDS |= {"eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "fourteen": 14, "thirty": 30}
# 'ten days later', 'a year and a half later', 'the following month': a date counted from the
# one before it. ('two years after the launch' counts from something else: not read.)
_OFFSET = re.compile(
    r"\b(?:(?P<n>a|an|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fourteen|thirty|\d{1,3})"
    r"(?P<half>\s+and\s+a\s+half)?\s+(?P<unit>day|week|month|year)s?(?P<half_after>\s+and\s+a\s+half)?"
    r"\s+(?:later|afterwards?|after\s+that)"
    r"|the\s+(?:following|next)\s+(?P<next>day|week|month|year))\b",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class CalendarDate:
    """A date to the precision a text gives it: a day, a month or a year."""

    year: int
    month: int | None = None
    day: int | None = None

    def __str__(self) -> str:
        if self.month is None:
            return str(self.year)
        month = _MONTH_NAMES.split("|")[self.month - 1]
        return f"{month} {self.day}, {self.year}" if self.day else f"{month} {self.year}"

    def agrees(self, other: CalendarDate) -> bool:
        """The same date where both are precise: 'September 2025' agrees with September 12, 2025."""
        return (
            self.year == other.year
            and (self.month is None or other.month is None or self.month == other.month)
            and (self.day is None or other.day is None or self.day == other.day)
        )


@lru_cache(maxsize=4096)
def calendar_dates(text: str) -> tuple[tuple[int, int, str, CalendarDate], ...]:
    """Dates a text gives, each with its span and words; a day without a year takes the year the
    text gives before it ('on September 9, 2025 ... on September 12')."""
    found = []
    year = None
    first_year = re.search(r"\b(?:19|20)\d\d\b", text)
    for match in _CALENDAR_DATE.finditer(text):
        month = match["m1"] or match["m2"] or match["m3"]
        day = match["d1"] or match["d2"]
        written_year = match["y1"] or match["y2"] or match["y3"]
        year = int(written_year) if written_year else year or (int(first_year.group()) if first_year else None)
        if year is None or (day and not 1 <= int(day) <= 31):
            continue
        date = CalendarDate(year, MONTHS[month.lower()], int(day) if day else None)
        found.append((match.start(), match.end(), match.group(), date))
    for match in _YEAR_ALONE.finditer(text):
        if not any(start <= match.start(1) < end for start, end, _, _ in found):
            found.append((match.start(1), match.end(1), match.group(1), CalendarDate(int(match.group(1)))))
    return tuple(sorted(found, key=lambda item: item[0]))


def _counted_from(anchor: CalendarDate, match: re.Match) -> CalendarDate | None:
    """The date an offset ('ten days later') gives from the date before it, to the offset's
    precision: days and weeks to the day, months and years to the month; 'the following
    year' to the year (after March 2024 it is 2025, any month of it)."""
    unit = (match["unit"] or match["next"]).lower()
    count = 1 if match["next"] else int(match["n"]) if match["n"].isdigit() else _COUNT_WORDS[match["n"].lower()]
    if unit in ("day", "week"):
        if anchor.month is None or anchor.day is None:
            return None
        try:
            start = datetime.date(anchor.year, anchor.month, anchor.day)
        except ValueError:
            return None
        end = start + datetime.timedelta(days=count * (7 if unit == "week" else 1))
        return CalendarDate(end.year, end.month, end.day)
    half = bool(match["half"] or match["half_after"])
    if unit == "year" and (match["next"] or anchor.month is None):
        return CalendarDate(anchor.year + count)
    months = count * (12 if unit == "year" else 1) + (6 if half and unit == "year" else 0)
    if anchor.month is None:
        return CalendarDate(anchor.year + months // 12) if months % 12 == 0 else None
    index = anchor.year * 12 + anchor.month - 1 + months
    return CalendarDate(index // 12, index % 12 + 1)


# 'a year later', 'two years later' are durations a reporter rounds: within two months.
YEAR_OFFSET_SLACK_MONTHS = 2


def _about(target: CalendarDate, match: re.Match) -> list[CalendarDate]:
    """The dates an offset may mean: itself, or for whole years counted to the month, the
    months around it."""
    whole_years = (match["unit"] or "").lower() == "year" and not (match["half"] or match["half_after"])
    if not whole_years or target.month is None:
        return [target]
    index = target.year * 12 + target.month - 1
    return [
        CalendarDate((index + shift) // 12, (index + shift) % 12 + 1)
        for shift in range(-YEAR_OFFSET_SLACK_MONTHS, YEAR_OFFSET_SLACK_MONTHS + 1)
    ]


def counted_date_spans(passage: str) -> list[tuple[int, int]]:
    """Where the passage counts a date from one it gave before ('two years later' after '2019'):
    its number is the date rule's, not a figure the claims must state."""
    if not _OFFSET.search(passage):
        return []
    anchors = calendar_dates(passage)
    return [
        match.span() for match in _OFFSET.finditer(passage) if any(start < match.start() for start, _, _, _ in anchors)
    ]


def _offset_date_reasons(passage: str, claims: Sequence[Cited]) -> list[str]:
    """'Preorders opened ten days later' after 'September 9, 2025' is September 19: the claims
    must give that date, not September 12."""
    if not _OFFSET.search(passage):
        return []
    anchors = calendar_dates(passage)
    offered = [(cited, written, date) for cited in claims for _, _, written, date in calendar_dates(cited.clause.text)]
    reasons = []
    for match in _OFFSET.finditer(passage):
        before = [(written, date) for start, _, written, date in anchors if start < match.start()]
        if not before:
            continue
        anchor_words, anchor = before[-1]
        target = _counted_from(anchor, match)
        if target is None:
            continue
        said = match.group().lower()
        if any(said in cited.clause.text.lower() for cited in claims):
            continue  # the claim counts the same way
        if any(date.agrees(near) for _, _, date in offered for near in _about(target, match)):
            continue
        later = [(cited, written) for cited, written, date in offered if not date.agrees(anchor)]
        where = f"{later[0][0].label} says '{later[0][1]}'" if later else "no cited claim gives that date"
        reasons.append(f"date: the paragraph says '{match.group()}' after '{anchor_words}', which is {target}; {where}")
    return reasons


def backed_date_words(passage: str, claims: Sequence[Cited]) -> set[str]:
    """Stems of the words of each period the claims give in other words ('April', 'June' and
    'quarter' of 'the April-to-June quarter' for a claim's Q2): the date is backed, so are they."""
    mentioned = [mention for mention in dates(passage) if mention.kind in ("quarter", "half")]
    if not mentioned:
        return set()
    offered = [(cited, mention) for cited in claims for mention in _offered_dates(cited)]
    return {
        lex.stem(word)
        for mention in mentioned
        if any(other.kind == mention.kind and other.same_date(mention) for _, other in offered)
        for word in lex.words(mention.text)
    }


# 'in eight months', 'a 26-day run', 'two years on': a count of a calendar unit.
_SPAN_UNIT_AFTER = re.compile(
    r"[\s-]*(day|week|month|year)s?\b", re.IGNORECASE
)  # 'four-' of 'four-week' keeps its hyphen
_DAYS_IN_MONTH = 30.44


def span_unit(text: str, end: int) -> str | None:
    """The calendar unit a figure ending at ``end`` counts ('eight months': month), if any."""
    unit = _SPAN_UNIT_AFTER.match(text, end)
    return unit.group(1).lower() if unit else None


@lru_cache(maxsize=4096)
def spans_between(claims: str) -> dict[str, frozenset[int]]:
    """How long lies between two dates the claims give, in each unit they are precise enough
    for: January 2026 to September 2026 is eight months, so the claims back 'tripled in eight
    months'. A count that is no whole number of a unit may be read either way round ('seven
    weeks' or 'eight' for 52 days)."""
    found: dict[str, set[int]] = {"day": set(), "week": set(), "month": set(), "year": set()}
    given = {date for _, _, _, date in calendar_dates(claims)}
    for first, second in itertools.combinations(given, 2):
        if first.month and second.month:
            months = abs((first.year * 12 + first.month) - (second.year * 12 + second.month))
            found["month"].add(months)
            if months % 12 == 0:
                found["year"].add(months // 12)
        else:
            found["year"].add(abs(first.year - second.year))
        if first.day and second.day:
            try:
                days = abs(
                    (
                        datetime.date(first.year, first.month, first.day)
                        - datetime.date(second.year, second.month, second.day)
                    ).days
                )
            except ValueError:
                continue
            found["day"].add(days)
            found["week"] |= {days // 7, -(-days // 7)}
            found["month"] |= {int(days // _DAYS_IN_MONTH), round(days / _DAYS_IN_MONTH)}
    return {unit: frozenset(counts - {0}) for unit, counts in found.items()}
