"""docs/RULES.md section 3: cantes (the 20 and the 40, tute) in Tute 2 and Tute 4, with every flag."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engine import IllegalAction, Rules, State

Deal = Callable[..., State]
Run = Callable[..., State]
Refuse = Callable[..., IllegalAction]
LongHand = Callable[..., State]
StockPhase = Callable[..., State]


def sings(state: State) -> list[str]:
    return [code for code in state.legal_actions() if code.startswith("sing:")]


# -- Tute 2 ------------------------------------------------------------------------------------------------


def pairs_deal(deal: Deal, seat0: list[str] | None = None, **options: Any) -> State:
    """Dealer 1, oros trump (4O face up). The mano, seat 0, holds the copas and oros pairs and leads the
    10 of espadas; seat 1 has no espadas but the 2, and no oros: seat 0 wins tricks led with espadas."""
    hand = seat0 or ["12C", "11C", "12O", "11O", "10E", "4E", "5E", "6E"]
    return deal(
        "tute2",
        {0: hand, 1: ["2E"]},
        dealer=1,
        trump_card="4O",
        stock=["4C", "5C", "6C", "7C"],
        options=options,
        void={1: "EO"},
    )


def test_no_cante_before_trick_1(deal: Deal, refuse: Refuse) -> None:
    # given: the mano holds two pairs before trick 1
    state = pairs_deal(deal)

    # then: it may not sing yet
    assert sings(state) == []
    refuse(state, "sing:C", "no cante before trick 1")


def test_the_winner_of_a_trick_may_sing_20_in_a_plain_suit_or_40_in_trumps(deal: Deal, run: Run) -> None:
    # given: seat 0 won trick 1 holding the 12 and 11 of copas and of oros (trump)
    state = run(pairs_deal(deal), "play:10E", "play:2E")
    assert state.current_player() == 0
    assert sings(state) == ["sing:C", "sing:O"]

    # when: it sings copas, or (another line) oros
    copas = state.apply("sing:C")
    oros = state.apply("sing:O")

    # then: 20 and 40 points, added to the 2 card points of trick 1
    assert copas.view(None).scores == (22, 0)
    assert oros.view(None).scores == (42, 0)
    assert copas.view(1).to_dict()["cantes"] == [{"seat": 0, "suit": "C", "points": 20}]
    assert oros.view(1).to_dict()["cantes"] == [{"seat": 0, "suit": "O", "points": 40}]


def test_a_sung_pair_is_shown_to_every_seat_and_stays_in_hand(deal: Deal, run: Run) -> None:
    # given: seat 0 won trick 1
    state = run(pairs_deal(deal), "play:10E", "play:2E")

    # when: it sings copas
    state = state.apply("sing:C")

    # then: everyone knows it holds the 12 and 11 of copas; it still holds them and still leads
    for seat in (None, 0, 1):
        assert state.view(seat).to_dict()["known"] == [["11C", "12C"], []]
    assert {"12C", "11C"} <= set(state.view(0).hand)
    assert state.view(None).hand_sizes == (8, 8)
    assert state.current_player() == 0


def test_one_cante_per_trick_won(deal: Deal, run: Run, refuse: Refuse) -> None:
    # given: seat 0 won trick 1 and sang copas
    state = run(pairs_deal(deal), "play:10E", "play:2E", "sing:C")

    # then: it may not sing oros too before leading
    assert sings(state) == []
    refuse(state, "sing:O", "one cante per trick won")

    # when: it wins trick 2 (seat 1 has no espadas left and no trump)
    state = state.apply("play:4E")
    state = state.apply(state.legal_actions()[0])
    assert state.current_player() == 0

    # then: it may sing oros now, and copas no more (each suit once per hand)
    assert sings(state) == ["sing:O"]
    refuse(state, "sing:C", "copas has been sung already")


def test_only_the_winner_of_the_previous_trick_sings(deal: Deal, run: Run, refuse: Refuse) -> None:
    # given: seat 1 holds the bastos pair; seat 0 wins trick 1 and leads the 2 of bastos
    state = deal(
        "tute2",
        {0: ["10E", "2B", "4E", "5E"], 1: ["2E", "12B", "11B", "1B"]},
        dealer=1,
        trump_card="4O",
        stock=["4C", "5C"],
        void={0: "B", 1: "EOB"},
    )
    state = run(state, "play:10E", "play:2E", "play:2B")

    # then: seat 1, answering, may not sing
    assert sings(state) == []
    refuse(state, "sing:B", "only before leading")

    # when: it takes the trick with the ace of bastos
    state = state.apply("play:1B")

    # then: now it may sing its 20
    assert state.current_player() == 1
    assert sings(state) == ["sing:B"]


def test_a_pair_split_by_a_play_can_no_longer_be_sung(deal: Deal, run: Run) -> None:
    # given: seat 0 holds the copas pair and leads the 12 of copas at trick 1, winning it
    state = run(pairs_deal(deal, ["12C", "11C", "3C", "1C", "10E", "4E", "5E", "6E"]), "play:12C")
    state = state.apply(state.legal_actions()[0])
    assert state.current_player() == 0

    # then: no cante of copas
    assert "sing:C" not in sings(state)


@pytest.mark.parametrize(("flag", "expected"), [(True, ["sing:C", "sing:O"]), (False, [])])
def test_cantes_in_arrastre_decides_whether_cantes_go_on_once_the_stock_is_empty(
    long_hand: LongHand, stock_phase: StockPhase, refuse: Refuse, flag: bool, expected: list[str]
) -> None:
    # given: the long hand after trick 12; seat 0 won it and holds the oros and copas pairs, unsung
    state = stock_phase(long_hand({"cantes_in_arrastre": flag}))
    assert state.view(None).stock_size == 0

    # then: it may sing them only with cantes_in_arrastre (the default)
    assert sings(state) == expected
    if not flag:
        refuse(state, "sing:O", "cantes_in_arrastre")


def test_without_cantes_in_arrastre_cantes_are_open_while_the_stock_has_cards(
    long_hand: LongHand, stock_phase: StockPhase
) -> None:
    # given: the flag off; the long hand before trick 12 (one stock card and the face-up card left)
    state = stock_phase(long_hand({"cantes_in_arrastre": False}), 11)

    # then: seat 0 may sing
    assert sings(state) == ["sing:C", "sing:O"]


def test_forty_before_twenty_makes_the_trump_pair_go_first(deal: Deal, run: Run, refuse: Refuse) -> None:
    # given: forty_before_twenty; seat 0 won trick 1 with both pairs in hand
    state = run(pairs_deal(deal, forty_before_twenty=True), "play:10E", "play:2E")

    # then: only the 40 may be sung
    assert sings(state) == ["sing:O"]
    refuse(state, "sing:C", "forty_before_twenty")

    # when: it sings the 40 and wins trick 2
    state = run(state, "sing:O", "play:4E")
    state = state.apply(state.legal_actions()[0])

    # then: the 20 is open
    assert sings(state) == ["sing:C"]


def test_forty_before_twenty_does_not_touch_a_player_without_the_trump_pair(deal: Deal, run: Run) -> None:
    # given: forty_before_twenty; seat 0 holds only the copas pair
    state = pairs_deal(deal, ["12C", "11C", "10E", "4E", "5E", "6E", "7E", "1C"], forty_before_twenty=True)
    state = run(state, "play:10E", "play:2E")

    # then: it may sing copas
    assert sings(state) == ["sing:C"]


def test_by_default_a_pair_completed_by_the_draw_may_be_sung(
    long_hand: LongHand, stock_phase: StockPhase
) -> None:
    # given: the long hand after trick 7: seat 0 had the 12 of copas and drew the 11 after winning it
    state = stock_phase(long_hand(), 7)

    # then: it may sing copas
    assert sings(state) == ["sing:C"]


def test_cante_before_draw_only_allows_a_pair_held_when_the_trick_was_won(
    long_hand: LongHand, stock_phase: StockPhase, refuse: Refuse
) -> None:
    # given: cante_before_draw; the long hand after trick 7, whose draw brought seat 0 the 11 of copas
    state = stock_phase(long_hand({"cante_before_draw": True}), 7)

    # then: no cante now
    assert sings(state) == []
    refuse(state, "sing:C", "cante_before_draw")

    # when: seat 0 wins trick 8 holding the pair
    state = stock_phase(long_hand({"cante_before_draw": True}), 8)

    # then: it may sing it
    assert sings(state) == ["sing:C"]


def test_tute_declaration_is_off_by_default(deal: Deal, run: Run, refuse: Refuse) -> None:
    # given: seat 0 won trick 1 holding the four 12s
    state = run(
        pairs_deal(deal, ["12O", "12C", "12E", "12B", "10E", "4E", "5E", "6E"]), "play:10E", "play:2E"
    )

    # then: no tute
    assert "sing:tute" not in state.legal_actions()
    refuse(state, "sing:tute", "tute_declaration is off")


@pytest.mark.parametrize("figure", ["12", "11"])
def test_tute_declaration_wins_the_hand_with_the_four_12s_or_the_four_11s(
    deal: Deal, run: Run, figure: str
) -> None:
    # given: wins_hand; seat 0 holds the four 12s (or 11s)
    hand = [f"{figure}{s}" for s in "OCEB"] + ["10E", "4E", "5E", "6E"]
    state = pairs_deal(deal, hand, tute_declaration="wins_hand")
    assert "sing:tute" not in state.legal_actions()  # not before trick 1

    # when: it wins trick 1 and sings tute
    state = run(state, "play:10E", "play:2E")
    assert "sing:tute" in state.legal_actions()
    state = state.apply("sing:tute")

    # then: the hand is over and seat 0 has won it
    assert state.is_terminal()
    result = state.result()
    assert result is not None
    assert result.to_dict()["winners"] == [0]
    assert result.to_dict()["tute"] == 0
    assert state.view(1).to_dict()["cantes"] == [{"seat": 0, "suit": "tute", "points": 0}]


def test_tute_declaration_needs_all_four(deal: Deal, run: Run, refuse: Refuse) -> None:
    # given: wins_hand; seat 0 holds three 12s
    hand = ["12O", "12C", "12E", "10E", "4E", "5E", "6E", "7E"]
    state = run(pairs_deal(deal, hand, tute_declaration="wins_hand"), "play:10E", "play:2E")

    # then: no tute
    assert "sing:tute" not in state.legal_actions()
    refuse(state, "sing:tute", "four 12s or all four 11s")


# -- Tute 4 ------------------------------------------------------------------------------------------------


def tute4_pairs(deal: Deal, **options: Any) -> State:
    """Dealer 3, bastos trump (12B), seat 0 leads the ace of copas and wins trick 1; seat 0 holds the
    oros pair, seat 2 (its partner) the espadas pair, seat 1 (an opponent) the copas pair."""
    hands = {
        0: ["1C", "12O", "11O", "1O", "3O", "4O", "5O", "6O", "7O", "10O"],
        1: ["12C", "11C", "2C", "1E", "3E", "4E", "5E", "6E", "7E", "10E"],
        2: ["12E", "11E", "4C", "2E", "1B", "3B", "4B", "5B", "6B", "7B"],
        3: ["5C", "3C", "10C", "6C", "7C", "2O", "2B", "10B", "11B", "12B"],
    }
    return deal("tute4", hands, dealer=3, trump_card="12B", options={"first_lead": "mano", **options})


def test_tute4_the_trick_winner_sings_and_the_points_go_to_the_pair(deal: Deal, run: Run) -> None:
    # given: seat 0 wins trick 1 (the ace of copas)
    state = run(tute4_pairs(deal), "play:1C", "play:2C", "play:4C", "play:5C")
    assert state.current_player() == 0

    # then: it may sing its oros pair, not its partner's nor an opponent's
    assert sings(state) == ["sing:O"]

    # when: it sings
    state = state.apply("sing:O")

    # then: 20 for pair 0-2 (oros are not trump)
    assert state.view(None).scores == (11 + 20, 0)
    assert state.view(None).to_dict()["known"] == [["11O", "12O"], [], [], ["12B"]]


def test_tute4_by_default_the_winners_partner_does_not_sing(deal: Deal, run: Run) -> None:
    # given: partner_may_sing off; seat 0 wins trick 1, seat 2 holds the espadas pair
    state = run(tute4_pairs(deal), "play:1C", "play:2C", "play:4C", "play:5C")

    # then: seat 0 acts, with its own window only
    assert state.current_player() == 0
    assert state.view(None).phase == "play"
    assert "pass" not in state.legal_actions()


def test_partner_may_sing_lets_the_partner_sing_first_and_uses_the_pairs_cante(
    deal: Deal, run: Run, refuse: Refuse
) -> None:
    # given: partner_may_sing; seat 0 wins trick 1 while seat 2 holds the unsung espadas pair
    state = run(tute4_pairs(deal, partner_may_sing=True), "play:1C", "play:2C", "play:4C", "play:5C")

    # then: seat 2 acts first: sing its pair or pass
    assert state.current_player() == 2
    assert state.view(None).phase == "partner_sing"
    assert state.legal_actions() == ("pass", "sing:E")
    refuse(state, "play:12E", "may only sing or pass")

    # when: it sings
    state = state.apply("sing:E")

    # then: 20 for the pair; seat 0 leads, and the trick's cante is used
    assert state.current_player() == 0
    assert state.view(None).scores == (11 + 20, 0)
    assert state.view(0).to_dict()["cantes"] == [{"seat": 2, "suit": "E", "points": 20}]
    assert sings(state) == []
    refuse(state, "sing:O", "one cante per trick won")


def test_partner_may_sing_after_a_pass_the_winner_may_sing(deal: Deal, run: Run) -> None:
    # given: partner_may_sing; seat 0 won trick 1
    state = run(tute4_pairs(deal, partner_may_sing=True), "play:1C", "play:2C", "play:4C", "play:5C")

    # when: its partner passes
    state = state.apply("pass")

    # then: the winner's window goes on: it may sing its own pair
    assert state.current_player() == 0
    assert sings(state) == ["sing:O"]
    assert state.view(None).to_dict()["passes"] == [2]


def test_pass_is_refused_where_no_rule_offers_it(deal: Deal, run: Run, refuse: Refuse) -> None:
    # given: seat 0 to lead after winning trick 1, partner_may_sing off
    state = run(tute4_pairs(deal), "play:1C", "play:2C", "play:4C", "play:5C")

    # then: pass is not an action here
    refuse(state, "pass", "pass is only offered")


def test_tute4_tute_declaration_wins_the_hand_for_the_pair(deal: Deal, run: Run) -> None:
    # given: wins_hand; seat 2 holds the four 11s and leads the ace of copas (it holds the 2 of oros)
    hands = {
        2: ["1C", "2O", "11O", "11C", "11E", "11B", "1O", "3O", "4O", "5O"],
        3: ["2C", "6O", "7O", "10O", "12O", "1E", "3E", "4E", "5E", "6E"],
        0: ["4C", "7E", "10E", "12E", "2E", "1B", "3B", "4B", "5B", "6B"],
        1: ["5C", "3C", "10C", "12C", "6C", "7C", "2B", "7B", "10B", "12B"],
    }
    state = deal("tute4", hands, dealer=1, trump_card="12B", options={"tute_declaration": "wins_hand"})
    assert state.current_player() == 2

    # when: it takes trick 1 and sings tute
    state = run(state, "play:1C", "play:2C", "play:4C", "play:5C")
    state = state.apply("sing:tute")

    # then: pair 0-2 wins the hand outright
    result = state.result()
    assert result is not None
    assert result.to_dict()["winners"] == [0]
    assert result.to_dict()["tute"] == 2


def test_tute4_without_cantes_in_arrastre_there_are_no_cantes(deal: Deal, run: Run) -> None:
    # given: cantes_in_arrastre off in Tute 4, which has no stock (the engine's reading: always arrastre)
    state = run(tute4_pairs(deal, cantes_in_arrastre=False), "play:1C", "play:2C", "play:4C", "play:5C")

    # then: the trick winner may not sing
    assert sings(state) == []


# -- cante_before_draw with forty_before_twenty and tute_declaration: every combination ------------------


def drawn_deal(deal: Deal, seat0: list[str], drawn: str, **options: Any) -> State:
    """Dealer 1, oros trump (4O face up): seat 0 leads the 10 of espadas and wins trick 1 (seat 1 has only
    the 2 of espadas and no oros), then draws ``drawn`` from the top of the stock."""
    return deal(
        "tute2",
        {0: seat0, 1: ["2E"]},
        dealer=1,
        trump_card="4O",
        stock=[drawn, "4C", "5C", "6C"],
        options=options,
        void={1: "EO"},
    )


@pytest.mark.parametrize("tute", ["off", "wins_hand"])
@pytest.mark.parametrize("forty", [False, True])
@pytest.mark.parametrize("before_draw", [False, True])
def test_forty_before_twenty_reads_the_hand_held_when_the_trick_was_won_under_cante_before_draw(
    deal: Deal, run: Run, before_draw: bool, forty: bool, tute: str
) -> None:
    # given: seat 0 wins trick 1 holding the copas pair and the 12 of oros (trumps), and draws the 11 of oros
    state = drawn_deal(
        deal,
        ["12C", "11C", "12O", "10E", "4E", "5E", "6E", "7E"],
        "11O",
        cante_before_draw=before_draw,
        forty_before_twenty=forty,
        tute_declaration=tute,
    )
    state = run(state, "play:10E", "play:2E")
    assert {"11O", "12O", "12C", "11C"} <= set(state.view(0).hand)

    # then: with cante_before_draw only the copas pair was held when the trick was won, so the trump pair
    # (completed by the draw) neither may be sung nor holds the 20 back; without it, both pairs are held
    # and forty_before_twenty puts the 40 first
    if before_draw:
        expected = ["sing:C"]
    elif forty:
        expected = ["sing:O"]
    else:
        expected = ["sing:C", "sing:O"]
    assert sings(state) == expected
    assert "sing:tute" not in state.legal_actions()


@pytest.mark.parametrize("tute", ["off", "wins_hand"])
@pytest.mark.parametrize("forty", [False, True])
@pytest.mark.parametrize("before_draw", [False, True])
def test_tute_declaration_reads_the_hand_held_when_the_trick_was_won_under_cante_before_draw(
    deal: Deal, run: Run, refuse: Refuse, before_draw: bool, forty: bool, tute: str
) -> None:
    # given: seat 0 wins trick 1 holding three 12s and draws the fourth (the 12 of bastos)
    state = drawn_deal(
        deal,
        ["12O", "12C", "12E", "10E", "4E", "5E", "6E", "7E"],
        "12B",
        cante_before_draw=before_draw,
        forty_before_twenty=forty,
        tute_declaration=tute,
    )
    state = run(state, "play:10E", "play:2E")
    assert {"12O", "12C", "12E", "12B"} <= set(state.view(0).hand)

    # then: tute only with wins_hand, and under cante_before_draw only if the four were held at the win
    if tute == "wins_hand" and not before_draw:
        assert "sing:tute" in state.legal_actions()
        assert state.apply("sing:tute").is_terminal()
    else:
        refuse(state, "sing:tute", "tute_declaration is off" if tute == "off" else "four 12s")


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    flags=st.fixed_dictionaries(
        {
            "cante_before_draw": st.booleans(),
            "forty_before_twenty": st.booleans(),
            "tute_declaration": st.sampled_from(["off", "wins_hand"]),
            "cantes_in_arrastre": st.booleans(),
        }
    ),
    dealer=st.integers(0, 1),
    seed=st.text(max_size=8),
    choices=st.integers(0, 2**32),
)
def test_tute2_cantes_offered_are_those_of_rules_section_3_under_every_flag_combination(
    flags: dict[str, Any], dealer: int, seed: str, choices: int
) -> None:
    """Random games: at every cante window the sing codes offered are worked out here from docs/RULES.md 3,
    from the seat's views alone (the hand held when the trick was won is the hand after its card)."""
    rules = Rules.build("tute2", 2, flags)
    rng = random.Random(choices)
    state = State.new(rules, dealer=dealer, seed=seed)
    after_play: dict[int, frozenset[str]] = {0: frozenset(), 1: frozenset()}
    sang_in_window = False
    while not state.is_terminal():
        seat = state.current_player()
        assert seat is not None
        view = state.view(seat)
        legal = state.legal_actions()
        offered = {code for code in legal if code.startswith("sing:")}
        expected: set[str] = set()
        window = not view.trick and view.tricks and not sang_in_window
        is_open = flags["cantes_in_arrastre"] or view.faceup is not None
        if window and is_open:
            held = set(view.hand) & after_play[seat] if flags["cante_before_draw"] else set(view.hand)
            sung = {c[1] for c in view.cantes}
            pairs = [s for s in "OCEB" if s not in sung and {f"12{s}", f"11{s}"} <= held]
            if flags["forty_before_twenty"] and view.trump in pairs:
                pairs = [view.trump]
            expected = {f"sing:{s}" for s in pairs}
            if flags["tute_declaration"] == "wins_hand" and any(
                {f"{r}{s}" for s in "OCEB"} <= held for r in (12, 11)
            ):
                expected.add("sing:tute")
        assert offered == expected, f"flags {flags}, hand {view.hand}, ply {view.game_ply}"
        code = rng.choice(legal)
        state = state.apply(code)
        if code.startswith("play:"):
            after_play[seat] = frozenset(view.hand) - {code[5:]}
            if not state.view(None).trick:
                sang_in_window = False  # the trick closed: a new window for its winner
        elif code.startswith("sing:"):
            sang_in_window = True
