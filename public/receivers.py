"""Keep the public page cache honest: make stale exactly the pages a change touched.

Connected in PublicConfig.ready(), so it is listening in every process that can change what
readers get (web, Celery worker, management command), not only where the URLconf was loaded.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.db.models.signals import post_delete, post_save

from newsroom.models import Beat, Disclosure, Newsroom, ReuseTerms, RunGuide, SponsorAd
from newsroom.pagecache import pages_changed, tags_changed
from stories.signals import story_changed

# Shown on pages of every kind (titles in listings and story pages, the reuse terms page):
# rare admin edits that make every page stale. Editions are named by string: the listing of
# an edition shows its title.
SHOWN_EVERYWHERE = (Newsroom, Beat, Disclosure, ReuseTerms, RunGuide, SponsorAd, "editions.Edition")


# After commit: a page rendered between the bump and the commit would otherwise be stored
# under the new generation with the old content. (Outside a transaction it runs at once.)
# Robust: an unreachable cache is logged, and must not fail a change that has committed.
def on_story_changed(sender: Any, story: Any, action: str, tags: list[str] | None = None, **kwargs: Any) -> None:
    transaction.on_commit(lambda: tags_changed(tags or []), robust=True)


def on_shown_everywhere_changed(sender: Any, **kwargs: Any) -> None:
    transaction.on_commit(pages_changed, robust=True)


def connect() -> None:
    story_changed.connect(on_story_changed, dispatch_uid="pagecache-story-changed")
    for model in SHOWN_EVERYWHERE:
        name = model if isinstance(model, str) else model._meta.label
        post_save.connect(on_shown_everywhere_changed, sender=model, dispatch_uid=f"pagecache-save-{name}")
        post_delete.connect(on_shown_everywhere_changed, sender=model, dispatch_uid=f"pagecache-delete-{name}")
