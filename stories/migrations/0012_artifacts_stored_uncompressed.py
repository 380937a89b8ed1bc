"""A published version's artifacts are kept uncompressed out of line (PostgreSQL only).

A story page's artifact is read whole on every request the page cache does not answer; kept
compressed (pglz, PostgreSQL's default for text over 2 KB), each read decompressed it again.
``STORAGE EXTERNAL`` keeps it out of line as it is, for about three times the space. Versions written before keep their
compressed copy until written again, which PostgreSQL reads as before.
"""

from django.db import migrations

ARTIFACTS = ("page_html", "document", "markdown")


def _storage(schema_editor, storage: str) -> None:
    if schema_editor.connection.vendor != "postgresql":
        return
    for column in ARTIFACTS:
        schema_editor.execute(f"ALTER TABLE stories_publishedversion ALTER COLUMN {column} SET STORAGE {storage}")


def forwards(apps, schema_editor):
    _storage(schema_editor, "EXTERNAL")


def backwards(apps, schema_editor):
    _storage(schema_editor, "EXTENDED")


class Migration(migrations.Migration):
    dependencies = [("stories", "0011_version_label")]

    operations = [migrations.RunPython(forwards, backwards)]
