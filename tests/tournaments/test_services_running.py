"""Running tournaments through the services: seeding, rounds and their games matches, results recorded
once, every format to its final standings, withdrawals and no-shows as forfeits, the sweeper."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from datetime import timedelta
from fractions import Fraction
from itertools import combinations
from unittest import mock

import pytest
from django.utils import timezone

from games.models import Match, Player
from games.services import SeatSpec, match_call_off, match_create, match_spec, turn_timeout
from games.signals import match_finished
from ratings.facts import player_subject
from ratings.models import Pool, Rating
from tests.tournaments.conftest import (
    advance,
    better_seed,
    decide,
    entrants_in,
    new_player,
    play_out,
    playing,
    refreshed,
    run_to_end,
)
from tournaments import tasks
from tournaments.errors import InvalidSeeding, NotOrganiser, PairIncomplete, TooFewEntrants, WrongStatus
from tournaments.models import Entrant, Round, Tournament, TournamentMatch
from tournaments.selectors import bracket_view, standings_table
from tournaments.services import (
    entrant_bot_fill,
    match_result_record,
    no_show,
    register,
    tournament_advance,
    tournament_start,
    tournaments_sweep,
    withdraw,
)
from tournaments.state import done_matches, points_of, standings_of
from tute_site.celery import app as celery_app

pytestmark = pytest.mark.django_db
Make = Callable[..., Tournament]
Enter = Callable[..., list[Entrant]]


def seeds_of(t: Tournament) -> list[int]:
    return [int(e) for e in refreshed(t).seeds]


# -- the start -------------------------------------------------------------------------------------------


def test_seeding_by_rating_puts_the_best_rated_first(
    make_tournament: Make, enter: Enter, organiser: Player
) -> None:
    # given: three entrants rated 1400, (none: 1500) and 1700
    t = make_tournament()
    low, unrated, high = enter(t, 3)
    for e, value in ((low, 1400.0), (high, 1700.0)):
        assert e.player is not None
        Rating.objects.create(
            pool=Pool.TUTE2, subject=player_subject(e.player.pk), player=e.player, rating=value
        )

    # when
    tournament_start(tournament_id=t.pk, by=organiser)

    # then
    assert seeds_of(t) == [high.pk, unrated.pk, low.pk]
    assert [Entrant.objects.get(pk=e.pk).seed for e in (high, unrated, low)] == [1, 2, 3]


def test_seeding_by_hand_takes_the_organisers_order(
    make_tournament: Make, enter: Enter, organiser: Player
) -> None:
    t = make_tournament(seeding="manual")
    a, b, c = enter(t, 3)
    with pytest.raises(InvalidSeeding):
        tournament_start(tournament_id=t.pk, by=organiser, order=[c.pk, a.pk])
    tournament_start(tournament_id=t.pk, by=organiser, order=[c.pk, a.pk, b.pk])
    assert seeds_of(t) == [c.pk, a.pk, b.pk]


@pytest.mark.parametrize("seeding", ["rating", "random"])
def test_an_order_for_a_tournament_not_seeded_by_hand_is_refused_and_changes_nothing(
    make_tournament: Make, enter: Enter, organiser: Player, seeding: str
) -> None:
    # given: a tournament seeded by rating (or at random) and three entrants
    t = make_tournament(seeding=seeding)
    a, b, c = enter(t, 3)

    # when / then: an order (complete or not) is refused with the reason, and nothing has started
    for order in ([c.pk, a.pk, b.pk], [a.pk]):
        with pytest.raises(InvalidSeeding) as refused:
            tournament_start(tournament_id=t.pk, by=organiser, order=order)
        assert "manual" in refused.value.message and refused.value.detail == {"seeding": seeding}
    assert refreshed(t).status == Tournament.Status.REGISTRATION and not refreshed(t).seeds
    assert set(Entrant.objects.filter(tournament=t).values_list("seed", flat=True)) == {None}


def test_random_seeding_is_a_permutation(make_tournament: Make, enter: Enter, organiser: Player) -> None:
    t = make_tournament(seeding="random")
    ids = {e.pk for e in enter(t, 6)}
    tournament_start(tournament_id=t.pk, by=organiser)
    assert set(seeds_of(t)) == ids and len(seeds_of(t)) == 6


def test_only_an_organiser_starts_and_only_once(
    make_tournament: Make, enter: Enter, organiser: Player
) -> None:
    t = make_tournament()
    enter(t, 2)
    with pytest.raises(NotOrganiser):
        tournament_start(tournament_id=t.pk, by=new_player())
    tournament_start(tournament_id=t.pk, by=organiser)
    with pytest.raises(WrongStatus):
        tournament_start(tournament_id=t.pk, by=organiser)


def test_too_few_entrants_or_incomplete_pairs_do_not_start(
    make_tournament: Make, enter: Enter, organiser: Player
) -> None:
    t = make_tournament()
    enter(t, 1)
    with pytest.raises(TooFewEntrants):
        tournament_start(tournament_id=t.pk, by=organiser)
    pairs = make_tournament(game="tute4")
    register(tournament_id=pairs.pk, player=new_player())
    enter(pairs, 1)
    with pytest.raises(PairIncomplete) as refused:
        tournament_start(tournament_id=pairs.pk, by=organiser)
    assert len(refused.value.detail["entrants"]) == 1
    assert refreshed(pairs).status == "registration" and not Round.objects.filter(tournament=pairs).exists()


# -- rounds and matches ---------------------------------------------------------------------------------------


def test_round_one_starts_games_matches_without_challenges(
    make_tournament: Make, enter: Enter, organiser: Player
) -> None:
    # given: four players, single elimination
    t = make_tournament(rated=False, match_format="best_of", match_target=3)
    enter(t, 4)

    # when
    tournament_start(tournament_id=t.pk, by=organiser)

    # then: two matches, in progress at once, every seat accepted, with the tournament's format
    tms = playing(t, 1)
    assert [tm.code for tm in tms] == ["W1.1", "W1.2"]
    for tm in tms:
        assert tm.match is not None
        m = Match.objects.get(pk=tm.match.pk)
        assert (m.status, m.format, m.format_target, m.rated) == ("in_progress", "best_of", 3, False)
        assert all(s.accepted for s in m.seats.all())
        assert [s.player_id for s in m.seats.order_by("index")] == [e.player_id for e in entrants_in(tm)]
    # and: seed 1 meets seed 4, seed 2 meets seed 3
    assert [[e.seed for e in entrants_in(tm)] for tm in tms] == [[1, 4], [2, 3]]


def test_tute4_pairs_sit_opposite(make_tournament: Make, enter: Enter, organiser: Player) -> None:
    # given: two pairs, one with a house-bot partner
    t = make_tournament(game="tute4")
    a, b, c = new_player(), new_player(), new_player()
    first = register(tournament_id=t.pk, player=a, partner=b.handle)
    second = register(tournament_id=t.pk, player=c, partner_bot="rule")

    # when
    tournament_start(tournament_id=t.pk, by=organiser, order=None)

    # then: pair 1 at seats 0 and 2, pair 2 at seats 1 and 3
    (tm,) = playing(t)
    assert tm.match is not None
    seats = list(Match.objects.get(pk=tm.match.pk).seats.order_by("index"))
    by_position = {e.pk: i for i, e in enumerate(entrants_in(tm))}
    p1, p2 = (first, second) if by_position[first.pk] == 0 else (second, first)
    assert p1.player is not None and p2.player is not None
    assert seats[0].player_id == p1.player.pk and seats[2].player_id == (
        p1.partner_id if p1.partner_id else None
    )
    assert seats[1].player_id == p2.player.pk
    assert (p2.partner_bot and seats[3].bot_level == "rule") or seats[3].player_id == p2.partner_id


def test_a_result_is_recorded_once_and_completes_the_round(
    make_tournament: Make, enter: Enter, organiser: Player
) -> None:
    # given: a two-player final
    t = make_tournament()
    a, b = enter(t, 2)
    tournament_start(tournament_id=t.pk, by=organiser)
    (tm,) = playing(t)
    assert tm.match is not None and b.player is not None

    # when: the games match finishes and its result is recorded twice (a redelivered task)
    from games.services import match_resign

    match_resign(match_id=tm.match.pk, player=b.player)
    first = tasks.record_result(tm.match.pk)
    second = tasks.record_result(tm.match.pk)

    # then: recorded by the first only; the round is complete
    assert (first, second) == (True, False)
    tm.refresh_from_db()
    assert (tm.status, tm.winner_id, tm.points, tm.forfeit) == ("done", a.pk, ["1", "0"], False)
    assert Round.objects.get(tournament=t, number=1).status == "complete"

    # and: the advance task ends the tournament, once
    assert tasks.advance(t.pk, 1) is True
    assert tasks.advance(t.pk, 1) is False
    t = refreshed(t)
    assert t.status == "finished" and t.final_standings[0]["entrant"] == a.pk


def test_a_match_not_finished_or_not_a_tournaments_records_nothing(
    make_tournament: Make, enter: Enter, organiser: Player
) -> None:
    t = make_tournament()
    enter(t, 2)
    tournament_start(tournament_id=t.pk, by=organiser)
    (tm,) = playing(t)
    assert tm.match is not None
    assert match_result_record(match_id=tm.match.pk) is None
    assert match_result_record(match_id=10**9) is None


def test_the_signal_queues_the_task_for_tournament_matches_only(
    make_tournament: Make, enter: Enter, organiser: Player, django_capture_on_commit_callbacks: Callable
) -> None:
    # given: a tournament match and a match outside any tournament (unrated: no rating task either)
    t = make_tournament(rated=False)
    enter(t, 2)
    tournament_start(tournament_id=t.pk, by=organiser)
    (tm,) = playing(t)
    assert tm.match is not None
    friendly = match_create(
        spec=match_spec(created_by=organiser, game="tute2", seats=[SeatSpec(bot="random")] * 2, rated=False)
    )
    # when: games sends match_finished for both
    with (
        mock.patch.object(celery_app, "send_task") as send,
        django_capture_on_commit_callbacks(execute=True),
    ):
        match_finished.send(sender=Match, match=tm.match)
        match_finished.send(sender=Match, match=friendly)

    # then: the task is queued for the tournament match only
    assert send.call_args_list == [
        mock.call("tournaments.record_result", args=(tm.match.pk,), eta=None, queue=None)
    ]


def test_a_complete_round_queues_the_next_rounds_generation(
    make_tournament: Make, enter: Enter, organiser: Player, django_capture_on_commit_callbacks: Callable
) -> None:
    t = make_tournament()
    enter(t, 4)
    tournament_start(tournament_id=t.pk, by=organiser)
    first, second = playing(t)
    with mock.patch.object(celery_app, "send_task") as send:
        with django_capture_on_commit_callbacks(execute=True):
            decide(first, better_seed(first))
        advances = [c for c in send.call_args_list if c.args == ("tournaments.advance",)]
        assert advances == []  # the round is not complete yet
        with django_capture_on_commit_callbacks(execute=True):
            decide(second, better_seed(second))
        advances = [c for c in send.call_args_list if c.args == ("tournaments.advance",)]
        assert advances == [mock.call("tournaments.advance", args=(t.pk, 1), eta=None, queue=None)]


# -- every format to the end --------------------------------------------------------------------------------------


@pytest.mark.parametrize("n", [2, 3, 5, 8])
def test_single_elimination_with_third_place_plays_to_placements(
    make_tournament: Make, enter: Enter, organiser: Player, n: int
) -> None:
    t = make_tournament(third_place=True)
    enter(t, n)
    tournament_start(tournament_id=t.pk, by=organiser)
    t = run_to_end(t, better_seed)
    ranks = [(row["rank"], row["entrant"]) for row in t.final_standings]
    seeds = seeds_of(t)
    assert ranks[0] == (1, seeds[0]) and ranks[1] == (2, seeds[1])
    if n >= 4:
        assert ranks[2] == (3, seeds[2])
    view = bracket_view(tournament=t)
    assert view is not None and view.champion is not None and view.champion.id == seeds[0]
    # the games matches played are the bracket's real matches (byes folded away)
    played = TournamentMatch.objects.filter(tournament=t, kind="match").count()
    assert played == n - 1 + (1 if n >= 4 else 0)


def test_double_elimination_the_losers_champion_forces_the_reset(
    make_tournament: Make, enter: Enter, organiser: Player
) -> None:
    # given: four entrants; the favourites win everything except the grand final, won by the losers' side
    t = make_tournament(format="double_elim")
    enter(t, 4)
    tournament_start(tournament_id=t.pk, by=organiser)

    def choose(tm: TournamentMatch) -> Entrant:
        if tm.code == "GF1":
            return max(entrants_in(tm), key=lambda e: e.seed or 0)
        return better_seed(tm)

    t = run_to_end(t, choose)

    # then: the reset was played and won by the top seed; everyone else lost twice
    codes = list(TournamentMatch.objects.filter(tournament=t).values_list("code", flat=True))
    assert "GF2" in codes
    seeds = seeds_of(t)
    assert t.final_standings[0]["entrant"] == seeds[0]
    losses = Counter(
        e.pk
        for tm in TournamentMatch.objects.filter(tournament=t, kind="match").prefetch_related(
            "slots__entrant"
        )
        for e in entrants_in(tm)
        if e.pk != tm.winner_id
    )
    assert sorted(losses.values()) == [1, 2, 2, 2]  # the champion lost GF1 only


def test_double_elimination_without_reset(make_tournament: Make, enter: Enter, organiser: Player) -> None:
    t = make_tournament(format="double_elim")
    enter(t, 3)
    tournament_start(tournament_id=t.pk, by=organiser)
    t = run_to_end(t, better_seed)
    codes = set(TournamentMatch.objects.filter(tournament=t).values_list("code", flat=True))
    assert "GF1" in codes and "GF2" not in codes
    view = bracket_view(tournament=t)
    assert view is not None
    gf = next(s for s in view.sections if s.section == "GF")
    assert [slot.status for r in gf.rounds for slot in r] == ["played", "skipped"]


@pytest.mark.parametrize(("n", "double"), [(4, False), (5, False), (3, True)])
def test_round_robin_everyone_meets_everyone(
    make_tournament: Make, enter: Enter, organiser: Player, n: int, double: bool
) -> None:
    t = make_tournament(
        format="round_robin", double_round_robin=double, tie_breaks=("sonneborn_berger", "head_to_head")
    )
    enter(t, n)
    tournament_start(tournament_id=t.pk, by=organiser)
    t = run_to_end(t, better_seed)
    meetings = Counter(
        frozenset(e.pk for e in entrants_in(tm))
        for tm in TournamentMatch.objects.filter(tournament=t, kind="match").prefetch_related(
            "slots__entrant"
        )
    )
    ids = seeds_of(t)
    assert set(meetings) == {frozenset(p) for p in combinations(ids, 2)}
    assert set(meetings.values()) == {2 if double else 1}
    rounds = Round.objects.filter(tournament=t).count()
    assert rounds == (n - 1 + n % 2) * (2 if double else 1)
    # the favourites won every game: the standings are the seeds
    assert [row["entrant"] for row in t.final_standings] == ids
    assert (
        t.tie_breaks == ["sonneborn_berger", "head_to_head"] and len(t.final_standings[0]["tie_breaks"]) == 2
    )
    rows = standings_table(tournament=t)
    assert list(rows[0].tie_breaks) == ["sonneborn_berger", "head_to_head"]
    assert [str(r.tie_breaks["sonneborn_berger"]) for r in rows] == [
        row["tie_breaks"][0] for row in t.final_standings
    ]


def test_swiss_pairs_everyone_without_rematches_and_one_bye_a_round(
    make_tournament: Make, enter: Enter, organiser: Player
) -> None:
    t = make_tournament(format="swiss", swiss_rounds=4, tie_breaks=("buchholz",))
    enter(t, 7)
    tournament_start(tournament_id=t.pk, by=organiser)
    t = run_to_end(t, better_seed)
    ids = set(seeds_of(t))
    pairs: list[frozenset[int]] = []
    for r in Round.objects.filter(tournament=t):
        rows = list(r.matches.prefetch_related("slots__entrant"))
        byes = [tm for tm in rows if tm.kind == "bye"]
        assert len(byes) == 1
        seen = [e.pk for tm in rows for e in entrants_in(tm)]
        assert sorted(seen) == sorted(ids)  # everyone paired (or the bye), once
        pairs += [frozenset(e.pk for e in entrants_in(tm)) for tm in rows if tm.kind == "match"]
    assert len(pairs) == len(set(pairs))  # no rematch
    bye_takers = list(
        TournamentMatch.objects.filter(tournament=t, kind="bye").values_list("slots__entrant", flat=True)
    )
    assert len(bye_takers) == len(set(bye_takers)) == 4
    assert t.status == "finished" and Round.objects.filter(tournament=t).count() == 4


def test_swiss_avoids_club_mates_when_asked(
    make_tournament: Make, enter: Enter, organiser: Player, club
) -> None:
    from tournaments.services import club_create, membership_add

    other = club_create(name="Ourense", slug="ourense", by=organiser)
    t = make_tournament(format="swiss", swiss_rounds=1, avoid_same_club=True)
    for target in (club, club, other, other):
        p = new_player()
        membership_add(club=target, by=organiser, handle=p.handle)
        register(tournament_id=t.pk, player=p, club=target.slug)
    tournament_start(tournament_id=t.pk, by=organiser)
    for tm in playing(t):
        assert len({e.club_id for e in entrants_in(tm)}) == 2


def test_pocha_tables_are_seated_by_standings_and_played_out(
    make_tournament: Make, organiser: Player
) -> None:
    # given: seven house bots, tables of four, two rounds of one-hand Pocha
    t = make_tournament(
        game="pocha",
        format="pocha_tables",
        table_size=4,
        pocha_rounds=2,
        options={"pocha_sequence": [1]},
        tie_breaks=("card_point_difference",),
    )
    entrant_bot_fill(tournament_id=t.pk, by=organiser, level="random", count=7)
    tournament_start(tournament_id=t.pk, by=organiser)

    # then: round 1 is a table of 4 and a table of 3, every seat a house bot
    tables = playing(t, 1)
    assert [len(entrants_in(tm)) for tm in tables] == [4, 3]
    assert [tm.code for tm in tables] == ["R1.T1", "R1.T2"]

    # when: played to the end
    t = run_to_end(t, lambda tm: None)

    # then: two rounds, round 2 seated by the standings after round 1, points from 0 to 1 at each table
    assert t.status == "finished" and Round.objects.filter(tournament=t).count() == 2
    for tm in TournamentMatch.objects.filter(tournament=t):
        n = tm.slots.count()
        assert tm.points is not None and all(0 <= p <= 1 for p in points_of(tm.points))
        assert sum(points_of(tm.points)) == Fraction(n, 2)  # one point shared per two players, exactly
    after_one = standings_of(t, [tm for tm in done_matches(t) if tm.round.number == 1])
    top_table = TournamentMatch.objects.get(tournament=t, code="R2.T1")
    assert [e.pk for e in entrants_in(top_table)] == [row.entrant for row in after_one[:4]]
    rows = standings_table(tournament=t)
    assert [r.rank for r in rows] == sorted(r.rank for r in rows) and len(rows) == 7


# -- withdrawals and no-shows -------------------------------------------------------------------------------------


def test_a_withdrawal_mid_match_concedes_it_and_forfeits_what_follows(
    make_tournament: Make, enter: Enter, organiser: Player
) -> None:
    # given: four players, round 1 playing
    t = make_tournament(third_place=True)
    enter(t, 4)
    tournament_start(tournament_id=t.pk, by=organiser)
    first, second = playing(t)
    top = better_seed(first)
    assert top.player is not None

    # when: the top seed withdraws during their match
    withdraw(tournament_id=t.pk, by=top.player)
    assert first.match is not None
    assert Match.objects.get(pk=first.match.pk).status == "finished"
    recorded = match_result_record(match_id=first.match.pk)

    # then: their match is a forfeit to the opponent
    assert recorded is not None and recorded.forfeit and recorded.winner_id != top.pk
    decide(second, better_seed(second))
    advance(t)
    # and: a withdrawn entrant that lost in round 1 plays the third-place match by walkover
    third = TournamentMatch.objects.get(tournament=t, code="3P")
    assert third.kind == "walkover" and third.winner_id != top.pk and third.status == "done"


def test_a_withdrawal_before_their_next_match_is_a_walkover(
    make_tournament: Make, enter: Enter, organiser: Player
) -> None:
    # given: four players; round 1 decided by seed
    t = make_tournament()
    enter(t, 4)
    tournament_start(tournament_id=t.pk, by=organiser)
    for tm in playing(t):
        decide(tm, better_seed(tm))
    seeds = seeds_of(t)
    second_seed = Entrant.objects.get(pk=seeds[1])
    assert second_seed.player is not None

    # when: the second seed withdraws before the final is generated
    withdraw(tournament_id=t.pk, by=second_seed.player)
    advance(t)

    # then: the final is a walkover to the top seed and the tournament is over
    final = TournamentMatch.objects.get(tournament=t, code="W2.1")
    assert (final.kind, final.winner_id, final.match_id) == ("walkover", seeds[0], None)
    assert refreshed(t).status == "finished"


def test_round_robin_walkovers_for_a_withdrawn_entrant(
    make_tournament: Make, enter: Enter, organiser: Player
) -> None:
    t = make_tournament(format="round_robin")
    entrants = enter(t, 4)
    tournament_start(tournament_id=t.pk, by=organiser)
    quitter = entrants[3]
    assert quitter.player is not None
    withdraw(tournament_id=t.pk, by=quitter.player)
    for tm in playing(t):
        assert tm.match is not None
        if quitter.pk in [e.pk for e in entrants_in(tm)]:
            assert match_result_record(match_id=tm.match.pk) is not None
        else:
            decide(tm, better_seed(tm))
    t = run_to_end(t, better_seed)
    later = TournamentMatch.objects.filter(tournament=t, slots__entrant=quitter, round__number__gt=1)
    assert {(tm.kind, tm.forfeit) for tm in later} == {("walkover", True)}
    assert all(tm.winner_id != quitter.pk for tm in later)


def test_an_aborted_house_bot_match_counts_against_the_withdrawn(
    make_tournament: Make, organiser: Player
) -> None:
    t = make_tournament()
    bots = entrant_bot_fill(tournament_id=t.pk, by=organiser, level="random", count=2)
    tournament_start(tournament_id=t.pk, by=organiser)
    withdraw(tournament_id=t.pk, by=organiser, entrant_id=bots[0].pk)
    (tm,) = playing(t)
    assert tm.match is not None and Match.objects.get(pk=tm.match.pk).status == "aborted"
    recorded = match_result_record(match_id=tm.match.pk)
    assert recorded is not None and recorded.winner_id == bots[1].pk and recorded.forfeit


def test_an_aborted_match_with_nobody_withdrawn_sends_the_better_seed_through(
    make_tournament: Make, enter: Enter, organiser: Player
) -> None:
    t = make_tournament()
    enter(t, 2)
    tournament_start(tournament_id=t.pk, by=organiser)
    (tm,) = playing(t)
    assert tm.match is not None
    match_call_off(match_id=tm.match.pk)
    recorded = match_result_record(match_id=tm.match.pk)
    assert recorded is not None and recorded.points == ["0", "0"]
    assert recorded.winner_id == seeds_of(t)[0]


def test_only_the_entrant_or_an_organiser_withdraws_them(make_tournament: Make, enter: Enter) -> None:
    t = make_tournament()
    (e,) = enter(t, 1)
    with pytest.raises(NotOrganiser):
        withdraw(tournament_id=t.pk, by=new_player(), entrant_id=e.pk)


# -- schedule and the sweeper ----------------------------------------------------------------------------------------------


def test_the_round_interval_holds_the_next_round_until_the_sweeper_finds_it_due(
    make_tournament: Make, enter: Enter, organiser: Player
) -> None:
    # given: rounds at least an hour apart
    t = make_tournament(round_interval_minutes=60)
    enter(t, 4)
    tournament_start(tournament_id=t.pk, by=organiser)
    for tm in playing(t):
        decide(tm, better_seed(tm))

    # when: the round is complete at once
    assert tournament_advance(tournament_id=t.pk, after_round=1) is None
    assert refreshed(t).current_round == 1

    # then: the sweeper starts round 2 once the hour has passed
    assert tournaments_sweep(now=timezone.now() + timedelta(minutes=30)) == 0
    assert tournaments_sweep(now=timezone.now() + timedelta(minutes=61)) == 1
    assert refreshed(t).current_round == 2


def test_the_sweeper_records_a_result_whose_task_was_lost(
    make_tournament: Make, enter: Enter, organiser: Player
) -> None:
    t = make_tournament()
    _, b = enter(t, 2)
    tournament_start(tournament_id=t.pk, by=organiser)
    (tm,) = playing(t)
    assert tm.match is not None and b.player is not None
    from games.services import match_resign

    match_resign(match_id=tm.match.pk, player=b.player)  # its task never arrives
    assert tournaments_sweep() >= 1
    assert refreshed(t).status == "finished"
    assert tournaments_sweep() == 0


def test_the_sweeper_starts_a_tournament_at_its_time(make_tournament: Make, enter: Enter) -> None:
    t = make_tournament(starts_at=timezone.now() + timedelta(hours=1))
    enter(t, 2)
    tournaments_sweep()
    assert refreshed(t).status == "registration"
    tournaments_sweep(now=timezone.now() + timedelta(hours=2))
    assert refreshed(t).status == "running"


def test_house_bots_play_a_round_out(make_tournament: Make, organiser: Player) -> None:
    t = make_tournament(format="swiss", swiss_rounds=1)
    entrant_bot_fill(tournament_id=t.pk, by=organiser, level="rule", count=2)
    tournament_start(tournament_id=t.pk, by=organiser)
    (tm,) = playing(t)
    assert tm.match is not None
    finished = play_out(tm.match.pk)
    assert finished.status == "finished"
    recorded = match_result_record(match_id=tm.match.pk)
    assert recorded is not None and recorded.card_points is not None and sum(recorded.card_points) > 0


def test_an_organiser_records_a_no_show_as_a_walkover(
    make_tournament: Make, enter: Enter, organiser: Player
) -> None:
    # given: a two-player final in play
    t = make_tournament()
    a, b = enter(t, 2)
    tournament_start(tournament_id=t.pk, by=organiser)
    (tm,) = playing(t)
    with pytest.raises(NotOrganiser):
        no_show(tournament_id=t.pk, tournament_match_id=tm.pk, by=new_player(), entrant_id=b.pk)

    # when: b did not turn up
    recorded = no_show(tournament_id=t.pk, tournament_match_id=tm.pk, by=organiser, entrant_id=b.pk)

    # then: a wins by walkover; the games match is called off; the bracket shows the walkover
    assert (recorded.winner_id, recorded.forfeit, recorded.points) == (a.pk, True, ["1", "0"])
    assert tm.match is not None and Match.objects.get(pk=tm.match.pk).status == "aborted"
    view = bracket_view(tournament=refreshed(t))
    assert view is not None and view.sections[0].rounds[0][0].status == "walkover"
    advance(t)
    assert refreshed(t).status == "finished"
    with pytest.raises(WrongStatus):
        no_show(tournament_id=t.pk, tournament_match_id=tm.pk, by=organiser, entrant_id=b.pk)


def test_losing_on_time_is_a_forfeit(make_tournament: Make, enter: Enter, organiser: Player) -> None:
    # given: a match whose first seat never moves (one timeout forfeits)
    t = make_tournament()
    enter(t, 2)
    tournament_start(tournament_id=t.pk, by=organiser)
    (tm,) = playing(t)
    assert tm.match is not None
    Match.objects.filter(pk=tm.match.pk).update(
        max_timeouts=1, turn_deadline=timezone.now() - timedelta(seconds=1)
    )

    # when: the seat to act times out
    match = Match.objects.get(pk=tm.match.pk)
    turn_timeout(match_id=match.pk, ply=match.ply)
    assert Match.objects.get(pk=match.pk).finish_reason == "forfeit"
    recorded = match_result_record(match_id=match.pk)

    # then: recorded as a forfeit against the seat that timed out
    assert recorded is not None and recorded.forfeit


def test_a_double_elimination_without_the_reset_ends_at_the_first_grand_final(
    make_tournament: Make, enter: Enter, organiser: Player
) -> None:
    # given: two entrants, no reset; the top seed wins W1.1, the other comes back and wins GF1
    t = make_tournament(format="double_elim", grand_final_reset=False)
    enter(t, 2)
    tournament_start(tournament_id=t.pk, by=organiser)

    def choose(tm: TournamentMatch) -> Entrant:
        seeded = sorted(entrants_in(tm), key=lambda e: e.seed or 0)
        return seeded[0] if tm.code == "W1.1" else seeded[1]

    # when
    t = run_to_end(t, choose)

    # then: finished after GF1, whose winner is the champion
    codes = sorted(TournamentMatch.objects.filter(tournament=t).values_list("code", flat=True))
    assert codes == ["GF1", "W1.1"]
    gf1 = TournamentMatch.objects.get(tournament=t, code="GF1")
    assert t.final_standings[0]["entrant"] == gf1.winner_id == seeds_of(t)[1]


def test_a_withdrawn_entrant_ranks_after_everyone_still_in_and_is_marked(
    make_tournament: Make, enter: Enter, organiser: Player
) -> None:
    # given: eight players, single elimination with a third-place match; the favourites win through
    # the quarter-finals and the semi-finals
    t = make_tournament(third_place=True)
    enter(t, 8)
    tournament_start(tournament_id=t.pk, by=organiser)
    for _ in range(2):
        for tm in playing(t):
            decide(tm, better_seed(tm))
        advance(t)
    third_place = TournamentMatch.objects.get(tournament=t, code="3P")
    leaving = entrants_in(third_place)[0]
    assert leaving.player is not None

    # when: a semi-final loser withdraws before the third-place match, which it forfeits
    withdraw(tournament_id=t.pk, by=leaving.player)
    assert third_place.match is not None
    match_result_record(match_id=third_place.match.pk)  # the conceded match, as the task records it
    t = run_to_end(t, better_seed)

    # then: it is last (not 4th by its bracket place), marked; the four quarter-final losers share 4th
    rows = standings_table(tournament=t)
    assert (rows[-1].entrant.id, rows[-1].rank, rows[-1].withdrawn) == (leaving.pk, 8, True)
    assert [r.rank for r in rows] == [1, 2, 3, 4, 4, 4, 4, 8]
    assert not any(r.withdrawn for r in rows[:-1])
    assert t.final_standings[-1]["entrant"] == leaving.pk and t.final_standings[-1]["withdrawn"] is True
