"""Boards (issue 20): fixed deals with their own seeds and commitments, played by the plays of a duplicate
match and shared by several matches (a duplicate tournament's tables); their seeds and cards stay secret
until every match playing them is over."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest
from rest_framework.test import APIClient

from games.engine.fair import commitment, deal_seed
from games.engine.verify import verify_document
from games.errors import BoardFixed, InvalidRules
from games.models import Board, Game, Match, MatchBoard, Player
from games.services import SeatSpec, client_seed_set, match_create, match_spec
from games.services.boards import board_create
from tests.factories import PlayerFactory
from tests.games.conftest import play_to_end

pytestmark = pytest.mark.django_db


def test_a_duplicate_match_deals_each_board_once_as_a_board_row_revealed_when_the_match_ends(
    started_match: Callable[..., Match], anon_client: APIClient
) -> None:
    match = started_match("tute2", format=Match.Format.DUPLICATE, games=2)
    committed = match.next_seed_sha256 if match.current_game is None else match.seed_sha256
    board = MatchBoard.objects.get(match=match, number=0).board
    assert board.seed_sha256 == committed == commitment(board.server_seed)
    assert board.seed == deal_seed(board.server_seed, board.client_seeds)
    hidden = anon_client.get(f"/api/v1/boards/{board.pk}/").json()
    assert hidden["seed_sha256"] == committed and hidden["revealed"] is False
    assert (hidden["server_seed"], hidden["seed"], hidden["decks"], hidden["client_seeds"]) == (None,) * 4

    match = play_to_end(match.pk, random.Random(5))
    assert match.status == Match.Status.FINISHED
    boards = [mb.board for mb in MatchBoard.objects.filter(match=match).order_by("number")]
    assert len(boards) == 2 and all(b.is_revealed for b in boards)
    for number, b in enumerate(boards):
        plays = list(Game.objects.filter(match=match, board=number).order_by("number"))
        assert [g.dealt_from_id for g in plays] == [b.pk, b.pk]
        assert all(
            (g.seed, g.server_seed, g.dealer, g.decks) == (b.seed, b.server_seed, b.dealer, b.decks)
            for g in plays
        )
    shown = anon_client.get(f"/api/v1/boards/{boards[1].pk}/").json()
    assert shown["revealed"] is True and shown["server_seed"] == boards[1].server_seed
    assert shown["decks"] == boards[1].decks and shown["dealer"] == 1
    assert [(p["match"], p["game_number"], p["seat_map"]) for p in shown["plays"]] == [
        (match.pk, 2, [0, 1]),
        (match.pk, 3, [1, 0]),
    ]
    assert anon_client.get("/api/v1/boards/999999/").json()["code"] == "board_not_found"


def shared_matches(count: int, boards: list[Board]) -> list[Match]:
    creator = PlayerFactory()
    return [
        match_create(
            spec=match_spec(
                created_by=creator,
                game="tute2",
                format=Match.Format.DUPLICATE,
                format_target=len(boards),
                seats=[SeatSpec(player=PlayerFactory().handle), SeatSpec(player=PlayerFactory().handle)],
                challenge=False,
                managed=True,
                boards=boards,
            )
        )
        for _ in range(count)
    ]


def test_tables_sharing_boards_hold_the_same_cards_and_see_the_seeds_only_when_every_table_is_done(
    anon_client: APIClient,
) -> None:
    boards = [board_create(game="tute2", players=2, options={}, dealer=d) for d in (0, 1)]
    first, second = shared_matches(2, boards)
    for match in (first, second):
        games = Game.objects.filter(match=match)
        assert games.get(number=0).decks == boards[0].decks and games.get(number=0).dealer == 0
        assert (
            anon_client.get(f"/api/v1/matches/{match.pk}/view/").json()["seed_sha256"]
            == boards[0].seed_sha256
        )
    # nobody chooses the cards of a shared board
    seated = Player.objects.get(seats__match=first, seats__index=0)
    with pytest.raises(BoardFixed):
        client_seed_set(match_id=first.pk, player=seated, client_seed="mine")

    play_to_end(first.pk, random.Random(1))
    refused = anon_client.get(f"/api/v1/matches/{first.pk}/record/")
    assert refused.status_code == 403 and refused.json()["code"] == "board_not_revealed"
    assert anon_client.get(f"/api/v1/boards/{boards[0].pk}/").json()["seed"] is None

    play_to_end(second.pk, random.Random(2))
    assert all(b.is_revealed for b in Board.objects.filter(pk__in=[b.pk for b in boards]))
    for match in (first, second):
        answer = anon_client.get(f"/api/v1/matches/{match.pk}/record/")
        assert answer.status_code == 200
        verified = verify_document(answer.json())
        assert len(verified) == 4 and all(v.ok for v in verified), [v.to_dict() for v in verified]
        assert answer.json()["games"][0]["record"]["seed_sha256"] == boards[0].seed_sha256
    plays = anon_client.get(f"/api/v1/boards/{boards[0].pk}/").json()["plays"]
    assert [(p["match"], p["seat_map"]) for p in plays] == [
        (first.pk, [0, 1]),
        (first.pk, [1, 0]),
        (second.pk, [0, 1]),
        (second.pk, [1, 0]),
    ]


def test_a_board_is_revealed_when_the_last_match_playing_it_is_called_off() -> None:
    from games.services import match_call_off

    board = board_create(game="tute2", players=2, options={}, dealer=0)
    first, second = shared_matches(2, [board])
    play_to_end(first.pk, random.Random(3))
    board.refresh_from_db()
    assert not board.is_revealed
    match_call_off(match_id=second.pk)
    board.refresh_from_db()
    assert board.is_revealed


@pytest.mark.parametrize(
    ("kwargs", "problem"),
    [
        ({"format": Match.Format.SINGLE, "format_target": 1}, "played by duplicate matches"),
        ({"format": Match.Format.DUPLICATE, "format_target": 2}, "plays 2 boards, not 1"),
        (
            {"format": Match.Format.DUPLICATE, "format_target": 1, "game": "pocha", "players": 3},
            "other rules",
        ),
    ],
)
def test_boards_that_do_not_fit_the_match_are_refused(kwargs: dict[str, object], problem: str) -> None:
    board = board_create(game="tute2", players=2, options={}, dealer=0)
    creator = PlayerFactory()
    params: dict[str, object] = {"game": "tute2", **kwargs}
    with pytest.raises(InvalidRules, match=problem):
        match_create(spec=match_spec(created_by=creator, boards=[board], challenge=False, **params))  # type: ignore[arg-type]
    assert not Match.objects.exists()


def test_a_board_is_dealt_for_its_rules_and_refuses_a_dealer_not_at_the_table() -> None:
    with pytest.raises(InvalidRules):
        board_create(game="pocha", players=3, options={}, dealer=3)
    board = board_create(game="pocha", players=3, options={"pocha_sequence": [1, 2]}, dealer=2)
    assert board.num_players == 3 and len(board.decks) == 2 and board.client_seeds == ["", "", ""]
