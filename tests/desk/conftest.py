"""Fixtures of the desk tests: the workflow's story maker, its editor and chief, eager tasks."""

from tests.workflow.conftest import chief, eager, editor, stories  # noqa: F401  (shared fixtures)
