"""Duplicate tournaments (issue 20): every table of a round plays the same boards, and each entrant is
scored against the holders of the same cards at the other tables (matchpoints or total points); the
boards' travelling score sheets in the API."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable
from fractions import Fraction

import pytest
from rest_framework.test import APIClient

from games.models import Game, Match, Player
from tests.tournaments.conftest import advance, entrants_in, play_out, refreshed, run_to_end
from tournaments.errors import InvalidTournament
from tournaments.models import Tournament, TournamentBoard, TournamentMatch
from tournaments.selectors import standings_table
from tournaments.services import entrant_bot_fill, tournament_start
from tournaments.state import points_of

pytestmark = pytest.mark.django_db


@pytest.fixture
def anon_client() -> APIClient:
    return APIClient()


@pytest.fixture
def client_for() -> Callable[[Player], APIClient]:
    def make(player: Player) -> APIClient:
        client = APIClient()
        client.force_authenticate(user=player.user)
        return client

    return make


def bots_tournament(
    make_tournament: Callable[..., Tournament], organiser: Player, count: int, **fields: object
) -> Tournament:
    t = make_tournament(match_format="duplicate", rated=False, seeding="random", **fields)
    entrant_bot_fill(tournament_id=t.pk, by=organiser, level="rule", count=count - count // 2)
    entrant_bot_fill(tournament_id=t.pk, by=organiser, level="random", count=count // 2)
    tournament_start(tournament_id=t.pk, by=organiser)
    return refreshed(t)


def expected_points(t: Tournament, round_number: int) -> dict[int, list[Fraction]]:
    """Each table's points recomputed here from the games: per board and hand, 2 per other table's holder
    outscored and 1 per tie (matchpoints), or the scores themselves (total points)."""
    rows = {
        tm.match_id: tm
        for tm in TournamentMatch.objects.filter(tournament=t, round__number=round_number, kind="match")
    }
    held: dict[tuple[int, int], list[tuple[int, int, int]]] = defaultdict(
        list
    )  # (board, hand): (tm, pos, score)
    for game in Game.objects.filter(match_id__in=rows, status="finished").select_related("match"):
        tm = rows[game.match_id]
        assert game.result is not None and game.seat_map is not None
        scores = game.result["scores"]
        hands = range(game.match.num_players) if t.game == "pocha" else range(2)
        for hand in hands:
            seat = game.seat_map[hand]
            position = seat % 2 if t.game == "tute4" else seat
            score = scores[hand] if t.game == "pocha" else scores[hand] - scores[1 - hand]
            held[(game.dealt_from_id, hand)].append((tm.pk, position, score))
    out: dict[int, list[Fraction]] = {tm.pk: [Fraction(0)] * tm.slots.count() for tm in rows.values()}
    for holdings in held.values():
        for table, position, score in holdings:
            if t.duplicate_scoring == "total_points":
                out[table][position] += score
            else:
                others = [s for other, _, s in holdings if other != table]
                out[table][position] += sum(2 if score > s else 1 if score == s else 0 for s in others)
    return out


def test_every_table_of_a_round_plays_the_same_boards_and_scores_matchpoints_against_the_others(
    make_tournament: Callable[..., Tournament], organiser: Player, anon_client: APIClient
) -> None:
    t = bots_tournament(make_tournament, organiser, 4, format="round_robin", match_target=2)
    # round 1: two tables, two boards each, the same two boards at both tables
    boards = list(TournamentBoard.objects.filter(tournament=t).order_by("number"))
    assert [(b.number, b.round.number, b.players) for b in boards] == [(1, 1, 2), (2, 1, 2)]
    tables = [
        tm for tm in TournamentMatch.objects.filter(tournament=t, round__number=1).select_related("match")
    ]
    assert len(tables) == 2
    for tm in tables:
        assert tm.match is not None and tm.match.format == Match.Format.DUPLICATE
        first = Game.objects.get(match=tm.match, number=0)
        assert first.dealt_from_id == boards[0].board_id and first.decks == boards[0].board.decks
    listed = anon_client.get(f"/api/v1/tournaments/{t.pk}/boards/").json()
    assert [(b["number"], b["revealed"], b["plays_done"]) for b in listed["results"]] == [
        (1, False, 0),
        (2, False, 0),
    ]
    sealed = anon_client.get(f"/api/v1/tournaments/{t.pk}/boards/1/").json()
    assert sealed["seed_sha256"] == boards[0].board.seed_sha256 and sealed["lines"] == []

    # the first table finishes: its lines stay hidden while the other table plays the boards
    first_table = tables[0]
    assert first_table.match is not None
    play_out(first_table.match.pk)
    from tournaments.services import match_result_record

    match_result_record(match_id=first_table.match.pk)
    half = anon_client.get(f"/api/v1/tournaments/{t.pk}/boards/1/").json()
    assert half["plays_done"] == 2 and half["lines"] == [] and half["revealed"] is False
    record = anon_client.get(f"/api/v1/matches/{first_table.match.pk}/record/")
    assert record.status_code == 403 and record.json()["code"] == "board_not_revealed"

    t = run_to_end(t, lambda tm: None)
    assert t.status == Tournament.Status.FINISHED
    # three rounds of two boards; every round's tables scored against each other
    assert TournamentBoard.objects.filter(tournament=t).count() == 6
    for number in (1, 2, 3):
        want = expected_points(t, number)
        for tm in TournamentMatch.objects.filter(tournament=t, round__number=number, kind="match"):
            assert points_of(tm.points or []) == tuple(want[tm.pk]), (number, tm.code)
        # 2 boards x 2 hands x 2 plays: each holding compared with the other table's 2 holdings of
        # that hand, the 2 matchpoints of each comparison shared: 2 x 2 x (2 x 2) x 2 = 32
        assert sum(sum(v) for v in want.values()) == 32
    # the standings add the matchpoints up
    totals: dict[int, Fraction] = defaultdict(Fraction)
    for tm in TournamentMatch.objects.filter(tournament=t).prefetch_related("slots"):
        for e, p in zip(entrants_in(tm), points_of(tm.points or []), strict=True):
            totals[e.pk] += p
    assert {row.entrant.id: row.points for row in standings_table(tournament=t)} == dict(totals)

    sheet = anon_client.get(f"/api/v1/tournaments/{t.pk}/boards/3/").json()
    assert sheet["revealed"] is True and sheet["round"] == 2 and len(sheet["lines"]) == 4
    for line in sheet["lines"]:
        assert {h["hand"] for h in line["holdings"]} == {0, 1}
        for h in line["holdings"]:
            others = [
                o["score"]
                for other in sheet["lines"]
                if other["table"] != line["table"]
                for o in other["holdings"]
                if o["hand"] == h["hand"]
            ]
            assert h["matchpoints"] == sum(
                2 if h["score"] > s else 1 if h["score"] == s else 0 for s in others
            )
    assert (
        anon_client.get(f"/api/v1/tournaments/{t.pk}/boards/99/").json()["code"]
        == "tournament_board_not_found"
    )


def test_a_duplicate_pocha_tournament_scores_total_points_on_the_same_cards(
    make_tournament: Callable[..., Tournament], organiser: Player
) -> None:
    t = bots_tournament(
        make_tournament,
        organiser,
        6,
        game="pocha",
        format="pocha_tables",
        table_size=3,
        pocha_rounds=1,
        match_target=1,
        duplicate_scoring="total_points",
        options={"pocha_sequence": [1, 2]},
    )
    tables = list(TournamentMatch.objects.filter(tournament=t, kind="match"))
    assert len(tables) == 2
    board = TournamentBoard.objects.get(tournament=t)
    assert board.players == 3
    t = run_to_end(t, lambda tm: None)
    assert t.status == Tournament.Status.FINISHED
    want = expected_points(t, 1)
    for tm in TournamentMatch.objects.filter(tournament=t, kind="match"):
        assert points_of(tm.points or []) == tuple(want[tm.pk])
        assert tm.match is not None and Game.objects.filter(match=tm.match).count() == 3  # once per player


def test_a_tute4_duplicate_swiss_compares_pairs_on_the_same_boards(
    make_tournament: Callable[..., Tournament], organiser: Player
) -> None:
    t = make_tournament(game="tute4", format="swiss", swiss_rounds=1, match_format="duplicate", rated=False)
    entrant_bot_fill(tournament_id=t.pk, by=organiser, level="rule", count=4)
    tournament_start(tournament_id=t.pk, by=organiser)
    t = run_to_end(refreshed(t), lambda tm: None)
    want = expected_points(t, 1)
    for tm in TournamentMatch.objects.filter(tournament=t, kind="match"):
        assert points_of(tm.points or []) == tuple(want[tm.pk])


def test_a_bye_scores_the_rounds_mean(make_tournament: Callable[..., Tournament], organiser: Player) -> None:
    t = bots_tournament(make_tournament, organiser, 3, format="round_robin", match_target=1)
    t = run_to_end(t, lambda tm: None)
    for number in (1, 2, 3):
        rows = list(
            TournamentMatch.objects.filter(tournament=t, round__number=number).prefetch_related("slots")
        )
        played = [p for tm in rows if tm.kind == "match" for p in points_of(tm.points or [])]
        (bye,) = [tm for tm in rows if tm.kind == "bye"]
        assert points_of(bye.points or []) == (sum(played, Fraction(0)) / len(played),)


@pytest.mark.parametrize(
    ("fields", "problem"),
    [
        ({"format": "single_elim", "match_format": "duplicate"}, "round robin, Swiss or Pocha tables"),
        (
            {"format": "round_robin", "duplicate_scoring": "total_points"},
            "duplicate_scoring is for duplicate",
        ),
        (
            {"format": "round_robin", "match_format": "duplicate", "duplicate_scoring": "imps"},
            "duplicate_scoring must be",
        ),
    ],
)
def test_settings_that_do_not_fit_a_duplicate_tournament_are_refused(
    make_tournament: Callable[..., Tournament], fields: dict[str, object], problem: str
) -> None:
    with pytest.raises(InvalidTournament, match=problem):
        make_tournament(**fields)


def test_the_api_creates_a_duplicate_tournament(
    client_for: Callable[[Player], APIClient], organiser: Player, club: object
) -> None:
    api = client_for(organiser)
    body = {
        "club": "lugo",
        "name": "Duplicate",
        "game": "tute2",
        "format": "swiss",
        "swiss_rounds": 3,
        "match_format": "duplicate",
        "match_target": 4,
        "duplicate_scoring": "total_points",
    }
    created = api.post("/api/v1/tournaments/", body, format="json")
    assert created.status_code == 201, created.json()
    assert created.json()["duplicate_scoring"] == "total_points" and created.json()["match_target"] == 4
    refused = api.post("/api/v1/tournaments/", {**body, "format": "double_elim"}, format="json")
    assert refused.status_code == 400 and refused.json()["code"] == "invalid_tournament"
    assert Tournament.objects.count() == 1


def test_people_and_house_bots_play_a_duplicate_swiss_to_the_end(
    make_tournament: Callable[..., Tournament], organiser: Player, enter: Callable[..., list[object]]
) -> None:
    import random

    from games.models import Seat
    from tests.games.conftest import play_to_end
    from tournaments.services import match_result_record

    # given: two people and two house bots in a one-round duplicate Swiss of Tute 2, two boards
    t = make_tournament(format="swiss", swiss_rounds=1, match_format="duplicate", match_target=2, rated=True)
    people = enter(t, 2)
    entrant_bot_fill(tournament_id=t.pk, by=organiser, level="rule", count=2)
    tournament_start(tournament_id=t.pk, by=organiser)

    # when: every table is played out (the people by their legal moves through the services)
    rows = list(TournamentMatch.objects.filter(tournament=t, kind="match"))
    assert len(rows) == 2
    for tm in rows:
        assert tm.match_id is not None
        play_to_end(tm.match_id, random.Random(tm.pk))
        match_result_record(match_id=tm.match_id)

    advance(t)  # what the tournaments.advance task does once the round is complete

    # then: both tables played both boards, the people's own seats in the records; scored as defined
    t = refreshed(t)
    assert t.status == Tournament.Status.FINISHED
    want = expected_points(t, 1)
    for tm in TournamentMatch.objects.filter(tournament=t, kind="match"):
        assert points_of(tm.points or []) == tuple(want[tm.pk])
    handles = {e.player.handle for e in people}  # type: ignore[attr-defined]
    seated = set(
        Seat.objects.filter(match__tournament_match__tournament=t, player__isnull=False).values_list(
            "player__handle", flat=True
        )
    )
    assert seated == handles
    assert [r["entrant"] for r in t.final_standings] and len(t.final_standings) == 4


def test_a_duplicate_tournaments_results_are_not_corrected_by_hand(
    make_tournament: Callable[..., Tournament], organiser: Player
) -> None:
    from tournaments.errors import InvalidCorrection
    from tournaments.services import result_correct

    t = bots_tournament(make_tournament, organiser, 2, format="round_robin", match_target=1)
    t = run_to_end(t, lambda tm: None)
    tm = TournamentMatch.objects.get(tournament=t, kind="match")
    before = tm.points
    with pytest.raises(InvalidCorrection, match="not corrected by hand"):
        result_correct(
            tournament_id=t.pk, tournament_match_id=tm.pk, by=organiser, winner=entrants_in(tm)[0].pk
        )
    tm.refresh_from_db()
    assert tm.points == before
