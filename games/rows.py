"""Model instances from hand-written SQL, converted exactly as the ORM converts them.

The table server's hot path runs one statement per action that the ORM would compile
afresh every time (a join, a row lock, an annotation): compiling it cost more CPU than
the database took to answer.  Here the SQL is written once and the rows are turned into
ordinary model instances with ``Model.from_db`` after the same per-column converters
the ORM's compiler applies (the field's, e.g. JSON decoding, then the backend's, e.g.
SQLite's booleans and datetimes), so callers cannot tell the difference.
"""

from __future__ import annotations

from django.db import connection


class ModelColumns:
    """The concrete columns of ``model`` under ``alias`` in a SELECT (but those named in
    ``defer``: left unread, loaded on first access as the ORM's ``defer`` does), and how
    to build an instance from their values."""

    def __init__(self, model, alias: str, *, defer: tuple[str, ...] = ()):
        self.model = model
        self.fields = [f for f in model._meta.concrete_fields if f.name not in defer]
        self.attnames = [f.attname for f in self.fields]
        self.alias = alias
        self._converters: dict[str, list] = {}  # by database vendor
        self._sql: dict[str, str] = {}  # by database vendor

    def sql(self) -> str:
        found = self._sql.get(connection.vendor)
        if found is None:
            qn = connection.ops.quote_name
            found = ", ".join(f"{self.alias}.{qn(f.column)}" for f in self.fields)
            self._sql[connection.vendor] = found
        return found

    def __len__(self) -> int:
        return len(self.fields)

    def _for(self, conn) -> list:
        found = self._converters.get(conn.vendor)
        if found is None:
            found = []
            for f in self.fields:
                col = f.get_col(self.alias)
                # The compiler's order: the backend's converters, then the field's.
                convs = conn.ops.get_db_converters(col) + col.get_db_converters(conn)
                found.append(tuple((c, col) for c in convs))
            self._converters[conn.vendor] = found
        return found

    def build(self, values, conn=None):
        """An instance of the model from this SELECT's values for its columns."""
        conn = conn or connection
        out = []
        for value, convs in zip(values, self._for(conn), strict=True):
            for convert, col in convs:
                value = convert(value, col, conn)
            out.append(value)
        return self.model.from_db(conn.alias, self.attnames, out)


def _update_sql(instance, names, where, columns) -> tuple[str, list]:
    """``UPDATE`` of ``instance``'s row (see ``update_fields``): the SQL and its parameters."""
    meta = type(instance)._meta
    qn = connection.ops.quote_name
    fields = [meta.get_field(n) for n in names]
    sets = ", ".join(
        [f"{qn(f.column)} = %s" for f in fields] + [f"{qn(c)} = %s" for c in columns or {}]
    )
    params = [f.get_db_prep_save(getattr(instance, f.attname), connection) for f in fields]
    params += list((columns or {}).values())
    conds = [f"{qn(meta.pk.column)} = %s"]
    params.append(instance.pk)
    for name, value in (where or {}).items():
        f = meta.get_field(name)
        conds.append(f"{qn(f.column)} = %s")
        params.append(f.get_db_prep_value(value, connection))
    return f"UPDATE {qn(meta.db_table)} SET {sets} WHERE {' AND '.join(conds)}", params


def update_fields(
    instance, names: list[str], *, where: dict | None = None, columns: dict | None = None
) -> int:
    """``UPDATE`` these fields of ``instance``'s row (only while its columns in ``where``
    hold those values), and ``columns`` (no model field's: name -> value as it goes to
    the database); the rows changed.  The values are prepared as ``save`` prepares
    them."""
    sql, params = _update_sql(instance, names, where, columns)
    with connection.cursor() as cur:
        cur.execute(sql, params)
        return cur.rowcount


def update_then_insert(
    instance,
    names: list[str],
    objs: list,
    *,
    where: dict | None = None,
    columns: dict | None = None,
) -> int:
    """``update_fields`` and, only if it changed the row, ``insert(objs)``: the rows the
    update changed (0: nothing written).

    On PostgreSQL one statement, the insert selecting from the update's ``RETURNING``:
    one round trip to the database instead of two.  That is what a table action pays
    for most on this project's machines (a round trip costs the client and the server
    some 0.15-0.2 ms of CPU each, more than the statements' own work)."""
    if connection.vendor != "postgresql":
        changed = update_fields(instance, names, where=where, columns=columns)
        if changed:
            insert(objs)
        return changed
    update, params = _update_sql(instance, names, where, columns)
    table, columns_sql, _, values = _insert_parts(objs)
    # Every row's values selected from the update's one returned row: none if it
    # changed nothing.  Cast to the columns' types: a SELECT's parameters, unlike an
    # INSERT's VALUES, are not typed by the columns they go to (a NULL would be text).
    meta = type(objs[0])._meta
    row = ", ".join(
        f"%s::{f.cast_db_type(connection)}" for f in meta.concrete_fields if not f.primary_key
    )
    selects = " UNION ALL ".join([f"SELECT {row} FROM changed"] * len(objs))
    with connection.cursor() as cur:
        cur.execute(
            f"WITH changed AS ({update} RETURNING 1) INSERT INTO {table} ({columns_sql}) {selects}",
            params + values,
        )
        return 1 if cur.rowcount else 0


def _insert_parts(objs: list) -> tuple[str, str, list[str], list]:
    """(table, its columns, one ``(%s, ...)`` per object, their values) for inserting
    ``objs``, their values prepared as ``save`` prepares them (``auto_now_add`` included)."""
    meta = type(objs[0])._meta
    qn = connection.ops.quote_name
    fields = [f for f in meta.concrete_fields if not f.primary_key]
    row = "(" + ", ".join(["%s"] * len(fields)) + ")"
    params = [f.get_db_prep_save(f.pre_save(obj, True), connection) for obj in objs for f in fields]
    columns = ", ".join(qn(f.column) for f in fields)
    return qn(meta.db_table), columns, [row] * len(objs), params


def insert(objs: list) -> None:
    """``INSERT`` these new instances of one model in one statement (no primary keys
    are read back), their values prepared as ``save`` prepares them (``auto_now_add``
    included)."""
    if not objs:
        return
    table, columns, rows, params = _insert_parts(objs)
    with connection.cursor() as cur:
        cur.execute(f"INSERT INTO {table} ({columns}) VALUES {', '.join(rows)}", params)


def first(cols: ModelColumns, tail: str, params, *, lock: bool = False):
    """The first row of ``SELECT <cols> FROM <cols' table> <alias> <tail>`` as an instance
    (None: no row); ``lock``: ``FOR UPDATE`` where the database has row locks (SQLite
    locks the whole database for the transaction instead)."""
    qn = connection.ops.quote_name
    sql = f"SELECT {cols.sql()} FROM {qn(cols.model._meta.db_table)} {cols.alias} {tail}"
    if lock and connection.features.has_select_for_update:
        sql += " FOR UPDATE"
    with connection.cursor() as cur:
        cur.execute(sql, params)
        row = cur.fetchone()
    return None if row is None else cols.build(row)


def upsert(instance, unique: str, update: list[str]) -> None:
    """Insert ``instance``'s row or, when one with the same ``unique`` column value exists,
    update that row's ``update`` fields (one statement: ``INSERT ... ON CONFLICT``, on
    PostgreSQL and SQLite alike)."""
    meta = type(instance)._meta
    qn = connection.ops.quote_name
    fields = [f for f in meta.concrete_fields if not f.primary_key]
    params = [f.get_db_prep_save(f.pre_save(instance, True), connection) for f in fields]
    columns = ", ".join(qn(f.column) for f in fields)
    values = ", ".join(["%s"] * len(fields))
    sets = ", ".join(
        f"{qn(meta.get_field(n).column)} = excluded.{qn(meta.get_field(n).column)}" for n in update
    )
    with connection.cursor() as cur:
        cur.execute(
            f"INSERT INTO {qn(meta.db_table)} ({columns}) VALUES ({values})"
            f" ON CONFLICT ({qn(meta.get_field(unique).column)}) DO UPDATE SET {sets}",
            params,
        )
