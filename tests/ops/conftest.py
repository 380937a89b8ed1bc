import pytest


@pytest.fixture(autouse=True)
def fast_password_hashing(settings):
    # Each sign-in hashes a password; PBKDF2's deliberate slowness has no place in these tests.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
