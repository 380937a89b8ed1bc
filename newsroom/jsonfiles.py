"""Reading JSON documents from files, folders and standard input, safely.

A file holds one JSON value, or JSON Lines (one value a line). Every document is parsed within
a size limit and its nesting is bounded by Python's recursion limit; a bad document becomes an
error naming where it was, and the documents around it are still read.
"""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, BinaryIO

import jsonschema


class JsonInputError(ValueError):
    """Why a document cannot be read; ``at`` is where in it (``$``: the whole document)."""

    def __init__(self, message: str, *, at: str = "$"):
        self.at = at
        super().__init__(message if at == "$" else f"{at}: {message}")


@dataclass(frozen=True)
class Problem:
    """What is wrong with a document, and where: ``at`` is a path like ``key_facts[2].text``."""

    at: str
    message: str

    def __str__(self) -> str:
        return f"{self.at}: {self.message}"


class DocumentError(ValueError):
    """A document that cannot be accepted, with every problem found in it."""

    def __init__(self, problems: list[Problem]):
        self.problems = problems
        super().__init__("; ".join(str(problem) for problem in problems))


@dataclass(frozen=True)
class JsonItem:
    """One document read from a source: its value, or why it could not be read."""

    location: str
    value: Any = None
    error: str | None = None
    at: str = "$"  # where in the document the error is; when not "$", ``error`` begins with it

    @property
    def error_line(self) -> str:
        """The error as a command prints it: the source, then the JSON path and the reason (an
        error about the whole document, not JSON or too big, is at "$")."""
        where = "" if self.at != "$" else "$: "
        return f"{self.location}: {where}{self.error}"


def _refuse_constant(name: str) -> None:
    raise ValueError(f"{name} is not a JSON number")


def _refuse_duplicate_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    # json.loads keeps the last of two equal keys without a word; which one the writer meant
    # cannot be known, and checks that read the first would pass a document readers see the
    # second of.
    value = dict(pairs)
    if len(value) != len(pairs):
        seen: set[str] = set()
        duplicate = next(key for key, _ in pairs if key in seen or seen.add(key))
        raise JsonInputError(f"the key {duplicate!r} appears twice in one object; a key may appear once")
    return value


def _half_pair(text: str) -> str | None:
    """The first half of a UTF-16 surrogate pair standing alone in ``text``, as an escape."""
    try:
        text.encode()
    except UnicodeEncodeError as error:
        return ascii(text[error.start])[1:-1]  # '\\ud800'
    return None


_HALF_PAIR = "half of a UTF-16 surrogate pair with no other half, which is not text"


def _lone_surrogate(value: Any, path: tuple[Any, ...] = ()) -> tuple[tuple[Any, ...], str] | None:
    """Where a string or a key holds a lone surrogate, and what to say, or None."""
    if isinstance(value, str):
        char = _half_pair(value)
        return (path, f"holds {char}, {_HALF_PAIR}") if char else None
    if isinstance(value, dict):
        for key, item in value.items():
            char = _half_pair(key)
            if char:
                return (
                    *path,
                    key.encode("utf-8", "backslashreplace").decode(),
                ), f"is a key holding {char}, {_HALF_PAIR}"
            found = _lone_surrogate(item, (*path, key))
            if found:
                return found
    elif isinstance(value, list):
        for index, item in enumerate(value):
            found = _lone_surrogate(item, (*path, index))
            if found:
                return found
    return None


_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")


def _may_hold_surrogates(data: bytes | str) -> bool:
    # Only a \ud800-\udfff escape can make one (UTF-8 cannot encode them); walking a big
    # document for nothing is what this saves.
    if isinstance(data, bytes):
        return re.search(_SURROGATE_ESCAPE.pattern.encode(), data) is not None
    return _half_pair(data) is not None or _SURROGATE_ESCAPE.search(data) is not None


def parse_json(data: bytes | str, *, limit: int) -> Any:
    """Parse one JSON value of at most ``limit`` bytes; JsonInputError says what is wrong.

    Refused besides malformed JSON: NaN and Infinity, a key twice in one object, and strings
    holding half a UTF-16 surrogate pair (JSON's ``"\\ud800"`` escape allows them, but they are
    not text: no database, page or UTF-8 file can hold them)."""
    size = len(data.encode("utf-8", "surrogatepass") if isinstance(data, str) else data)
    if size > limit:
        raise JsonInputError(f"the document is {size:,} bytes; the limit is {limit:,}")
    try:
        value = json.loads(data, parse_constant=_refuse_constant, object_pairs_hook=_refuse_duplicate_keys)
    except RecursionError:
        raise JsonInputError("the document is nested too deeply") from None
    except UnicodeDecodeError as error:
        raise JsonInputError(f"not UTF-8 text ({error.reason} at byte {error.start})") from None
    except json.JSONDecodeError as error:
        raise JsonInputError(f"not JSON: {error.msg} at line {error.lineno}, column {error.colno}") from None
    except JsonInputError:
        raise
    except ValueError as error:
        raise JsonInputError(f"not JSON: {error}") from None
    try:
        found = _lone_surrogate(value) if _may_hold_surrogates(data) else None
    except RecursionError:
        raise JsonInputError("the document is nested too deeply") from None
    if found:
        path, message = found
        raise JsonInputError(message, at=_path(path))
    return value


def expand_paths(paths: list[str], *, suffixes: tuple[str, ...] = (".json", ".jsonl")) -> Iterator[str]:
    """Files as given, folders as their JSON files in name order, ``-`` for standard input."""
    for path in paths:
        if path != "-" and Path(path).is_dir():
            yield from sorted(str(child) for child in Path(path).iterdir() if child.suffix in suffixes)
        else:
            yield path


def _json_lines(stream: BinaryIO, name: str, *, limit: int) -> Iterator[JsonItem]:
    for number, line in enumerate(stream, start=1):
        if not line.strip():
            continue
        location = f"{name}:{number}"
        try:
            yield JsonItem(location, parse_json(line, limit=limit))
        except JsonInputError as error:
            yield JsonItem(location, error=str(error), at=error.at)


def read_json_values(path: str, *, limit: int) -> Iterator[JsonItem]:
    """Every document in a file (or ``-``): one JSON value, or JSON Lines."""
    name = "<stdin>" if path == "-" else path
    try:
        stream = sys.stdin.buffer if path == "-" else open(path, "rb")  # noqa: SIM115
    except OSError as error:
        yield JsonItem(name, error=f"cannot read: {error.strerror}")
        return
    with stream:
        # A whole-file document must fit the limit; a bigger file can only be JSON Lines,
        # which is read a line at a time so memory stays bounded by the limit too.
        head = stream.read(limit + 1)
        if len(head) <= limit:
            try:
                yield JsonItem(name, parse_json(head, limit=limit))
                return
            except JsonInputError as error:
                if "Extra data" not in str(error):
                    yield JsonItem(name, error=str(error), at=error.at)
                    return
        first_line_end = head.find(b"\n")
        if first_line_end == -1 or not head[:first_line_end].strip().endswith((b"}", b"]")):
            yield JsonItem(
                name,
                error=f"the document is over {limit:,} bytes, the limit for one document "
                "(a bigger file must be JSON Lines, one document a line)",
            )
            return
        rest = _chain(head, stream)
        yield from _json_lines(rest, name, limit=limit)


def _chain(head: bytes, stream: BinaryIO) -> Iterator[bytes]:
    """Lines of ``head`` followed by the rest of ``stream``, as if never split."""
    lines = head.split(b"\n")
    carry = lines.pop()
    for line in lines:
        yield line + b"\n"
    for line in stream:
        if carry:
            line, carry = carry + line, b""
        yield line
    if carry:
        yield carry


# --- JSON Schema errors, said plainly --------------------------------------------------------

_JSON_TYPE_NAMES = {
    bool: "a boolean",
    int: "a number",
    float: "a number",
    str: "a string",
    list: "an array",
    dict: "an object",
    type(None): "null",
}
_PATTERN_MESSAGES = {
    "^[a-z0-9]+(?:[-_][a-z0-9]+)*$": "must be lower-case letters and digits joined by single "
    "hyphens or underscores (no '/', spaces or capitals)",
    "^(0|[1-9][0-9]{0,17})$": 'must be a whole number written as a string, like "81"',
    "^[^\\s/?#]+$": "must be an id with no spaces, '/', '?' or '#'",
    "^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}$": "must be an edition id like 2026-10-16T00",
    "^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z$": "must be a UTC time like 2026-10-16T00:39:10Z",
    "^https?://[^\\s]+$": "must be an http(s) URL",
    "\\{manifest_id\\}": "must contain {manifest_id}",
}


def _path(parts: Iterable[Any]) -> str:
    text = ""
    for part in parts:
        text += f"[{part}]" if isinstance(part, int) else (f".{part}" if text else str(part))
    return text or "$"


def describe_schema_error(error: jsonschema.ValidationError) -> list[Problem]:
    at = _path(error.absolute_path)
    value = error.instance
    match error.validator:
        case "required":
            missing = error.message.split("'")[1]
            return [Problem(_path([*error.absolute_path, missing]), "is required")]
        case "additionalProperties":
            allowed = set(error.schema.get("properties", {}))
            extra = sorted(key for key in value if key not in allowed)
            return [Problem(_path([*error.absolute_path, key]), "is not a desk/1 key") for key in extra]
        case "type":
            wanted = error.validator_value
            wanted = wanted if isinstance(wanted, str) else " or ".join(wanted)
            article = "an" if wanted[0] in "aeiou" else "a"
            return [Problem(at, f"must be {article} {wanted}, not {_JSON_TYPE_NAMES[type(value)]}")]
        case "const":
            return [Problem(at, f"must be {error.validator_value!r}, not {value!r}")]
        case "enum":
            options = ", ".join(str(option) for option in error.validator_value)
            return [Problem(at, f"must be one of {options}, not {value!r}")]
        case "pattern":
            message = _PATTERN_MESSAGES.get(error.validator_value, f"must match {error.validator_value}")
            return [Problem(at, f"{message}; got {value!r}")]
        case "minLength":
            limit = error.validator_value
            return [Problem(at, "must not be empty" if limit == 1 else f"must be at least {limit} characters")]
        case "maxLength":
            return [Problem(at, f"must be at most {error.validator_value:,} characters")]
        case "maxItems":
            return [Problem(at, f"must have at most {error.validator_value:,} items")]
        case _:
            return [Problem(at, error.message)]


# The most problems one refusal lists: enough to fix a document in one round, never a wall.
MOST_PROBLEMS = 50


def schema_problems(
    validator: jsonschema.protocols.Validator, value: Any, *, limit: int = MOST_PROBLEMS
) -> list[Problem]:
    """Every way ``value`` breaks the schema, in document order, said plainly."""
    errors = sorted(validator.iter_errors(value), key=lambda error: list(map(str, error.absolute_path)))
    problems = [problem for error in errors for problem in describe_schema_error(error)]
    return list(dict.fromkeys(problems))[:limit]
