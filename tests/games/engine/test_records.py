"""docs/RULES.md section 10: game records: load and validate, replay, export."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest

from games.engine import (
    IllegalAction,
    RecordError,
    ReplayError,
    Rules,
    State,
    export_record,
    load_record,
    parse_card,
    replay,
    replay_steps,
)
from tests.games.engine.conftest import (
    LONG_FACEUP,
    LONG_SEAT0,
    LONG_SEAT1,
    LONG_STOCK,
    LONG_STOCK_TRICKS,
    deck_for,
    play_out,
    public_snapshot,
    spec_deck,
)

LongHand = Callable[..., State]

LONG_DECK = [*LONG_SEAT0, *LONG_SEAT1, LONG_FACEUP, *LONG_STOCK]
LONG_ACTIONS = [f"play:{card}" for trick in LONG_STOCK_TRICKS[:3] for card in trick]


def record(**fields: Any) -> dict[str, Any]:
    base: dict[str, Any] = {
        "game": "tute2",
        "players": 2,
        "options": {},
        "dealer": 1,
        "decks": [LONG_DECK],
        "actions": LONG_ACTIONS,
    }
    base.update(fields)
    return {key: value for key, value in base.items() if value is not ...}


# -- load and validate ----------------------------------------------------------------------------------------


def test_a_valid_record_loads() -> None:
    loaded = load_record(record())
    assert loaded.rules.game == "tute2"
    assert loaded.dealer == 1
    assert loaded.seed is None
    assert loaded.actions == tuple(LONG_ACTIONS)
    assert loaded.initial_state().view(0).hand == tuple(sorted(LONG_SEAT0, key=spec_deck().index))


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ([], "a record is a JSON object, not list"),
        (record(game="chess"), "unknown game 'chess'"),
        (record(game=...), '"game" must be one of "tute2", "tute4", "pocha"'),
        (record(game=2), '"game" must be one of "tute2", "tute4", "pocha"'),
        (record(players=4), "tute2 is played by 2 players, not 4"),
        (record(players="2"), "tute2 is played by 2 players, not '2'"),
        (record(options={"deck52": True}), "unknown rules flag 'deck52'"),
        (record(options={"stock_duty": "loose"}), "stock_duty must be one of full, trump_lead_only, free"),
        (record(options="deck48"), "options must be an object"),
        (record(options=[]), "options must be an object of flag: value, not list"),
        (record(options=""), "options must be an object of flag: value, not str"),
        (record(dealer=2), '"dealer" must be a seat from 0 to 1, not 2'),
        (record(dealer=-1), '"dealer" must be a seat from 0 to 1, not -1'),
        (record(dealer="1"), "\"dealer\" must be a seat from 0 to 1, not '1'"),
        (record(dealer=True), '"dealer" must be a seat from 0 to 1, not True'),
        (record(seed="s"), 'a record has "decks" or "seed", exactly one of them'),
        (record(decks=...), 'a record has "decks" or "seed", exactly one of them'),
        (record(decks=LONG_DECK), '"decks" must be a list of decks, each a list of card codes'),
        (record(decks=[[*LONG_DECK[:-1], "13O"]]), "\"decks\": unknown card code '13O'"),
        (record(decks=[LONG_DECK[:-1]]), "deck 0 is not the 40-card deck of this game, each card once"),
        (record(decks=[[*LONG_DECK[:-1], LONG_DECK[0]]]), "deck 0 is not the 40-card deck of this game"),
        (record(decks=[[*LONG_DECK[:-1], "8O"]]), "deck 0 is not the 40-card deck of this game"),
        (
            record(decks=[LONG_DECK, LONG_DECK]),
            "this tute2 game has 1 hand(s) and needs one deck each, not 2",
        ),
        (record(decks=[]), "this tute2 game has 1 hand(s) and needs one deck each, not 0"),
        (record(seed=["s"], decks=...), '"seed" must be a text'),
        (record(actions="play:2O"), '"actions" must be a list of action codes'),
        (record(actions=["play:2O", 3]), '"actions" must be a list of action codes'),
    ],
)
def test_a_bad_record_is_a_record_error_saying_what_is_wrong(data: object, message: str) -> None:
    with pytest.raises(RecordError) as caught:
        load_record(data)
    assert message in str(caught.value)


@pytest.mark.parametrize("options", [..., None, {}])
def test_a_record_without_options_plays_the_defaults(options: object) -> None:
    loaded = load_record(record(options=options))
    assert loaded.rules == load_record(record(options={"last_trick_bonus": False})).rules


def test_a_pocha_record_needs_one_deck_per_hand() -> None:
    # given: a Pocha game of two hands with one deck
    data = {"game": "pocha", "players": 4, "options": {"pocha_sequence": [1, 2]}, "dealer": 0}

    # then: refused; with two decks it loads
    with pytest.raises(RecordError, match="this pocha game has 2 hand"):
        load_record({**data, "decks": [spec_deck()], "actions": []})
    assert load_record({**data, "decks": [spec_deck(), spec_deck()], "actions": []})


def test_a_pocha_record_for_3_needs_the_deck_without_the_2s() -> None:
    data = {"game": "pocha", "players": 3, "options": {"pocha_sequence": [1]}, "dealer": 0, "actions": []}
    with pytest.raises(RecordError, match="not the 36-card deck"):
        load_record({**data, "decks": [spec_deck()]})
    assert load_record({**data, "decks": [spec_deck(without_twos=True)]})


def test_errors_are_value_errors_not_illegal_actions() -> None:
    assert issubclass(RecordError, ValueError)
    assert issubclass(ReplayError, ValueError)
    assert not issubclass(RecordError, IllegalAction)


# -- replay -------------------------------------------------------------------------------------------------------


def test_replaying_a_record_gives_the_same_states_every_time(long_hand: LongHand) -> None:
    # given: a record of three tricks, and the same game played by hand
    loaded = load_record(record())
    state = long_hand()
    by_hand = [public_snapshot(state)]
    for code in LONG_ACTIONS:
        state = state.apply(code)
        by_hand.append(public_snapshot(state))

    # when: it is replayed twice, step by step and at once
    first = [public_snapshot(step.after) for step in replay_steps(loaded)]
    second = [public_snapshot(step.after) for step in replay_steps(loaded)]

    # then: the same states as by hand
    assert first == second == by_hand[1:]
    assert public_snapshot(replay(loaded)) == by_hand[-1]


def test_replay_steps_tell_the_seat_the_legal_actions_and_the_action() -> None:
    steps = list(replay_steps(load_record(record())))
    assert [step.index for step in steps] == list(range(6))
    assert [step.seat for step in steps] == [0, 1] * 3
    assert [step.action for step in steps] == LONG_ACTIONS
    assert all(step.action in step.legal for step in steps)
    assert "exchange:2O" in steps[0].legal


def test_a_record_without_actions_replays_to_the_deal() -> None:
    loaded = load_record(record(actions=[]))
    assert public_snapshot(replay(loaded)) == public_snapshot(loaded.initial_state())


def test_a_replay_error_names_the_step_and_the_reason() -> None:
    # given: a record whose fourth action plays a card seat 1 does not hold
    actions = [*LONG_ACTIONS[:3], "play:1C"]

    # when / then
    with pytest.raises(ReplayError) as caught:
        replay(load_record(record(actions=actions)))
    error = caught.value
    assert error.index == 3
    assert error.action == "play:1C"
    assert error.reason == "1C is not in seat 1's hand"
    assert str(error) == "step 3 (play:1C): 1C is not in seat 1's hand"
    assert [step.action for step in error.steps] == LONG_ACTIONS[:3]


def test_a_replay_error_for_a_malformed_code() -> None:
    with pytest.raises(ReplayError) as caught:
        replay(load_record(record(actions=["play:2O", "fold"])))
    assert caught.value.index == 1
    assert "fold" in str(caught.value)


def test_a_replay_error_for_an_action_after_the_end(long_hand: LongHand) -> None:
    # given: a whole hand's record plus one more action
    final = play_out(long_hand())
    data = export_record(final)
    data["actions"].append("play:1O")

    # then: the extra step is refused: the game is over
    with pytest.raises(ReplayError) as caught:
        replay(load_record(data))
    assert caught.value.index == len(final.history())
    assert caught.value.reason == "the game is over"


# -- export -----------------------------------------------------------------------------------------------------


def tute2_game(long_hand: LongHand) -> State:
    state = long_hand({"last_trick_bonus": True}).apply("exchange:2O")
    state = state.apply("play:4O")
    return play_out(state.apply(state.legal_actions()[0]))


def tute4_game() -> State:
    rules = Rules.build("tute4", 4, {"partner_may_sing": True})
    state = State.new(rules, dealer=1, decks=(tuple(parse_card(c) for c in spec_deck()),))
    return play_out(state, lambda s: s.legal_actions()[0])


def pocha_game() -> State:
    decks = tuple(
        tuple(parse_card(c) for c in deck_for("pocha", {}, dealer=d, k=k, trump_card="1O"))
        for d, k in ((2, 2), (3, 3))
    )
    state = State.new(Rules.build("pocha", 4, {"pocha_sequence": [2, 3]}), dealer=2, decks=decks)
    return play_out(state, lambda s: s.legal_actions()[-1])


@pytest.mark.parametrize("game", ["tute2", "tute4", "pocha"])
def test_export_load_replay_round_trip(long_hand: LongHand, game: str) -> None:
    # given: a finished game
    final = {"tute2": lambda: tute2_game(long_hand), "tute4": tute4_game, "pocha": pocha_game}[game]()

    # when: exported, sent through JSON, loaded and replayed
    data = json.loads(json.dumps(export_record(final)))
    replayed = replay(load_record(data))

    # then: the same game, and the same record again
    assert public_snapshot(replayed) == public_snapshot(final)
    assert export_record(replayed) == data
    assert data["game"] == game
    assert data["actions"] == list(final.history())
    assert set(data) == {"game", "players", "options", "dealer", "decks", "actions"}


def test_export_with_the_seed_replays_the_same_game() -> None:
    # given: a game dealt from a seed, half played
    state = State.new(Rules.build("pocha", 5), dealer=4, seed="export")
    for _ in range(30):
        state = state.apply(state.legal_actions()[0])

    # when: exported with its seed, loaded and replayed
    data = json.loads(json.dumps(export_record(state, seed="export")))
    replayed = replay(load_record(data))

    # then: the record names the seed, not the decks, and replays to the same state
    assert data["seed"] == "export"
    assert "decks" not in data
    assert public_snapshot(replayed) == public_snapshot(state)


def test_an_exported_record_lists_every_flag() -> None:
    state = State.new(Rules.build("tute2", 2, {"stock_duty": "free"}), dealer=0, seed="f")
    options = export_record(state)["options"]
    assert options["stock_duty"] == "free"
    assert options["last_trick_bonus"] is False
    assert len(options) == 16
