"""Insert many rows fast (issue 21): PostgreSQL's COPY through psycopg, else ``bulk_create``.

``bulk_create`` on PostgreSQL sends big JSON logs (naval battles, the dice log) as quoted
array literals, and that quoting costs more than the rest of the fleet phase. COPY streams
the same values, prepared by the same fields (``get_db_prep_save``: the same ``Jsonb``, the
same datetimes), so the stored rows are identical. COPY returns no ids: callers must not need
them (the objects keep ``pk`` None). Every other database keeps ``bulk_create``."""

import json

from django.db import connections, router

# False: always the ORM's bulk_create/bulk_update (benchmarks measure both ways in one run)
FAST = True


def _fast(connection) -> bool:
    return FAST and connection.vendor == "postgresql"


def insert_rows(model, objs, *, copy: bool | None = None) -> int:
    """Insert ``objs`` (unsaved instances of ``model``, no ids) and return how many; ``copy``
    forces (True) or avoids (False) COPY, by default used on PostgreSQL."""
    objs = list(objs)
    if not objs:
        return 0
    connection = connections[router.db_for_write(model)]
    if copy is None:
        copy = _fast(connection)
    if not copy:
        model.objects.bulk_create(objs)
        return len(objs)
    fields = [f for f in model._meta.concrete_fields if not f.primary_key]
    quote = connection.ops.quote_name
    sql = (f"COPY {quote(model._meta.db_table)} "
           f"({', '.join(quote(f.column) for f in fields)}) FROM STDIN")
    rows = [tuple(f.get_db_prep_save(f.pre_save(obj, True), connection) for f in fields)
            for obj in objs]
    with connection.cursor() as cursor, cursor.cursor.copy(sql) as stream:
        for row in rows:
            stream.write_row(row)
    if connection.queries_logged:  # query counts and debug logs see the COPY too
        connection.queries_log.append({"sql": f"{sql} -- {len(rows)} rows", "time": "0.000"})
    return len(rows)


def update_rows(model, objs, fields: list[str], *, batch_size: int = 500) -> int:
    """``bulk_update(objs, fields)``; on PostgreSQL one ``UPDATE ... FROM jsonb_to_recordset``
    per batch instead of a CASE per field and row (whose building dominated the fleet phase's
    store). Only for fields whose values are JSON (numbers, text, ids, JSON fields)."""
    objs = list(objs)
    if not objs:
        return 0
    connection = connections[router.db_for_write(model)]
    if not _fast(connection):
        return model.objects.bulk_update(objs, fields, batch_size=batch_size)
    meta = model._meta
    chosen = [meta.get_field(name) for name in fields]
    quote = connection.ops.quote_name
    pk = meta.pk
    columns = ", ".join(f"{quote(f.column)} {f.db_type(connection)}" for f in [pk, *chosen])
    sets = ", ".join(f"{quote(f.column)} = v.{quote(f.column)}" for f in chosen)
    sql = (f"UPDATE {quote(meta.db_table)} AS t SET {sets} "
           f"FROM jsonb_to_recordset(%s::jsonb) AS v({columns}) "
           f"WHERE t.{quote(pk.column)} = v.{quote(pk.column)}")
    with connection.cursor() as cursor:
        for start in range(0, len(objs), batch_size):
            batch = [{f.column: getattr(obj, f.attname) for f in [pk, *chosen]}
                     for obj in objs[start:start + batch_size]]
            cursor.execute(sql, [json.dumps(batch)])
    return len(objs)
