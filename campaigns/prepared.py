"""Statements PostgreSQL plans once per connection, sent together.

Django's cursors bind parameters on the client, so PostgreSQL parses and plans every statement
anew. For the statements an attack declaration runs under its lock, that cost more than
running them. ``run_prepared`` runs each statement as ``EXECUTE`` of a statement the
connection prepared (SQL ``PREPARE``) the first time it ran it there, and sends all of them in
one round trip. Each still sees what was committed before it started: in READ COMMITTED every
statement of a multi-statement query takes its own snapshot, so a read after a lock sees what
the lock waited for. A prepared statement lives as long as its connection and survives
rollbacks (psycopg's own preparing forgets them on every rollback). Other databases, or
``PREPARED_STATEMENTS`` off (behind a connection pooler in transaction mode, where the next
transaction may get another connection), run the statements as they are, one by one."""

import weakref
import zlib

from django.conf import settings
from django.db import connection

# A statement: (name, SQL with %(key)s placeholders, {key: value})
Statement = tuple[str, str, dict]

# per open psycopg connection: the names of the statements prepared on it
_prepared: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def run_prepared(*statements: Statement) -> list[list[tuple]]:
    """The rows of each statement, in order."""
    with connection.cursor() as cursor:
        if connection.vendor != "postgresql" or not settings.PREPARED_STATEMENTS:
            results = []
            for _, sql, params in statements:
                cursor.execute(sql, params)
                results.append(cursor.fetchall())
            return results
        calls, values = [], []
        for name, sql, params in statements:
            calls.append(_execute(cursor, name, sql, tuple(params)))
            values += params.values()
        cursor.execute("; ".join(calls), values)  # one round trip (the simple protocol)
        results = [cursor.fetchall()]
        while cursor.nextset():
            results.append(cursor.fetchall())
        return results


def _execute(cursor, name: str, sql: str, keys: tuple[str, ...]) -> str:
    """``EXECUTE`` of ``sql`` prepared on this connection (now, if not yet)."""
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
    return f"EXECUTE {name}({', '.join(['%s'] * len(keys))})"
