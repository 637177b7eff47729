"""Statements PostgreSQL plans once per connection (issue 21).

Django's cursors bind parameters on the client, so PostgreSQL parses and plans every statement
anew. For the statements an attack declaration runs under its lock, that cost more than
running them. ``execute_prepared`` runs such a statement as ``EXECUTE`` of a statement the
connection prepared (SQL ``PREPARE``) the first time it ran it there. A prepared statement
lives as long as its connection and survives rollbacks (psycopg's own preparing forgets them
on every rollback). Other databases, or ``PREPARED_STATEMENTS`` off (behind a connection pooler
in transaction mode, where the next transaction may get another connection), run the
statement as it is."""

import weakref
import zlib

from django.conf import settings
from django.db import connection

# per open psycopg connection: the names of the statements prepared on it
_prepared: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def execute_prepared(cursor, name: str, sql: str, params: dict) -> None:
    """``cursor.execute(sql, params)`` (placeholders ``%(key)s``). On PostgreSQL the statement
    is prepared once per connection under ``name`` and a hash of ``sql``."""
    if connection.vendor != "postgresql" or not settings.PREPARED_STATEMENTS:
        cursor.execute(sql, params)
        return
    keys = tuple(params)
    name = f"{name}_{zlib.crc32(sql.encode()):08x}"
    known = _prepared.setdefault(connection.connection, set())
    if name not in known:
        body = sql
        for position, key in enumerate(keys, 1):
            body = body.replace(f"%({key})s", f"${position}")
        if "%" in body:
            raise ValueError(f"{name}: a placeholder without a value, or a literal %")
        cursor.execute(f"PREPARE {name} AS {body}")
        known.add(name)
    cursor.execute(f"EXECUTE {name}({', '.join(['%s'] * len(keys))})",
                   [params[key] for key in keys])
