"""The Celery app. Tasks live in each app's ``tasks.py`` and are found by autodiscovery."""

import os

from celery import Celery
from celery.signals import setup_logging
from django_structlog.celery.steps import DjangoStructLogInitStep

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "newsroom.settings")

app = Celery("newsroom")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
# Workers log each task's start and end, with the request id the task's headers carry from the
# request that queued it (newsroom/ops/logs.py).
app.steps["worker"].add(DjangoStructLogInitStep)


@setup_logging.connect
def use_django_logging(**kwargs):
    # Connected, this keeps Celery from setting up logging its own way: workers and beat log
    # through Django's LOGGING, JSON lines in production like the web processes.
    from logging.config import dictConfig

    from django.conf import settings

    dictConfig(settings.LOGGING)
