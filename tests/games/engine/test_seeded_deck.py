"""docs/RULES.md section 7: a seeded deck is the canonical order shuffled by a SHA-256 Fisher-Yates.

``reference_deck`` is written from the spec's words alone, to check that anyone can recompute a deal.
"""

from __future__ import annotations

import hashlib
import struct

import pytest

from games.engine import CODE_OF, Rules, State, load_record
from games.engine.deal import seeded_decks

SEEDS = ["", "0", "abc", "tournament 7 / round 3", "ñandú-🂡"]


def reference_deck(seed: str, hand: int, *, deck48: bool = False, without_twos: bool = False) -> list[str]:
    """The game's canonical order (suits O, C, E, B; ranks 1-7, (8, 9,) 10-12; the 2s maybe removed),
    then for i from D-1 down to 1: j = the first 8 bytes, big-endian, of SHA-256("{seed}:{hand}:{i}")
    modulo (i + 1); swap cards i and j. The text is hashed as UTF-8."""
    ranks = [1, 2, 3, 4, 5, 6, 7] + ([8, 9] if deck48 else []) + [10, 11, 12]
    if without_twos:
        ranks.remove(2)
    cards = [f"{rank}{suit}" for suit in "OCEB" for rank in ranks]
    for i in range(len(cards) - 1, 0, -1):
        digest = hashlib.sha256(f"{seed}:{hand}:{i}".encode()).digest()
        (number,) = struct.unpack(">Q", digest[:8])
        j = number % (i + 1)
        cards[i], cards[j] = cards[j], cards[i]
    return cards


def engine_decks(rules: Rules, seed: str) -> list[list[str]]:
    return [[CODE_OF[c] for c in deck] for deck in seeded_decks(rules, seed)]


def test_the_reference_shuffle_gives_these_cards() -> None:
    # a fixed vector, for anyone re-implementing the shuffle in another language
    assert reference_deck("tute-arena", 0)[:12] == [
        *("2O", "1O", "12C", "3B", "4C", "2B", "6O", "12B", "3C", "7E", "5E", "1B"),
    ]
    assert reference_deck("tute-arena", 1)[:12] == [
        *("4O", "7E", "6B", "5O", "4E", "2O", "12C", "1O", "3O", "10B", "3E", "7C"),
    ]
    assert reference_deck("tute-arena", 0, deck48=True, without_twos=True)[:12] == [
        *("3O", "1O", "10C", "12E", "4C", "11E", "7O", "8B", "3C", "6E", "9B", "10E"),
    ]


@pytest.mark.parametrize(
    ("game", "players", "deck48", "size"),
    [
        ("tute2", 2, False, 40),
        ("tute4", 4, False, 40),
        ("pocha", 3, False, 36),
        ("pocha", 6, False, 36),
        ("tute2", 2, True, 48),
        ("pocha", 4, True, 48),
        ("pocha", 3, True, 44),
        ("pocha", 6, True, 44),
    ],
)
@pytest.mark.parametrize("seed", SEEDS)
def test_the_engines_seeded_decks_match_the_reference(
    game: str, players: int, deck48: bool, size: int, seed: str
) -> None:
    # given: a game's rules
    rules = Rules.build(game, players, {"deck48": deck48, "pocha_sequence": "up_down"})
    without_twos = game == "pocha" and players in (3, 6)

    # when: the engine shuffles a deck per hand
    decks = engine_decks(rules, seed)

    # then: each is the reference deck for that hand number, counted from 0
    assert len(decks) == len(rules.hand_sizes())
    for hand, deck in enumerate(decks):
        assert len(deck) == size
        assert deck == reference_deck(seed, hand, deck48=deck48, without_twos=without_twos)


def test_the_same_seed_gives_the_same_decks_and_others_differ() -> None:
    rules = Rules.build("pocha", 4)
    assert engine_decks(rules, "s") == engine_decks(rules, "s")
    assert engine_decks(rules, "s") != engine_decks(rules, "t")
    decks = engine_decks(rules, "s")
    assert len({tuple(deck) for deck in decks}) == len(decks), "every hand gets its own shuffle"


def test_a_seeded_tute2_game_is_dealt_from_the_reference_deck() -> None:
    # given: dealer 0, so seat 1 is the mano
    deck = reference_deck("deal", 0)

    # when: the game is dealt from the seed
    state = State.new(Rules.build("tute2"), dealer=0, seed="deal")

    # then: the mano's 8, the dealer's 8, the face-up card, a 23-card stock
    assert sorted(state.view(1).hand) == sorted(deck[:8])
    assert sorted(state.view(0).hand) == sorted(deck[8:16])
    assert state.view(0).faceup == deck[16]
    assert state.view(0).stock_size == 23


def test_a_seeded_tute4_game_is_dealt_from_the_reference_deck() -> None:
    deck = reference_deck("deal", 0)
    state = State.new(Rules.build("tute4"), dealer=2, seed="deal")
    for block, seat in enumerate([3, 0, 1, 2]):
        assert sorted(state.view(seat).hand) == sorted(deck[10 * block : 10 * block + 10])
    assert state.view(None).trump_card == deck[39]


def test_each_pocha_hand_is_dealt_from_its_own_reference_deck() -> None:
    # given: Pocha for 3 (no 2s), hands of 2 then 3 cards, first dealer 2
    rules = Rules.build("pocha", 3, {"pocha_sequence": [2, 3]})
    state = State.new(rules, dealer=2, seed="pocha")
    first = reference_deck("pocha", 0, without_twos=True)
    second = reference_deck("pocha", 1, without_twos=True)

    # then: hand 0 (mano 0) comes from deck 0, its turned-up card next
    assert [sorted(state.view(s).hand) for s in (0, 1, 2)] == [
        sorted(first[0:2]),
        sorted(first[2:4]),
        sorted(first[4:6]),
    ]
    assert state.view(None).trump_card == first[6]

    # when: hand 0 is bid and played
    while state.view(None).hand_number == 0:
        state = state.apply(state.legal_actions()[0])

    # then: hand 1 (dealer 0, mano 1) comes from deck 1
    assert [sorted(state.view(s).hand) for s in (1, 2, 0)] == [
        sorted(second[0:3]),
        sorted(second[3:6]),
        sorted(second[6:9]),
    ]
    assert state.view(None).trump_card == second[9]


def test_a_record_with_a_seed_deals_the_reference_deck() -> None:
    record = load_record({"game": "tute2", "players": 2, "dealer": 1, "seed": "rec", "actions": []})
    deck = reference_deck("rec", 0)
    assert sorted(record.initial_state().view(0).hand) == sorted(deck[:8])
