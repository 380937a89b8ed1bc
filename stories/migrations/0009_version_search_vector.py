"""Search reads a stored tsvector of each published version (PostgreSQL only).

Until now the GIN index of 0006 was on an expression: on a small table the planner reads every
row instead and computes ``to_tsvector`` of whole stories for each search (about 200 ms for
60 stories). A generated, stored column computes it once, when a version is written, whichever
plan is chosen; its GIN index serves larger archives. Kept out of the model state (SQLite, the
embedded default, has no tsvector and searches by substring); public.search reads it by name.
"""

from django.db import migrations

COLUMN = """
ALTER TABLE stories_publishedversion ADD COLUMN search_vector tsvector GENERATED ALWAYS AS (
    to_tsvector('english'::regconfig,
        COALESCE(headline, '') || ' ' || COALESCE(dek, '') || ' ' || COALESCE(search_text, ''))
) STORED
"""


def forwards(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    schema_editor.execute("DROP INDEX IF EXISTS version_search_gin")
    schema_editor.execute(COLUMN)
    schema_editor.execute(
        "CREATE INDEX version_search_vector_gin ON stories_publishedversion USING gin (search_vector)"
    )


def backwards(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    schema_editor.execute("ALTER TABLE stories_publishedversion DROP COLUMN search_vector")
    schema_editor.execute(
        "CREATE INDEX version_search_gin ON stories_publishedversion USING gin "
        "(to_tsvector('english'::regconfig, COALESCE(headline, '') || ' ' || COALESCE(dek, '') "
        "|| ' ' || COALESCE(search_text, '')))"
    )


class Migration(migrations.Migration):
    dependencies = [("stories", "0008_story_schedule_revision_edit_version_audit_log")]

    operations = [migrations.RunPython(forwards, backwards)]
