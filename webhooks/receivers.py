"""Stories published, corrected or retracted become webhook deliveries, queued at once.

``story_changed`` is sent after the change committed, so the deliveries describe what readers
now get.
"""

from __future__ import annotations

from typing import Any

from stories.signals import story_changed

from .services import deliveries_create
from .tasks import enqueue_delivery


def on_story_changed(sender: Any, *, story: Any, action: str, **kwargs: Any) -> None:
    for delivery in deliveries_create(story=story, action=action):
        enqueue_delivery(delivery.pk)


story_changed.connect(on_story_changed, dispatch_uid="webhooks-story-changed")
