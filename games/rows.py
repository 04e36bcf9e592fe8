"""Model instances from hand-written SQL, for the few statements that run on every API request.

The ORM's compilation of a query costs more than PostgreSQL's work for the one-row reads of the hot
path (docs/PERFORMANCE.md, "API"). A ``RowReader`` names the columns to select and turns the values
back into a model instance exactly as the ORM would: the backend's converters (SQLite's datetimes and
JSON text...), then ``Model.from_db``; fields not selected load on first use, like ``only()``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Generic, TypeVar

from django.db import connection
from django.db.models import Model

M = TypeVar("M", bound=Model)
_Converter = Callable[[Any], Any]


class RowReader(Generic[M]):
    def __init__(self, model: type[M], attnames: Sequence[str]) -> None:
        self.model = model
        wanted = set(attnames)
        # from_db takes a partial row in the model's own field order.
        self.fields = [f for f in model._meta.concrete_fields if f.attname in wanted]
        unknown = wanted - {f.attname for f in self.fields}
        if unknown:
            raise ValueError(f"{model.__name__} has no concrete fields {sorted(unknown)}")
        self.attnames = [f.attname for f in self.fields]
        self.width = len(self.fields)
        self._converters: dict[str, list[_Converter]] = {}

    def columns(self, alias: str) -> str:
        """The select list for this reader's columns, in its order, from table alias ``alias``."""
        return ", ".join(f"{alias}.{connection.ops.quote_name(f.column)}" for f in self.fields)

    def read(self, values: Sequence[Any]) -> M | None:
        """The instance from ``values`` (this reader's columns, in order); None for an outer join's miss."""
        if values[0] is None and self.fields[0].primary_key:
            return None
        converted = [convert(value) for convert, value in zip(self._for_connection(), values, strict=True)]
        return self.model.from_db(connection.alias, self.attnames, converted)

    def _for_connection(self) -> list[_Converter]:
        found = self._converters.get(connection.vendor)
        if found is None:
            found = self._converters[connection.vendor] = [self._converter(f) for f in self.fields]
        return found

    def _converter(self, field: Any) -> _Converter:
        col = field.get_col(self.model._meta.db_table)
        steps = connection.ops.get_db_converters(col) + col.get_db_converters(connection)
        if not steps:
            return _identity

        def convert(value: Any) -> Any:
            for step in steps:
                value = step(value, col, connection)
            return value

        return convert


def _identity(value: Any) -> Any:
    return value
