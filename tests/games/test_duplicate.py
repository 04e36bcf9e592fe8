"""Duplicate matches: every board played twice with the seats rotated (Tute 2: the players swap hands;
Tute 4: the pairs change sides), both plays from the same deal seed and dealer; the result is the sum
of each side's score differences."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from rest_framework.test import APIClient

from games.engine.verify import verify_document
from games.models import Game, Match, Player
from games.selectors import match_context, match_view_for
from games.services import SeatSpec, client_seed_set, match_create, match_spec
from games.services.play import duplicate_result
from games.states import game_state
from tests.factories import PlayerFactory

pytestmark = pytest.mark.django_db

ClientFor = Callable[[Player], APIClient]


def hands_at_start(match: Match, game: Game) -> list[list[str]]:
    """Each game seat's hand as dealt (the state at the game's first ply)."""
    state = game_state(match=match, game=game, ply=game.first_ply)
    return [sorted(state.view(s).hand) for s in range(match.num_players)]


@pytest.mark.parametrize(("game", "seat_map"), [("tute2", [1, 0]), ("tute4", [1, 2, 3, 0])])
def test_each_board_is_played_twice_from_one_deal_with_the_seats_rotated(
    game: str,
    seat_map: list[int],
    started_match: Callable[..., Match],
    play_random: Callable[..., Match],
    anon_client: APIClient,
) -> None:
    match = started_match(game, format=Match.Format.DUPLICATE, games=2)
    match = play_random(match, seed=11)

    assert match.status == Match.Status.FINISHED
    games = list(Game.objects.filter(match=match).order_by("number"))
    assert [(g.board, g.seat_map) for g in games] == [
        (0, list(range(len(seat_map)))),
        (0, seat_map),
        (1, list(range(len(seat_map)))),
        (1, seat_map),
    ]
    for first, second in (games[0:2], games[2:4]):
        assert (first.seed, first.server_seed, first.dealer) == (
            second.seed,
            second.server_seed,
            second.dealer,
        )
        assert first.decks == second.decks
        # the match seat that held game seat g's cards in the first play holds other cards in the second
        assert hands_at_start(match, first) == hands_at_start(match, second)
    assert games[0].seed != games[2].seed and games[0].dealer != games[2].dealer

    # the result: the sum over boards of each side's score difference, the side ahead wins
    result = match.result
    assert result is not None and result["format"] == "duplicate" and result["boards"] == 2
    expected = [0, 0]
    for g in games:
        assert g.result is not None and g.seat_map is not None
        a, b = g.result["scores"][:2]
        side_of_game_side_0 = g.seat_map[0] % 2
        expected[side_of_game_side_0] += a - b
        expected[1 - side_of_game_side_0] += b - a
    assert result["score_difference"] == expected
    assert sum(sum(board) for board in result["board_differences"]) == 0
    want = [0] if expected[0] > 0 else [1] if expected[0] < 0 else [0, 1]
    assert result["winners"] == want
    assert duplicate_result(match) == result

    # the records carry board and seat_map, and verify across the plays of each board
    answer = anon_client.get(f"/api/v1/matches/{match.pk}/record/").json()
    assert [(e["record"]["board"], e["record"]["seat_map"]) for e in answer["games"]] == [
        (g.board, g.seat_map) for g in games
    ]
    verified = verify_document(answer)
    assert all(v.ok for v in verified), [v.to_dict() for v in verified if not v.ok]
    assert [c.name for c in verified[1].checks][-1] == "board"


def test_a_player_sees_its_own_seat_and_hand_in_the_swapped_play(
    started_match: Callable[..., Match], play_moves: Callable[..., object]
) -> None:
    alice, bob = PlayerFactory(), PlayerFactory()
    match = started_match("tute2", format=Match.Format.DUPLICATE, games=1, seats=[alice, bob])
    first = Game.objects.get(match=match, number=0)
    alice_first_hand = hands_at_start(match, first)[0]
    # play the first game out
    while Game.objects.filter(match=match).count() == 1:
        play_moves(match, 1)
    match.refresh_from_db()
    second = Game.objects.get(match=match, number=1)
    # then: alice (match seat 0) holds game seat 1 now, and bob holds the cards alice had
    view = match_view_for(context=match_context(match.pk, lock=False), player=bob)
    assert view["board"] == 0 and view["seat_map"] == [1, 0] and view["game_seat"] == 0
    assert view["seat"] == 1
    assert sorted(view["view"]["hand"]) == alice_first_hand
    to_act = game_state(match=match, game=second).current_player()
    assert to_act is not None and view["to_act"] == second.match_seat(to_act) == match.turn_seat
    # and: the second play's deal is fixed: a client seed is refused
    with pytest.raises(Exception, match="dealt at its first play"):
        client_seed_set(match_id=match.pk, player=alice, client_seed="again")


def test_duplicate_is_created_through_the_api_in_every_game(token_client: ClientFor) -> None:
    alice = PlayerFactory()
    client = token_client(alice)
    created = client.post(
        "/api/v1/matches/",
        {
            "game": "tute4",
            "format": "duplicate",
            "games": 3,
            "seats": [{}, {"bot": "rule"}, {}, {"bot": "rule"}],
        },
        format="json",
    )
    assert created.status_code == 201, created.content
    assert created.json()["format"] == "duplicate" and created.json()["games"] == 3
    pocha = client.post(
        "/api/v1/matches/", {"game": "pocha", "players": 3, "format": "duplicate", "games": 2}, format="json"
    )
    assert pocha.status_code == 201, pocha.content
    assert pocha.json()["format"] == "duplicate" and pocha.json()["games"] == 2
    refused = client.post(
        "/api/v1/matches/", {"game": "pocha", "players": 3, "format": "duplicate", "games": 0}, format="json"
    )
    assert refused.status_code == 400


#: A short Pocha sequence, so that a duplicate match of a few boards plays quickly.
SHORT_POCHA = {"pocha_sequence": [1, 2, 1]}


@pytest.mark.parametrize("players", [3, 4, 5])
def test_a_pocha_board_is_played_once_per_player_with_the_players_rotated_through_the_seats(
    players: int,
    started_match: Callable[..., Match],
    play_random: Callable[..., Match],
    anon_client: APIClient,
) -> None:
    match = started_match(
        "pocha", players=players, options=SHORT_POCHA, format=Match.Format.DUPLICATE, games=2
    )
    match = play_random(match, seed=players)

    assert match.status == Match.Status.FINISHED, match.finish_reason
    games = list(Game.objects.filter(match=match).order_by("number"))
    assert len(games) == 2 * players
    for board in (0, 1):
        plays = [g for g in games if g.board == board]
        assert [g.seat_map for g in plays] == [
            [(s + k) % players for s in range(players)] for k in range(players)
        ]
        assert {(g.seed, g.server_seed, g.dealer) for g in plays} == {
            (plays[0].seed, plays[0].server_seed, plays[0].dealer)
        }
        assert all(g.decks == plays[0].decks for g in plays)
        # every match seat held every game seat's cards exactly once on the board
        for match_seat in range(players):
            assert sorted(g.game_seat(match_seat) for g in plays) == list(range(players))
    assert games[0].seed != games[players].seed

    # the result, recomputed here from the definition: a player's score on some cards minus the mean
    # of the others who held them, summed; matchpoints 2 per other holder outscored, 1 per tie
    from fractions import Fraction

    difference = [Fraction(0)] * players
    matchpoints = [0] * players
    for board in (0, 1):
        plays = [g for g in games if g.board == board]
        for game_seat in range(players):
            held = [(g.match_seat(game_seat), g.result["scores"][game_seat]) for g in plays if g.result]
            for seat, score in held:
                others = [s for who, s in held if who != seat]
                difference[seat] += score - Fraction(sum(others), len(others))
                matchpoints[seat] += sum(2 if score > s else 1 if score == s else 0 for s in others)
    result = match.result
    assert result is not None and result["format"] == "duplicate" and result["boards"] == 2
    assert result["score_difference"] == pytest.approx([float(d) for d in difference], abs=0.005)
    assert result["matchpoints"] == matchpoints
    # on each of the 2 boards and n hands, each pair of the n holders shares 2 matchpoints
    assert sum(matchpoints) == 2 * players * players * (players - 1)
    assert result["winners"] == [s for s in range(players) if difference[s] == max(difference)]
    assert duplicate_result(match) == result

    answer = anon_client.get(f"/api/v1/matches/{match.pk}/record/").json()
    assert [(e["record"]["board"], e["record"]["seat_map"]) for e in answer["games"]] == [
        (g.board, g.seat_map) for g in games
    ]
    verified = verify_document(answer)
    assert all(v.ok for v in verified), [v.to_dict() for v in verified if not v.ok]


def test_a_pocha_duplicate_match_is_rated_by_its_score_difference() -> None:
    from ratings.facts import match_facts

    result = {"format": "duplicate", "score_difference": [12.5, -20, 7.5], "winners": [0]}
    # the games' own scores (by game seat) would rank seat 2 first: they are not what counts
    games = [{"scores": [0, 0, 90]}]
    facts = match_facts(1, "pocha", result, [(0, 1, "", False), (1, 2, "", False), (2, 3, "", False)], games)
    assert facts is not None and facts.totals == (12.5, -20.0, 7.5)


def test_a_resignation_ends_a_duplicate_match_like_any_other(
    started_match: Callable[..., Match], play_moves: Callable[..., object]
) -> None:
    from games.services import match_resign

    alice, bob = PlayerFactory(), PlayerFactory()
    match = started_match("tute2", format=Match.Format.DUPLICATE, games=2, seats=[alice, bob])
    match = match_resign(match_id=match.pk, player=alice)
    match.refresh_from_db()
    assert match.result is not None and match.result["winners"] == [1]


def test_house_bots_play_a_duplicate_match(make_player: Callable[..., Player]) -> None:
    from games.services import bot_turn_play

    match = match_create(
        spec=match_spec(
            created_by=make_player(),
            game="tute2",
            format=Match.Format.DUPLICATE,
            format_target=2,
            seats=[SeatSpec(bot="rule"), SeatSpec(bot="random")],
        )
    )
    for _ in range(500):
        match.refresh_from_db()
        if match.status != Match.Status.IN_PROGRESS:
            break
        bot_turn_play(match_id=match.pk, ply=match.ply)
    assert match.status == Match.Status.FINISHED
    assert match.result is not None and match.result["games"] == 4
