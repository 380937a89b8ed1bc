"""Search over published stories.

On PostgreSQL it is full-text search backed by two GIN indexes (migration 0002): one on the
story's headline, dek and angle, one on paragraph bodies. Each is asked for matching ids in
an uncorrelated subquery, so each can use its index, and the outer query walks published
stories newest first and stops once a page is full. SQLite, the embedded default, has no
such index: there every word must appear, case-insensitively, somewhere in the story.
"""

from __future__ import annotations

from django.contrib.postgres.search import SearchQuery, SearchVector
from django.db import connection
from django.db.models import Q, QuerySet

from .models import Paragraph, Story

SEARCH_CONFIG = "english"
MAX_QUERY_LENGTH = 200
MAX_WORDS = 10


# These two expressions must stay exactly those of the indexes in migration 0002, or
# PostgreSQL will not use the indexes (a test asks PostgreSQL for the plan).
def story_vector() -> SearchVector:
    return SearchVector("headline", "dek", "angle", config=SEARCH_CONFIG)


def paragraph_vector() -> SearchVector:
    return SearchVector("markdown", config=SEARCH_CONFIG)


def clean_query(text: str) -> str:
    return " ".join(text.split())[:MAX_QUERY_LENGTH]


def search_stories(stories: QuerySet[Story], text: str) -> QuerySet[Story]:
    """The stories of ``stories`` that match ``text``, newest first; none for an empty query."""
    text = clean_query(text)
    if not text:
        return stories.none()
    if connection.vendor == "postgresql":
        # websearch syntax: quoted phrases, "or", -exclusions; never a syntax error for readers.
        query = SearchQuery(text, config=SEARCH_CONFIG, search_type="websearch")
        in_story = Story.objects.annotate(document=story_vector()).filter(document=query).values("pk")
        in_body = Paragraph.objects.annotate(document=paragraph_vector()).filter(document=query).values("story_id")
        return stories.filter(Q(pk__in=in_story) | Q(pk__in=in_body))
    for word in text.split()[:MAX_WORDS]:
        in_body = Paragraph.objects.filter(markdown__icontains=word).values("story_id")
        stories = stories.filter(
            Q(headline__icontains=word) | Q(dek__icontains=word) | Q(angle__icontains=word) | Q(pk__in=in_body)
        )
    return stories
