import sqlite3

from django.apps import AppConfig
from django.db.backends.signals import connection_created


def use_sqlite_real_variable_limit(sender, connection, **kwargs) -> None:
    # Django 5.2 assumes SQLite's pre-3.32 limit of 999 variables per statement, which splits
    # a big story's bulk insert into many statements. Ask the library for the real limit.
    if connection.vendor == "sqlite":
        limit = connection.connection.getlimit(sqlite3.SQLITE_LIMIT_VARIABLE_NUMBER)
        connection.features.max_query_params = limit


class NewsroomConfig(AppConfig):
    name = "newsroom"
    verbose_name = "Newsrooms and site texts"

    def ready(self) -> None:
        # system_checks registers the admin's filter check (newsroom.E001).
        from . import system_checks  # noqa: F401

        connection_created.connect(use_sqlite_real_variable_limit, dispatch_uid="sqlite-variable-limit")
