from pathlib import Path

from django.core.management.base import BaseCommand, CommandError
from django.db import DEFAULT_DB_ALIAS

from newsroom.ops.backup import BackupError, database_backup, database_connection


class Command(BaseCommand):
    help = (
        "Back up the whole database to PATH: pg_dump's custom format for PostgreSQL, SQLite's "
        "online backup for SQLite. restore_db reads it back."
    )

    def add_arguments(self, parser):
        parser.add_argument("path", help="Where to write the backup (refused if it exists, unless --force).")
        parser.add_argument("--force", action="store_true", help="Replace PATH if it exists.")
        parser.add_argument("--database", default=DEFAULT_DB_ALIAS, help="The database alias (default: default).")

    def handle(self, *args, path: str, force: bool, database: str, **options):
        destination = Path(path)
        try:
            connection = database_connection(database)
            database_backup(connection=connection, path=destination, overwrite=force)
        except BackupError as error:
            raise CommandError(str(error)) from None
        self.stdout.write(f"Backed up the {connection.vendor} database to {destination}")
