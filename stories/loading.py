"""A story with all its parts, its cited manifests and their claims, for the public pages,
fast enough for a story page rendered anew to stay within a few times a bare Django view.

One statement, whatever the story's size: the story row with what it brings along, every
part, the cited manifests and their claims, each as one JSON array built by the database, all
found by the story's address (its dateline and slug). On SQLite that costs about what a
dozen separate statements did (the database builds JSON instead of Python handling a dozen
results); on PostgreSQL each statement saved is a round trip and a query plan.

The statement is built by the ORM once per database connection, from the models (so the SQL
follows the schema), with the dateline and the slug as its parameters: building a query costs
the ORM far more than running it (about a millisecond against a tenth of one on SQLite).

A request only runs the SQL, converts the values (``_json_converter``, per field type and
database) and makes model instances as ``Model.from_db`` does. The parts land in the prefetch
cache, so ``story.cites.all()`` and everything built on it (``StoryView``, ``export_story``)
see exactly what ``Story.objects.with_parts()`` gives, in the models' ordering.

Which story a reader may see is still the model's rule (``Story.is_public``, the row-level
twin of ``Story.objects.published()``); the loader fetches the story at the address, whatever
its status, and the caller decides (a draft's parts are read for nothing then, but only an
editor's preview or a 404 pays for that).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import date, datetime
from functools import cache
from operator import itemgetter
from typing import Any
from weakref import WeakKeyDictionary

from django.db import DEFAULT_DB_ALIAS, connections
from django.db.models import F, JSONField, Model, QuerySet, signals
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
# Stand-ins for the parameters while the ORM builds a query; never sent to the database.
SLUG, DATELINE = "\x00slug", date(1, 1, 7)
# The name of each stand-in's parameter in the SQL, by the stand-in as the ORM passes it on
# (a date goes to SQLite as text).
_PARAMETER_NAMES = {SLUG: "slug", DATELINE: "dateline", DATELINE.isoformat(): "dateline"}


def _with_named_parameters(compiler: Any) -> str:
    """The compiler's SQL, with each parameter (a stand-in) named ``%(slug)s`` or
    ``%(dateline)s``."""
    sql, params = compiler.as_sql()
    names = [_PARAMETER_NAMES.get(param) for param in params]
    if not params or None in names:
        raise ValueError(f"a prepared query takes the story's dateline and slug alone, not {params!r}")
    # Named parameters: the SQLite backend turns a positional "%s" into "?" with a regular
    # expression run over the whole statement on every execute (a tenth of a millisecond
    # for the story's, which names every column of seven tables), named ones with a plain
    # % format. PostgreSQL takes either as it is, and a name may be used more than once.
    if "%" in sql.replace("%s", ""):
        raise ValueError("a prepared query may hold no other % than its parameters")
    first, *rest = sql.split("%s")
    return first + "".join(f"%({name})s{piece}" for name, piece in zip(names, rest, strict=True))


@cache
def _attnames(model: type[Model]) -> tuple[str, ...]:
    return tuple(field.attname for field in model._meta.concrete_fields)


def _story_fields() -> list[tuple[str, Any]]:
    """The columns of the story's row, each with its field: the story's own, then those of each
    of ``STORY_RELATIONS`` (as ``relation__attname``)."""
    fields = [(field.attname, field) for field in Story._meta.concrete_fields]
    for relation in STORY_RELATIONS:
        related = Story._meta.get_field(relation).related_model
        fields += [(f"{relation}__{field.attname}", field) for field in related._meta.concrete_fields]
    return fields


def _at_the_address(model: type[Model]) -> QuerySet:
    return model.objects.filter(story__dateline=DATELINE, story__slug=SLUG)


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
    annotations = queryset.query.annotation_select
    inner = _with_named_parameters(queryset.query.get_compiler(connection=wrapper))
    quote = wrapper.ops.quote_name

    def value(name: str) -> str:
        column = f"part.{quote(name)}"
        # SQLite keeps JSON as text, which json_array() would keep as a string for Python to
        # decode once more per row; json() nests it instead. PostgreSQL nests it as it is.
        if wrapper.vendor == "sqlite" and isinstance(annotations[name].output_field, JSONField):
            return f"json({column})"
        return column

    values = ", ".join(value(name) for name in annotations)
    if wrapper.vendor == "postgresql" and len(annotations) > 100:
        # PostgreSQL's limit on a function's arguments (FUNC_MAX_ARGS): the story's row with
        # what it brings along is 75 columns today.
        raise NotImplementedError(f"json_build_array takes at most 100 values, not {len(annotations)}")
    if wrapper.vendor == "postgresql":
        gather = f"json_agg(json_build_array({values}))"
    elif wrapper.vendor == "sqlite":
        gather = f"json_group_array(json_array({values}))"
    else:
        raise NotImplementedError(f"the story loader knows no JSON aggregate for {wrapper.vendor}")
    return f"(SELECT {gather} FROM ({inner}) part)"


def _row_queries() -> dict[str, QuerySet]:
    """The rows the page needs: the story's with what it brings along; each part, in its
    model's ordering; every manifest the story cites; and every claim of those manifests, which
    the page picks by (manifest, claim) pair, so that a claim id cited with the wrong manifest
    shows no text."""
    story = Story.objects.filter(dateline=DATELINE, slug=SLUG)
    queries = {"story": _json_rows(story, [name for name, _ in _story_fields()])}
    cited = _at_the_address(Cite).values("manifest_id")
    queries |= {
        name: _json_rows(_at_the_address(model), _attnames(model), model._meta.ordering)
        for name, model in PARTS.items()
    }
    queries["manifests"] = _json_rows(Manifest.objects.filter(manifest_id__in=cited), _attnames(Manifest))
    queries["claims"] = _json_rows(
        Claim.objects.filter(manifest__manifest_id__in=cited), ["manifest__manifest_id", "claim_id", "text"]
    )
    return queries


@dataclass(frozen=True)
class _RowsStatement:
    """One SELECT of scalar subqueries, one per name, each giving a JSON array of rows."""

    sql: str
    names: tuple[str, ...]

    def run(self, cursor: Any, parameters: dict[str, Any]) -> dict[str, list[list[Any]]]:
        cursor.execute(self.sql, parameters)
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
        return _nullable(datetime.fromisoformat if vendor == "postgresql" else _utc_datetime)
    if kind == "JSONField":
        return None  # nested in the array (see _gathered)
    raise NotImplementedError(f"the story loader cannot read a {kind} ({field}) back from JSON")


_PLAIN_JSON_TYPES = {
    "AutoField",
    "BigAutoField",
    "BigIntegerField",
    "CharField",
    "ForeignKey",
    "IntegerField",
    "PositiveBigIntegerField",
    "PositiveIntegerField",
    "PositiveSmallIntegerField",
    "SlugField",
    "SmallIntegerField",
    "TextField",
    "URLField",
}


def _nullable(convert: Callable[[Any], Any]) -> Callable[[Any], Any]:
    return lambda value: None if value is None else convert(value)


def _utc_datetime(value: str) -> datetime:
    # The offset parsed with the rest: a fifth of the time of parsing, then ``replace(tzinfo=)``.
    return datetime.fromisoformat(value + "+00:00")


def _converters(fields: Sequence[Any], vendor: str) -> tuple[tuple[int, Callable[[Any], Any]], ...]:
    """The converter of each column, of these fields, that needs one, by its place."""
    converters = [_json_converter(field, vendor) for field in fields]
    return tuple((index, convert) for index, convert in enumerate(converters) if convert)


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
        ordering = tuple(model._meta.ordering) if ordered else ()
        return cls(model, _converters(model._meta.concrete_fields, vendor), ordering)

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
    every: _RowsStatement  # the story, every part and manifest, and the claims' texts
    without_claims: _RowsStatement
    story_converters: tuple[tuple[int, Callable[[Any], Any]], ...]
    readers: dict[str, _JsonRows]  # by the name of the rows: each part, and the manifests


def _prepare(wrapper: Any) -> _Statements:
    subqueries = {name: _gathered(queryset, wrapper) for name, queryset in _row_queries().items()}

    def statement(names: list[str]) -> _RowsStatement:
        return _RowsStatement("SELECT " + ", ".join(subqueries[name] for name in names), tuple(names))

    every = list(subqueries)
    readers = {name: _JsonRows.of(model, wrapper.vendor, ordered=True) for name, model in PARTS.items()}
    readers["manifests"] = _JsonRows.of(Manifest, wrapper.vendor, ordered=False)
    return _Statements(
        every=statement(every),
        without_claims=statement([name for name in every if name != "claims"]),
        story_converters=_converters([field for _, field in _story_fields()], wrapper.vendor),
        readers=readers,
    )


# One set of prepared statements per database connection object (each thread has its own): the
# SQL and the converters are those of its database.
_prepared: WeakKeyDictionary[Any, _Statements] = WeakKeyDictionary()


def _statements(wrapper: Any) -> _Statements:
    statements = _prepared.get(wrapper)
    if statements is None:
        statements = _prepared[wrapper] = _prepare(wrapper)
    return statements


def _instances(model: type[Model], columns: Sequence[str], rows: list[Any]) -> list[Any]:
    # Asking each model for its receivers costs more than reading the rows of most parts;
    # usually no model has any.
    any_receivers = signals.pre_init.receivers or signals.post_init.receivers
    if any_receivers and (signals.pre_init.has_listeners(model) or signals.post_init.has_listeners(model)):
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
    # The story's parts by the name of their relation, as in its prefetch cache: reading them
    # here saves making a related manager for each (``story.cites.all()``), which costs more
    # than reading the few parts of most kinds.
    parts: dict[str, list[Any]]
    manifests: dict[str, Manifest]
    claim_texts: dict[tuple[str, str], str]


def load_story(*, dateline: date, slug: str, claims: bool = True) -> LoadedStory | None:
    """The story at /stories/<dateline>/<slug>/, whatever its status, with its newsroom, beat,
    edition and pinned site texts, every part, its cited manifests and (when asked) their
    claims' texts; None when there is none. One query, whatever the story's size."""
    wrapper = connections[DEFAULT_DB_ALIAS]
    statements = _statements(wrapper)
    statement = statements.every if claims else statements.without_claims
    parameters = {"slug": slug, "dateline": wrapper.ops.adapt_datefield_value(dateline)}
    with wrapper.cursor() as cursor:
        rows = statement.run(cursor, parameters)
    if not rows["story"]:
        return None
    [row] = rows["story"]  # (dateline, slug) is unique
    for index, convert in statements.story_converters:
        row[index] = convert(row[index])
    story = _story_from_row(row)
    readers = statements.readers
    parts = {name: readers[name].instances(rows[name]) for name in PARTS}
    story._prefetched_objects_cache = dict(parts)
    manifests = {m.manifest_id: m for m in readers["manifests"].instances(rows["manifests"])}
    claim_texts = {(manifest, claim): text for manifest, claim, text in rows.get("claims", [])}
    return LoadedStory(story, parts, manifests, claim_texts)
