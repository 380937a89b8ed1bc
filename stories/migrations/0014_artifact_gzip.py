import gzip

from django.db import migrations, models


def _gzipped(text):
    # newsroom.pagecache.gzipped, as it is when this migration was written.
    return gzip.compress(text.encode(), compresslevel=9, mtime=0)


def store_gzip(apps, schema_editor):
    """Each version published before its artifacts' gzip forms were stored gets them, from the
    artifacts as they are."""
    PublishedVersion = apps.get_model("stories", "PublishedVersion")
    for version in PublishedVersion.objects.only("pk", "page_html", "document", "markdown").iterator():
        PublishedVersion.objects.filter(pk=version.pk).update(
            page_html_gzip=_gzipped(version.page_html),
            document_gzip=_gzipped(version.document),
            markdown_gzip=_gzipped(version.markdown),
        )


class Migration(migrations.Migration):
    dependencies = [("stories", "0013_artifact_compression")]

    operations = [
        migrations.AddField(
            model_name="publishedversion",
            name=name,
            field=models.BinaryField(default=b""),
            preserve_default=False,
        )
        for name in ("page_html_gzip", "document_gzip", "markdown_gzip")
    ] + [migrations.RunPython(store_gzip, migrations.RunPython.noop)]
