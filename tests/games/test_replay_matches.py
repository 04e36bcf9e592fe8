"""Replaying a finished match from its stored decks and actions gives its stored results.

Many matches of every game, format and a spread of rules flags are played through the services with
random legal moves (house bots in some seats). Then each game is rebuilt from what the database stores,
``Game.decks`` (not the seed), its dealer and its ``Action`` rows, and must end with ``Game.result``;
the match's result must follow from its games' winners and its format.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from games.engine import CODE_OF, Rules, State, parse_card, replay
from games.engine.records import load_record
from games.models import Action, Game, Match
from tests.factories import PlayerFactory

pytestmark = pytest.mark.django_db

# (game, players, options, format, N, seats): seats "p" a player, "r"/"R" a random/rule house bot
MATCHES: list[tuple[str, int, dict[str, Any], str, int, str]] = [
    ("tute2", 2, {}, "single", 1, "pp"),
    ("tute2", 2, {}, "single", 1, "pr"),
    ("tute2", 2, {"stock_duty": "free"}, "single", 1, "pp"),
    ("tute2", 2, {"stock_duty": "trump_lead_only", "must_undertrump": True}, "single", 1, "pp"),
    ("tute2", 2, {"exchange_requires_trick_win": True, "cante_before_draw": True}, "single", 1, "pR"),
    ("tute2", 2, {"tute_declaration": "wins_hand", "forty_before_twenty": True}, "single", 1, "pp"),
    ("tute2", 2, {"last_trick_bonus": True, "cantes_in_arrastre": False}, "best_of", 3, "pp"),
    ("tute2", 2, {"deck48": True}, "single", 1, "pp"),
    ("tute2", 2, {}, "best_of", 3, "pr"),
    ("tute2", 2, {"beat_led_suit_even_if_trumped": True}, "first_to", 2, "pp"),
    ("tute4", 4, {}, "single", 1, "pppp"),
    ("tute4", 4, {}, "single", 1, "prpR"),
    ("tute4", 4, {"partner_may_sing": True, "partner_exception": True}, "single", 1, "pppp"),
    ("tute4", 4, {"first_lead": "mano", "last_trick_bonus": False}, "single", 1, "pppp"),
    ("tute4", 4, {"must_undertrump": True, "tute_declaration": "wins_hand"}, "best_of", 3, "pppp"),
    ("tute4", 4, {"cantes_in_arrastre": False, "forty_before_twenty": True}, "single", 1, "pppr"),
    ("tute4", 4, {"deck48": True}, "single", 1, "pppp"),
    ("tute4", 4, {}, "first_to", 2, "pRpR"),
    ("pocha", 4, {"pocha_sequence": [1, 2]}, "single", 1, "pppp"),
    ("pocha", 4, {"pocha_sequence": [2, 1]}, "best_of", 3, "pppr"),
    ("pocha", 4, {"pocha_sequence": [1, 10]}, "single", 1, "pppp"),  # 10 each: the dealer shows trump
    ("pocha", 2, {"pocha_sequence": [1, 2, 3]}, "single", 1, "pp"),
    ("pocha", 2, {"pocha_sequence": [1]}, "first_to", 3, "pR"),
    ("pocha", 3, {"pocha_sequence": [1, 2]}, "single", 1, "ppp"),
    ("pocha", 3, {"pocha_sequence": [12], "pocha_hook": False}, "single", 1, "ppr"),  # 36 cards, all dealt
    ("pocha", 5, {"pocha_sequence": [1, 2]}, "best_of", 3, "ppppp"),
    ("pocha", 6, {"pocha_sequence": [1, 2]}, "single", 1, "pppppp"),
    ("pocha", 6, {"pocha_sequence": [6]}, "single", 1, "pprppR"),  # 36 cards, all dealt
    ("pocha", 4, {"pocha_sequence": "up_down", "pocha_max_cards": 2}, "single", 1, "pppp"),
    ("pocha", 4, {"pocha_sequence": [1, 1], "deck48": True}, "best_of", 2, "pppp"),
]

BOTS = {"r": "random", "R": "rule"}


def rebuilt(match: Match, game: Game) -> State:
    """The game replayed from the database's decks (card codes), dealer and action rows."""
    rules = Rules.build(match.game, match.num_players, match.options)
    decks = tuple(tuple(parse_card(code) for code in deck) for deck in game.decks)
    state = State.new(rules, dealer=game.dealer, decks=decks)
    for code in Action.objects.filter(game=game).order_by("ply").values_list("code", flat=True):
        state = state.apply(code)
    return state


def expected_match_result(match: Match, games: list[Game]) -> dict[str, Any]:
    sides = 2 if match.game == "tute4" else match.num_players
    won = [0] * sides
    for game in games:
        assert game.result is not None
        for side in game.result["winners"]:
            won[side] += 1
    return {
        "games_won": won,
        "winners": [side for side, n in enumerate(won) if n == max(won)],
        "games": len(games),
    }


def format_was_met_only_at_the_end(match: Match, games: list[Game]) -> bool:
    """The match stopped at the first game after which its format was decided, not before or after."""

    def decided(played: list[Game]) -> bool:
        won = expected_match_result(match, played)["games_won"]
        if match.format == Match.Format.FIRST_TO:
            return max(won) >= match.format_target
        return max(won) > match.format_target // 2 or len(played) >= match.format_target

    return decided(games) and not any(decided(games[:n]) for n in range(1, len(games)))


@pytest.mark.parametrize(("game", "players", "options", "format", "target", "seats"), MATCHES)
def test_a_finished_match_replays_to_its_stored_results(
    started_match: Callable[..., Match],
    play_random: Callable[..., Match],
    game: str,
    players: int,
    options: dict[str, Any],
    format: str,
    target: int,
    seats: str,
) -> None:
    # given: a match played to its end with random legal moves
    seat_args = [BOTS[s] if s in BOTS else PlayerFactory() for s in seats]
    match = started_match(
        game, players=players, options=options, format=format, games=target, seats=seat_args
    )
    match = play_random(match, seed=f"{game}-{players}-{seats}-{options}")
    assert match.status == Match.Status.FINISHED
    games = list(Game.objects.filter(match=match).order_by("number"))

    for stored in games:
        # when: each game is replayed from its stored decks and actions
        state = rebuilt(match, stored)

        # then: it is over, with the stored result
        assert stored.status == Game.Status.FINISHED
        assert state.is_terminal()
        result = state.result()
        assert result is not None
        assert result.to_dict() == stored.result
        # and: the stored decks are the ones its seed deals (docs/RULES.md 7), and a record replays the same
        assert stored.decks == [list(deck) for deck in record_decks(match, stored)]
        record = load_record(
            {
                "game": match.game,
                "players": match.num_players,
                "options": match.options,
                "dealer": stored.dealer,
                "seed": stored.seed,
                "actions": list(
                    Action.objects.filter(game=stored).order_by("ply").values_list("code", flat=True)
                ),
            }
        )
        replayed = replay(record)
        assert replayed.result() == result

    # then: the match result follows from the games, and the format stopped the match at the right game
    assert match.result == expected_match_result(match, games)
    assert format_was_met_only_at_the_end(match, games)
    assert [g.dealer for g in games] == [n % match.num_players for n in range(len(games))]
    assert match.ply == Action.objects.filter(match=match).count()


def record_decks(match: Match, game: Game) -> list[list[str]]:
    rules = Rules.build(match.game, match.num_players, match.options)
    state = State.new(rules, dealer=game.dealer, seed=game.seed)
    return [[CODE_OF[c] for c in deck] for deck in state.table.decks]
