"""Keep the public page cache honest: empty it whenever what readers may see changes.

Connected in StoriesConfig.ready(), so it is listening in every process that can change a
story (web, Celery worker, management command), not only where the URLconf was loaded.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.db.models.signals import post_delete, post_save

from manifests.models import Claim, Manifest
from newsroom.models import Beat, Disclosure, Newsroom, ReuseTerms, RunGuide, SponsorAd
from newsroom.pagecache import pages_changed

from .signals import story_changed

# Things public pages show besides stories: titles in listings, the ledger, claim texts, the
# site-wide texts. Editions are named by string so this room needs nothing from theirs.
SHOWN_ON_PAGES = (Newsroom, Beat, Disclosure, ReuseTerms, RunGuide, SponsorAd, Manifest, Claim, "editions.Edition")


# After commit: a page rendered between the bump and the commit would otherwise be stored
# under the new generation with the old content. (Outside a transaction it runs at once.)
# Robust: an unreachable cache is logged, and must not fail a change that has committed.
def on_story_changed(sender: Any, story: Any, action: str, **kwargs: Any) -> None:
    transaction.on_commit(pages_changed, robust=True)


def on_shown_model_changed(sender: Any, **kwargs: Any) -> None:
    transaction.on_commit(pages_changed, robust=True)


def connect() -> None:
    story_changed.connect(on_story_changed, dispatch_uid="pagecache-story-changed")
    for model in SHOWN_ON_PAGES:
        name = model if isinstance(model, str) else model._meta.label
        post_save.connect(on_shown_model_changed, sender=model, dispatch_uid=f"pagecache-save-{name}")
        post_delete.connect(on_shown_model_changed, sender=model, dispatch_uid=f"pagecache-delete-{name}")
