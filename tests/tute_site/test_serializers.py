"""The API's serializer base: cheaper field copies that behave as DRF's deep copies."""

from __future__ import annotations

from typing import Any, cast

import pytest
from rest_framework import serializers

from tute_site.serializers import Serializer


class Inner(Serializer):
    name = serializers.CharField()


def sample_fields() -> dict[str, serializers.Field]:
    """One kind of field each: leaves, a choice, a list and a dict, defaults that can change in place
    and not, a nested serializer."""
    return {
        "code": serializers.RegexField(r"^[a-z]+$", max_length=8),
        "ply": serializers.IntegerField(min_value=0),
        "kind": serializers.ChoiceField(choices=["a", "b"], default="a"),
        "tags": serializers.ListField(child=serializers.CharField(), default=list),
        "extra": serializers.DictField(required=False),
        "counts": serializers.JSONField(default={"n": 0}),
        "inner": Inner(required=False),
    }


Sample = cast(type[Serializer], type("Sample", (Serializer,), sample_fields()))
#: The same fields on DRF's own base, which deep-copies them all.
DrfSample = cast(type[serializers.Serializer], type("DrfSample", (serializers.Serializer,), sample_fields()))


def validated(cls: type[serializers.Serializer], data: dict[str, Any]) -> tuple[bool, Any]:
    serializer = cls(data=data)
    ok = serializer.is_valid()
    return ok, serializer.validated_data if ok else serializer.errors


@pytest.mark.parametrize(
    "data",
    [
        {"code": "abc", "ply": 3},
        {"code": "abc", "ply": 3, "kind": "b", "tags": ["x"], "extra": {"k": 1}, "inner": {"name": "n"}},
        {"code": "ABC", "ply": 3},
        {"code": "abc", "ply": -1},
        {"code": "abcdefghij", "ply": "x"},
        {"code": "abc", "ply": 1, "kind": "c", "tags": "x", "inner": {}},
        {},
    ],
)
def test_validation_gives_what_drfs_own_base_gives(data: dict[str, Any]) -> None:
    assert validated(Sample, data) == validated(DrfSample, data)


def test_output_is_what_drfs_own_base_gives() -> None:
    value = {
        "code": "abc",
        "ply": 2,
        "kind": "b",
        "tags": ["t"],
        "extra": {},
        "counts": {},
        "inner": {"name": "i"},
    }
    assert Sample(value).data == DrfSample(value).data


def test_each_instance_binds_its_own_copies_and_leaves_the_declared_fields_unbound() -> None:
    first, second = Sample(), Sample()
    for name in Sample._declared_fields:
        assert first.fields[name] is not second.fields[name]
        assert first.fields[name].parent is first
        assert second.fields[name].parent is second
        assert Sample._declared_fields[name].parent is None


def test_a_list_fields_child_belongs_to_the_instances_own_copy() -> None:
    first, second = Sample(), Sample()
    tags, other_tags = (cast(serializers.ListField, s.fields["tags"]) for s in (first, second))
    inner = cast(serializers.Serializer, first.fields["inner"])
    assert tags.child is not other_tags.child
    parent: object = tags.child.parent  # typed as a serializer in the stubs; a ListField here
    assert parent is tags
    assert inner.fields["name"].parent is inner


def test_a_default_that_can_change_in_place_is_not_shared_between_requests() -> None:
    ok, data = validated(Sample, {"code": "abc", "ply": 0})
    assert ok
    data["counts"]["n"] = 99  # a view changing its validated data
    ok, again = validated(Sample, {"code": "abc", "ply": 0})
    assert again["counts"] == {"n": 0}
