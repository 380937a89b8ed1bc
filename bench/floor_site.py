"""The floor bench's Django without the project: settings and URLconf in one module.

``BENCH_FLOOR_STACK=none``: no apps, no middleware, no database; one URL, the hello view.
``BENCH_FLOOR_STACK=stock``: the apps and the MIDDLEWARE list ``django-admin startproject``
writes, in front of the same view. Served by gunicorn as
``django.core.wsgi:get_wsgi_application()`` with ``DJANGO_SETTINGS_MODULE=bench.floor_site``.
"""

from __future__ import annotations

import os
import tempfile

from django.urls import path

from bench.pages import HELLO, hello

STACK = os.environ.get("BENCH_FLOOR_STACK", "none")

SECRET_KEY = "bench-floor-" + "x" * 50
DEBUG = False
ALLOWED_HOSTS = ["127.0.0.1", "localhost"]
ROOT_URLCONF = __name__
USE_TZ = True
LOGGING_CONFIG = None  # Django's own logging set-up: nothing of the project's

if STACK == "none":
    INSTALLED_APPS: list[str] = []
    MIDDLEWARE: list[str] = []
    DATABASES: dict = {}
elif STACK == "stock":
    INSTALLED_APPS = [
        "django.contrib.admin",
        "django.contrib.auth",
        "django.contrib.contenttypes",
        "django.contrib.sessions",
        "django.contrib.messages",
        "django.contrib.staticfiles",
    ]
    MIDDLEWARE = [
        "django.middleware.security.SecurityMiddleware",
        "django.contrib.sessions.middleware.SessionMiddleware",
        "django.middleware.common.CommonMiddleware",
        "django.middleware.csrf.CsrfViewMiddleware",
        "django.contrib.auth.middleware.AuthenticationMiddleware",
        "django.contrib.messages.middleware.MessageMiddleware",
        "django.middleware.clickjacking.XFrameOptionsMiddleware",
    ]
    # startproject's SQLite; the hello view never opens it.
    DATABASES = {
        "default": {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": os.path.join(tempfile.gettempdir(), "bench-floor-stock.sqlite3"),
        }
    }
    STATIC_URL = "static/"
    TEMPLATES = [
        {
            "BACKEND": "django.template.backends.django.DjangoTemplates",
            "DIRS": [],
            "APP_DIRS": True,
            "OPTIONS": {
                "context_processors": [
                    "django.template.context_processors.request",
                    "django.contrib.auth.context_processors.auth",
                    "django.contrib.messages.context_processors.messages",
                ]
            },
        }
    ]
else:
    raise ValueError(f"BENCH_FLOOR_STACK must be none or stock, not {STACK!r}")

urlpatterns = [path(HELLO.strip("/") + "/", hello)]
