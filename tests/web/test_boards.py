"""Duplicate matches on the website (issue 20): the replay and the finished page name each game seat by the
match seat that held it (``seat_map``), and a board's page shows its plays side by side."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from games.models import Action, Game, Match, Player
from tests.factories import MatchFactory
from tests.web.conftest import person, play_out
from tests.web.test_pages import script_json
from tests.web.test_spanish import english_left
from web.selectors import board_plays, match_outcome, match_page, match_replay, pocha_board_summary

pytestmark = pytest.mark.django_db


def duplicate(game: str, seats: list[Player | str], boards: int = 1, seed: int = 3) -> Match:
    creator = next(s for s in seats if isinstance(s, Player))
    match = MatchFactory(
        created_by=creator, game=game, seats=seats, format=Match.Format.DUPLICATE, format_target=boards
    )
    return play_out(match, seed=seed)


def test_the_replay_of_a_swapped_play_speaks_in_game_seats_with_its_seat_map() -> None:
    # given: a duplicate Tute 2 board played by alice (match seat 0) and a house bot, then swapped
    alice = person("alice")
    match = duplicate("tute2", [alice, "rule"])
    loaded = match_page(match_id=match.pk)
    assert loaded is not None

    replay = match_replay(match=loaded)

    # then: each play says which match seat held each game seat
    assert [(g.board, g.seat_map) for g in replay] == [(0, [0, 1]), (0, [1, 0])]
    games = {g.number: g for g in Game.objects.filter(match=match)}
    rows = list(
        Action.objects.filter(match=match).order_by("ply").values_list("game__number", "seat", "code")
    )
    for g in replay:
        acted = [row for row in rows if row[0] == g.number]
        assert len(acted) == len(g.steps) - 1
        for before, step, (_, match_seat, code) in zip(g.steps[:-1], g.steps[1:], acted, strict=True):
            # and: the acting seat is the game seat, whose hand held the card it played
            assert step["action"]["seat"] == games[g.number].game_seat(match_seat)
            if code.startswith("play:"):
                assert code.removeprefix("play:") in before["hands"][step["action"]["seat"]]
    # and: in the swapped play alice (match seat 0) holds game seat 1
    assert replay[1].seat_map is not None and replay[1].seat_map.index(0) == 1


def test_the_result_of_a_duplicate_match_goes_to_the_sides_that_held_the_cards() -> None:
    alice = person("alice")
    match = duplicate("tute2", [alice, "rule"])
    loaded = match_page(match_id=match.pk)
    assert loaded is not None and loaded.result is not None
    last = Game.objects.filter(match=match).order_by("-number").first()
    assert last is not None and last.result is not None and last.seat_map == [1, 0]

    cantes = match_replay(match=loaded)[-1].steps[-1]["cantes"]  # by game seat
    outcome = match_outcome(loaded, cantes=cantes)

    # then: each match side's score in the last game is its game side's (alice held game seat 1)
    assert [row["score"] for row in outcome] == [last.result["scores"][1], last.result["scores"][0]]
    assert [row["difference"] for row in outcome] == loaded.result["score_difference"]
    for side, row in enumerate(outcome):
        # and: a cante goes to the match seat that held the game seat that sang it
        assert row["cantes"] == [{**c, "seat": side} for c in cantes if last.match_seat(c["seat"]) == side]


@pytest.mark.parametrize(("game", "seat_map"), [("tute2", [1, 0]), ("tute4", [1, 2, 3, 0])])
def test_a_boards_plays_side_by_side(
    game: str, seat_map: list[int], django_assert_max_num_queries: Any
) -> None:
    # given: a finished duplicate match of two boards
    alice = person("alice")
    seats: list[Player | str] = [alice] + ["rule"] * (1 if game == "tute2" else 3)
    match = duplicate(game, seats, boards=2)

    # when: board 1's plays are read (three queries: games and matches, seats, actions)
    with django_assert_max_num_queries(3):
        plays = board_plays(games=Game.objects.filter(match=match, board=1))

    # then: both plays of the same deal, the second with the seats rotated
    assert [p.replay.number for p in plays] == [2, 3]
    assert [p.replay.seat_map for p in plays] == [list(range(len(seats))), seat_map]
    first, second = plays
    assert [h.hand for h in first.holders] == [h.hand for h in second.holders]
    assert [h.match_seat for h in second.holders] == seat_map
    assert first.holders[0].name == "alice"
    assert second.holders[seat_map.index(0)].name == "alice"
    # and: tricks and scores come from each play's own end
    for play in plays:
        game_row = Game.objects.get(match=match, number=play.replay.number)
        assert game_row.result is not None
        assert [s.score for s in play.sides] == game_row.result["scores"][: len(play.sides)]
        assert [h.tricks for h in play.holders] == play.replay.steps[-1]["tricks_won"]
    # and: each side's score against the other play of the same cards: opposite, half the difference
    for side in range(2):
        a, b = first.sides[side], second.sides[side]
        assert a.score is not None and b.score is not None
        assert a.versus == round((a.score - b.score) / 2, 1) and b.versus == -a.versus
    # and: a replay read again comes from the cache (no query for the actions)
    with django_assert_max_num_queries(2):
        board_plays(games=Game.objects.filter(match=match, board=1))


def test_the_plays_of_a_board_must_share_one_deal() -> None:
    alice = person("alice")
    match = duplicate("tute2", [alice, "rule"], boards=2)
    with pytest.raises(ValueError, match="one seed"):
        board_plays(games=Game.objects.filter(match=match))


def test_the_board_page_is_linked_from_the_finished_match_and_bounded_in_queries(
    client: Client, django_assert_max_num_queries: Any
) -> None:
    # given: a finished duplicate match of two boards
    alice = person("alice")
    match = duplicate("tute2", [alice, "rule"], boards=2)
    # as any finished match's page (test_pages), and whether its boards are revealed for the review panel
    with django_assert_max_num_queries(10):
        html = client.get(reverse("web:match", args=[match.pk])).content.decode()
    # then: the finished page lists the boards with their differences, each linked
    assert 'id="boards"' in html
    for board in (0, 1):
        assert f'href="/matches/{match.pk}/boards/{board}/"' in html
    replay = script_json(html, "replay-data")
    assert [g["seat_map"] for g in replay["games"]] == [[0, 1], [1, 0], [0, 1], [1, 0]]

    # when: a board's page is opened (match, seats, games; the plays' games, seats, actions)
    with django_assert_max_num_queries(7):
        page = client.get(reverse("web:match-board", args=[match.pk, 1])).content.decode()

    # then: both plays side by side, each with its replay named by who held each game seat
    assert page.count('class="play"') == 2
    first = script_json(page, "play-1-data")
    second = script_json(page, "play-2-data")
    assert first["games"][0]["names"][0] == "alice" and second["games"][0]["names"][1] == "alice"
    assert first["first"][0]["hands"] == second["first"][0]["hands"]
    result = Match.objects.get(pk=match.pk).result
    assert result is not None
    summary = re.search(r'<table class="list" id="board-summary">.*?</table>', page, re.S)
    assert summary is not None
    diff = result["board_differences"][1][0]
    assert f"<td>{'+' if diff > 0 else ''}{diff}</td>" in summary.group(0)
    # and: in Spanish
    spanish = client.get(reverse("web:match-board", args=[match.pk, 1]), HTTP_ACCEPT_LANGUAGE="es")
    assert "Tablero 2" in spanish.content.decode() and "Jugada 1" in spanish.content.decode()


def test_a_board_page_is_only_for_a_finished_duplicate_match(client: Client) -> None:
    alice = person("alice")
    finished = duplicate("tute2", [alice, "rule"])
    assert client.get(f"/matches/{finished.pk}/boards/1/").status_code == 404  # one board: board 0
    single = play_out(MatchFactory(created_by=alice, game="tute2", seats=[alice, "rule"]))
    assert client.get(f"/matches/{single.pk}/boards/0/").status_code == 404
    running = MatchFactory(
        created_by=alice, game="tute2", seats=[alice, "rule"], format=Match.Format.DUPLICATE, format_target=1
    )
    assert client.get(f"/matches/{running.pk}/boards/0/").status_code == 404


def test_the_boards_are_listed_even_when_the_result_has_no_differences_by_board() -> None:
    from web.selectors import board_rows

    alice = person("alice")
    match = duplicate("tute2", [alice, "rule"], boards=2)
    loaded = match_page(match_id=match.pk)
    assert loaded is not None and loaded.result is not None
    differences = loaded.result["board_differences"]
    assert board_rows(loaded) == [{"board": b, "differences": differences[b]} for b in (0, 1)]
    # a duplicate result that scores its boards otherwise (duplicate Pocha: by player) still links them
    loaded.result = {k: v for k, v in loaded.result.items() if k != "board_differences"}
    assert board_rows(loaded) == [{"board": 0, "differences": None}, {"board": 1, "differences": None}]


@pytest.mark.django_db(transaction=True)  # committed moves: each starts from the state cached on commit
def test_a_duplicate_pocha_board_compares_each_player_with_every_holder_of_the_same_cards(
    client: Client, django_assert_max_num_queries: Any
) -> None:
    # given: a finished duplicate Pocha match of three players (each board played three times, rotated)
    alice = person("alice")
    match = duplicate("pocha", [alice, "rule", "random"], boards=1)
    result = Match.objects.get(pk=match.pk).result
    assert result is not None

    # when: its board's page is opened
    with django_assert_max_num_queries(7):
        page = client.get(reverse("web:match-board", args=[match.pk, 0])).content.decode()

    # then: three plays, and a summary row per player: its score with each seat's cards, matchpoints
    assert page.count('class="play"') == 3
    loaded = match_page(match_id=match.pk)
    assert loaded is not None
    plays = board_plays(games=Game.objects.filter(match=match, board=0))
    rows = pocha_board_summary(match=loaded, board=0, plays=plays)
    assert [r["names"] for r in rows] == [["alice"], *[[r["names"][0]] for r in rows[1:]]]
    for seat, row in enumerate(rows):
        assert row["difference"] == result["board_differences"][0][seat]
        assert all(h is not None for h in row["hands"])  # every player held every seat's cards once
        for hand, cell in enumerate(row["hands"]):
            scores = {p.holders[hand].match_seat: p.sides[hand].score for p in plays}
            others = [s for who, s in scores.items() if who != seat]
            assert cell["score"] == scores[seat]
            assert cell["matchpoints"] == sum(
                2 if scores[seat] > o else 1 if scores[seat] == o else 0 for o in others
            )
    # every pair of players met on each seat's cards: the board's matchpoints add up to 2 per pair and hand
    assert sum(r["matchpoints"] for r in rows) == 3 * 3 * 2
    assert sum(r["matchpoints"] for r in rows) == sum(result["matchpoints"])  # one board: the match's
    summary = re.search(r'<table class="list" id="board-summary">.*?</table>', page, re.S)
    assert summary is not None and summary.group(0).count("<tr>") == 4
    # and: the cards shown are said to be the first hand's (a Pocha game deals many hands)
    assert 'class="hint first-hand"' in page
    # and: in Spanish
    spanish = client.get(reverse("web:match-board", args=[match.pk, 0]), HTTP_ACCEPT_LANGUAGE="es")
    text = spanish.content.decode()
    assert "Cartas del asiento 1" in text and "primera de" in text
    assert english_left(text) == []
