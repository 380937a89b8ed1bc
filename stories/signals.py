"""Signals the stories room sends, so rooms above it (caches, feeds, checks) can react."""

from django.dispatch import Signal

# Sent after commit whenever what readers may see of a story changes.
# Arguments: ``story`` (a Story) and ``action``: "published", "updated", "corrected", "retracted".
story_changed = Signal()
