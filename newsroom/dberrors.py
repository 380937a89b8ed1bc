"""Which unique rule a failed save broke, in the model's field names.

Two writers may both pass a form's or a service's uniqueness check and then both insert: the
second insert is refused by the database's unique constraint. The loser is owed an error
naming the field, never a 500. The database says which constraint it was: PostgreSQL by the
constraint's name (psycopg's ``diag``), SQLite in its message ("UNIQUE constraint failed:
table.column, ..."). Asking the database rather than looking for the other row afterwards
names the rule even when that row has gone again since.
"""

from __future__ import annotations

import re

from django.db import IntegrityError, connection
from django.db.models import Model

_SQLITE_UNIQUE = re.compile(r"UNIQUE constraint failed: (?P<columns>.+)")
# SQLSTATE unique_violation.
_UNIQUE_VIOLATION = "23505"


def _violated_columns(error: IntegrityError, table: str) -> list[str]:
    cause = error.__cause__ or error
    diag = getattr(cause, "diag", None)
    if diag is not None:
        if diag.sqlstate != _UNIQUE_VIOLATION or diag.table_name != table or not diag.constraint_name:
            return []
        # The savepoint of the failed statement is rolled back by now, so the connection answers.
        with connection.cursor() as cursor:
            constraint = connection.introspection.get_constraints(cursor, table).get(diag.constraint_name)
        return list(constraint["columns"]) if constraint else []
    match = _SQLITE_UNIQUE.fullmatch(str(cause).strip())
    if match is None:
        return []
    qualified = [name.strip() for name in match.group("columns").split(",")]
    return [name.split(".", 1)[1] for name in qualified if name.startswith(f"{table}.")]


def unique_violation(error: IntegrityError, model: type[Model]) -> tuple[str, ...]:
    """The fields of ``model`` whose unique rule ``error`` reports broken, in the rule's order;
    empty when the error is something else (another table, another kind of constraint).

    Call it once the atomic block around the failed save has been left: on PostgreSQL a
    transaction answers nothing more until the failed statement's savepoint is rolled back.
    """
    columns = _violated_columns(error, model._meta.db_table)
    by_column = {field.column: field.name for field in model._meta.concrete_fields}
    if not columns or any(column not in by_column for column in columns):
        return ()
    return tuple(by_column[column] for column in columns)
