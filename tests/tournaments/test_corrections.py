"""Corrections: the change flows on to later matches that have not started and is refused, with the
matches or rounds in the way, where they have; every correction is logged."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta

import pytest
from django.utils import timezone

from games.models import Player
from tests.tournaments.conftest import (
    advance,
    better_seed,
    decide,
    entrants_in,
    new_player,
    playing,
    refreshed,
    run_to_end,
)
from tournaments.errors import CorrectionBlocked, InvalidCorrection, NotOrganiser
from tournaments.models import Correction, Entrant, Tournament, TournamentMatch
from tournaments.selectors import standings_table
from tournaments.services import result_correct, tournament_start, tournaments_sweep

pytestmark = pytest.mark.django_db
Make = Callable[..., Tournament]
Enter = Callable[..., list[Entrant]]


def loser_of(tm: TournamentMatch) -> int:
    return next(e.pk for e in entrants_in(tm) if e.pk != tm.winner_id)


def test_a_correction_flows_on_to_a_match_not_started(
    make_tournament: Make, enter: Enter, organiser: Player
) -> None:
    # given: four players; round 1 decided; the final waits an hour (not generated yet)
    t = make_tournament(round_interval_minutes=60)
    enter(t, 4)
    tournament_start(tournament_id=t.pk, by=organiser)
    for tm in playing(t):
        decide(tm, better_seed(tm))
    w11 = TournamentMatch.objects.get(tournament=t, code="W1.1")
    new_winner = loser_of(w11)

    # when: W1.1 is corrected
    result_correct(
        tournament_id=t.pk, tournament_match_id=w11.pk, by=organiser, winner=new_winner, reason="slip"
    )

    # then: the log has it, and the final is generated with the corrected winner
    log = Correction.objects.get()
    assert (log.before["winner"], log.after["winner"], log.reason) == (w11.winner_id, new_winner, "slip")

    tournaments_sweep(now=timezone.now() + timedelta(hours=2))
    final = TournamentMatch.objects.get(tournament=t, code="W2.1")
    assert new_winner in [e.pk for e in entrants_in(final)]


def test_a_correction_reaching_a_started_match_is_refused(
    make_tournament: Make, enter: Enter, organiser: Player
) -> None:
    t = make_tournament()
    enter(t, 4)
    tournament_start(tournament_id=t.pk, by=organiser)
    for tm in playing(t):
        decide(tm, better_seed(tm))
    advance(t)
    w11 = TournamentMatch.objects.get(tournament=t, code="W1.1")
    with pytest.raises(CorrectionBlocked) as refused:
        result_correct(tournament_id=t.pk, tournament_match_id=w11.pk, by=organiser, winner=loser_of(w11))
    assert refused.value.detail == {"blocking": ["W2.1"]}
    assert not Correction.objects.exists()


def test_correcting_the_final_changes_the_final_standings(
    make_tournament: Make, enter: Enter, organiser: Player
) -> None:
    t = make_tournament()
    enter(t, 4)
    tournament_start(tournament_id=t.pk, by=organiser)
    t = run_to_end(t, better_seed)
    final = TournamentMatch.objects.get(tournament=t, code="W2.1")
    runner_up = loser_of(final)
    result_correct(tournament_id=t.pk, tournament_match_id=final.pk, by=organiser, winner=runner_up)
    t = refreshed(t)
    assert t.status == "finished" and t.final_standings[0]["entrant"] == runner_up


def test_a_corrected_grand_final_brings_the_reset_back(
    make_tournament: Make, enter: Enter, organiser: Player
) -> None:
    # given: a double elimination won in GF1 by the winners' bracket champion (no reset played)
    t = make_tournament(format="double_elim")
    enter(t, 4)
    tournament_start(tournament_id=t.pk, by=organiser)
    t = run_to_end(t, better_seed)
    gf1 = TournamentMatch.objects.get(tournament=t, code="GF1")
    assert not TournamentMatch.objects.filter(tournament=t, code="GF2").exists()

    # when: GF1 is corrected to the losers' champion
    result_correct(tournament_id=t.pk, tournament_match_id=gf1.pk, by=organiser, winner=loser_of(gf1))

    # then: the tournament runs again, with the reset to play
    t = refreshed(t)
    assert t.status == "running" and t.final_standings is None
    assert TournamentMatch.objects.get(tournament=t, code="GF2").status == "playing"


def test_swiss_corrections_are_refused_once_the_next_round_exists(
    make_tournament: Make, enter: Enter, organiser: Player
) -> None:
    t = make_tournament(format="swiss", swiss_rounds=3)
    enter(t, 4)
    tournament_start(tournament_id=t.pk, by=organiser)
    for tm in playing(t):
        decide(tm, better_seed(tm))
    first = TournamentMatch.objects.filter(tournament=t, round__number=1).first()
    assert first is not None
    # before round 2 exists: accepted (a draw)
    result_correct(tournament_id=t.pk, tournament_match_id=first.pk, by=organiser, winner=None)
    first.refresh_from_db()
    assert first.points == ["1/2", "1/2"] and first.winner_id is None
    advance(t)
    with pytest.raises(CorrectionBlocked) as refused:
        result_correct(
            tournament_id=t.pk, tournament_match_id=first.pk, by=organiser, winner=loser_of(first) or None
        )
    assert refused.value.detail == {"later_rounds": [2]}


def test_round_robin_corrections_move_the_standings_at_any_time(
    make_tournament: Make, enter: Enter, organiser: Player
) -> None:
    t = make_tournament(format="round_robin")
    enter(t, 3)
    tournament_start(tournament_id=t.pk, by=organiser)
    t = run_to_end(t, better_seed)
    top = standings_table(tournament=t)[0].entrant.id
    # the top seed's every win becomes a loss
    for tm in TournamentMatch.objects.filter(tournament=t, kind="match", winner_id=top):
        result_correct(tournament_id=t.pk, tournament_match_id=tm.pk, by=organiser, winner=loser_of(tm))
    t = refreshed(t)
    assert t.final_standings[-1]["entrant"] == top and t.final_standings[-1]["points"] == "0"
    assert Correction.objects.filter(tournament=t).count() == 2


def test_corrections_need_an_organiser_a_result_and_a_fitting_winner(
    make_tournament: Make, enter: Enter, organiser: Player
) -> None:
    t = make_tournament(format="swiss", swiss_rounds=1)
    enter(t, 3)
    tournament_start(tournament_id=t.pk, by=organiser)
    (tm,) = playing(t)
    bye = TournamentMatch.objects.get(tournament=t, kind="bye")
    with pytest.raises(InvalidCorrection):
        result_correct(
            tournament_id=t.pk, tournament_match_id=tm.pk, by=organiser, winner=None
        )  # no result yet
    with pytest.raises(InvalidCorrection):
        result_correct(tournament_id=t.pk, tournament_match_id=bye.pk, by=organiser, winner=None)
    decide(tm, better_seed(tm))
    with pytest.raises(InvalidCorrection):
        result_correct(
            tournament_id=t.pk, tournament_match_id=tm.pk, by=organiser, winner=bye.slots.get().entrant_id
        )
    with pytest.raises(InvalidCorrection):
        result_correct(tournament_id=t.pk, tournament_match_id=tm.pk, by=organiser, points=[1.0, 0.0])
    with pytest.raises(NotOrganiser):
        result_correct(tournament_id=t.pk, tournament_match_id=tm.pk, by=new_player(), winner=None)


def test_elimination_corrections_need_a_winner(
    make_tournament: Make, enter: Enter, organiser: Player
) -> None:
    t = make_tournament()
    enter(t, 2)
    tournament_start(tournament_id=t.pk, by=organiser)
    (tm,) = playing(t)
    decide(tm, better_seed(tm))
    with pytest.raises(InvalidCorrection):
        result_correct(tournament_id=t.pk, tournament_match_id=tm.pk, by=organiser, winner=None)


# -- issue 17: exact table points, and a correction replaces the whole result ---------------------------


def test_a_pocha_table_is_corrected_with_exact_points(
    make_tournament: Make, enter: Enter, organiser: Player
) -> None:
    # given: one Pocha table of three, recorded (seat 0 resigned: it is last)
    t = make_tournament(game="pocha", format="pocha_tables", table_size=3, pocha_rounds=2)
    enter(t, 3)
    tournament_start(tournament_id=t.pk, by=organiser)
    (tm,) = playing(t)
    first = entrants_in(tm)[0]
    assert first.player is not None and tm.match is not None
    from games.services import match_resign
    from tournaments.services import match_result_record

    match_resign(match_id=tm.match.pk, player=first.player)
    match_result_record(match_id=tm.match.pk)

    # when: the organiser gives exact points ("1/2") and decimals close to a step of 1/4 (0.75)
    result_correct(tournament_id=t.pk, tournament_match_id=tm.pk, by=organiser, points=["1/2", 0.75, "0.25"])

    # then: stored exactly; a value that is no step of 1/4 is refused
    tm.refresh_from_db()
    assert tm.points == ["1/2", "3/4", "1/4"]
    for bad in (["1/3", "1/3", "1/3"], [0.3, 0.5, 0.2], [2, 0, 0]):
        with pytest.raises(InvalidCorrection):
            result_correct(tournament_id=t.pk, tournament_match_id=tm.pk, by=organiser, points=bad)


def test_a_correction_drops_the_overturned_games_and_card_points(
    make_tournament: Make, organiser: Player
) -> None:
    # given: a round robin of three house bots, best of one, whose first match is played out
    from tests.tournaments.conftest import play_out
    from tournaments.services import entrant_bot_fill, match_result_record

    t = make_tournament(format="round_robin", rated=False, tie_breaks=("games_won", "card_point_difference"))
    entrant_bot_fill(tournament_id=t.pk, by=organiser, level="rule", count=3)
    tournament_start(tournament_id=t.pk, by=organiser)
    (tm,) = playing(t)
    assert tm.match is not None
    play_out(tm.match.pk)
    recorded = match_result_record(match_id=tm.match.pk)
    assert recorded is not None and recorded.games_won and sum(recorded.card_points) > 0
    winner = recorded.winner_id
    assert winner is not None
    before = {row.entrant.id: row.tie_breaks for row in standings_table(tournament=refreshed(t))}
    assert before[winner]["games_won"] == 1

    # when: the result is overturned without new games or card points
    result_correct(tournament_id=t.pk, tournament_match_id=tm.pk, by=organiser, winner=loser_of(tm))

    # then: the overturned games and card points count for nobody; the log keeps them
    tm.refresh_from_db()
    assert (tm.games_won, tm.card_points) == (None, None)
    after = {row.entrant.id: row.tie_breaks for row in standings_table(tournament=refreshed(t))}
    assert all(v["games_won"] == 0 and v["card_point_difference"] == 0 for v in after.values())
    assert Correction.objects.get().before["games_won"] == recorded.games_won

    # when: corrected again with the games and card points the organiser gives
    new_winner = loser_of(tm)
    position = [e.pk for e in entrants_in(tm)].index(new_winner)
    games = [1, 0] if position == 0 else [0, 1]
    result_correct(
        tournament_id=t.pk,
        tournament_match_id=tm.pk,
        by=organiser,
        winner=new_winner,
        games_won=games,
        card_points=[80, 50] if position == 0 else [50, 80],
    )

    # then: those count
    after = {row.entrant.id: row.tie_breaks for row in standings_table(tournament=refreshed(t))}
    assert after[new_winner]["games_won"] == 1 and after[new_winner]["card_point_difference"] == 30
    with pytest.raises(InvalidCorrection):  # games that contradict the winner
        result_correct(
            tournament_id=t.pk,
            tournament_match_id=tm.pk,
            by=organiser,
            winner=new_winner,
            games_won=games[::-1],
        )
