"""``match_spec``: a new match is read and checked once, every refusal raised before anything is written,
with the domain errors (and messages) the API answers with."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from games.errors import BotNotValidated, InvalidClientSeed, InvalidRules, InvalidSeats, UnknownPlayer
from games.models import Match, Player
from games.services import Clock, SeatSpec, match_create, match_spec
from games.services.boards import board_create
from tests.factories import BotPlayerFactory, PlayerFactory

pytestmark = pytest.mark.django_db


def refused(error: type[Exception], creator: Player, **request: Any) -> str:
    """The message ``match_spec`` refuses ``request`` with; no match was written meanwhile."""
    with pytest.raises(error) as caught:
        match_spec(created_by=creator, **request)
    assert not Match.objects.exists()
    return str(caught.value)


@pytest.mark.parametrize(
    ("request_", "message"),
    [
        ({"game": "tute2", "seats": [SeatSpec()] * 3}, "tute2 has 2 seats, not 3"),
        ({"game": "pocha", "seats": [SeatSpec()]}, "pocha has 2 to 6 seats, not 1"),
        ({"game": "pocha", "players": 4, "seats": [SeatSpec()] * 3}, "3 seats were given for 4 players"),
        (
            {"game": "tute2", "seats": [SeatSpec(bot="rule", player="x"), SeatSpec()]},
            "a seat holds a player or a house bot, not both",
        ),
        (
            {"game": "tute2", "seats": [SeatSpec(bot="genius"), SeatSpec()]},
            "unknown house bot level 'genius'",
        ),
    ],
)
def test_seats_that_do_not_fit_are_refused(request_: dict[str, Any], message: str) -> None:
    creator = PlayerFactory(handle="x")
    assert refused(InvalidSeats, creator, **request_).startswith(message)


def test_a_player_takes_one_seat_and_must_exist() -> None:
    creator = PlayerFactory()
    twice = [SeatSpec(player=creator.handle)] * 2
    assert (
        refused(InvalidSeats, creator, game="tute2", seats=twice)
        == "a player takes at most one seat in a match"
    )
    nobody = [SeatSpec(player=creator.handle), SeatSpec(player="nobody")]
    assert refused(UnknownPlayer, creator, game="tute2", seats=nobody) == "No player has the handle 'nobody'."


@pytest.mark.parametrize(
    ("request_", "message"),
    [
        ({"options": {"no_such_flag": True}}, "unknown rules flag 'no_such_flag'"),
        ({"format": "marathon"}, "format must be one of"),
        (
            {"format": Match.Format.BEST_OF, "format_target": 100},
            "the number of games N must be from 1 to 99",
        ),
        ({"clock": Clock(human_move_seconds=0)}, "human_move_seconds must be from 1 to 86400"),
        ({"clock": Clock(bot_move_seconds=86401)}, "bot_move_seconds must be from 1 to 86400"),
        ({"clock": Clock(max_timeouts=101)}, "max_timeouts must be from 1 to 100"),
    ],
)
def test_rules_format_and_clock_out_of_bounds_are_refused(request_: dict[str, Any], message: str) -> None:
    assert refused(InvalidRules, PlayerFactory(), game="tute2", **request_).startswith(message)


def test_boards_are_for_a_duplicate_match_of_as_many_boards_and_the_same_rules() -> None:
    creator = PlayerFactory()
    board = board_create(game="tute2", players=2, options={"last_trick_bonus": False}, dealer=0)
    other = board_create(game="pocha", players=3, options={}, dealer=0)
    duplicate = {"game": "tute2", "format": Match.Format.DUPLICATE, "format_target": 1}

    assert (
        refused(InvalidRules, creator, game="tute2", boards=[board])
        == "boards are played by duplicate matches"
    )
    assert refused(InvalidRules, creator, **{**duplicate, "format_target": 2}, boards=[board]).startswith(
        "a duplicate match of 2 boards plays 2 boards, not 1"
    )
    assert refused(InvalidRules, creator, **duplicate, boards=[other]).startswith(
        f"board {other.pk} is dealt"
    )


def test_bad_client_seeds_are_refused_the_creators_and_a_seats() -> None:
    creator = PlayerFactory()
    refused(InvalidClientSeed, creator, game="tute2", client_seed="x" * 65)
    refused(InvalidClientSeed, creator, game="tute2", seats=[SeatSpec(client_seed="x" * 65), SeatSpec()])


def test_a_bot_not_validated_may_not_play_rated_and_makes_an_unrated_match_by_default() -> None:
    creator, bot = PlayerFactory(), BotPlayerFactory(validated=False)
    seats = [SeatSpec(player=creator.handle), SeatSpec(player=bot.handle)]

    text = refused(BotNotValidated, creator, game="tute2", seats=seats, rated=True)

    assert text.startswith(f"{bot.handle} must pass validation for tute2")
    assert match_spec(created_by=creator, game="tute2", seats=seats).rated is False
    # a pairing (challenge=False) is its organiser's to check
    assert (
        match_spec(created_by=creator, game="tute2", seats=seats, rated=None, challenge=False).rated is True
    )


def test_the_spec_is_the_table_as_created() -> None:
    creator, rival = PlayerFactory(), PlayerFactory()

    alone = match_spec(created_by=creator, game="tute4", client_seed="mine", format_target=7)
    challenge = match_spec(
        created_by=creator, game="tute2", seats=[SeatSpec(player=rival.handle), SeatSpec(bot="rule")]
    )

    # without seats: the creator at seat 0 with its client seed, then empty seats; a single game has N = 1
    assert [(s.player, s.bot_level, s.accepted, s.client_seed) for s in alone.seats] == [
        (creator, "", True, "mine"),
        *[(None, "", True, "")] * 3,
    ]
    assert (alone.rules.game, alone.rules.players, alone.format_target, alone.rated) == ("tute4", 4, 1, True)
    # a player seated by someone else waits to accept
    assert [(s.player, s.bot_level, s.accepted) for s in challenge.seats] == [
        (rival, "", False),
        (None, "rule", True),
    ]
    with pytest.raises(dataclasses.FrozenInstanceError):
        alone.rated = False  # type: ignore[misc]
    assert not Match.objects.exists()  # a spec writes nothing: match_create does
    match = match_create(spec=challenge)
    assert [(s.player, s.bot_level, s.accepted) for s in match.seats.order_by("index")] == [
        (rival, "", False),
        (None, "rule", True),
    ]
