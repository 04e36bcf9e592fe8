"""Tournaments played over the board (``play: table``): pairings get table numbers and no games match,
the organiser enters each table's result through the API, impossible results are refused, and the
standings and the next rounds follow exactly as for the same results played online."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from rest_framework.test import APIClient

from games.models import Game, Match, Player
from tests.factories import token_for
from tests.tournaments.conftest import advance, new_player, play_out, playing, refreshed
from tournaments.errors import InvalidTournament
from tournaments.models import ResultEntry, Round, Tournament, TournamentMatch
from tournaments.selectors import standings_table
from tournaments.services import entrant_bot_fill, match_result_record, tournament_start

pytestmark = pytest.mark.django_db


def organiser_client(organiser: Player) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token_for(organiser)}")
    return client


def result_url(tm: TournamentMatch) -> str:
    return f"/api/v1/tournaments/{tm.tournament_id}/matches/{tm.pk}/result/"


def seeds_of(tm: TournamentMatch) -> list[int]:
    return [s.entrant.seed for s in sorted(tm.slots.all(), key=lambda s: s.position)]


def entry_from_games(match: Match) -> dict[str, Any]:
    """The result of an online match as a club would write it down: each game's card points, cantes,
    who won the last trick (Tute 2: the seat is the position)."""
    games = []
    for game in Game.objects.filter(match=match, status=Game.Status.FINISHED).order_by("number"):
        r = game.result
        assert r is not None
        games.append(
            {"points": r["points"], "cantes": r["cantes"], "last_trick": r["last_trick"], "tute": r["tute"]}
        )
    return {"games": games}


def test_a_swiss_of_12_over_the_board_ranks_and_pairs_as_the_same_results_played_online(
    make_tournament: Callable[..., Tournament], organiser: Player
) -> None:
    # given: the same Swiss of 12 (seeded in entry order) online and over the board
    settings = {
        "game": "tute2",
        "format": "swiss",
        "swiss_rounds": 4,
        "seeding": "manual",
        "rated": False,
        "tie_breaks": ("buchholz", "card_point_difference"),
    }
    online = make_tournament(name="Online", **settings)
    table = make_tournament(name="Over the board", play="table", **settings)
    for t in (online, table):
        entrant_bot_fill(tournament_id=t.pk, by=organiser, level="random", count=12)
        tournament_start(tournament_id=t.pk, by=organiser)
    client = organiser_client(organiser)

    for number in range(1, 5):
        online_rows, table_rows = playing(online, number), playing(table, number)
        # then: each round pairs the same seeds at the same tables; over the board, no games match
        assert [seeds_of(tm) for tm in table_rows] == [seeds_of(tm) for tm in online_rows]
        assert all(tm.match_id is None for tm in table_rows)
        assert [tm.board for tm in table_rows] == list(range(1, 7))
        # when: each online match is played, and its games entered for the same table over the board
        for played, entered in zip(online_rows, table_rows, strict=True):
            assert played.match is not None
            play_out(played.match.pk)
            match_result_record(match_id=played.match.pk)
            answer = client.post(result_url(entered), entry_from_games(played.match), format="json")
            assert answer.status_code == 200, answer.content
        for t in (online, table):
            advance(t)

    # then: both finished with the same standings, points and tie-breaks, seed by seed
    def by_seed(t: Tournament) -> list[tuple[int, int, str, list[str]]]:
        rows = standings_table(tournament=refreshed(t))
        return [
            (r.rank, r.entrant.seed, str(r.points), [str(v) for v in r.tie_breaks.values()]) for r in rows
        ]

    assert refreshed(table).status == refreshed(online).status == Tournament.Status.FINISHED
    assert by_seed(table) == by_seed(online)
    assert ResultEntry.objects.filter(tournament_match__tournament=table).count() == 24


def test_impossible_results_are_refused_with_the_reason_and_change_nothing(
    make_tournament: Callable[..., Tournament], organiser: Player
) -> None:
    t = make_tournament(
        game="tute2", format="round_robin", play="table", match_format="best_of", match_target=3
    )
    entrant_bot_fill(tournament_id=t.pk, by=organiser, level="random", count=2)
    tournament_start(tournament_id=t.pk, by=organiser)
    (tm,) = playing(t)
    client = organiser_client(organiser)
    game = {"points": [70, 50], "cantes": [20, 0], "last_trick": 0}
    for body, says in (
        ({"games": [{"points": [70, 60], "cantes": [0, 0], "last_trick": 0}] * 2}, "add up to 120"),
        ({"games": [{"points": [70, 50], "cantes": [30, 0], "last_trick": 0}] * 2}, "cantes"),
        ({"games": [{"points": [70, 50], "cantes": [0, 0], "last_trick": 2}] * 2}, "last_trick"),
        ({"games": [game]}, "not decided after 1 games"),
        ({"games": [game, game, game]}, "decided after game 2"),
        ({"games": [{**game, "tute": 1}] * 2}, "do not declare tute"),
        ({"winner": 3}, None),
        ({"winner": 0, "games": [game, game]}, None),
    ):
        answer = client.post(result_url(tm), body, format="json")
        assert answer.status_code == 400, (body, answer.content)
        if says:
            assert answer.json()["code"] == "invalid_result" and says in answer.json()["message"], (
                answer.json()
            )
    assert not ResultEntry.objects.exists()
    tm.refresh_from_db()
    assert tm.status == TournamentMatch.Status.PLAYING
    # and: somebody else may not enter it; an online tournament's match takes no entered result
    other = APIClient()
    other.credentials(HTTP_AUTHORIZATION=f"Token {token_for(new_player())}")
    assert other.post(result_url(tm), {"winner": 0}, format="json").json()["code"] == "not_organiser"


def test_a_result_is_changed_while_its_round_is_open_and_the_log_keeps_both(
    make_tournament: Callable[..., Tournament], organiser: Player
) -> None:
    t = make_tournament(game="tute2", format="swiss", swiss_rounds=2, play="table", seeding="manual")
    entrant_bot_fill(tournament_id=t.pk, by=organiser, level="random", count=4)
    tournament_start(tournament_id=t.pk, by=organiser)
    first, second = playing(t, 1)
    client = organiser_client(organiser)
    client.post(result_url(first), {"winner": 0}, format="json")
    changed = client.post(result_url(first), {"winner": None}, format="json").json()  # a draw after all
    assert changed["points"] == [0.5, 0.5] and changed["winner"] is None
    entries = list(ResultEntry.objects.filter(tournament_match=first).order_by("id"))
    assert [e.replaced for e in entries] == [False, True] and entries[0].by_id == organiser.pk
    # when: the last table's result closes the round, a change is refused (corrections take over)
    client.post(result_url(second), {"winner": 1}, format="json")
    assert Round.objects.get(tournament=t, number=1).status == Round.Status.COMPLETE
    closed = client.post(result_url(first), {"winner": 1}, format="json")
    assert closed.status_code == 409 and closed.json()["code"] == "round_closed"
    # and the next round is paired from the entered results
    advance(t)
    assert len(playing(t, 2)) == 2


def test_a_pocha_table_night_scores_the_entered_bids_and_tricks_by_the_rules(
    make_tournament: Callable[..., Tournament], organiser: Player
) -> None:
    # given: a Pocha night of 8 over the board at tables of 4, two hands a game (1 and 2 cards)
    t = make_tournament(
        game="pocha",
        format="pocha_tables",
        table_size=4,
        pocha_rounds=1,
        play="table",
        seeding="manual",
        options={"pocha_sequence": [1, 2]},
    )
    entrant_bot_fill(tournament_id=t.pk, by=organiser, level="random", count=8)
    tournament_start(tournament_id=t.pk, by=organiser)
    one, two = playing(t, 1)
    client = organiser_client(organiser)
    hands = [
        {"bids": [1, 0, 0, 0], "tricks": [1, 0, 0, 0]},  # 15, 10, 10, 10
        {"bids": [1, 1, 0, 0], "tricks": [0, 1, 1, 0]},  # -5, 15, -5, 10
    ]
    # then: a hand whose tricks do not add up, or a game of the wrong length, is refused
    bad = client.post(
        result_url(one),
        {"games": [{"hands": [hands[0], {"bids": [0] * 4, "tricks": [1, 0, 0, 0]}]}]},
        format="json",
    )
    assert bad.json()["code"] == "invalid_result" and "add up to 2" in bad.json()["message"]
    short = client.post(result_url(one), {"games": [{"hands": hands[:1]}]}, format="json")
    assert "2 hands" in short.json()["message"]
    # when: the hands are entered
    scored = client.post(result_url(one), {"games": [{"hands": hands}]}, format="json").json()
    # then: the engine's scores, and each player's share of the table mates beaten
    assert scored["card_points"] == [10, 25, 5, 20]
    assert scored["points_exact"] == ["1/3", "1", "0", "2/3"]
    # and: a table kept as plain totals, ties sharing
    plain = client.post(result_url(two), {"totals": [30, 30, -5, 0]}, format="json").json()
    assert plain["points_exact"] == ["5/6", "5/6", "0", "1/3"]
    advance(t)
    assert refreshed(t).status == Tournament.Status.FINISHED


def test_an_over_the_board_tournament_is_not_duplicate(make_tournament: Callable[..., Tournament]) -> None:
    with pytest.raises(InvalidTournament):
        make_tournament(game="tute2", format="round_robin", play="table", match_format="duplicate")


def test_entered_results_count_in_the_elo_pools_once_and_a_change_recomputes_them(
    make_tournament: Callable[..., Tournament],
    organiser: Player,
    enter: Callable[..., list[Any]],
    django_capture_on_commit_callbacks: Any,
) -> None:
    from games.signals import match_result_changed
    from ratings.models import Rating, RatingChange
    from ratings.services import match_ratings_apply, ratings_recompute

    # given: a rated round robin of two people over the board
    t = make_tournament(game="tute2", format="round_robin", play="table", rated=True)
    ana, ben = enter(t, 2)
    tournament_start(tournament_id=t.pk, by=organiser)
    (tm,) = playing(t)
    client = organiser_client(organiser)
    game = {"points": [80, 40], "cantes": [0, 20], "last_trick": 0}

    # when: the organiser enters the game
    with django_capture_on_commit_callbacks(execute=False):
        client.post(result_url(tm), {"games": [game]}, format="json")
    tm.refresh_from_db()
    match = Match.objects.get(pk=tm.match_id)
    # then: a finished games match records it (entered, not dealt), rated like any other, once
    assert match.over_the_board and match.rated and match.status == Match.Status.FINISHED
    assert match.result == {"games_won": [1, 0], "winners": [0], "games": 1}
    assert match_ratings_apply(match_id=match.pk) == 2
    assert match_ratings_apply(match_id=match.pk) == 0
    winner = tm.winner.player  # type: ignore[union-attr]
    assert Rating.objects.get(pool="tute2", player=winner).rating > 1500

    # when: the recorded result is replaced (the other side won after all), as a change of the entry does
    from games.services import match_record_change

    changed: list[int] = []

    def heard(sender: object, *, match: Match, **kwargs: Any) -> None:
        changed.append(match.pk)

    match_result_changed.connect(heard, dispatch_uid="test.heard")
    try:
        with django_capture_on_commit_callbacks(execute=True):
            match_record_change(
                match_id=match.pk,
                games=[{"scores": [40, 100], "winners": [1], "points": [40, 80], "cantes": [0, 20]}],
                result={"games_won": [0, 1], "winners": [1], "games": 1},
            )
    finally:
        match_result_changed.disconnect(dispatch_uid="test.heard")
    assert changed == [match.pk]
    # then: the recompute the ratings hear of rates the history again, each match once
    ratings_recompute()
    assert RatingChange.objects.filter(match=match).count() == 2
    loser_now = Rating.objects.get(pool="tute2", player=winner).rating
    assert loser_now < 1500
    assert {e.player_id for e in (ana, ben)} == set(
        Rating.objects.filter(pool="tute2").values_list("player_id", flat=True)
    )


def test_a_changed_entry_replaces_the_rated_match_s_result(
    make_tournament: Callable[..., Tournament], organiser: Player, enter: Callable[..., list[Any]]
) -> None:
    t = make_tournament(
        game="tute2", format="swiss", swiss_rounds=1, play="table", rated=True, seeding="manual"
    )
    enter(t, 4)
    tournament_start(tournament_id=t.pk, by=organiser)
    first, _second = playing(t)
    client = organiser_client(organiser)
    client.post(result_url(first), {"winner": 0}, format="json")
    first.refresh_from_db()
    recorded = first.match_id
    client.post(result_url(first), {"winner": 1}, format="json")
    first.refresh_from_db()
    assert first.match_id == recorded  # the same match, its result replaced
    assert Match.objects.get(pk=recorded).result["winners"] == [1]


def test_an_unrated_night_records_no_games_match(
    make_tournament: Callable[..., Tournament], organiser: Player, enter: Callable[..., list[Any]]
) -> None:
    t = make_tournament(game="tute2", format="round_robin", play="table", rated=False)
    enter(t, 2)
    tournament_start(tournament_id=t.pk, by=organiser)
    (tm,) = playing(t)
    organiser_client(organiser).post(result_url(tm), {"winner": None}, format="json")
    tm.refresh_from_db()
    assert tm.match_id is None and tm.status == TournamentMatch.Status.DONE


def player_client(player: Player) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token_for(player)}")
    return client


def test_players_report_a_tables_result_and_the_other_side_confirms_it(
    make_tournament: Callable[..., Tournament], organiser: Player, enter: Callable[..., list[Any]]
) -> None:
    from tournaments.models import ResultReport

    t = make_tournament(game="tute2", format="round_robin", play="table", self_report=True, rated=False)
    enter(t, 2)
    tournament_start(tournament_id=t.pk, by=organiser)
    (tm,) = playing(t)
    first, second = (s.entrant for s in sorted(tm.slots.all(), key=lambda s: s.position))
    url = f"/api/v1/tournaments/{t.pk}/matches/{tm.pk}/"
    # then: a stranger may not report it, and an impossible report is refused at once
    assert (
        player_client(new_player()).post(url + "report/", {"winner": 0}, format="json").json()["code"]
        == "not_at_table"
    )
    bad = {"games": [{"points": [100, 100], "cantes": [0, 0], "last_trick": 0}]}
    assert (
        player_client(first.player).post(url + "report/", bad, format="json").json()["code"]
        == "invalid_result"
    )
    # when: one player reports, the reporter may not confirm it, the other side does
    made = player_client(first.player).post(url + "report/", {"winner": 1}, format="json")
    assert made.status_code == 201 and made.json()["status"] == "pending"
    tm.refresh_from_db()
    assert tm.status == TournamentMatch.Status.PLAYING  # not counted before it is confirmed
    own = player_client(first.player).post(url + "confirm/", {"agree": True}, format="json")
    assert own.status_code == 403
    confirmed = player_client(second.player).post(url + "confirm/", {"agree": True}, format="json")
    assert confirmed.status_code == 200 and confirmed.json()["answered_by"] == second.player.handle
    # then: it is the table's result, logged as the reporter's entry
    tm.refresh_from_db()
    assert tm.status == TournamentMatch.Status.DONE and tm.winner_id == second.pk
    assert ResultEntry.objects.get(tournament_match=tm).by_id == first.player.pk
    assert ResultReport.objects.get(tournament_match=tm).status == ResultReport.Status.CONFIRMED


def test_a_disputed_report_waits_for_the_organiser(
    make_tournament: Callable[..., Tournament], organiser: Player, enter: Callable[..., list[Any]]
) -> None:
    from tournaments.models import ResultReport

    t = make_tournament(game="tute2", format="round_robin", play="table", self_report=True, rated=False)
    enter(t, 2)
    tournament_start(tournament_id=t.pk, by=organiser)
    (tm,) = playing(t)
    first, second = (s.entrant for s in sorted(tm.slots.all(), key=lambda s: s.position))
    url = f"/api/v1/tournaments/{t.pk}/matches/{tm.pk}/"
    player_client(first.player).post(url + "report/", {"winner": 0}, format="json")
    disputed = player_client(second.player).post(url + "confirm/", {"agree": False}, format="json").json()
    assert disputed["status"] == "disputed"
    tm.refresh_from_db()
    assert tm.status == TournamentMatch.Status.PLAYING
    assert (
        player_client(second.player).post(url + "confirm/", {"agree": True}, format="json").json()["code"]
        == "no_report_waiting"
    )
    # when: the organiser decides
    organiser_client(organiser).post(result_url(tm), {"winner": 1}, format="json")
    tm.refresh_from_db()
    assert tm.winner_id == second.pk
    assert ResultReport.objects.get(tournament_match=tm).status == ResultReport.Status.SUPERSEDED


def test_without_self_report_players_do_not_report(
    make_tournament: Callable[..., Tournament], organiser: Player, enter: Callable[..., list[Any]]
) -> None:
    t = make_tournament(game="tute2", format="round_robin", play="table")
    enter(t, 2)
    tournament_start(tournament_id=t.pk, by=organiser)
    (tm,) = playing(t)
    first = sorted(tm.slots.all(), key=lambda s: s.position)[0].entrant
    answer = player_client(first.player).post(
        f"/api/v1/tournaments/{t.pk}/matches/{tm.pk}/report/", {"winner": 0}, format="json"
    )
    assert answer.status_code == 403 and answer.json()["code"] == "self_report_off"
    with pytest.raises(InvalidTournament):
        make_tournament(game="tute2", format="round_robin", self_report=True)  # online: nothing to report


def test_a_tournament_exported_as_json_is_imported_back_with_the_same_standings(
    make_tournament: Callable[..., Tournament], organiser: Player, enter: Callable[..., list[Any]]
) -> None:
    from tournaments.errors import InvalidImport
    from tournaments.exports import tournament_document
    from tournaments.services import club_create
    from tournaments.services.transfer import tournament_import

    # given: a finished Swiss of four over the board, with entered results
    t = make_tournament(
        game="tute2", format="swiss", swiss_rounds=2, play="table", seeding="manual", rated=False
    )
    enter(t, 4)
    tournament_start(tournament_id=t.pk, by=organiser)
    client = organiser_client(organiser)
    for _ in range(2):
        for tm in playing(t):
            client.post(result_url(tm), {"winner": 0}, format="json")
        advance(t)
    assert refreshed(t).status == Tournament.Status.FINISHED
    document = tournament_document(refreshed(t))

    # when: it is imported into another club (a round trip through JSON text)
    import json

    other = club_create(name="Archivo", slug="archivo", by=organiser)
    copy = tournament_import(club=other, by=organiser, document=json.loads(json.dumps(document, default=str)))

    # then: the same entrants, rounds, results and standings
    def table(x: Tournament) -> list[tuple[int, str, str]]:
        return [(r.rank, r.entrant.name, str(r.points)) for r in standings_table(tournament=refreshed(x))]

    assert copy.status == Tournament.Status.FINISHED and table(copy) == table(t)

    def rounds(doc: dict[str, Any]) -> list[Any]:
        names = {e["id"]: e["name"] for e in doc["entrants"]}
        return [
            (r["number"], [(x["table"], [names[e] for e in x["entrants"]], x["points"]) for x in r["tables"]])
            for r in doc["rounds"]
        ]

    assert rounds(tournament_document(refreshed(copy))) == rounds(document)
    assert ResultEntry.objects.filter(tournament_match__tournament=copy).count() == 4
    # and: what cannot be read back is refused with the reason
    with pytest.raises(InvalidImport):
        tournament_import(club=other, by=organiser, document={"format": "something else"})
    missing = json.loads(json.dumps(document, default=str))
    missing["entrants"][0]["players"] = ["nobody-here"]
    with pytest.raises(InvalidImport) as refused:
        tournament_import(club=other, by=organiser, document=missing)
    assert refused.value.detail == {"missing": ["nobody-here"]}
