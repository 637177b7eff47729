"""Write many rows fast: PostgreSQL's COPY through psycopg, else ``bulk_create``.

``bulk_create`` on PostgreSQL sends big JSON logs (naval battles, the dice log) as quoted
array literals, and that quoting costs more than the rest of the fleet phase. COPY streams
the same values, prepared by the same fields (``get_db_prep_save``: the same ``Jsonb``, the
same datetimes), so the stored rows are identical. COPY returns no ids: callers must not need
them (the objects keep ``pk`` None). Every other database keeps ``bulk_create``.
``insert_values`` takes plain tuples instead of model instances (thousands of dice rows),
``update_rows`` updates in one statement, ``delete_rows`` deletes without per-row signals."""

import json
from functools import partial

from django.db import connections, router
from django.db.models import JSONField
from django.utils import timezone

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
    rows = [tuple(f.get_db_prep_save(f.pre_save(obj, True), connection) for f in fields)
            for obj in objs]
    return _copy(connection, model, fields, rows)


def _copy(connection, model, fields, rows) -> int:
    """COPY ``rows`` (sequences of values ready for the database) into ``fields``."""
    quote = connection.ops.quote_name
    sql = (f"COPY {quote(model._meta.db_table)} "
           f"({', '.join(quote(f.column) for f in fields)}) FROM STDIN")
    with connection.cursor() as cursor, cursor.cursor.copy(sql) as stream:
        for row in rows:
            stream.write_row(row)
    if connection.queries_logged:  # query counts and debug logs see the COPY too
        connection.queries_log.append({"sql": f"{sql} -- {len(rows)} rows", "time": "0.000"})
    return len(rows)


# Fields whose Python values psycopg adapts as Django would prepare them
_PLAIN = {"BigIntegerField", "BooleanField", "CharField", "ForeignKey", "IntegerField",
          "PositiveBigIntegerField", "PositiveIntegerField", "PositiveSmallIntegerField",
          "SmallIntegerField", "TextField"}


def insert_values(model, fields: list[str], rows, *, copy: bool | None = None) -> int:
    """Insert ``rows``, tuples of values for ``fields`` (names or attnames such as
    ``round_id``), without building a model instance per row (thousands of dice rows); returns
    how many. Every other field but the primary key takes its default, an ``auto_now(_add)``
    field the time of the call. COPY on PostgreSQL (a JSON field's value sent as its JSON
    text: the stored rows are those ``bulk_create`` stores), else ``bulk_create``."""
    rows = list(rows)
    if not rows:
        return 0
    connection = connections[router.db_for_write(model)]
    if not (_fast(connection) if copy is None else copy):
        model.objects.bulk_create(model(**dict(zip(fields, row, strict=True))) for row in rows)
        return len(rows)
    meta = model._meta
    named = [meta.get_field(name) for name in fields]
    others = [f for f in meta.concrete_fields if not f.primary_key and f not in named]
    now = timezone.now()
    constants = [f.get_db_prep_save(now if getattr(f, "auto_now", False)
                                    or getattr(f, "auto_now_add", False) else f.get_default(),
                                    connection) for f in others]
    converters = [(i, _converter(f, connection)) for i, f in enumerate(named)
                  if f.get_internal_type() not in _PLAIN]
    prepared = []
    for row in rows:
        values = list(row)
        for i, convert in converters:
            values[i] = convert(values[i])
        values += constants
        prepared.append(values)
    return _copy(connection, model, [*named, *others], prepared)


def _converter(field, connection):
    if isinstance(field, JSONField):  # compact: the same jsonb, less text to send and parse
        dumps = partial(json.dumps, cls=field.encoder, separators=(",", ":"))
        return lambda value: None if value is None else dumps(value)
    return lambda value: field.get_db_prep_save(value, connection)


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


def delete_rows(queryset) -> int:
    """Delete the rows of ``queryset`` in one ``DELETE``, without the per-row signals and
    cascades of ``QuerySet.delete`` (a post_delete handler that bumps the revision per row cost
    more than the rest of the fleet phase's store). Callers delete or detach dependent rows
    first (an overlooked foreign key fails at commit) and ``bump`` the revision themselves."""
    return queryset._raw_delete(queryset.db)
