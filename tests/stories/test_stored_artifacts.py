"""A published version's artifacts, read whole by every page the page cache does not answer,
are kept uncompressed on PostgreSQL: no decompression on each read."""

from __future__ import annotations

import pytest
from django.db import connection

from stories.models import PublishedVersion, Story
from tests.factories import StoryFactory, publish_story


@pytest.mark.postgres
def test_artifacts_are_stored_out_of_line_uncompressed(require_postgres):
    publish_story(StoryFactory(status=Story.Status.DRAFT))
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT attname, attstorage FROM pg_attribute WHERE attrelid = %s::regclass AND attname = ANY(%s)",
            [PublishedVersion._meta.db_table, ["page_html", "document", "markdown"]],
        )
        storage = dict(cursor.fetchall())
        cursor.execute(f"SELECT pg_column_compression(page_html) FROM {PublishedVersion._meta.db_table}")
        compression = {row[0] for row in cursor.fetchall()}

    assert storage == {"page_html": "e", "document": "e", "markdown": "e"}
    assert compression == {None}
