"""Whole tournaments carried by a real Celery worker on PostgreSQL and Redis: house bots play every turn
(``games.bot_play_turn``), each finished match is recorded (``tournaments.record_result``) and each
complete round generates the next (``tournaments.advance``) until the final standings. Nothing here calls
a task: the test only starts the tournament and waits.

Skipped with the reason shown when PostgreSQL or Redis is missing; failed instead under
TUTE_REQUIRE_SERVICES=1.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from datetime import timedelta

import pytest
from django.utils import timezone

from games.models import Game, Match, Player
from games.services import match_resign
from ratings.models import RatedMatch, RatingChange
from tests.tournaments.conftest import entrants_in, refreshed
from tests.workers import (
    TEST_BROKER_DB,
    Worker,
    broker_url_for_tests,
    play_through_api,
    wait_for,
    worker_running,
)
from tournaments.models import Entrant, Round, Tournament, TournamentBoard, TournamentMatch
from tournaments.selectors import bracket_view, standings_table
from tournaments.services import entrant_bot_fill, tournament_start
from tournaments.state import points_of

#: This process's broker for real workers (flushed before the module's worker starts).
TOURNAMENTS_BROKER_DB = TEST_BROKER_DB
#: A whole tournament of house bots, on a shared two-CPU machine.
TOURNAMENT_TIMEOUT = 600.0


@pytest.fixture
def worker(postgres_required: None, redis_url: str, transactional_db: None) -> Iterator[Worker]:
    """A real Celery worker on the test database and a Redis database of its own."""
    broker = broker_url_for_tests(redis_url, TOURNAMENTS_BROKER_DB)
    with worker_running(broker, drain_timeout=30.0) as running:
        yield running


def finished(tournament: Tournament) -> Callable[[], bool]:
    def probe() -> bool:
        return refreshed(tournament).status == Tournament.Status.FINISHED

    return probe


def assert_played_to_the_end(t: Tournament, entrants: int) -> None:
    """Every row recorded, every games match over, the standings complete."""
    assert t.status == "finished" and t.finished_at is not None
    rows = TournamentMatch.objects.filter(tournament=t)
    assert not rows.filter(status="playing").exists()
    assert set(Round.objects.filter(tournament=t).values_list("status", flat=True)) == {"complete"}
    games_matches = Match.objects.filter(tournament_match__tournament=t)
    assert games_matches.count() == rows.filter(kind="match").count() > 0
    assert set(games_matches.values_list("status", flat=True)) == {"finished"}
    assert len(t.final_standings) == entrants
    ranks = [r.rank for r in standings_table(tournament=t)]
    assert ranks[0] == 1 and ranks == sorted(ranks)


@pytest.mark.django_db(transaction=True)
def test_a_16_bot_tute2_single_elimination_is_played_to_the_end_by_the_worker(
    worker: Worker, organiser: Player, make_tournament: Callable[..., Tournament]
) -> None:
    # given: sixteen house bots (eight of each level) in a single elimination with a third-place match
    t = make_tournament(name="Bots open", third_place=True, rated=False, seeding="random")
    entrant_bot_fill(tournament_id=t.pk, by=organiser, level="rule", count=8)
    entrant_bot_fill(tournament_id=t.pk, by=organiser, level="random", count=8)

    # when: the organiser starts it (committed: the first bot turns go to the worker)
    tournament_start(tournament_id=t.pk, by=organiser)

    # then: the worker carries it from round 1 to the final standings
    wait_for(
        "the tournament to finish", finished(t), timeout=TOURNAMENT_TIMEOUT, interval=0.5, log=worker.log_tail
    )
    t = refreshed(t)
    assert_played_to_the_end(t, 16)
    # 8 + 4 + 2 + 1 matches and the third-place match, in four rounds
    codes = sorted(TournamentMatch.objects.filter(tournament=t).values_list("code", flat=True))
    assert len(codes) == 16 and "3P" in codes and "W4.1" in codes
    assert Round.objects.filter(tournament=t).count() == 4
    view = bracket_view(tournament=t)
    assert view is not None and view.champion is not None
    assert t.final_standings[0]["entrant"] == view.champion.id
    assert [row["rank"] for row in t.final_standings[:4]] == [1, 2, 3, 4]


@pytest.mark.django_db(transaction=True)
def test_an_8_pair_tute4_double_elimination_is_played_to_the_end_by_the_worker(
    worker: Worker, organiser: Player, make_tournament: Callable[..., Tournament]
) -> None:
    # given: eight pairs of house bots in a double elimination
    t = make_tournament(name="Parejas", game="tute4", format="double_elim", rated=False)
    entrant_bot_fill(tournament_id=t.pk, by=organiser, level="rule", count=5)
    entrant_bot_fill(tournament_id=t.pk, by=organiser, level="random", count=3)

    # when
    tournament_start(tournament_id=t.pk, by=organiser)

    # then: played to the end; everyone but the champion lost exactly twice
    wait_for(
        "the tournament to finish", finished(t), timeout=TOURNAMENT_TIMEOUT, interval=0.5, log=worker.log_tail
    )
    t = refreshed(t)
    assert_played_to_the_end(t, 8)
    champion = t.final_standings[0]["entrant"]
    losses = {e: 0 for e in Entrant.objects.filter(tournament=t).values_list("pk", flat=True)}
    for tm in TournamentMatch.objects.filter(tournament=t).prefetch_related("slots__entrant"):
        for e in entrants_in(tm):
            if e.pk != tm.winner_id:
                losses[e.pk] += 1
    assert all(count == 2 for e, count in losses.items() if e != champion)
    assert losses[champion] in (0, 1)
    codes = set(TournamentMatch.objects.filter(tournament=t).values_list("code", flat=True))
    assert {"W3.1", "L4.1", "GF1"} <= codes
    # and: in every match each pair sat opposite (seats 0 & 2 against 1 & 3), its house bots' level
    for tm in (
        TournamentMatch.objects.filter(tournament=t)
        .select_related("match")
        .prefetch_related("slots__entrant")
    ):
        assert tm.match is not None and tm.match.num_players == 4
        pairs = entrants_in(tm)
        levels = [s.bot_level for s in tm.match.seats.order_by("index")]
        assert levels == [pairs[0].house_bot, pairs[1].house_bot, pairs[0].partner_bot, pairs[1].partner_bot]


@pytest.mark.django_db(transaction=True)
def test_a_round_due_at_t_starts_within_seconds_of_t(
    worker: Worker,
    organiser: Player,
    make_tournament: Callable[..., Tournament],
    enter: Callable[..., list[Entrant]],
) -> None:
    # given: a Swiss of four people, rounds a minute apart; round 1 started 30 s ago, so round 2 is due
    # in 30 s (the sweeper is not running: only the queued task can start it)
    t = make_tournament(format="swiss", swiss_rounds=2, round_interval_minutes=1, rated=False)
    enter(t, 4)
    tournament_start(tournament_id=t.pk, by=organiser)
    Round.objects.filter(tournament=t, number=1).update(started_at=timezone.now() - timedelta(seconds=30))
    due = Round.objects.get(tournament=t, number=1).started_at + timedelta(minutes=1)

    # when: round 1 is decided at once (the worker records the results and completes the round)
    for tm in TournamentMatch.objects.filter(tournament=t, round__number=1).prefetch_related(
        "slots__entrant"
    ):
        assert tm.match_id is not None
        loser = entrants_in(tm)[1]
        assert loser.player is not None
        match_resign(match_id=tm.match_id, player=loser.player)

    # then: round 2 starts at its time, give or take a few seconds
    second = wait_for(
        "round 2",
        lambda: Round.objects.filter(tournament=t, number=2).first(),
        timeout=120,
        interval=0.2,
        log=worker.log_tail,
    )
    assert due - timedelta(seconds=1) <= second.started_at <= due + timedelta(seconds=5), (
        second.started_at - due
    )


@pytest.mark.django_db(transaction=True)
def test_a_duplicate_round_robin_of_house_bots_is_played_to_the_end_by_the_worker(
    worker: Worker, organiser: Player, make_tournament: Callable[..., Tournament]
) -> None:
    # given: four house bots in a duplicate round robin, every table of a round on the same 2 boards
    t = make_tournament(name="Duplicate", format="round_robin", match_format="duplicate", match_target=2)
    entrant_bot_fill(tournament_id=t.pk, by=organiser, level="rule", count=2)
    entrant_bot_fill(tournament_id=t.pk, by=organiser, level="random", count=2)

    # when
    tournament_start(tournament_id=t.pk, by=organiser)

    # then: the worker plays it to the end; each round's two tables played its two boards
    wait_for(
        "the tournament to finish", finished(t), timeout=TOURNAMENT_TIMEOUT, interval=0.5, log=worker.log_tail
    )
    t = refreshed(t)
    assert_played_to_the_end(t, 4)
    boards = list(TournamentBoard.objects.filter(tournament=t).select_related("board"))
    assert len(boards) == 6 and all(b.board.is_revealed for b in boards)
    for b in boards:
        plays = Game.objects.filter(dealt_from=b.board)
        assert plays.count() == 4 and plays.values("match").distinct().count() == 2
    # matchpoints: per round 2 boards x 2 hands x 2 x 2 comparisons of 2 points
    for number in (1, 2, 3):
        rows = TournamentMatch.objects.filter(tournament=t, round__number=number)
        assert sum(sum(points_of(tm.points or [])) for tm in rows) == 32
    # and: each match is rated once (the tournament is rated)
    matches = Match.objects.filter(tournament_match__tournament=t)
    wait_for(
        "the matches' ratings",
        lambda: RatedMatch.objects.filter(match__in=matches).count() == matches.count(),
        timeout=60,
        interval=0.5,
        log=worker.log_tail,
    )
    assert matches.count() == 6
    # two house-bot levels meet in some matches: those change the levels' ratings, once per match
    changes = RatingChange.objects.filter(match__in=matches)
    assert changes.values("match", "subject").distinct().count() == changes.count() > 0


@pytest.mark.django_db(transaction=True)
def test_a_person_plays_a_duplicate_swiss_with_house_bots_through_the_api_and_the_worker(
    worker: Worker, organiser: Player, make_tournament: Callable[..., Tournament]
) -> None:
    import random

    from django.contrib.auth.models import User
    from rest_framework.test import APIClient

    from games.services import player_for_user, token_create
    from tournaments.services import register

    # given: a person and three house bots in a one-round duplicate Swiss of Tute 2 on two boards
    t = make_tournament(format="swiss", swiss_rounds=1, match_format="duplicate", match_target=2, rated=False)
    user = User.objects.create_user(username="dup-person")
    person = player_for_user(user=user)
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token_create(user=user)}")
    register(tournament_id=t.pk, player=person)
    entrant_bot_fill(tournament_id=t.pk, by=organiser, level="rule", count=3)
    tournament_start(tournament_id=t.pk, by=organiser)
    mine = TournamentMatch.objects.get(tournament=t, slots__entrant__player=person)
    assert mine.match_id is not None

    # when: the person plays every turn of its match through the API; the worker does the rest
    play_through_api(
        client, mine.match_id, rng=random.Random(9), timeout=TOURNAMENT_TIMEOUT, log=worker.log_tail
    )

    # then: the tournament finishes; both tables played both boards; the score sheets are out
    wait_for(
        "the tournament to finish", finished(t), timeout=TOURNAMENT_TIMEOUT, interval=0.5, log=worker.log_tail
    )
    t = refreshed(t)
    assert_played_to_the_end(t, 4)
    for number in (1, 2):
        sheet = client.get(f"/api/v1/tournaments/{t.pk}/boards/{number}/").json()
        assert sheet["revealed"] is True and len(sheet["lines"]) == 4
        assert sum(h["matchpoints"] for line in sheet["lines"] for h in line["holdings"]) == 16
    record = client.get(f"/api/v1/matches/{mine.match_id}/record/")
    assert record.status_code == 200 and len(record.json()["games"]) == 4
