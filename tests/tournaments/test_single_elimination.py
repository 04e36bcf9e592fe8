"""Single elimination (issue 6): the bracket's structure for every size from 2 to 64, playing it out,
withdrawals, and corrections that flow on or are refused."""

from __future__ import annotations

import math
import random

import pytest

from tournaments.pairing import (
    Bracket,
    BracketError,
    CorrectionRefused,
    PairingError,
    Result,
    Section,
    Status,
    bracket_positions,
    single_elimination,
)
from tournaments.pairing.elimination import FeedKind

SIZES = range(2, 65)


def entrants(n: int) -> list[int]:
    """Entrant ids that differ from seed numbers, so a test cannot confuse the two."""
    return [100 + 7 * i for i in range(n)]


def seed_number(bracket: Bracket, entrant: int | None) -> int:
    assert entrant is not None
    return bracket.seeds.index(entrant) + 1


def play_out(bracket: Bracket, pick: random.Random | None = None) -> Bracket:
    """Play every ready match until the end: the better seed wins, or a random entrant with ``pick``."""
    while bracket.ready():
        s = bracket.ready()[0]
        a, b = s.entrants
        assert a is not None and b is not None
        if pick is None:
            winner = min((a, b), key=lambda e: seed_number(bracket, e))
        else:
            winner = pick.choice((a, b))
        bracket = bracket.record(s.match.index, winner)
    return bracket


def possible(bracket: Bracket) -> list[set[int]]:
    """For each match, the seeds (numbers) that can reach it."""
    out: list[set[int]] = []
    for m in bracket.matches:
        reach: set[int] = set()
        for f in m.feeds:
            reach |= {f.ref + 1} if f.kind is FeedKind.SEED else out[f.ref]
        out.append(reach)
    return out


def earliest_meeting(bracket: Bracket) -> dict[tuple[int, int], int]:
    """The earliest winners'-bracket round in which seeds a < b can meet."""
    reach = possible(bracket)
    out: dict[tuple[int, int], int] = {}
    for m in bracket.matches:
        if m.section is not Section.WINNERS:
            continue
        sides = [{f.ref + 1} if f.kind is FeedKind.SEED else reach[f.ref] for f in m.feeds]
        for a in sides[0]:
            for b in sides[1]:
                key = (min(a, b), max(a, b))
                out[key] = min(out.get(key, m.round), m.round)
    return out


@pytest.mark.parametrize("n", SIZES)
def test_structure_rounds_matches_and_byes(n: int) -> None:
    # when: a bracket is built for n entrants
    bracket = single_elimination(entrants(n))
    size = 2 ** math.ceil(math.log2(n))
    rounds = int(math.log2(size))

    # then: the bracket size is the next power of two, with log2(size) rounds and n - 1 matches
    assert bracket.structure.size == size
    assert bracket.structure.rounds == rounds
    assert len(bracket.matches) == n - 1
    assert {m.round for m in bracket.matches} == set(range(1, rounds + 1))
    assert [m.code for m in bracket.matches if m.round == rounds] == [f"W{rounds}.1"]
    assert all(m.section is Section.WINNERS for m in bracket.matches)

    # and: size - n byes, all to the top seeds
    assert bracket.byes == tuple(entrants(n)[: size - n])

    # and: every entrant is either in one round-1 match or has a bye, never both
    round_one = [e for s in bracket.states if s.match.round == 1 for e in s.entrants]
    assert len(round_one) == len(set(round_one)) == n - len(bracket.byes)
    assert set(round_one).isdisjoint(bracket.byes)
    assert set(round_one) | set(bracket.byes) == set(entrants(n))

    # and: seeds feed no slot after round 2, and the seeds in round 2 are exactly the byes
    seeded = [
        (m.round, bracket.seeds[f.ref]) for m in bracket.matches for f in m.feeds if f.kind is FeedKind.SEED
    ]
    assert {r for r, _ in seeded} <= {1, 2}
    assert sorted(e for r, e in seeded if r == 2) == sorted(bracket.byes)


@pytest.mark.parametrize("n", SIZES)
def test_who_can_meet_whom(n: int) -> None:
    bracket = single_elimination(entrants(n))
    rounds = bracket.structure.rounds
    meeting = earliest_meeting(bracket)

    # then: every two entrants can meet, in exactly one match
    assert len(meeting) == n * (n - 1) // 2

    # and: seeds 1 and 2 only in the final; the top 4 not before the semi-finals; the top 8 not before
    # the quarter-finals ... (seed b meets a better seed no earlier than round R + 1 - ceil(log2 b))
    if n >= 2:
        assert meeting[(1, 2)] == rounds
    for (a, b), r in meeting.items():
        assert r >= rounds + 1 - math.ceil(math.log2(b)), (a, b, r)
    if n >= 4:
        assert all(meeting[(a, b)] >= rounds - 1 for a in range(1, 5) for b in range(a + 1, 5))


@pytest.mark.parametrize("n", SIZES)
def test_when_the_favourites_win_round_r_pairs_seed_s_with_its_mirror(n: int) -> None:
    # when: the better seed wins every match
    bracket = play_out(single_elimination(entrants(n)))
    size = bracket.structure.size

    # then: in round r, seed s meets seed size / 2**(r-1) + 1 - s, and seed 1 is the champion
    for s in bracket.states:
        a, b = (seed_number(bracket, e) for e in s.entrants)
        assert a + b == (size >> (s.match.round - 1)) + 1, (s.match.code, a, b)
    assert bracket.champion == entrants(n)[0]
    assert bracket.is_complete


@pytest.mark.parametrize("n", SIZES)
def test_random_results_play_out_to_placements(n: int) -> None:
    # when: every match is won at random
    bracket = play_out(single_elimination(entrants(n), third_place=True), random.Random(n))

    # then: everyone but the champion lost exactly one winners'-bracket match
    assert bracket.is_complete
    champion = bracket.champion
    assert champion is not None
    for e in entrants(n):
        lost = [s for s in bracket.states if s.status is Status.PLAYED and s.loser == e]
        wb = [s for s in lost if s.match.section is Section.WINNERS]
        assert len(wb) == (0 if e == champion else 1)

    # and: the places are 1 (champion), 2 (the final's loser), 3 and 4 (third-place match), then by round
    places = dict(bracket.placements())
    final = bracket.state(bracket.structure.final)
    assert places[champion] == 1
    assert final.loser is not None and places[final.loser] == 2
    if n >= 4:
        third = bracket.state("3P")
        assert third.winner is not None and third.loser is not None
        assert (places[third.winner], places[third.loser]) == (3, 4)
    assert sorted(places) == sorted(entrants(n))
    assert sorted(places.values())[0] == 1


@pytest.mark.parametrize("n", SIZES)
def test_third_place_match_present_when_asked(n: int) -> None:
    with_it = single_elimination(entrants(n), third_place=True)
    without = single_elimination(entrants(n))

    # then: asked for and with at least 4 entrants, one third-place match between the semi-finals' losers
    third = [m for m in with_it.matches if m.section is Section.THIRD_PLACE]
    assert not [m for m in without.matches if m.section is Section.THIRD_PLACE]
    if n < 4:
        assert third == []
        return
    (match,) = third
    semis = {
        m.index
        for m in with_it.matches
        if m.section is Section.WINNERS and m.round == with_it.structure.rounds - 1
    }
    assert {f.kind for f in match.feeds} == {FeedKind.LOSER}
    assert {f.ref for f in match.feeds} == semis
    assert with_it.feeders(match.index) == tuple(sorted(semis))


def test_three_entrants_the_top_seed_has_the_bye() -> None:
    bracket = single_elimination([7, 8, 9])
    assert bracket.byes == (7,)
    assert [(s.match.code, s.entrants, s.status) for s in bracket.states] == [
        ("W1.2", (8, 9), Status.READY),
        ("W2.1", (7, None), Status.WAITING),
    ]


def test_advancing_reports_who_plays_whom_next() -> None:
    # given: 8 entrants
    bracket = single_elimination(range(1, 9))
    assert [s.entrants for s in bracket.ready()] == [(1, 8), (4, 5), (2, 7), (3, 6)]
    assert bracket.next_match(4) == bracket.state("W1.2")

    # when: 1 and 5 win their round-1 matches
    bracket = bracket.record("W1.1", 1).record("W1.2", 5)

    # then: they meet next; 4 is out
    assert bracket.state("W2.1").entrants == (1, 5)
    assert bracket.state("W2.1").status is Status.READY
    assert bracket.next_match(1) == bracket.next_match(5) == bracket.state("W2.1")
    assert bracket.next_match(4) is None
    assert bracket.state("W1.2").status is Status.PLAYED


def test_results_must_fit_the_bracket() -> None:
    bracket = single_elimination(range(1, 9))
    with pytest.raises(BracketError, match="does not play"):
        bracket.record("W1.1", 2)
    with pytest.raises(BracketError, match="not ready"):
        bracket.record("W2.1", 1)
    with pytest.raises(BracketError, match="no match"):
        bracket.record("W9.1", 1)
    played = bracket.record("W1.1", 1)
    with pytest.raises(BracketError, match="not ready"):
        played.record("W1.1", 8)
    # and: the bracket a result was recorded on is unchanged (immutable)
    assert bracket.state("W1.1").status is Status.READY


def test_feeders_upstream_and_downstream() -> None:
    bracket = single_elimination(range(1, 9), third_place=True)
    w1 = [bracket.index(f"W1.{j}") for j in range(1, 5)]
    w2 = [bracket.index(f"W2.{j}") for j in range(1, 3)]
    final, third = bracket.index("W3.1"), bracket.index("3P")

    assert bracket.feeders("W2.1") == (w1[0], w1[1])
    assert bracket.feeders("W3.1") == tuple(w2)
    assert bracket.feeders("W1.1") == ()
    assert bracket.upstream("W3.1") == tuple(sorted(w1 + w2))
    assert bracket.downstream("W1.1") == tuple(sorted([w2[0], final, third]))
    assert bracket.downstream("W3.1") == ()


def test_a_correction_flows_on_to_a_match_not_yet_played() -> None:
    # given: round 1 is played; W2.1 (1 v 5) is ready but has no result
    bracket = single_elimination(range(1, 9))
    for code, winner in (("W1.1", 1), ("W1.2", 5), ("W1.3", 2), ("W1.4", 3)):
        bracket = bracket.record(code, winner)

    # when: the organiser corrects W1.2: 4 won it
    effects = bracket.correction_effects("W1.2", 4)
    corrected = bracket.correct("W1.2", 4)

    # then: the change reaches W2.1 only, whose entrants are now 1 and 4
    assert effects == (bracket.index("W2.1"),)
    assert corrected.state("W1.2").winner == 4
    assert corrected.state("W2.1").entrants == (1, 4)
    assert corrected.state("W2.1").status is Status.READY


def test_a_correction_whose_effects_reach_a_played_match_is_refused() -> None:
    # given: W1.1, W1.2 and then W2.1 are played
    bracket = single_elimination(range(1, 9))
    bracket = bracket.record("W1.1", 1).record("W1.2", 5).record("W2.1", 1)

    # when/then: correcting W1.2 would change W2.1, which has a result
    with pytest.raises(CorrectionRefused) as refused:
        bracket.correct("W1.2", 4)
    assert refused.value.blocking == ("W2.1",)

    # and: correcting W2.1 itself is fine while W3.1 has no result
    assert bracket.correct("W2.1", 5).state("W2.1").winner == 5


def test_a_correction_needs_a_result_to_correct() -> None:
    bracket = single_elimination(range(1, 5))
    with pytest.raises(BracketError, match="no result"):
        bracket.correct("W1.1", 1)


def test_withdrawn_entrants_lose_their_pending_matches_by_walkover() -> None:
    # given: 8 entrants; 8 withdraws before round 1
    bracket = single_elimination(range(1, 9)).withdraw(8)

    # then: 1 goes through to W2.1 by walkover
    w11 = bracket.state("W1.1")
    assert (w11.status, w11.winner, w11.recorded) == (Status.WALKOVER, 1, False)
    assert bracket.state("W2.1").entrants == (1, None)

    # when: 4 also withdraws, and then 5, W1.2's other entrant
    bracket = bracket.withdraw(4)
    assert bracket.state("W1.2").winner == 5
    assert bracket.state("W2.1").status is Status.READY
    bracket = bracket.withdraw(5)

    # then: 1 goes on once W1.2's nominal winner forfeits W2.1 as well
    assert bracket.state("W2.1").winner == 1
    assert bracket.state("W2.1").status is Status.WALKOVER
    assert bracket.next_match(1) == bracket.state("W3.1")


def test_both_entrants_withdrawn_at_once_the_better_seed_goes_through_and_forfeits_next() -> None:
    # given: 2 and 3 (who meet in W1.2) are both withdrawn
    bracket = single_elimination(range(1, 5))
    both = bracket.with_results({}, forfeited=[2, 3])

    # then: 2, the better seed, goes through and forfeits the final
    assert both.state("W1.2").winner == 2
    both = both.record("W1.1", 4)
    assert both.state("W2.1").winner == 4
    assert both.is_complete and both.champion == 4


def test_one_after_the_other_the_first_walkover_stands() -> None:
    # given: 2 withdraws (3 goes through), then 3 withdraws too
    bracket = single_elimination(range(1, 5)).withdraw(2).withdraw(3)

    # then: W1.2 stays 3's, now a stored result, and 3 forfeits the final when its opponent is known
    assert bracket.state("W1.2").winner == 3
    assert bracket.recorded() == {"W1.2": Result(3, walkover=True)}
    bracket = bracket.record("W1.1", 1)
    assert bracket.state("W2.1").winner == 1

    # and: what it says to store rebuilds it
    rebuilt = single_elimination(range(1, 5)).with_results(bracket.recorded(), forfeited=bracket.forfeited)
    assert rebuilt.states == bracket.states


def test_a_no_show_is_a_recorded_walkover() -> None:
    bracket = single_elimination(range(1, 5)).record("W1.1", 4, walkover=True)
    s = bracket.state("W1.1")
    assert (s.status, s.winner, s.recorded) == (Status.WALKOVER, 4, True)


def test_with_results_rebuilds_the_same_bracket_in_one_pass() -> None:
    # given: a bracket played step by step, with a withdrawal
    rng = random.Random(3)
    start = single_elimination(range(1, 20), third_place=True)
    stepwise = start.withdraw(7)
    recorded: dict[int | str, int] = {}
    while stepwise.ready():
        s = stepwise.ready()[0]
        a, b = s.entrants
        assert a is not None and b is not None
        winner = rng.choice((a, b))
        recorded[s.match.code] = winner
        stepwise = stepwise.record(s.match.index, winner)

    # when: rebuilt from the stored results
    rebuilt = start.with_results(recorded, forfeited=[7])

    # then: the same bracket
    assert rebuilt == stepwise
    assert rebuilt.states == stepwise.states

    # and: a stored result that cannot happen is refused
    bad = dict(recorded)
    bad["W2.1"] = 19
    with pytest.raises(BracketError):
        start.with_results(bad)


def test_the_standard_order_is_used_for_the_first_round() -> None:
    bracket = single_elimination(range(1, 17))
    assert [e for s in bracket.states if s.match.round == 1 for e in s.entrants] == list(
        bracket_positions(16)
    )


def test_too_few_or_repeated_entrants_are_refused() -> None:
    with pytest.raises(PairingError, match="at least 2"):
        single_elimination([1])
    with pytest.raises(PairingError, match="more than once"):
        single_elimination([1, 2, 1])
