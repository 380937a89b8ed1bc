"""Search reads published versions (public.search): a GIN index on the version's text, and
the indexes on the working copies' text (0002), which nothing reads any more, are dropped.

Functional indexes that SQLite cannot build, so they are created by code that asks which
database it runs on, and kept out of the model state: on SQLite, search falls back to
icontains and needs no index. The expression must match public.search.version_vector exactly.
"""

from django.contrib.postgres.indexes import GinIndex
from django.contrib.postgres.search import SearchVector
from django.db import migrations

OLD_INDEXES = [
    ("Story", "story_search_gin", lambda: SearchVector("headline", "dek", "angle", config="english")),
    ("Paragraph", "paragraph_search_gin", lambda: SearchVector("markdown", config="english")),
]
NEW_INDEXES = [
    ("PublishedVersion", "version_search_gin", lambda: SearchVector("headline", "dek", "search_text", config="english")),
]


def _add(apps, schema_editor, indexes):
    if schema_editor.connection.vendor != "postgresql":
        return
    for model_name, name, vector in indexes:
        schema_editor.add_index(apps.get_model("stories", model_name), GinIndex(vector(), name=name))


def _remove(apps, schema_editor, indexes):
    if schema_editor.connection.vendor != "postgresql":
        return
    for model_name, name, vector in indexes:
        schema_editor.remove_index(apps.get_model("stories", model_name), GinIndex(vector(), name=name))


def forwards(apps, schema_editor):
    _remove(apps, schema_editor, OLD_INDEXES)
    _add(apps, schema_editor, NEW_INDEXES)


def backwards(apps, schema_editor):
    _remove(apps, schema_editor, NEW_INDEXES)
    _add(apps, schema_editor, OLD_INDEXES)


class Migration(migrations.Migration):
    dependencies = [("stories", "0005_published_versions")]

    operations = [migrations.RunPython(forwards, backwards, elidable=False)]
