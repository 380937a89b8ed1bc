"""Which unique rule a failed save broke, as the database reports it, in field names."""

from __future__ import annotations

import pytest
from django.db import IntegrityError, transaction

from newsroom.dberrors import unique_violation
from newsroom.models import Newsroom
from stories.models import Story
from tests.factories import StoryFactory

pytestmark = pytest.mark.django_db


def refusal(save) -> IntegrityError:
    with pytest.raises(IntegrityError) as refused, transaction.atomic():
        save()
    return refused.value


def test_a_unique_field_is_named():
    story = StoryFactory()

    error = refusal(lambda: StoryFactory(desk_id=story.desk_id))

    assert unique_violation(error, Story) == ("desk_id",)


def test_a_unique_constraint_over_two_fields_names_both_in_its_order():
    story = StoryFactory()

    error = refusal(lambda: StoryFactory(slug=story.slug, dateline=story.dateline, newsroom=story.newsroom))

    assert unique_violation(error, Story) == ("dateline", "slug")


def test_another_model_s_rule_is_not_this_model_s():
    newsroom = Newsroom.objects.create(slug="the-desk", title="The desk")

    error = refusal(lambda: Newsroom.objects.create(slug=newsroom.slug, title="Again"))

    assert unique_violation(error, Story) == ()
    assert unique_violation(error, Newsroom) == ("slug",)


def test_a_rule_that_is_not_a_unique_one_is_not_reported():
    story = StoryFactory()

    error = refusal(lambda: Story.objects.filter(pk=story.pk).update(desk_id=-1))  # a positive number

    assert unique_violation(error, Story) == ()
