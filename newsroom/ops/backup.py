"""Backup and restore of the whole database, with each engine's own tools.

- PostgreSQL: ``pg_dump --format=custom`` and ``pg_restore --clean --if-exists --no-owner
  --single-transaction`` (a failed restore leaves nothing half-written), connecting with the
  parts of ``DATABASE_URL``; the password goes in ``PGPASSWORD``, never on a command line.
- SQLite: Python's online backup API (``sqlite3.Connection.backup``), page by page, consistent
  while the site keeps writing.

A backup is written next to its destination and renamed into place when complete, so a
failed or interrupted one never leaves a file that looks whole. A restore goes only into an
empty database (no tables) unless forced.
"""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
from pathlib import Path
from typing import Any

from django.db import connections
from django.db.backends.base.base import BaseDatabaseWrapper
from django.utils.connection import ConnectionDoesNotExist


class BackupError(Exception):
    """Why a backup or restore cannot be done, for a person."""


def database_connection(alias: str) -> BaseDatabaseWrapper:
    """The connection of a database alias, for the backup and restore commands alike."""
    try:
        return connections[alias]
    except ConnectionDoesNotExist:
        raise BackupError(f"--database: no database alias {alias!r}") from None


def _partial(path: Path) -> Path:
    return path.with_name(f".{path.name}.partial")


def _tool(name: str) -> str:
    found = shutil.which(name)
    if found is None:
        raise BackupError(f"{name} is not installed (Debian: apt-get install postgresql-client)")
    return found


def _pg_arguments(settings_dict: dict[str, Any]) -> tuple[list[str], dict[str, str]]:
    """Connection options for pg_dump and pg_restore, and their environment (the password)."""
    arguments = []
    if settings_dict.get("HOST"):
        arguments += ["--host", str(settings_dict["HOST"])]
    if settings_dict.get("PORT"):
        arguments += ["--port", str(settings_dict["PORT"])]
    if settings_dict.get("USER"):
        arguments += ["--username", str(settings_dict["USER"])]
    env = {**os.environ}
    if settings_dict.get("PASSWORD"):
        env["PGPASSWORD"] = str(settings_dict["PASSWORD"])
    sslmode = (settings_dict.get("OPTIONS") or {}).get("sslmode")
    if sslmode:
        env["PGSSLMODE"] = str(sslmode)
    return [*arguments, "--no-password"], env


def _run(command: list[str], env: dict[str, str], what: str) -> None:
    result = subprocess.run(command, env=env, capture_output=True, text=True, check=False)
    if result.returncode != 0:
        detail = result.stderr.strip() or f"exit status {result.returncode}"
        raise BackupError(f"{what} failed: {detail}")


def database_backup(*, connection: BaseDatabaseWrapper, path: Path, overwrite: bool = False) -> None:
    """Write a backup of the database behind ``connection`` to ``path``."""
    if path.exists() and not overwrite:
        raise BackupError(f"{path} exists already (--force replaces it)")
    if not path.parent.is_dir():
        raise BackupError(f"{path.parent} is not a directory")
    partial = _partial(path)
    try:
        if connection.vendor == "sqlite":
            _sqlite_backup(connection, partial)
        elif connection.vendor == "postgresql":
            arguments, env = _pg_arguments(connection.settings_dict)
            command = [_tool("pg_dump"), "--format=custom", "--file", str(partial), *arguments]
            _run([*command, "--dbname", str(connection.settings_dict["NAME"])], env, "pg_dump")
        else:
            raise BackupError(f"no backup for a {connection.vendor} database")
        os.replace(partial, path)
    finally:
        partial.unlink(missing_ok=True)


def _sqlite_backup(connection: BaseDatabaseWrapper, partial: Path) -> None:
    target = sqlite3.connect(partial)
    try:
        if connection.is_in_memory_db():
            # Only Django's own connection reaches an in-memory database (the tests').
            connection.ensure_connection()
            connection.connection.backup(target)
        else:
            # A reader of its own: in WAL mode it sees one consistent state while the site writes.
            source = sqlite3.connect(f"file:{connection.settings_dict['NAME']}?mode=ro", uri=True)
            try:
                source.backup(target)
            finally:
                source.close()
    finally:
        target.close()


def database_tables(connection: BaseDatabaseWrapper) -> list[str]:
    with connection.cursor() as cursor:
        return connection.introspection.table_names(cursor)


def database_restore(*, connection: BaseDatabaseWrapper, path: Path, force: bool = False) -> None:
    """Restore the backup at ``path`` into the database behind ``connection``."""
    if not path.is_file():
        raise BackupError(f"{path} is not a file")
    tables = database_tables(connection)
    if tables and not force:
        raise BackupError(
            f"the database {connection.settings_dict['NAME']} is not empty ({len(tables)} tables): "
            "restore into an empty database, or pass --force to replace what it holds"
        )
    if connection.vendor == "sqlite":
        _sqlite_restore(connection, path)
    elif connection.vendor == "postgresql":
        arguments, env = _pg_arguments(connection.settings_dict)
        pg_restore = _tool("pg_restore")
        # Read the archive's table of contents first: a file that is not a dump is named as such.
        _run([pg_restore, "--list", str(path)], env, f"reading {path} as a pg_dump archive")
        connection.close()  # no session of ours holds locks on what is dropped and made again
        _run(
            [
                pg_restore,
                "--clean",
                "--if-exists",
                "--no-owner",
                "--single-transaction",
                "--exit-on-error",
                *arguments,
                "--dbname",
                str(connection.settings_dict["NAME"]),
                str(path),
            ],
            env,
            "pg_restore",
        )
    else:
        raise BackupError(f"no restore for a {connection.vendor} database")


def _sqlite_restore(connection: BaseDatabaseWrapper, path: Path) -> None:
    source = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        try:
            (verdict,) = source.execute("PRAGMA quick_check").fetchone()
            names = {row[0] for row in source.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        except sqlite3.DatabaseError as error:
            raise BackupError(f"{path} is not an SQLite backup: {error}") from None
        if verdict != "ok":
            raise BackupError(f"{path} is damaged: {verdict}")
        if "django_migrations" not in names:
            raise BackupError(f"{path} is an SQLite database but not a backup of this site (no django_migrations)")
        connection.ensure_connection()
        # The backup API replaces the whole target database in one step.
        source.backup(connection.connection)
    finally:
        source.close()
