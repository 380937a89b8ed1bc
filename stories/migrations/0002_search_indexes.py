"""GIN indexes for full-text search on PostgreSQL (stories.search).

Functional indexes that SQLite cannot build, so they are created by code that asks which
database it runs on, and kept out of the model state: on SQLite, search falls back to
icontains and needs no index. The expressions must match stories.search exactly.
"""

from django.contrib.postgres.indexes import GinIndex
from django.contrib.postgres.search import SearchVector
from django.db import migrations

INDEXES = [
    ("Story", "story_search_gin", lambda: SearchVector("headline", "dek", "angle", config="english")),
    ("Paragraph", "paragraph_search_gin", lambda: SearchVector("markdown", config="english")),
]


def add_indexes(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    for model_name, name, vector in INDEXES:
        schema_editor.add_index(apps.get_model("stories", model_name), GinIndex(vector(), name=name))


def remove_indexes(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    for model_name, name, vector in INDEXES:
        schema_editor.remove_index(apps.get_model("stories", model_name), GinIndex(vector(), name=name))


class Migration(migrations.Migration):
    dependencies = [("stories", "0001_initial")]

    operations = [migrations.RunPython(add_indexes, remove_indexes, elidable=False)]
