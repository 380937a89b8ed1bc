import io
import logging
from collections.abc import Callable, Iterator

import pytest

from newsroom.ops.logs import logging_config


@pytest.fixture(autouse=True)
def fast_password_hashing(settings):
    # Each sign-in hashes a password; PBKDF2's deliberate slowness has no place in these tests.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def log_lines() -> Iterator[Callable[[str], io.StringIO]]:
    """What the root logger writes, through the formatter settings.LOGGING makes for a format."""
    root = logging.getLogger()
    saved_level = root.level
    handlers = []

    def capture(log_format: str) -> io.StringIO:
        spec = dict(logging_config(log_format=log_format, level="DEBUG")["formatters"]["structured"])
        formatter = spec.pop("()")(**spec)
        stream = io.StringIO()
        handler = logging.StreamHandler(stream)
        handler.setFormatter(formatter)
        root.addHandler(handler)
        handlers.append(handler)
        return stream

    root.setLevel(logging.DEBUG)
    yield capture
    for handler in handlers:
        root.removeHandler(handler)
    root.setLevel(saved_level)


@pytest.fixture
def json_lines(log_lines) -> io.StringIO:
    """What the root logger writes, through the production (JSON) formatter of settings.LOGGING."""
    return log_lines("json")
