"""Model instances from hand-written SQL, for the few statements that run on every API request.

The ORM's compilation of a query costs more than PostgreSQL's work for the one-row reads of the hot
path (docs/PERFORMANCE.md, "API"). A ``RowReader`` names the columns to select and turns the values
back into a model instance as the ORM would: the backend's converters (SQLite's datetimes and JSON
text...), then the instance with those fields set; fields not selected load on first use, like
``only()``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Generic, TypeVar

import orjson
from django.db import connection as default_connection
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.models import JSONField, Model
from django.db.models.base import ModelState
from django.db.models.signals import post_init, pre_init

M = TypeVar("M", bound=Model)
_Converter = Callable[[Any], Any]


class RowReader(Generic[M]):
    def __init__(self, model: type[M], attnames: Sequence[str]) -> None:
        self.model = model
        wanted = set(attnames)
        # Instances are built from values in the model's own field order.
        self.fields = [f for f in model._meta.concrete_fields if f.attname in wanted]
        unknown = wanted - {f.attname for f in self.fields}
        if unknown:
            raise ValueError(f"{model.__name__} has no concrete fields {sorted(unknown)}")
        self.attnames = [f.attname for f in self.fields]
        self.width = len(self.fields)
        self._converters: dict[str, list[_Converter | None]] = {}

    def columns(self, alias: str) -> str:
        """The select list for this reader's columns, in its order, from table alias ``alias``."""
        return ", ".join(f"{alias}.{default_connection.ops.quote_name(f.column)}" for f in self.fields)

    def read(self, values: Sequence[Any], db: BaseDatabaseWrapper | None = None) -> M | None:
        """The instance from ``values`` (this reader's columns, in order) read on ``db`` (the cursor's
        connection; the default one if not given); None for an outer join's miss."""
        if values[0] is None and self.fields[0].primary_key:
            return None
        db = db if db is not None else default_connection
        converters = self._converters.get(db.vendor)
        if converters is None:
            converters = self._converters[db.vendor] = [self._converter(f, db) for f in self.fields]
        converted = [
            value if convert is None else convert(value)
            for convert, value in zip(converters, values, strict=True)
        ]
        return self._instance(db.alias, converted)

    def _instance(self, alias: str, values: list[Any]) -> M:
        """What ``Model.from_db`` gives, without ``Model.__init__``'s walk over every field.

        ``__init__`` sets each given field with ``setattr`` and skips the deferred ones; a new instance
        has no cached relation for a foreign key's setter to clear, so filling ``__dict__`` is the same.
        With ``pre_init``/``post_init`` receivers for the model (none in this project), ``from_db``
        runs so that they still see every instance.
        """
        model = self.model
        # The lists first: empty in this project, they spare two lookups an instance in the signals'
        # per-sender caches.
        if (pre_init.receivers and pre_init.has_listeners(model)) or (
            post_init.receivers and post_init.has_listeners(model)
        ):
            return model.from_db(alias, self.attnames, values)
        instance = model.__new__(model)
        state = ModelState()
        state.adding = False
        state.db = alias
        fields = instance.__dict__
        fields["_state"] = state
        fields.update(zip(self.attnames, values, strict=True))
        return instance

    def _converter(self, field: Any, db: BaseDatabaseWrapper) -> _Converter | None:
        col = field.get_col(self.model._meta.db_table)
        steps = db.ops.get_db_converters(col) + col.get_db_converters(db)
        if not steps:
            return None
        if isinstance(field, JSONField) and field.decoder is None:
            steps = [_orjson_first(field) if step == field.from_db_value else step for step in steps]

        def convert(value: Any) -> Any:
            for step in steps:
                value = step(value, col, db)
            return value

        return convert


def _orjson_first(field: JSONField[Any]) -> Callable[[Any, Any, Any], Any]:
    """``JSONField.from_db_value`` decoding with orjson: the same values as ``json.loads`` (a match's rules
    options are read on every play request), and Django's own path for anything orjson refuses."""

    def from_db_value(value: Any, expression: Any, connection: Any) -> Any:
        if isinstance(value, str | bytes):
            try:
                return orjson.loads(value)
            except orjson.JSONDecodeError:
                pass
        return field.from_db_value(value, expression, connection)

    return from_db_value
