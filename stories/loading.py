"""A story with all its parts, its cited manifests and their claims, for the public pages,
fast enough for a story page rendered anew to stay within a few times a bare Django view.

Building a query costs the ORM far more than running it (about a millisecond each against a
tenth of one on SQLite), and a story page needs eleven. So each query here is built by the
ORM once per database connection, from the models, with the story's slug or id as its one
parameter; a request only runs the SQL, converts the rows with the ORM's own converters and
makes model instances with ``Model.from_db``, as the ORM's iterator does. The parts land in
the prefetch cache, so ``story.cites.all()`` and everything built on it (``StoryView``,
``export_story``) see exactly what ``Story.objects.with_parts()`` gives.

Which story a reader may see is still the model's rule (``Story.is_public``, the row-level
twin of ``Story.objects.published()``); the loader fetches the story at the address and the
caller decides.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import date
from functools import cache
from typing import Any
from weakref import WeakKeyDictionary

from django.db import DEFAULT_DB_ALIAS, connections
from django.db.models import Model, QuerySet, signals
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
        sql, params = compiler.as_sql()
        if list(params) not in ([SLUG], [STORY_ID]):
            raise ValueError(f"a prepared query takes exactly one parameter, not {params!r}")
        expressions = [column for column, _, _ in compiler.select]
        # A named parameter: the SQLite backend turns a positional "%s" into "?" with a regular
        # expression run over the whole statement on every execute (a tenth of a millisecond
        # for the story's, which names every column of seven tables), a named one with a
        # plain % format. PostgreSQL takes either as it is.
        if "%" in sql.replace("%s", ""):
            raise ValueError("a prepared query may hold no other % than its parameter")
        sql = sql.replace("%s", "%(value)s")
        return cls(sql, compiler, compiler.get_converters(expressions), list(queryset.query.values_select))

    def rows(self, cursor: Any, value: Any) -> list[Any]:
        cursor.execute(self.sql, {"value": value})
        rows = cursor.fetchall()
        if self.converters:
            rows = list(self.compiler.apply_converters(rows, self.converters))
        return rows


@cache
def _attnames(model: type[Model]) -> tuple[str, ...]:
    return tuple(field.attname for field in model._meta.concrete_fields)


def _queries() -> dict[str, Callable[[], QuerySet]]:
    story_columns = list(_attnames(Story))
    for relation in STORY_RELATIONS:
        related = Story._meta.get_field(relation).related_model
        story_columns += [f"{relation}__{name}" for name in _attnames(related)]
    queries: dict[str, Callable[[], QuerySet]] = {
        "story": lambda: Story.objects.filter(slug=SLUG).order_by().values_list(*story_columns),
        # Every claim of every manifest the story cites: the page picks the cited ones, by
        # (manifest, claim) pair, so a claim id cited with the wrong manifest shows no text.
        "manifests": lambda: Manifest.objects.filter(
            manifest_id__in=Cite.objects.filter(story_id=STORY_ID).values("manifest_id")
        ).values_list(*_attnames(Manifest)),
        "claims": lambda: Claim.objects.filter(
            manifest__manifest_id__in=Cite.objects.filter(story_id=STORY_ID).values("manifest_id")
        ).values_list("manifest__manifest_id", "claim_id", "text"),
    }
    for name, model in PARTS.items():
        queries[name] = lambda model=model: model.objects.filter(story_id=STORY_ID).values_list(*_attnames(model))
    return queries


# One set of prepared queries per database connection object (each thread has its own, and
# the compiler's converters are bound to it).
_prepared: WeakKeyDictionary[Any, dict[str, _Prepared]] = WeakKeyDictionary()


def _prepared_queries() -> dict[str, _Prepared]:
    wrapper = connections[DEFAULT_DB_ALIAS]
    queries = _prepared.get(wrapper)
    if queries is None:
        queries = {name: _Prepared.of(build(), wrapper) for name, build in _queries().items()}
        _prepared[wrapper] = queries
    return queries


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
    queries = _prepared_queries()
    with connections[DEFAULT_DB_ALIAS].cursor() as cursor:
        stories = [_story_from_row(row) for row in queries["story"].rows(cursor, slug)]
    return next((story for story in stories if story.dateline == dateline), None)


def load_parts(story: Story, *, claims: bool = True) -> LoadedStory:
    """Every part of the story, its cited manifests and (when asked) their claims' texts:
    ten queries, whatever the story's size."""
    queries = _prepared_queries()
    # One cursor for the ten: opening one costs a few times what running these queries does.
    with connections[DEFAULT_DB_ALIAS].cursor() as cursor:
        story._prefetched_objects_cache = {
            name: _instances(model, queries[name].columns, queries[name].rows(cursor, story.pk))
            for name, model in PARTS.items()
        }
        manifest_rows = queries["manifests"].rows(cursor, story.pk)
        claim_rows = queries["claims"].rows(cursor, story.pk) if claims else []
    manifests = {m.manifest_id: m for m in _instances(Manifest, queries["manifests"].columns, manifest_rows)}
    claim_texts = {(manifest, claim): text for manifest, claim, text in claim_rows}
    return LoadedStory(story, manifests, claim_texts)
