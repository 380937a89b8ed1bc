"""The changes feed starts with what readers get now: each live version as published, each
withdrawn one as a tombstone, so a mirror built from the first change is exact."""

from django.db import migrations
from django.utils import timezone


def backfill(apps, schema_editor):
    from api.changes import version_summary  # reads only fields every version has

    PublishedVersion = apps.get_model("stories", "PublishedVersion")
    StoryChange = apps.get_model("api", "StoryChange")
    now = timezone.now()
    for version in PublishedVersion.objects.select_related("newsroom", "beat").order_by("modified_at", "pk"):
        withdrawn = version.withdrawn_at is not None
        StoryChange.objects.create(
            event="story.retracted" if withdrawn else "story.published",
            desk_id=version.desk_id,
            at=max(version.modified_at, version.published_at) if not withdrawn else min(now, version.modified_at),
            content_hash=version.content_hash,
            summary=None if withdrawn else version_summary(version),
            retracted_reason=version.withdrawn_reason if withdrawn else "",
        )


class Migration(migrations.Migration):
    dependencies = [("api", "0001_story_changes"), ("stories", "0011_version_label")]

    operations = [migrations.RunPython(backfill, migrations.RunPython.noop)]
