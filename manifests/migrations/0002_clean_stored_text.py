"""Text is clean at the door (newsroom.cleantext) since this release; this cleans what came in
before it: control characters and bidirectional overrides and isolates are taken out of the
text fields of manifests, claims and the stories' working copies, and each change is logged
(and printed, so an operator running migrate sees it).

The working copy changes; published versions and revisions are history and stay as they were
(feeds and sitemaps drop what XML cannot carry at output). A story cleaned here is edited: its
next check and publish read the clean text.

It lives in manifests because the stories app's migrations are being added to in parallel; it
reads both apps' historical models and depends on both.
"""

import logging
import re

from django.db import migrations, models

logger = logging.getLogger("newsroom.migrations")

# Frozen here as the rule stood when this ran (a migration must not move with newsroom.cleantext).
_BIDI = "\u202a-\u202e\u2066-\u2069"
_ANYWHERE = re.compile(f"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f{_BIDI}]")
_LINE_BREAKS = re.compile(r"[\t\r\n]+")

# (app, model): the text fields that are multi-line; every other CharField/TextField is a line.
MODELS = {
    ("manifests", "Manifest"): {"brief_summary"},
    ("manifests", "Claim"): set(),
    ("stories", "Story"): set(),
    ("stories", "KeyFact"): set(),
    ("stories", "Section"): set(),
    ("stories", "Paragraph"): {"markdown"},
    ("stories", "Cite"): set(),
    ("stories", "Image"): set(),
    ("stories", "ListItem"): set(),
    ("stories", "Correction"): set(),
    ("stories", "RelatedLink"): set(),
}


def _clean(text, multiline):
    if not multiline:
        # A line break in a one-line field separated words: keep them apart with a space.
        text = _LINE_BREAKS.sub(" ", text)
    return _ANYWHERE.sub("", text)


def _names(before, after):
    return ", ".join(sorted({f"U+{ord(char):04X}" for char in before if char not in after}))


def clean_stored_text(apps, schema_editor):
    changed_total = 0
    for (app, name), multiline in MODELS.items():
        model = apps.get_model(app, name)
        fields = [
            field.name
            for field in model._meta.get_fields()
            if isinstance(field, models.CharField | models.TextField) and not field.choices and field.concrete
        ]
        changed = []
        for row in model.objects.only("pk", *fields).iterator(chunk_size=2000):
            dirty = False
            for field in fields:
                before = getattr(row, field)
                if not isinstance(before, str):
                    continue
                after = _clean(before, field in multiline)
                if after != before:
                    setattr(row, field, after)
                    dirty = True
                    message = f"cleaned {app}.{name} #{row.pk} {field}: removed {_names(before, after) or 'line breaks'}"
                    logger.warning(message)
                    print(f"  {message}")
            if dirty:
                changed.append(row)
        if changed:
            model.objects.bulk_update(changed, fields, batch_size=500)
            changed_total += len(changed)
    if changed_total:
        print(f"  cleaned {changed_total} row(s) of control characters and bidirectional overrides")


class Migration(migrations.Migration):
    dependencies = [
        ("manifests", "0001_initial"),
        ("stories", "0010_review_status"),
    ]

    operations = [migrations.RunPython(clean_stored_text, migrations.RunPython.noop, elidable=True)]
