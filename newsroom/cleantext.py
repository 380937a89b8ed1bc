"""Text is clean at the door: the one rule for characters no field may hold.

Refused in every text field that comes in (a desk/1 document, a manifest, an API body, an admin
form): the C0 and C1 control characters and DEL, which no reader can see and PostgreSQL cannot
store (U+0000), and the bidirectional overrides and isolates (U+202A to U+202E, U+2066 to U+2069),
which make a text read otherwise than it is stored (a headline or a claim id reversed on
screen). Tab and line breaks are allowed in multi-line fields only (paragraph markdown).
``strip_forbidden`` cleans what was stored before the rule; ``xml_safe`` keeps feeds and
sitemaps well-formed whatever is stored.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Iterator
from typing import Any

from django import forms
from django.core.exceptions import ValidationError

from .jsonfiles import Problem

# unicodedata.name() has no name for control characters; these are their Unicode aliases
# (unicodedata.lookup reads them back, which the tests check).
# fmt: off
_C0 = (
    "NULL", "START OF HEADING", "START OF TEXT", "END OF TEXT", "END OF TRANSMISSION", "ENQUIRY",
    "ACKNOWLEDGE", "BELL", "BACKSPACE", "CHARACTER TABULATION", "LINE FEED", "LINE TABULATION", "FORM FEED",
    "CARRIAGE RETURN", "SHIFT OUT", "SHIFT IN", "DATA LINK ESCAPE", "DEVICE CONTROL ONE",
    "DEVICE CONTROL TWO", "DEVICE CONTROL THREE", "DEVICE CONTROL FOUR", "NEGATIVE ACKNOWLEDGE",
    "SYNCHRONOUS IDLE", "END OF TRANSMISSION BLOCK", "CANCEL", "END OF MEDIUM", "SUBSTITUTE", "ESCAPE",
    "INFORMATION SEPARATOR FOUR", "INFORMATION SEPARATOR THREE", "INFORMATION SEPARATOR TWO",
    "INFORMATION SEPARATOR ONE",
)
_C1 = (
    "PADDING CHARACTER", "HIGH OCTET PRESET", "BREAK PERMITTED HERE", "NO BREAK HERE", "INDEX", "NEXT LINE",
    "START OF SELECTED AREA", "END OF SELECTED AREA", "CHARACTER TABULATION SET",
    "CHARACTER TABULATION WITH JUSTIFICATION", "LINE TABULATION SET", "PARTIAL LINE FORWARD",
    "PARTIAL LINE BACKWARD", "REVERSE LINE FEED", "SINGLE SHIFT TWO", "SINGLE SHIFT THREE",
    "DEVICE CONTROL STRING", "PRIVATE USE ONE", "PRIVATE USE TWO", "SET TRANSMIT STATE", "CANCEL CHARACTER",
    "MESSAGE WAITING", "START OF GUARDED AREA", "END OF GUARDED AREA", "START OF STRING",
    "SINGLE GRAPHIC CHARACTER INTRODUCER", "SINGLE CHARACTER INTRODUCER", "CONTROL SEQUENCE INTRODUCER",
    "STRING TERMINATOR", "OPERATING SYSTEM COMMAND", "PRIVACY MESSAGE", "APPLICATION PROGRAM COMMAND",
)
# fmt: on
_CONTROL_NAMES = {**dict(enumerate(_C0)), 0x7F: "DELETE", **dict(enumerate(_C1, start=0x80))}

_BIDI = "\u202a-\u202e\u2066-\u2069"
_SINGLE_LINE = re.compile(f"[\x00-\x1f\x7f-\x9f{_BIDI}]")
# Multi-line fields keep tab, line feed and carriage return (a browser's textarea sends CRLF).
_MULTI_LINE = re.compile(f"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f{_BIDI}]")
# What XML 1.0 cannot carry at all: C0 but tab and line breaks, lone surrogates, U+FFFE/U+FFFF.
_XML_ILLEGAL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def character_name(char: str) -> str:
    """ "U+0007 BELL", "U+202E RIGHT-TO-LEFT OVERRIDE": a character as a message names it."""
    code = ord(char)
    return f"U+{code:04X} {_CONTROL_NAMES.get(code) or unicodedata.name(char, 'UNNAMED')}"


def forbidden_character(text: str, *, multiline: bool = False) -> str | None:
    """The first character of ``text`` no field may hold, named, or None when it is clean."""
    found = (_MULTI_LINE if multiline else _SINGLE_LINE).search(text)
    return character_name(found.group()) if found else None


def forbidden_message(name: str) -> str:
    """The one wording of a refusal, so every door says the same."""
    kind = "a bidirectional control" if "U+20" in name else "a control character"
    return f"must not contain {name} ({kind}, which readers cannot see)"


def text_problem(text: str, *, multiline: bool = False) -> str | None:
    """The refusal for one field's text, or None when it is clean."""
    name = forbidden_character(text, multiline=multiline)
    return forbidden_message(name) if name else None


def _join(at: str, key: str) -> str:
    return key if at == "$" else f"{at}.{key}"


def json_text_problems(
    value: Any, *, multiline: Callable[[str], bool] = lambda at: False, at: str = "$"
) -> Iterator[Problem]:
    """A problem for every string (and object key) of a JSON value holding a forbidden character,
    at its path (``sections[0].paragraphs[1].markdown``); ``multiline(path)`` says which fields
    may hold tab and line breaks, given the path with its indices as ``[]``."""
    if isinstance(value, str):
        message = text_problem(value, multiline=multiline(re.sub(r"\[\d+\]", "[]", at)))
        if message:
            yield Problem(at, message)
    elif isinstance(value, dict):
        for key, item in value.items():
            message = text_problem(key)
            if message:
                yield Problem(_join(at, key.encode("unicode_escape").decode("ascii")), f"a key {message}")
                continue
            yield from json_text_problems(item, multiline=multiline, at=_join(at, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from json_text_problems(item, multiline=multiline, at=f"{'' if at == '$' else at}[{index}]")


def strip_forbidden(text: str, *, multiline: bool = False) -> str:
    """The text without the characters no field may hold (for cleaning what was stored before)."""
    return (_MULTI_LINE if multiline else _SINGLE_LINE).sub("", text)


def xml_safe(text: str) -> str:
    """The text without what XML 1.0 cannot carry, so a feed or sitemap stays well-formed."""
    return _XML_ILLEGAL.sub("", text)


class _CleanTextValidator:
    def __init__(self, *, multiline: bool) -> None:
        self.multiline = multiline

    def __call__(self, value: Any) -> None:
        problem = text_problem(value, multiline=self.multiline) if isinstance(value, str) else None
        if problem:
            raise ValidationError(f"This field {problem}.", code="unclean_text")


class CleanTextForm(forms.BaseForm):
    """A form (an admin's, say) whose every text field refuses what no field may hold; a field
    shown as a textarea is multi-line. Put it first among a form's bases."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for field in self.fields.values():
            # A field that names each forbidden character where it stands (the desk's one text,
            # by its line) says so with ``checks_its_own_text``.
            if isinstance(field, forms.CharField) and not getattr(field, "checks_its_own_text", False):
                field.validators.append(_CleanTextValidator(multiline=isinstance(field.widget, forms.Textarea)))


class CleanTextModelForm(CleanTextForm, forms.ModelForm):
    """A model form with clean text, for admins that need no form of their own."""
