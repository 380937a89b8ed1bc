"""What the verification room adds to /metrics, read at each scrape (newsroom/ops/metrics.py)."""

from __future__ import annotations

from collections.abc import Iterable

from django.db import DatabaseError
from django.db.models import Min
from django.utils import timezone
from prometheus_client.core import GaugeMetricFamily

from stories.models import Story

from .models import VerificationRun


def oldest_submission() -> Iterable[GaugeMetricFamily]:
    """How long the oldest submitted story has waited for its checks (0 when none waits): a
    queue whose workers are gone, or too few, shows here first."""
    try:
        queued = (
            VerificationRun.objects.unfinished()
            .filter(story__status=Story.Status.SUBMITTED)
            .aggregate(oldest=Min("queued_at"))["oldest"]
        )
    except DatabaseError:
        return  # the database away: /readyz reports it; the rest of the scrape goes on
    family = GaugeMetricFamily(
        "newsroom_oldest_submission_age_seconds",
        "Seconds the oldest submitted story has waited for its checks to finish (0: none is waiting).",
    )
    family.add_metric([], 0.0 if queued is None else max(0.0, (timezone.now() - queued).total_seconds()))
    yield family
