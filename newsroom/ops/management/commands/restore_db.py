from pathlib import Path

from django.core.management.base import BaseCommand, CommandError
from django.db import DEFAULT_DB_ALIAS, DatabaseError

from newsroom.ops.backup import BackupError, database_connection, database_restore


class Command(BaseCommand):
    help = (
        "Restore a backup that backup_db wrote into the database (pg_restore for PostgreSQL, "
        "SQLite's backup API for SQLite). The database must be empty, unless --force."
    )

    def add_arguments(self, parser):
        parser.add_argument("path", help="A backup written by backup_db.")
        parser.add_argument(
            "--force", action="store_true", help="Restore even into a database that holds tables, replacing them."
        )
        parser.add_argument("--database", default=DEFAULT_DB_ALIAS, help="The database alias (default: default).")

    def handle(self, *args, path: str, force: bool, database: str, **options):
        source = Path(path)
        try:
            connection = database_connection(database)
            database_restore(connection=connection, path=source, force=force)
        except BackupError as error:
            raise CommandError(str(error)) from None
        except DatabaseError as error:
            raise CommandError(f"cannot reach the database: {error}") from None
        self.stdout.write(f"Restored {source} into the {connection.vendor} database")
