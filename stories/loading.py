"""A story with all its parts, its cited manifests and their claims, for the public pages,
fast enough for a story page rendered anew to stay within a few times a bare Django view.

Two statements, whatever the story's size: the story row with what it brings along (found by
its slug), then every part, the cited manifests and their claims in one statement that gives
one JSON array per kind of row, built by the database. On SQLite that costs about what ten
separate statements did (the database builds JSON instead of Python handling ten results); on
PostgreSQL each statement saved is a round trip and a query plan.

Each statement is built by the ORM once per database connection, from the models (so the SQL
follows the schema), with the story's slug or id as its one parameter: building a query costs
the ORM far more than running it (about a millisecond against a tenth of one on SQLite).

A request only runs the SQL, converts the values (``_json_converter``, per field type and
database) and makes model instances as ``Model.from_db`` does. The parts land in the prefetch
cache, so ``story.cites.all()`` and everything built on it (``StoryView``, ``export_story``)
see exactly what ``Story.objects.with_parts()`` gives, in the models' ordering.

Which story a reader may see is still the model's rule (``Story.is_public``, the row-level
twin of ``Story.objects.published()``); the loader fetches the story at the address and the
caller decides.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime
from functools import cache
from operator import itemgetter
from typing import Any
from weakref import WeakKeyDictionary

from django.db import DEFAULT_DB_ALIAS, connections
from django.db.models import F, Model, QuerySet, signals
from django.db.models.base import ModelState

from manifests.models import Claim, Manifest

from .models import Cite, Correction, Image, KeyFact, ListItem, Paragraph, RelatedLink, Section, Story

# The parts of a story, by the name of their prefetch cache (the reverse accessor).
PARTS: dict[str, type[Model]] = {
    "key_facts": KeyFact,
    "sections": Section,
    "paragraphs": Paragraph,
    "cites": Cite,
    "images": Image,
    "list_items": ListItem,
    "corrections": Correction,
    "related_links": RelatedLink,
}
# What the story row brings along, as with_parts()'s select_related does.
STORY_RELATIONS = ("newsroom", "beat", "edition", "disclosure", "reuse_terms", "run_guide", "sponsor")
# Stand-ins for the one parameter while the ORM builds a query; never sent to the database.
SLUG, STORY_ID = "\x00slug", -7_000_000_007


@dataclass(frozen=True)
class _Prepared:
    """A query's SQL and its result converters, ready to run with one parameter."""

    sql: str  # with its parameter named %(value)s
    compiler: Any
    converters: dict[int, Any]
    columns: list[str]

    @classmethod
    def of(cls, queryset: QuerySet, wrapper: Any) -> _Prepared:
        compiler = queryset.query.get_compiler(connection=wrapper)
        sql = _with_named_parameter(compiler)
        expressions = [column for column, _, _ in compiler.select]
        return cls(sql, compiler, compiler.get_converters(expressions), list(queryset.query.values_select))

    def rows(self, cursor: Any, value: Any) -> list[Any]:
        cursor.execute(self.sql, {"value": value})
        rows = cursor.fetchall()
        if self.converters:
            rows = list(self.compiler.apply_converters(rows, self.converters))
        return rows


def _with_named_parameter(compiler: Any) -> str:
    """The compiler's SQL, with its one parameter (a stand-in) named ``%(value)s``."""
    sql, params = compiler.as_sql()
    if not params or any(param not in (SLUG, STORY_ID) for param in params):
        raise ValueError(f"a prepared query takes the story's slug or id alone, not {params!r}")
    # A named parameter: the SQLite backend turns a positional "%s" into "?" with a regular
    # expression run over the whole statement on every execute (a tenth of a millisecond
    # for the story's, which names every column of seven tables), a named one with a plain
    # % format. PostgreSQL takes either as it is, and a name may be used more than once.
    if "%" in sql.replace("%s", ""):
        raise ValueError("a prepared query may hold no other % than its parameter")
    return sql.replace("%s", "%(value)s")


@cache
def _attnames(model: type[Model]) -> tuple[str, ...]:
    return tuple(field.attname for field in model._meta.concrete_fields)


def _story_query() -> QuerySet:
    columns = list(_attnames(Story))
    for relation in STORY_RELATIONS:
        related = Story._meta.get_field(relation).related_model
        columns += [f"{relation}__{name}" for name in _attnames(related)]
    return Story.objects.filter(slug=SLUG).order_by().values_list(*columns)


# --- Every part in one statement ---------------------------------------------------------------


def _json_rows(queryset: QuerySet, fields: Sequence[str], ordering: Sequence[str] = ()) -> QuerySet:
    """``queryset``'s rows as columns ``c0, c1, ...``, ready to be gathered into one JSON array
    by ``_gathered``, followed by the values of ``ordering`` (``o0, o1, ...``) to sort them by:
    neither database promises that an aggregate keeps the order of its input."""
    columns: dict[str, Any] = {f"c{index}": F(name) for index, name in enumerate(fields)}
    columns |= {f"o{index}": F(name.removeprefix("-")) for index, name in enumerate(ordering)}
    return queryset.order_by().values(**columns)


def _gathered(queryset: QuerySet, wrapper: Any) -> str:
    """A scalar subquery giving the rows of ``_json_rows(...)`` as one JSON array of arrays."""
    names = list(queryset.query.annotation_select)
    inner = _with_named_parameter(queryset.query.get_compiler(connection=wrapper))
    quote = wrapper.ops.quote_name
    values = ", ".join(f"part.{quote(name)}" for name in names)
    if wrapper.vendor == "postgresql":
        gather = f"json_agg(json_build_array({values}))"
    elif wrapper.vendor == "sqlite":
        gather = f"json_group_array(json_array({values}))"
    else:
        raise NotImplementedError(f"the story loader knows no JSON aggregate for {wrapper.vendor}")
    return f"(SELECT {gather} FROM ({inner}) part)"


def _part_queries() -> dict[str, QuerySet]:
    """The rows the page needs besides the story's: each part, in its model's ordering; every
    manifest the story cites; and every claim of those manifests, which the page picks by
    (manifest, claim) pair, so that a claim id cited with the wrong manifest shows no text."""
    cited = Cite.objects.filter(story_id=STORY_ID).values("manifest_id")
    queries = {
        name: _json_rows(model.objects.filter(story_id=STORY_ID), _attnames(model), model._meta.ordering)
        for name, model in PARTS.items()
    }
    queries["manifests"] = _json_rows(Manifest.objects.filter(manifest_id__in=cited), _attnames(Manifest))
    queries["claims"] = _json_rows(
        Claim.objects.filter(manifest__manifest_id__in=cited), ["manifest__manifest_id", "claim_id", "text"]
    )
    return queries


@dataclass(frozen=True)
class _PartsStatement:
    """One SELECT of scalar subqueries, one per name, each giving a JSON array of rows."""

    sql: str
    names: tuple[str, ...]

    def run(self, cursor: Any, story_id: int) -> dict[str, list[list[Any]]]:
        cursor.execute(self.sql, {"value": story_id})
        [row] = cursor.fetchall()
        # SQLite gives JSON as text; PostgreSQL's json_agg comes decoded, and NULL for no rows.
        return {
            name: (json.loads(value) if isinstance(value, str) else value or [])
            for name, value in zip(self.names, row, strict=True)
        }


def _json_converter(field: Any, vendor: str) -> Callable[[Any], Any] | None:
    """How a value of ``field`` read back from a JSON array becomes what the ORM would give."""
    kind = field.get_internal_type()
    if kind in _PLAIN_JSON_TYPES:
        return None
    if kind == "BooleanField":
        return None if vendor == "postgresql" else _nullable(bool)  # SQLite stores 0 and 1
    if kind == "DateField":
        return _nullable(date.fromisoformat)
    if kind == "DateTimeField":
        # SQLite keeps naive UTC text; PostgreSQL writes the offset (its session is in UTC).
        return _nullable(_aware_datetime)
    if kind == "JSONField":
        # SQLite stores JSON as text, which json_array() keeps as a string; PostgreSQL nests it.
        return _nullable(json.loads) if vendor == "sqlite" else None
    raise NotImplementedError(f"the story loader cannot read a {kind} ({field}) back from JSON")


_PLAIN_JSON_TYPES = {
    "AutoField",
    "BigAutoField",
    "BigIntegerField",
    "CharField",
    "ForeignKey",
    "IntegerField",
    "PositiveIntegerField",
    "PositiveSmallIntegerField",
    "SlugField",
    "SmallIntegerField",
    "TextField",
    "URLField",
}


def _nullable(convert: Callable[[Any], Any]) -> Callable[[Any], Any]:
    return lambda value: None if value is None else convert(value)


def _aware_datetime(value: str) -> datetime:
    parsed = datetime.fromisoformat(value)
    return parsed if parsed.tzinfo else parsed.replace(tzinfo=UTC)


@dataclass(frozen=True)
class _JsonRows:
    """How one model's rows, read back from JSON, become instances: the converter of each
    column that needs one, and the ordering whose values follow the columns (empty when the
    statement sends none: the manifests go into a dict, where order does not matter)."""

    model: type[Model]
    converters: tuple[tuple[int, Callable[[Any], Any]], ...]
    ordering: tuple[str, ...]

    @classmethod
    def of(cls, model: type[Model], vendor: str, *, ordered: bool) -> _JsonRows:
        converters = [_json_converter(field, vendor) for field in model._meta.concrete_fields]
        return cls(
            model,
            tuple((index, convert) for index, convert in enumerate(converters) if convert),
            tuple(model._meta.ordering) if ordered else (),
        )

    def instances(self, rows: list[list[Any]]) -> list[Any]:
        columns = _attnames(self.model)
        if self.ordering and rows:
            # Sorted by the last key first, then by each key before it: Python's sort is stable,
            # so ties keep the previous order, and pk first makes ties come out the same each time.
            rows.sort(key=itemgetter(columns.index(self.model._meta.pk.attname)))
            for index in reversed(range(len(self.ordering))):
                rows.sort(key=itemgetter(len(columns) + index), reverse=self.ordering[index].startswith("-"))
            rows = [row[: len(columns)] for row in rows]
        for row in rows:
            for index, convert in self.converters:
                row[index] = convert(row[index])
        return _instances(self.model, columns, rows)


@dataclass(frozen=True)
class _Statements:
    story: _Prepared
    parts: _PartsStatement  # every part and manifest, and the claims' texts
    parts_without_claims: _PartsStatement
    readers: dict[str, _JsonRows]  # by the name of the rows: each part, and the manifests


def _prepare(wrapper: Any) -> _Statements:
    subqueries = {name: _gathered(queryset, wrapper) for name, queryset in _part_queries().items()}

    def statement(names: list[str]) -> _PartsStatement:
        return _PartsStatement("SELECT " + ", ".join(subqueries[name] for name in names), tuple(names))

    every = list(subqueries)
    readers = {name: _JsonRows.of(model, wrapper.vendor, ordered=True) for name, model in PARTS.items()}
    readers["manifests"] = _JsonRows.of(Manifest, wrapper.vendor, ordered=False)
    return _Statements(
        story=_Prepared.of(_story_query(), wrapper),
        parts=statement(every),
        parts_without_claims=statement([name for name in every if name != "claims"]),
        readers=readers,
    )


# One set of prepared statements per database connection object (each thread has its own, and
# the story query's converters are bound to it).
_prepared: WeakKeyDictionary[Any, _Statements] = WeakKeyDictionary()


def _statements() -> _Statements:
    wrapper = connections[DEFAULT_DB_ALIAS]
    statements = _prepared.get(wrapper)
    if statements is None:
        statements = _prepared[wrapper] = _prepare(wrapper)
    return statements


def _instances(model: type[Model], columns: Sequence[str], rows: list[Any]) -> list[Any]:
    if signals.pre_init.has_listeners(model) or signals.post_init.has_listeners(model):
        return [model.from_db(DEFAULT_DB_ALIAS, columns, row) for row in rows]
    # What from_db makes of a full row (every concrete field, in order), without the per-field
    # setattr of Model.__init__: a third of the loader's time for a story's fifty-odd parts.
    # Without init signals to send, the instance is the same: its fields in __dict__ by
    # attname, loaded from this database.
    instances = []
    for row in rows:
        instance = model.__new__(model)
        instance.__dict__.update(zip(columns, row, strict=True))
        state = instance._state = ModelState()
        state.adding = False
        state.db = DEFAULT_DB_ALIAS
        instances.append(instance)
    return instances


def _story_from_row(row: Any) -> Story:
    fields = _attnames(Story)
    [story] = _instances(Story, fields, [row[: len(fields)]])
    start = len(fields)
    for relation in STORY_RELATIONS:
        field = Story._meta.get_field(relation)
        names = _attnames(field.related_model)
        values = row[start : start + len(names)]
        start += len(names)
        # A nullable relation left unset comes back as a row of NULLs from the outer join.
        related = None if values[0] is None else _instances(field.related_model, names, [values])[0]
        field.set_cached_value(story, related)
    return story


@dataclass(frozen=True)
class LoadedStory:
    story: Story
    manifests: dict[str, Manifest]
    claim_texts: dict[tuple[str, str], str]


def find_story(*, dateline: date, slug: str) -> Story | None:
    """The story at /stories/<dateline>/<slug>/, whatever its status, with its newsroom, beat,
    edition and pinned site texts: one query."""
    statement = _statements().story
    with connections[DEFAULT_DB_ALIAS].cursor() as cursor:
        stories = [_story_from_row(row) for row in statement.rows(cursor, slug)]
    return next((story for story in stories if story.dateline == dateline), None)


def load_parts(story: Story, *, claims: bool = True) -> LoadedStory:
    """Every part of the story, its cited manifests and (when asked) their claims' texts:
    one query, whatever the story's size."""
    statements = _statements()
    statement = statements.parts if claims else statements.parts_without_claims
    with connections[DEFAULT_DB_ALIAS].cursor() as cursor:
        rows = statement.run(cursor, story.pk)
    readers = statements.readers
    story._prefetched_objects_cache = {name: readers[name].instances(rows[name]) for name in PARTS}
    manifests = {m.manifest_id: m for m in readers["manifests"].instances(rows["manifests"])}
    claim_texts = {(manifest, claim): text for manifest, claim, text in rows.get("claims", [])}
    return LoadedStory(story, manifests, claim_texts)
