"""Double elimination (issue 6): the paths through the bracket. Out after exactly two losses, the
losers'-bracket champion can force a reset, and random play-outs of every size from 2 to 32 keep the
invariants (entrants come from the right feeders, the champion has at most one loss ...)."""

from __future__ import annotations

import math
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.pairing import (
    Bracket,
    BracketError,
    CorrectionRefused,
    Section,
    Status,
    double_elimination,
)
from tournaments.pairing.elimination import DECIDED, FeedKind

SIZES = range(2, 33)


def feed_value(bracket: Bracket, match_index: int, slot: int) -> int | None:
    """What the feed of a slot says the entrant is, read from the feeder's state."""
    feed = bracket.matches[match_index].feeds[slot]
    if feed.kind is FeedKind.SEED:
        return bracket.seeds[feed.ref]
    source = bracket.states[feed.ref]
    return source.winner if feed.kind is FeedKind.WINNER else source.loser


def check_invariants(bracket: Bracket) -> None:
    losses: dict[int, int] = dict.fromkeys(bracket.seeds, 0)
    busy: set[int] = set()
    for s in bracket.states:
        # every known entrant is what its feeder says
        for slot, entrant in enumerate(s.entrants):
            assert entrant == feed_value(bracket, s.match.index, slot), s.match.code
        # no one plays after a second loss, and no one is in two matches to play at once
        for entrant in s.entrants:
            if entrant is not None and s.status is not Status.SKIPPED:
                assert losses[entrant] < 2, (s.match.code, entrant)
        if s.status is Status.READY:
            a, b = s.entrants
            assert a is not None and b is not None
            assert a not in busy and b not in busy
            busy |= {a, b}
        if s.status in DECIDED:
            assert s.loser is not None
            losses[s.loser] += 1
    # the reset is played only if the losers'-bracket champion won GF1
    gf1, gf2 = bracket.state("GF1"), bracket.state("GF2")
    if gf1.status in DECIDED:
        reset_needed = gf1.winner == gf1.entrants[1]
        assert (gf2.status is not Status.SKIPPED) == reset_needed
    else:
        assert gf2.status is Status.WAITING


def play_out(bracket: Bracket, rng: random.Random) -> Bracket:
    check_invariants(bracket)
    while bracket.ready():
        s = rng.choice(bracket.ready())
        a, b = s.entrants
        assert a is not None and b is not None
        bracket = bracket.record(s.match.index, rng.choice((a, b)))
        check_invariants(bracket)
    return bracket


@pytest.mark.parametrize("n", SIZES)
def test_structure(n: int) -> None:
    bracket = double_elimination(range(1, n + 1))
    size = 2 ** math.ceil(math.log2(n))
    rounds = int(math.log2(size))

    # then: 2n - 1 matches (each eliminates nobody or adds one loss: 2(n - 1) + the reset)
    assert len(bracket.matches) == 2 * n - 1
    sections = [m.section for m in bracket.matches]
    assert sections.count(Section.WINNERS) == n - 1
    assert sections.count(Section.LOSERS) == n - 2
    assert [m.code for m in bracket.matches if m.section is Section.GRAND_FINAL] == ["GF1", "GF2"]
    # and: losers' rounds are numbered up to 2 (R - 1), the last one being the losers' final
    losers_rounds = {m.round for m in bracket.matches if m.section is Section.LOSERS}
    assert losers_rounds <= set(range(1, 2 * rounds - 1))
    if n > 2:
        assert max(losers_rounds) == 2 * rounds - 2
    # and: byes to the top seeds, as in single elimination
    assert bracket.byes == tuple(range(1, size - n + 1))
    # and: every loser of a winners'-bracket match drops into exactly one later match (the reset aside)
    for m in bracket.matches:
        if m.section is Section.WINNERS:
            into = [
                x.code
                for x in bracket.matches
                for f in x.feeds
                if x.reset_of is None and f.kind is FeedKind.LOSER and f.ref == m.index
            ]
            assert len(into) == 1, (m.code, into)


@pytest.mark.parametrize("n", SIZES)
def test_random_play_outs_keep_the_invariants(n: int) -> None:
    for trial in range(5):
        # when: the bracket is played to the end with random results, in random order
        bracket = play_out(double_elimination(range(1, n + 1)), random.Random(1000 * n + trial))

        # then: complete; the champion has at most one loss, everyone else exactly two
        assert bracket.is_complete
        champion = bracket.champion
        assert champion is not None
        for e in bracket.seeds:
            assert bracket.losses(e) == (bracket.losses(champion) if e == champion else 2)
        assert bracket.losses(champion) <= 1
        assert bracket.next_match(champion) is None

        # and: 1st the champion, 2nd the other grand finalist, 3rd the losers' final's loser (n >= 3)
        places = dict(bracket.placements())
        assert sorted(places) == list(range(1, n + 1))
        gf1 = bracket.state("GF1")
        finalists = set(gf1.entrants)
        assert places[champion] == 1
        assert [places[e] for e in finalists - {champion}] == [2]
        if n >= 3:
            losers_final = bracket.states[bracket.feeders("GF1")[1]]
            assert losers_final.match.section is Section.LOSERS
            assert losers_final.loser is not None and places[losers_final.loser] == 3


def test_the_losers_bracket_champion_forces_a_reset() -> None:
    # given: 4 entrants; 1 wins the winners' bracket, 2 comes back through the losers' bracket
    bracket = double_elimination([1, 2, 3, 4])
    bracket = bracket.record("W1.1", 1).record("W1.2", 2).record("W2.1", 1)
    bracket = bracket.record("L1.1", 3).record("L2.1", 2)
    gf1 = bracket.state("GF1")
    assert gf1.entrants == (1, 2) and gf1.status is Status.READY
    assert bracket.state("GF2").status is Status.WAITING

    # when: 2 wins the grand final
    bracket = bracket.record("GF1", 2)

    # then: the bracket is reset: the same two play again, each with one loss
    gf2 = bracket.state("GF2")
    assert gf2.entrants == (1, 2) and gf2.status is Status.READY
    assert bracket.losses(1) == bracket.losses(2) == 1
    assert not bracket.is_complete and bracket.champion is None

    # when: 1 wins the reset
    bracket = bracket.record("GF2", 1)

    # then: 1 is the champion with one loss
    assert bracket.is_complete and bracket.champion == 1
    assert dict(bracket.placements()) == {1: 1, 2: 2, 3: 3, 4: 4}


def test_no_reset_when_the_winners_bracket_champion_wins_the_grand_final() -> None:
    bracket = double_elimination([1, 2, 3])
    assert bracket.byes == (1,)
    bracket = bracket.record("W1.2", 3).record("W2.1", 1).record("L2.1", 2)
    assert bracket.state("GF1").entrants == (1, 2)

    bracket = bracket.record("GF1", 1)

    assert bracket.state("GF2").status is Status.SKIPPED
    assert bracket.is_complete and bracket.champion == 1
    assert bracket.losses(1) == 0
    assert bracket.placements() == ((1, 1), (2, 2), (3, 3))


def test_two_entrants_play_a_grand_final_after_their_first_match() -> None:
    bracket = double_elimination([5, 6]).record("W1.1", 6)
    assert bracket.state("GF1").entrants == (6, 5)
    bracket = bracket.record("GF1", 5).record("GF2", 5)
    assert bracket.champion == 5 and bracket.losses(6) == 2


def test_a_winners_bracket_loser_drops_into_the_losers_bracket() -> None:
    bracket = double_elimination(range(1, 9)).record("W1.1", 8)
    assert bracket.next_match(1) == bracket.state("L1.1")
    assert bracket.state("L1.1").entrants == (1, None)


def test_dropped_losers_of_round_two_land_in_the_opposite_half() -> None:
    # given: 8 entrants, the favourites win the winners' bracket's first two rounds and L1
    bracket = double_elimination(range(1, 9))
    for code, w in (("W1.1", 1), ("W1.2", 4), ("W1.3", 2), ("W1.4", 3), ("W2.1", 1), ("W2.2", 2)):
        bracket = bracket.record(code, w)
    bracket = bracket.record("L1.1", 5).record("L1.2", 6)

    # then: the loser of W2.1 (4, from the top half) meets the survivor of the bottom half's L1, and so on
    assert bracket.state("L2.1").entrants == (5, 3)
    assert bracket.state("L2.2").entrants == (6, 4)


def test_a_correction_in_the_winners_bracket_reaches_the_losers_bracket() -> None:
    # given: W1 played; L1.1 (losers of W1.1 and W1.2) has a result
    bracket = double_elimination(range(1, 9))
    for code, w in (("W1.1", 1), ("W1.2", 4), ("W1.3", 2), ("W1.4", 3)):
        bracket = bracket.record(code, w)
    bracket = bracket.record("L1.1", 8)

    # when/then: correcting W1.2 would change L1.1 (and W2.1): refused, naming L1.1
    with pytest.raises(CorrectionRefused) as refused:
        bracket.correct("W1.2", 5)
    assert refused.value.blocking == ("L1.1",)

    # and: W1.4 can be corrected; it reaches W2.2 and L1.2, neither played
    effects = {bracket.matches[i].code for i in bracket.correction_effects("W1.4", 6)}
    assert effects == {"W2.2", "L1.2"}
    corrected = bracket.correct("W1.4", 6)
    assert corrected.state("W2.2").entrants == (2, 6)
    assert corrected.state("L1.2").entrants == (7, 3)


def test_a_corrected_grand_final_brings_back_or_skips_the_reset() -> None:
    bracket = double_elimination([1, 2]).record("W1.1", 1).record("GF1", 1)
    assert bracket.state("GF2").status is Status.SKIPPED and bracket.champion == 1

    corrected = bracket.correct("GF1", 2)
    assert corrected.state("GF2").status is Status.READY and corrected.champion is None

    played = corrected.record("GF2", 2)
    with pytest.raises(CorrectionRefused):
        played.correct("GF1", 1)


def test_a_withdrawn_entrant_forfeits_in_both_brackets() -> None:
    # given: 4 entrants; 4 withdraws before playing
    bracket = double_elimination([1, 2, 3, 4]).withdraw(4)

    # then: 1 wins W1.1 by walkover; 4 then forfeits its losers'-bracket match too
    assert bracket.state("W1.1").winner == 1
    bracket = bracket.record("W1.2", 2)
    l1 = bracket.state("L1.1")
    assert (l1.entrants, l1.status, l1.winner) == ((4, 3), Status.WALKOVER, 3)
    assert bracket.losses(4) == 2


def test_unknown_entrants_and_matches_are_refused() -> None:
    bracket = double_elimination([1, 2, 3])
    with pytest.raises(BracketError):
        bracket.withdraw(9)
    with pytest.raises(BracketError):
        bracket.next_match(9)
    with pytest.raises(BracketError):
        bracket.state("L7.1")
    with pytest.raises(BracketError, match="not complete"):
        bracket.placements()


@settings(max_examples=60, deadline=None)
@given(
    n=st.integers(2, 24),
    seed=st.integers(0, 2**32),
    withdrawals=st.lists(st.integers(0, 40), max_size=4),
    double=st.booleans(),
)
def test_withdrawals_at_any_time_and_rebuilding_from_what_is_stored(
    n: int, seed: int, withdrawals: list[int], double: bool
) -> None:
    # given: a bracket played at random, with entrants withdrawing after random numbers of results
    from tournaments.pairing import single_elimination

    rng = random.Random(seed)
    start = double_elimination(range(n)) if double else single_elimination(range(n), third_place=True)
    bracket = start
    step = 0
    while True:
        for w in withdrawals:
            if w == step:
                bracket = bracket.withdraw(rng.randrange(n))
        if not bracket.ready():
            break
        s = rng.choice(bracket.ready())
        a, b = s.entrants
        assert a is not None and b is not None
        bracket = bracket.record(s.match.index, rng.choice((a, b)))
        step += 1
        if double:
            check_invariants(bracket)

    # then: it ends, and what it says to store rebuilds it exactly
    assert bracket.is_complete
    rebuilt = start.with_results(bracket.recorded(), forfeited=bracket.forfeited)
    assert rebuilt.states == bracket.states
    # and: a withdrawn entrant never won a match it played after withdrawing ... it may only have won walkovers
    # against another withdrawn entrant
    for s in bracket.states:
        if s.status is Status.WALKOVER and not s.recorded:
            assert s.loser in bracket.forfeited


def test_without_the_reset_the_first_grand_final_decides() -> None:
    # given: the same path as above, in a bracket without a reset
    bracket = double_elimination([1, 2, 3, 4], reset=False)
    assert [m.code for m in bracket.matches if m.section is Section.GRAND_FINAL] == ["GF1"]
    bracket = bracket.record("W1.1", 1).record("W1.2", 2).record("W2.1", 1)
    bracket = bracket.record("L1.1", 3).record("L2.1", 2)

    # when: the losers'-bracket champion wins the grand final
    bracket = bracket.record("GF1", 2)

    # then: it is the champion at once; the winners'-bracket champion is second with its one loss
    assert bracket.is_complete and bracket.champion == 2
    assert dict(bracket.placements()) == {2: 1, 1: 2, 3: 3, 4: 4}


@settings(max_examples=40, deadline=None)
@given(n=st.integers(2, 32), seed=st.integers(0, 10**6))
def test_random_play_outs_without_the_reset_end_at_the_first_grand_final(n: int, seed: int) -> None:
    bracket = double_elimination(list(range(1, n + 1)), reset=False)
    rng = random.Random(seed)
    while bracket.ready():
        s = rng.choice(bracket.ready())
        a, b = s.entrants
        assert a is not None and b is not None
        bracket = bracket.record(s.match.index, rng.choice((a, b)))
    assert bracket.is_complete and bracket.champion == bracket.state("GF1").winner
    assert all(bracket.losses(e) == 2 for e in bracket.seeds if e not in (bracket.state("GF1").entrants))
