"""The rules flags of docs/RULES.md: defaults per game, validation with clear messages, an immutable config."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from games.engine import GAMES, Rules, RulesError, State

ALL_FLAGS = {
    "stock_duty",
    "must_undertrump",
    "beat_led_suit_even_if_trumped",
    "partner_exception",
    "partner_may_sing",
    "exchange_requires_trick_win",
    "cante_before_draw",
    "cantes_in_arrastre",
    "forty_before_twenty",
    "tute_declaration",
    "last_trick_bonus",
    "first_lead",
    "deck48",
    "pocha_sequence",
    "pocha_max_cards",
    "pocha_hook",
}

COMMON_DEFAULTS = {
    "stock_duty": "full",
    "must_undertrump": False,
    "beat_led_suit_even_if_trumped": False,
    "partner_exception": False,
    "partner_may_sing": False,
    "exchange_requires_trick_win": False,
    "cante_before_draw": False,
    "cantes_in_arrastre": True,
    "forty_before_twenty": False,
    "tute_declaration": "off",
    "first_lead": "two_of_oros",
    "deck48": False,
    "pocha_sequence": "spanish",
    "pocha_max_cards": None,
    "pocha_hook": True,
}


@pytest.mark.parametrize(
    ("game", "players", "last_trick_bonus"), [("tute2", 2, False), ("tute4", 4, True), ("pocha", 4, False)]
)
def test_every_flag_has_the_products_default(game: str, players: int, last_trick_bonus: bool) -> None:
    # when: a game is built without options
    rules = Rules.build(game)

    # then: the default player count and every flag at its docs/RULES.md default
    # (last_trick_bonus: off in Tute 2, on in Tute 4)
    assert rules.game == game
    assert rules.players == players
    assert rules.to_options() == {**COMMON_DEFAULTS, "last_trick_bonus": last_trick_bonus}
    assert set(rules.to_options()) == ALL_FLAGS
    assert GAMES == ("tute2", "tute4", "pocha")


def test_flags_are_set_from_options() -> None:
    # when: every flag is given a non-default value
    options: dict[str, Any] = {
        "stock_duty": "trump_lead_only",
        "must_undertrump": True,
        "beat_led_suit_even_if_trumped": True,
        "partner_exception": True,
        "partner_may_sing": True,
        "exchange_requires_trick_win": True,
        "cante_before_draw": True,
        "cantes_in_arrastre": False,
        "forty_before_twenty": True,
        "tute_declaration": "wins_hand",
        "last_trick_bonus": False,
        "first_lead": "mano",
        "deck48": True,
        "pocha_sequence": [1, 2],
        "pocha_max_cards": 3,
        "pocha_hook": False,
    }
    rules = Rules.build("tute4", 4, options)

    # then: they are all taken (a list sequence is held as a tuple, given back as a list)
    assert rules.to_options() == options
    assert rules.pocha_sequence == (1, 2)


def test_a_flag_another_game_uses_is_accepted_and_changes_nothing() -> None:
    # given: stock_duty (Tute 2 only) in a Tute 4 game
    rules = Rules.build("tute4", 4, {"stock_duty": "free"})

    # then: accepted (one options object may serve every game)
    assert rules.stock_duty == "free"


def test_rules_are_frozen() -> None:
    rules = Rules.build("tute2")
    with pytest.raises(dataclasses.FrozenInstanceError):
        rules.deck48 = True  # type: ignore[misc]
    assert rules == Rules.build("tute2", 2, {})
    assert hash(rules) == hash(Rules.build("tute2"))


def test_an_unknown_game_is_refused() -> None:
    with pytest.raises(RulesError, match=r"unknown game 'tute3': expected one of tute2, tute4, pocha"):
        Rules.build("tute3")


@pytest.mark.parametrize(
    ("game", "players", "message"),
    [
        ("tute2", 3, "tute2 is played by 2 players, not 3"),
        ("tute4", 2, "tute4 is played by 4 players, not 2"),
        ("pocha", 1, "pocha is played by 2 to 6 players, not 1"),
        ("pocha", 7, "pocha is played by 2 to 6 players, not 7"),
        ("pocha", True, "pocha is played by 2 to 6 players, not True"),
        ("pocha", "4", "pocha is played by 2 to 6 players, not '4'"),
    ],
)
def test_a_bad_player_count_is_refused(game: str, players: Any, message: str) -> None:
    with pytest.raises(RulesError) as caught:
        Rules.build(game, players)
    assert str(caught.value) == message


def test_an_unknown_flag_is_refused_naming_it_and_the_known_ones() -> None:
    with pytest.raises(RulesError) as caught:
        Rules.build("tute2", 2, {"must_overtrump": True})
    message = str(caught.value)
    assert message.startswith("unknown rules flag 'must_overtrump': known flags are ")
    assert all(flag in message for flag in ALL_FLAGS)


@pytest.mark.parametrize(
    ("flag", "value", "message"),
    [
        ("must_undertrump", "yes", "must_undertrump must be true or false, not 'yes'"),
        ("deck48", 1, "deck48 must be true or false, not 1"),
        ("pocha_hook", None, "pocha_hook must be true or false, not None"),
        ("stock_duty", "none", "stock_duty must be one of full, trump_lead_only, free, not 'none'"),
        ("tute_declaration", True, "tute_declaration must be one of off, wins_hand, not True"),
        ("first_lead", "dealer", "first_lead must be one of two_of_oros, mano, not 'dealer'"),
        ("pocha_sequence", "random", "pocha_sequence must be spanish, up_down or a list of hand sizes"),
        ("pocha_sequence", [], "pocha_sequence must be spanish, up_down or a non-empty list of integers"),
        ("pocha_sequence", ["1"], "pocha_sequence must be spanish, up_down or a non-empty list of integers"),
        (
            "pocha_sequence",
            [1, True],
            "pocha_sequence must be spanish, up_down or a non-empty list of integers",
        ),
        ("pocha_sequence", [0], "pocha_sequence: a hand of 0 cards is not possible (1 to 10 here)"),
        ("pocha_max_cards", 0, "pocha_max_cards must be a positive integer or null, not 0"),
        ("pocha_max_cards", "5", "pocha_max_cards must be a positive integer or null, not '5'"),
        ("pocha_max_cards", True, "pocha_max_cards must be a positive integer or null, not True"),
    ],
)
def test_a_bad_flag_value_is_refused_with_a_clear_message(flag: str, value: Any, message: str) -> None:
    with pytest.raises(RulesError) as caught:
        Rules.build("pocha", 4, {flag: value})
    assert str(caught.value).startswith(message)


def test_options_must_be_a_mapping() -> None:
    with pytest.raises(RulesError, match="options must be an object of flag: value, not list"):
        Rules.build("tute2", 2, [("deck48", True)])  # type: ignore[arg-type]


def test_a_rules_error_is_a_value_error() -> None:
    assert issubclass(RulesError, ValueError)


def test_the_side_of_a_seat_is_its_pair_in_tute4_and_the_seat_itself_elsewhere() -> None:
    tute4, tute2, pocha = Rules.build("tute4"), Rules.build("tute2"), Rules.build("pocha", 5)

    assert [tute4.side_of(seat) for seat in range(4)] == [0, 1, 0, 1] and tute4.sides == 2
    assert [tute2.side_of(seat) for seat in range(2)] == [0, 1] and tute2.sides == 2
    assert [pocha.side_of(seat) for seat in range(5)] == [0, 1, 2, 3, 4] and pocha.sides == 5
    # the table asks the rules
    assert [State.new(tute4, dealer=0, seed="s").table.side_of(seat) for seat in range(4)] == [0, 1, 0, 1]
