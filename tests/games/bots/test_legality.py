"""Every bot answers every position with a legal action, in all three games and their variants, and the
same seed gives the same game."""

import random
from typing import Any

import pytest

from games.bots import BOT_LEVELS, get_bot
from games.bots.arena import BotError, play_game
from games.engine import Rules, SeatView, State

# (game, players, options): the defaults and the flags that change what a bot may do.
CONFIGS: list[tuple[str, int | None, dict[str, Any]]] = [
    ("tute2", None, {}),
    ("tute2", None, {"stock_duty": "free", "exchange_requires_trick_win": True}),
    (
        "tute2",
        None,
        {"stock_duty": "trump_lead_only", "cante_before_draw": True, "forty_before_twenty": True},
    ),
    ("tute2", None, {"deck48": True, "tute_declaration": "wins_hand", "last_trick_bonus": True}),
    (
        "tute2",
        None,
        {"cantes_in_arrastre": False, "must_undertrump": True, "beat_led_suit_even_if_trumped": True},
    ),
    ("tute4", None, {}),
    ("tute4", None, {"partner_may_sing": True, "partner_exception": True}),
    ("tute4", None, {"tute_declaration": "wins_hand", "deck48": True, "first_lead": "mano"}),
    ("tute4", None, {"must_undertrump": True, "forty_before_twenty": True, "cantes_in_arrastre": False}),
    ("pocha", 2, {}),
    ("pocha", 3, {}),
    ("pocha", 4, {}),
    ("pocha", 5, {"deck48": True, "pocha_hook": False}),
    ("pocha", 6, {}),
    ("pocha", 4, {"pocha_sequence": "up_down", "pocha_max_cards": 6}),
]
IDS = [f"{game}-{players or ''}-{'-'.join(options) or 'defaults'}" for game, players, options in CONFIGS]


def random_positions(rules: Rules, seed: int, every: int) -> list[State]:
    """Positions of a game played at random from a seed: roughly one in ``every``."""
    rng = random.Random(seed)
    state = State.new(rules, dealer=seed % rules.players, seed=f"positions:{seed}")
    out = []
    while not state.is_terminal():
        if rng.randrange(every) == 0:
            out.append(state)
        state = state.apply(rng.choice(state.legal_actions()))
    return out


@pytest.mark.parametrize(("game", "players", "options"), CONFIGS, ids=IDS)
def test_every_bot_answers_random_positions_legally(
    game: str, players: int | None, options: dict[str, Any]
) -> None:
    rules = Rules.build(game, players, options)
    every = 12 if game == "pocha" else 2
    checked = 0
    for seed in range(8):
        for state in random_positions(rules, seed, every):
            seat = state.current_player()
            assert seat is not None
            legal = state.legal_actions()
            for name in BOT_LEVELS:
                action = get_bot(name)(state.view(seat), legal, random.Random(seed))
                assert action in legal, (name, state.history(), action, legal)
            checked += 1
    assert checked > 40


@pytest.mark.parametrize(("game", "players", "options"), CONFIGS, ids=IDS)
def test_whole_games_between_bots_use_only_legal_actions(
    game: str, players: int | None, options: dict[str, Any]
) -> None:
    # given: the rule bot and the random bot seated alternately, then the other way round
    rules = Rules.build(game, players, options)
    rule, rnd = get_bot("rule"), get_bot("random")
    seeds = 2 if game == "pocha" else 6
    for seed in range(seeds):
        for first in (0, 1):
            bots = [rule if seat % 2 == first else rnd for seat in range(rules.players)]

            # when: a whole game is played (the arena raises BotError on an illegal answer)
            state = play_game(rules, bots, seed=f"whole:{seed}", dealer=seed % rules.players, rng_seed=seed)

            # then: it ends with a result
            assert state.is_terminal()
            assert state.result() is not None


def test_the_rule_bot_plays_every_seat_of_a_table() -> None:
    for game, players in (("tute2", 2), ("tute4", 4), ("pocha", 3), ("pocha", 6)):
        rules = Rules.build(game, players, {"pocha_sequence": "up_down"} if game == "pocha" else None)
        state = play_game(rules, [get_bot("rule")] * players, seed=f"all-rule:{game}", dealer=0)
        assert state.is_terminal()


def test_an_illegal_answer_stops_the_game_with_the_seat_and_the_action() -> None:
    def cheat(view: SeatView, legal: tuple[str, ...], rng: random.Random) -> str:
        return "bid:0" if "play:1O" in legal else "play:1O"

    rules = Rules.build("tute2")
    with pytest.raises(BotError) as caught:
        play_game(rules, [cheat, cheat], seed="cheat", dealer=0)
    assert caught.value.seat == 1  # the mano acts first
    assert caught.value.action in ("bid:0", "play:1O")
    assert "not legal" in str(caught.value)


@pytest.mark.parametrize("game", ["tute2", "tute4", "pocha"])
@pytest.mark.parametrize("name", BOT_LEVELS)
def test_a_seeded_bot_plays_the_same_game_every_time(game: str, name: str) -> None:
    rules = Rules.build(game, options={"pocha_sequence": [2, 4, 6]} if game == "pocha" else None)
    bots = [get_bot(name)] * rules.players
    first = play_game(rules, bots, seed="same", dealer=1, rng_seed="r")
    again = play_game(rules, bots, seed="same", dealer=1, rng_seed="r")
    assert first.history() == again.history()


def test_the_random_bot_follows_its_rng() -> None:
    # given: one position with several legal actions
    rules = Rules.build("tute2")
    state = State.new(rules, dealer=0, seed="rng")
    view, legal = state.view(1), state.legal_actions()
    assert len(legal) > 2
    bot = get_bot("random")

    # then: the same seed gives the same answer, and seeds spread over the legal actions
    assert bot(view, legal, random.Random(5)) == bot(view, legal, random.Random(5))
    assert {bot(view, legal, random.Random(seed)) for seed in range(40)} == set(legal)
    # and different seeds give different games
    histories = {
        play_game(rules, [bot, bot], seed="rng", dealer=0, rng_seed=seed).history() for seed in range(3)
    }
    assert len(histories) == 3
