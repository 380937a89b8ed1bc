"""The edit version counts changes of a story's written content: the number optimistic locking
compares, so a change made on an older version is refused and nothing is overwritten."""

from __future__ import annotations

import pytest

from stories.models import Paragraph, Story
from stories.services import StaleVersion, require_edit_version, story_record_change
from tests.factories import ParagraphFactory, StoryFactory

pytestmark = pytest.mark.django_db


def test_a_content_change_counts_and_a_record_without_one_does_not():
    story = StoryFactory()
    paragraph = ParagraphFactory(story=story, section__story=story)
    story_record_change(story=story, actor="ed", note="written")
    first = Story.objects.get(pk=story.pk).edit_version

    story_record_change(story=story, actor="ed", note="submitted for checks")
    assert Story.objects.get(pk=story.pk).edit_version == first

    Paragraph.objects.filter(pk=paragraph.pk).update(markdown="A different paragraph.")
    story_record_change(story=story, actor="ed", note="edited")
    assert Story.objects.get(pk=story.pk).edit_version == first + 1
    assert story.edit_version == first + 1


def test_a_change_on_an_older_version_is_refused_with_both_numbers():
    story = StoryFactory()
    ParagraphFactory(story=story, section__story=story)
    story_record_change(story=story, actor="ed")
    current = Story.objects.get(pk=story.pk).edit_version

    assert require_edit_version(story=story, expected=current).pk == story.pk
    assert require_edit_version(story=story, expected=None).pk == story.pk
    with pytest.raises(StaleVersion) as refusal:
        require_edit_version(story=story, expected=current - 1)
    assert f"you edited version {current - 1}, it is now at version {current}" in refusal.value.message
