"""Times on the desk are in the editor's zone and name it, once."""

from datetime import UTC, datetime

from django.utils import timezone

from newsroom.usertime import format_when

NOON = datetime(2026, 12, 1, 10, 0, tzinfo=UTC)


def test_a_time_names_the_editor_s_zone():
    with timezone.override("Europe/Paris"):
        assert format_when(NOON) == "2026-12-01 11:00 CET (Europe/Paris)"


def test_a_zone_whose_abbreviation_is_its_name_says_it_once():
    with timezone.override("UTC"):
        assert format_when(NOON) == "2026-12-01 10:00 UTC"


def test_no_time_is_a_dash():
    assert format_when(None) == "—"
