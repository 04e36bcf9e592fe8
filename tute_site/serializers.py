"""The base of every Input/Output serializer of the API."""

from __future__ import annotations

import copy
from typing import Any

from rest_framework import serializers
from rest_framework.fields import Field, empty

#: Defaults a request may share with every other: nothing in them can be changed in place.
_IMMUTABLE = (type(None), bool, int, float, str, bytes, tuple, frozenset)


class Serializer(serializers.Serializer):
    """DRF's ``Serializer``, whose instances copy their declared fields more cheaply.

    DRF deep-copies the declared fields for every instance, which runs each field's ``__init__`` again
    (validators, choices, regexes): for the two fields of an action's input that was half of its
    validation, and most of a match's output. A leaf field holds nothing that a request changes except
    what ``bind`` sets on the copy, so a shallow copy serves; a field whose default could be changed in
    place, a list or dict field (its child is bound to the field it belongs to) and a nested
    serializer are still deep-copied.
    """

    def get_fields(self) -> dict[str, Field]:
        return {
            name: _shallow_copy(field) if leaf else copy.deepcopy(field)
            for name, field, leaf in _copy_plan(type(self), self._declared_fields)
        }


_CopyPlan = tuple[tuple[str, Field, bool], ...]


def _copy_plan(cls: type, declared: dict[str, Field]) -> _CopyPlan:
    """Each declared field with whether a shallow copy serves, worked out once a class (and kept on
    it, so a class made at run time takes its plan with it when it goes)."""
    kept: tuple[dict[str, Field], _CopyPlan] | None = cls.__dict__.get("_tute_copy_plan")
    if kept is not None and kept[0] is declared:
        return kept[1]
    plan = tuple((name, field, _is_leaf(field)) for name, field in declared.items())
    cls._tute_copy_plan = (declared, plan)  # type: ignore[attr-defined]
    return plan


def _shallow_copy(field: Field) -> Field:
    new = object.__new__(type(field))
    new.__dict__.update(field.__dict__)
    return new


def _is_leaf(field: Field) -> bool:
    if (
        isinstance(field, serializers.BaseSerializer)
        or hasattr(field, "child")
        or hasattr(field, "child_relation")
    ):
        return False
    return all(_shareable(value) for value in (field.default, field.initial))


def _shareable(value: Any) -> bool:
    return value is empty or callable(value) or isinstance(value, _IMMUTABLE)
