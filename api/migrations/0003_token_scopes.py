import django.db.models.deletion
from django.db import migrations, models

import api.models


def every_scope_for_existing_tokens(apps, schema_editor):
    # Tokens made before scopes keep doing what they did: every scope, bounded by their user's
    # roles as before.
    AuthToken = apps.get_model("knox", "AuthToken")
    TokenGrant = apps.get_model("api", "TokenGrant")
    TokenGrant.objects.bulk_create(
        [TokenGrant(token_id=digest, scopes=["read", "submit", "publish"]) for digest in AuthToken.objects.values_list("pk", flat=True)],
        batch_size=500,
    )


class Migration(migrations.Migration):
    dependencies = [("api", "0002_story_changes_backfill"), ("knox", "0009_extend_authtoken_field")]

    operations = [
        migrations.CreateModel(
            name="TokenGrant",
            fields=[
                (
                    "token",
                    models.OneToOneField(
                        on_delete=django.db.models.deletion.CASCADE,
                        primary_key=True,
                        related_name="grant",
                        serialize=False,
                        to="knox.authtoken",
                    ),
                ),
                (
                    "scopes",
                    models.JSONField(default=api.models.all_scopes, help_text="Some of read, submit, publish."),
                ),
            ],
        ),
        migrations.RunPython(every_scope_for_existing_tokens, migrations.RunPython.noop),
    ]
