"""Search over published stories: what their live versions say, never a working copy.

A query is a list of terms: words, "quoted phrases" and -exclusions. A story matches when
every term is found somewhere in it (headline, dek, or the search text frozen with the
version: angle, key facts, headings, paragraphs) and no excluded term is.

On PostgreSQL each term is full-text search (English stemming) over each version's stored
tsvector, computed when the version is written, with a GIN index (migration stories 0009): it
is asked for matching ids in an uncorrelated subquery, so it can use its index, and the outer
query walks live versions newest first and stops once a page is full. SQLite, the embedded
default, has no such column: there each term is a case-insensitive substring match.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from django.db import connection
from django.db.models import Q, QuerySet
from django.db.models.expressions import RawSQL

from stories.models import PublishedVersion

SEARCH_CONFIG = "english"
MAX_QUERY_LENGTH = 200
MAX_TERMS = 10
_TERM = re.compile(r'(-?)"([^"]*)"|(-?)([^\s"]+)')


# The versions whose stored vector (a generated column of migration stories 0009, outside the
# model state because SQLite has none) matches a websearch query.
_MATCHING_VERSIONS = (
    f"SELECT {PublishedVersion._meta.pk.column} FROM {PublishedVersion._meta.db_table} "
    "WHERE search_vector @@ websearch_to_tsquery(%s::regconfig, %s)"
)


@dataclass(frozen=True)
class Term:
    text: str
    phrase: bool
    excluded: bool


def clean_query(text: str) -> str:
    return " ".join(text.split())[:MAX_QUERY_LENGTH]


def parse_terms(text: str) -> list[Term]:
    terms = []
    for quoted_minus, phrase, minus, word in _TERM.findall(clean_query(text)):
        value = " ".join(phrase.split()) if phrase else word
        if value and value != "-":
            terms.append(Term(value, phrase=bool(phrase), excluded=bool(quoted_minus or minus)))
    return terms[:MAX_TERMS]


def _postgres_match(term: Term) -> Q:
    text = f'"{term.text}"' if term.phrase else term.text
    return Q(pk__in=RawSQL(_MATCHING_VERSIONS, [SEARCH_CONFIG, text]))


def _meaningful(terms: list[Term]) -> list[Term]:
    """The terms PostgreSQL can search for: a stop word ("the", "or") has no lexeme, and
    would otherwise match nothing and empty every result."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT numnode(websearch_to_tsquery(%s::regconfig, t)) > 0 "
            "FROM unnest(%s::text[]) WITH ORDINALITY AS u(t, n) ORDER BY n",
            [SEARCH_CONFIG, [term.text for term in terms]],
        )
        keep = [row[0] for row in cursor.fetchall()]
    return [term for term, kept in zip(terms, keep, strict=True) if kept]


def _substring_match(term: Term) -> Q:
    return Q(headline__icontains=term.text) | Q(dek__icontains=term.text) | Q(search_text__icontains=term.text)


def search_versions(stories: QuerySet[PublishedVersion], text: str) -> QuerySet[PublishedVersion]:
    """The versions of ``stories`` that match ``text``, newest first; none for an empty query."""
    terms = parse_terms(text)
    if connection.vendor == "postgresql" and terms:
        terms, match = _meaningful(terms), _postgres_match
    else:
        match = _substring_match
    if not any(not term.excluded for term in terms):
        return stories.none()  # exclusions alone would list the whole archive
    for term in terms:
        stories = stories.exclude(match(term)) if term.excluded else stories.filter(match(term))
    return stories
