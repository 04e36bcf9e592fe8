"""games/rows.py: instances from hand-written SQL are what the ORM's ``from_db`` makes of the same row."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest
from django.db import DEFAULT_DB_ALIAS, connection, connections
from django.db.models.signals import post_init

from games.models import Game, Match, Player, Seat
from games.rows import RowReader

pytestmark = pytest.mark.django_db


def row_of(reader: RowReader[Any], pk: int) -> tuple[Any, ...]:
    table = reader.model._meta.db_table
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT {reader.columns('t')} FROM {table} t WHERE t.id = %s", [pk])
        row = cursor.fetchone()
    assert row is not None
    return tuple(row)


def built_by_orm(reader: RowReader[Any], row: tuple[Any, ...]) -> Any:
    """What ``Model.from_db`` makes of the row, after the same converters the ORM runs."""
    values = []
    for field, value in zip(reader.fields, row, strict=True):
        col = field.get_col(reader.model._meta.db_table)
        for step in connection.ops.get_db_converters(col) + col.get_db_converters(connection):
            value = step(value, col, connection)
        values.append(value)
    return reader.model.from_db(connection.alias, reader.attnames, values)


def state_of(instance: Any) -> dict[str, Any]:
    """The instance's fields as stored (deferred ones absent), and its ORM state."""
    stored = {name: value for name, value in vars(instance).items() if name != "_state"}
    return {"fields": stored, "adding": instance._state.adding, "db": instance._state.db}


@pytest.mark.parametrize(
    ("model", "attnames"),
    [
        (Match, [f.attname for f in Match._meta.concrete_fields]),
        (Match, ["id", "status", "ply", "options"]),
        (Seat, ["id", "match_id", "index", "player_id", "bot_level"]),
        (Player, ["id", "handle", "is_bot"]),
        (Game, ["id", "match_id", "number", "seed", "status"]),
    ],
)
def test_an_instance_read_from_a_row_equals_the_orms(
    model: type[Any], attnames: list[str], started_match: Callable[..., Match], play_moves: Callable[..., Any]
) -> None:
    # given: a match some moves in (JSON options, clocks and timestamps set) and a reader of some columns
    match = started_match("tute2")
    play_moves(match, 3)
    pk = {
        Match: match.pk,
        Seat: match.seats.get(index=0).pk,
        Player: match.seats.get(index=0).player_id,
        Game: match.games.get().pk,
    }[model]
    reader = RowReader(model, attnames)
    row = row_of(reader, pk)

    # when: the reader builds the instance
    instance = reader.read(row, connections[DEFAULT_DB_ALIAS])

    # then: the same stored fields, not added, on the same database; what was not selected is deferred
    expected = built_by_orm(reader, row)
    assert type(instance) is model
    assert state_of(instance) == state_of(expected)
    assert instance.get_deferred_fields() == expected.get_deferred_fields()


def test_a_field_left_out_loads_on_first_use_and_the_instance_saves(
    started_match: Callable[..., Match],
) -> None:
    match = started_match("tute2")
    reader = RowReader(Match, ["id", "ply", "status"])
    instance = reader.read(row_of(reader, match.pk))
    assert instance is not None

    # a deferred field is read from the database on first use, as with only()
    assert instance.options == Match.objects.get(pk=match.pk).options

    # and the instance saves the fields it is told to, as an ORM-read one does
    instance.ply = 41
    instance.save(update_fields=["ply"])
    assert Match.objects.values_list("ply", flat=True).get(pk=match.pk) == 41


def test_an_outer_joins_missing_row_reads_as_none(db: None) -> None:
    assert RowReader(Game, ["id", "match_id"]).read((None, None)) is None


@pytest.fixture
def init_receiver() -> Iterator[list[Any]]:
    seen: list[Any] = []

    def receiver(sender: type[Any], instance: Any, **kwargs: Any) -> None:
        seen.append(instance)

    post_init.connect(receiver, sender=Player)
    yield seen
    post_init.disconnect(receiver, sender=Player)


def test_with_an_init_receiver_every_instance_still_goes_through_the_models_init(
    init_receiver: list[Any], started_match: Callable[..., Match]
) -> None:
    match = started_match("tute2")
    reader = RowReader(Player, ["id", "handle"])
    row = row_of(reader, match.seats.get(index=0).player_id)
    init_receiver.clear()  # the players made for the match went through it too

    player = reader.read(row)

    assert init_receiver == [player]


def test_a_reader_refuses_a_column_its_model_does_not_have() -> None:
    with pytest.raises(ValueError, match="no concrete fields"):
        RowReader(Player, ["id", "no_such_column"])


@pytest.mark.parametrize(
    "stored",
    [
        {"winners": [0], "scores": [101, 29], "note": "cañas \u2028 ñ"},
        {"big": 2**70, "small": -(2**70)},  # past 64 bits: orjson refuses, Django's json reads it
        {"deep": [[[[[[[[[[1.5, None, True]]]]]]]]]], "float": 0.1 + 0.2},
        [],
        "plain text",
    ],
    ids=["usual", "big-integers", "nested-and-floats", "empty-list", "a-string"],
)
def test_a_json_column_reads_as_the_orm_reads_it(started_match: Callable[..., Match], stored: Any) -> None:
    # given: a match whose JSON result holds the value (JSONField stores any JSON value)
    match = started_match("tute2")
    Match.objects.filter(pk=match.pk).update(result=stored)
    reader = RowReader(Match, ["id", "options", "result"])

    # when: the reader builds the instance
    instance = reader.read(row_of(reader, match.pk), connections[DEFAULT_DB_ALIAS])

    # then: the same values and types as the ORM's
    assert instance is not None
    orm = Match.objects.get(pk=match.pk)
    assert (instance.result, instance.options) == (orm.result, orm.options) == (stored, match.options)
    assert type(instance.result) is type(orm.result)
