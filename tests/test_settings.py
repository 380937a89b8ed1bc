"""Settings come from the environment; production mode refuses to start without a real secret."""

import os
import secrets
import subprocess
import sys
from pathlib import Path

BASE_DIR = Path(__file__).resolve().parents[1]


def manage(*args: str, **env: str) -> subprocess.CompletedProcess:
    environment = {key: value for key, value in os.environ.items() if key not in ("SECRET_KEY", "DJANGO_MODE", "DEBUG")}
    environment |= {"DATABASE_URL": "sqlite:////tmp/settings-test.sqlite3", "REDIS_URL": "", **env}
    return subprocess.run(
        [sys.executable, str(BASE_DIR / "manage.py"), *args],
        env=environment,
        capture_output=True,
        text=True,
        cwd=BASE_DIR,
        check=False,
    )


def test_production_mode_refuses_to_start_without_a_secret_key():
    result = manage("check", DJANGO_MODE="production", ALLOWED_HOSTS="news.example.org")
    assert result.returncode != 0
    assert "SECRET_KEY must be set to a random value of at least 50 characters in production" in result.stderr


def test_production_mode_refuses_the_development_key():
    result = manage("check", DJANGO_MODE="production", SECRET_KEY="django-insecure-" + "x" * 60)
    assert result.returncode != 0
    assert "SECRET_KEY must be set" in result.stderr


def test_check_deploy_is_clean_in_production_mode():
    result = manage(
        "check",
        "--deploy",
        "--fail-level",
        "WARNING",
        DJANGO_MODE="production",
        SECRET_KEY=secrets.token_urlsafe(64),
        ALLOWED_HOSTS="news.example.org",
        SITE_URL="https://news.example.org",
    )
    assert result.returncode == 0, result.stderr
    assert "System check identified no issues" in result.stdout


def test_a_malformed_boolean_is_refused_by_name():
    result = manage("check", DEBUG="maybe")
    assert result.returncode != 0
    assert "DEBUG must be a boolean (true/false), not 'maybe'" in result.stderr


def test_an_unknown_mode_is_refused():
    result = manage("check", DJANGO_MODE="staging")
    assert result.returncode != 0
    assert "DJANGO_MODE must be development or production, not 'staging'" in result.stderr


def database_options(**env: str) -> str:
    code = "from django.conf import settings; print(settings.DATABASES['default'].get('OPTIONS'))"
    result = manage("shell", "-c", code, **env)
    assert result.returncode == 0, result.stderr
    return result.stdout.strip().splitlines()[-1]  # after "N objects imported automatically"


def test_postgresql_uses_prepared_statements_unless_told_not_to():
    url = "postgres://postgres@127.0.0.1:5432/newsroom"
    assert database_options(DATABASE_URL=url) == "{'server_side_binding': True, 'prepare_threshold': 5}"
    assert database_options(DATABASE_URL=url, DATABASE_PREPARED_STATEMENTS="false") == "{}"


def test_a_cache_timeout_must_be_a_positive_number_of_seconds():
    for value in ("soon", "0", "-1", "nan"):
        result = manage("check", REDIS_URL="redis://127.0.0.1:6379/0", CACHE_TIMEOUT_SECONDS=value)
        assert result.returncode != 0
        assert f"CACHE_TIMEOUT_SECONDS must be a positive number of seconds, not {value!r}" in result.stderr
