"""Any valid desk/1 story survives import and export unchanged: same keys, same order."""

import json

from django.test import override_settings
from hypothesis import HealthCheck, given, settings
from hypothesis.extra.django import TestCase

from stories.desk import export_story
from stories.models import Story
from stories.services import story_import_desk
from tests.factories import add_site_texts

from .desk_documents import SITE_URL, documents


@override_settings(SITE_URL=SITE_URL)
class RoundTripTests(TestCase):
    @settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(documents())
    def test_any_valid_story_round_trips(self, document):
        add_site_texts(document)
        result = story_import_desk(document=json.loads(json.dumps(document)))
        exported = export_story(Story.objects.with_parts().get(pk=result.story.pk))
        assert exported == document
        assert json.dumps(exported, ensure_ascii=False) == json.dumps(document, ensure_ascii=False)

    @settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(documents(published=True))
    def test_importing_the_export_again_changes_nothing(self, document):
        add_site_texts(document)
        first = story_import_desk(document=document)
        exported = export_story(Story.objects.with_parts().get(pk=first.story.pk))
        second = story_import_desk(document=exported)
        assert not second.created
        assert Story.objects.count() == 1
        assert export_story(Story.objects.with_parts().get(pk=second.story.pk)) == document
