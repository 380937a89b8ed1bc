import hashlib

from django.db import migrations, models


def _etag(text):
    # newsroom.pagecache.etag_of, as it is when this migration was written.
    return '"' + hashlib.sha256(text.encode()).hexdigest()[:32] + '"'


def store_etags(apps, schema_editor):
    """Each version published before its artifacts' ETags were stored gets them, from the
    artifacts as they are: the ETags its page and twins were already served with."""
    PublishedVersion = apps.get_model("stories", "PublishedVersion")
    for version in PublishedVersion.objects.only("pk", "page_html", "document", "markdown").iterator():
        PublishedVersion.objects.filter(pk=version.pk).update(
            page_html_etag=_etag(version.page_html),
            document_etag=_etag(version.document),
            markdown_etag=_etag(version.markdown),
        )


class Migration(migrations.Migration):
    dependencies = [("stories", "0011_version_label")]

    operations = [
        migrations.AddField(
            model_name="publishedversion",
            name=name,
            field=models.CharField(default="", editable=False, max_length=34),
            preserve_default=False,
        )
        for name in ("page_html_etag", "document_etag", "markdown_etag")
    ] + [migrations.RunPython(store_etags, migrations.RunPython.noop)]
