"""The website in a real browser: Playwright for Python driving Debian's chromium (/usr/bin/chromium).

A person signs up, starts a Tute 2 match against a house bot, plays every one of their turns by clicking
the highlighted cards and buttons while the bot's replies arrive from a real Celery worker, sees the
result, and finds their rating on the leaderboard (the same worker runs ``ratings.apply_match``).

The site runs in pytest-django's ``live_server`` on PostgreSQL with ``transaction=True``, so the worker
(a subprocess, ``tests/workers.py``) sees what the requests commit. Without chromium, PostgreSQL or Redis
these tests skip with the reason; with TUTE_REQUIRE_SERVICES=1 they fail instead.

``TUTE_SCREENSHOTS=1`` also saves the main pages' screenshots to docs/screenshots/.
"""

from __future__ import annotations

import os
import re
import shutil
import time
from pathlib import Path
from typing import Any

import pytest

from games.models import Match, Player
from ratings.models import Rating
from tests.web.browsing import (
    DESKTOP,
    LEGAL,
    PASSWORD,
    PHONE,
    SCREENSHOTS,
    _tab,
    assert_fits_and_accessible,
    shown_plies,
    sign_up,
)
from tests.workers import Worker, wait_for

pytestmark = pytest.mark.django_db(transaction=True)

GAME_SECONDS = 180.0


def shoot(page: Any, name: str, tmp_path: Path) -> None:
    """A full-page screenshot; kept in docs/screenshots/ when TUTE_SCREENSHOTS=1."""
    target = tmp_path / f"{name}.png"
    page.screenshot(path=str(target), full_page=True)
    assert target.stat().st_size > 5_000, f"{name}: an empty screenshot"
    if os.environ.get("TUTE_SCREENSHOTS") == "1":
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(target, SCREENSHOTS / f"{name}.png")


def play_to_the_end(page: Any, *, timeout: float, shots: Path | None = None, on_turn: Any = None) -> int:
    """Click a highlighted card or action button whenever it is our turn, until the result shows;
    ``on_turn(page, moves)`` looks at the page first on each turn."""
    from playwright.sync_api import Error as PlaywrightError

    deadline = time.monotonic() + timeout
    moves = 0
    while time.monotonic() < deadline:
        try:
            page.wait_for_selector(f"#result, {LEGAL}", timeout=30_000)
            if page.locator("#result").count():
                return moves
            ply = page.get_attribute("#live", "data-ply")
            if shots is not None and moves == 6:
                page.screenshot(path=str(shots), full_page=True)  # a game in progress, our turn
            if on_turn is not None:
                on_turn(page, moves)
            page.locator(LEGAL).first.click(timeout=5_000)
            moves += 1
            page.wait_for_function(
                "ply => !document.getElementById('live') || document.getElementById('result')"
                " || document.getElementById('live').dataset.ply !== ply",
                arg=ply,
                timeout=30_000,
            )
        except PlaywrightError as exc:
            # The page reloads itself when the match ends: what was being waited for went with it.
            if (
                "destroyed" not in str(exc)
                and "navigat" not in str(exc).lower()
                and "detached" not in str(exc)
            ):
                raise
    raise AssertionError(f"the match did not finish within {timeout:g} s ({moves} moves played)")


def test_a_person_signs_up_plays_tute2_against_a_house_bot_and_finds_their_rating(
    page: Any, site: str, worker: Worker, tmp_path: Path
) -> None:
    # given: a new person, signed up in the browser
    sign_up(page, site, "lucia")

    # when: they start a Tute 2 match against the rule bot
    page.goto(f"{site}/play/")
    page.select_option("#id_game", "tute2")
    page.check("#play-form input[name=bot][value=rule]")  # one radio a level
    page.click("#play-form button[type=submit]")
    page.wait_for_url(f"{site}/matches/*/")
    match = Match.objects.get(seats__player__handle="lucia")
    assert match.status == Match.Status.IN_PROGRESS

    # then: on their turn, their legal cards are highlighted and the others are not clickable
    page.wait_for_selector(LEGAL, timeout=30_000)
    hand = page.locator("#hand .card")
    assert hand.count() == 8
    legal_cards = page.locator("#hand .card.legal").count()
    assert legal_cards >= 1
    assert page.locator("#hand .card:disabled").count() == 8 - legal_cards

    # and: an illegal move is refused with the server's reason shown, and nothing is played
    ply = match.ply
    page.evaluate(
        "() => { const b = document.querySelector('#hand .card.legal');"
        " b.dataset.action = 'play:' + (b.dataset.code === '1O' ? '1C' : '1O'); }"
    )
    page.locator("#hand .card.legal").first.click()
    page.wait_for_selector("#error:not([hidden])")
    assert page.locator("#error").inner_text().strip()
    page.tute_errors.remove(
        "Failed to load resource: the server responded with a status of 422 (Unprocessable Entity)"
    )
    match.refresh_from_db()
    assert match.ply == ply
    # and the hand is read again from the server: the tampered button is gone
    page.wait_for_function(
        "() => [...document.querySelectorAll('#hand .card')].every(b => b.dataset.action === 'play:' + b.dataset.code)"
    )

    # when: they play every turn to the end; the bot answers from the worker, without a reload
    moves = play_to_the_end(page, timeout=GAME_SECONDS, shots=tmp_path / "match-live.png")

    # then: the match is over, the page shows the result and the replay
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED and match.finish_reason == "completed"
    assert moves == match.actions.filter(seat=match.seats.get(player__handle="lucia").index).count()
    result = page.locator("#result").inner_text()
    assert "Winner" in result and "lucia" in result
    assert page.locator("#replay").count() == 1
    page.click("#next-trick")
    assert page.locator("#r-hands .seat-hand").count() == 2
    assert page.locator("#step-label").inner_text() != ""
    if os.environ.get("TUTE_SCREENSHOTS") == "1":
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(tmp_path / "match-live.png", SCREENSHOTS / "match-live.png")
    for _ in range(3):
        page.click("#next-trick")
    shoot(page, "match-replay", tmp_path)

    # and: the worker rates the match; the person is on the Tute 2 leaderboard
    player = Player.objects.get(handle="lucia")
    wait_for(
        "the match's ratings",
        lambda: Rating.objects.filter(pool="tute2", player=player).exists(),
        timeout=30,
        log=worker.log_tail,
    )
    page.goto(f"{site}/leaderboards/tute2/")
    rating = Rating.objects.get(pool="tute2", player=player)
    row = page.locator("table.leaderboard tr", has_text="lucia")
    assert row.count() == 1
    assert f"{rating.rating:.0f}" in row.inner_text()
    shoot(page, "leaderboard", tmp_path)

    # and: their page shows the rating and the match
    page.goto(f"{site}/players/lucia/")
    assert page.locator(".rating-value").first.inner_text() == f"{rating.rating:.0f}"
    assert page.locator(f'a[href="/matches/{match.pk}/"]').count() >= 1
    shoot(page, "player", tmp_path)


def test_spanish_pages_in_the_browser(page: Any, site: str, tmp_path: Path) -> None:
    # given: the English home page; when: the switcher picks Español
    page.goto(f"{site}/")
    page.select_option(".lang select", "es")
    page.click(".lang button")
    page.wait_for_selector("text=Partidas en juego")
    # then: the pages speak Spanish, the cards keep their Spanish names
    assert page.locator("html").get_attribute("lang") == "es"
    assert page.locator(".hero .card").first.get_attribute("title") == "As de oros"
    page.goto(f"{site}/leaderboards/pocha/")
    assert "Clasificación" in page.locator("h1").inner_text()

    # and: the match page's script speaks Spanish too (two people: nothing is queued for a worker)
    from games.services import challenge_accept
    from tests.factories import MatchFactory
    from tests.web.conftest import person

    ana, ben = person("ana"), person("ben")
    match = MatchFactory(created_by=ana, game="tute2", seats=[ana, ben])
    challenge_accept(match_id=match.pk, player=ben)
    page.goto(f"{site}/matches/{match.pk}/")
    page.wait_for_selector("#info .trump")
    assert page.locator("#info .trump").inner_text().startswith("Triunfo")
    assert page.locator("#info .faceup .card").get_attribute("title").split(" de ")[1] in {
        "oros",
        "copas",
        "espadas",
        "bastos",
    }


def test_a_spectator_sees_the_moves_without_reloading(page: Any, site: str) -> None:
    # given: two people in a Tute 2 match, and a spectator on its page
    from games.services import action_submit, challenge_accept
    from games.states import game_state
    from tests.factories import MatchFactory, current_game
    from tests.web.conftest import person

    ana, ben = person("ana"), person("ben")
    match = MatchFactory(created_by=ana, game="tute2", seats=[ana, ben])
    challenge_accept(match_id=match.pk, player=ben)
    match.refresh_from_db()
    page.goto(f"{site}/matches/{match.pk}/")
    page.wait_for_selector("#seats-panel .seat-box")
    assert page.locator("#hand").count() == 0  # a spectator has no hand
    assert page.locator("#trick .card").count() == 0

    # when: the player to act plays a card (through the service, as the API would)
    game = current_game(match)
    assert game is not None
    state = game_state(match=match, game=game)
    seat = state.current_player()
    code = next(c for c in state.legal_actions() if c.startswith("play:"))
    action_submit(match_id=match.pk, player=ana if seat == 0 else ben, code=code, ply=match.ply)

    # then: the card appears on the spectator's table
    page.wait_for_selector(f'#trick .card[data-code="{code.removeprefix("play:")}"]', timeout=10_000)
    assert page.locator("#turn").inner_text().startswith("Waiting for")


def test_a_long_replay_fetches_its_steps_a_page_at_a_time(page: Any, site: str) -> None:
    # given: a finished bot-only Pocha of twelve hands of ten cards (528 plies: six pages of steps)
    from playwright.sync_api import expect

    from tests.web.conftest import long_bot_pocha

    match = long_bot_pocha(hands=12)
    asked: list[str] = []
    page.on("request", lambda r: asked.append(r.url) if "/replay/" in r.url else None)

    # when: its page opens, the replay shows the deal with no request for steps
    page.goto(f"{site}/matches/{match.pk}/")
    assert page.locator("#step-label").inner_text() == "The deal"
    assert page.locator("#r-hands .seat-hand").count() == 4
    assert asked == []

    # then: jumping to the eleventh hand fetches its page and shows that hand
    page.select_option("#replay-hand", label="Hand 11 of 12")
    start = 10 * 44
    expect(page.locator("#step-label")).to_have_text(f"Step {start} of {match.ply}")
    assert "Hand 11 of 12" in page.locator("#r-info").inner_text()
    assert asked and all("start=400" in url for url in asked)

    # and: a trick forward and the end work across pages; the last step shows the final result
    page.click("#next-trick")
    assert page.locator("#step-label").inner_text() == f"Step {start + 4 + 4} of {match.ply}"
    page.click('[data-go="end"]')
    expect(page.locator("#step-label")).to_have_text(f"Step {match.ply} of {match.ply}")
    assert any("start=500" in url for url in asked)
    assert page.locator("#r-hands .seat-hand .card").count() == 0  # every card played


def test_a_duplicate_boards_second_play_names_who_holds_each_seat(
    page: Any, site: str, tmp_path: Path
) -> None:
    # given: a duplicate Tute 2 board between two people; its first play is over, so in the second the
    # players have swapped hands (ben, match seat 1, holds game seat 0)
    import random

    from playwright.sync_api import expect

    from games.services import action_submit, challenge_accept
    from games.states import game_state
    from tests.factories import MatchFactory, current_game
    from tests.web.conftest import person, play_out

    ana, ben = person("ana"), person("ben")
    by_seat = [ana, ben]
    match = MatchFactory(
        created_by=ana, game="tute2", seats=[ana, ben], format=Match.Format.DUPLICATE, format_target=1
    )
    if match.status == Match.Status.OPEN:
        challenge_accept(match_id=match.pk, player=ben)
    rng = random.Random(7)
    while True:
        match.refresh_from_db()
        game = current_game(match)
        assert game is not None
        if game.number == 1:
            break
        state = game_state(match=match, game=game)
        seat = state.current_player()
        assert seat is not None
        code = rng.choice(state.legal_actions())
        action_submit(match_id=match.pk, player=by_seat[game.match_seat(seat)], code=code, ply=match.ply)
    assert game.seat_map == [1, 0]

    # when: a spectator watches, and the seat to act plays a card
    page.goto(f"{site}/matches/{match.pk}/")
    page.wait_for_selector("#seats-panel .seat-box .facts:not(:empty)")
    state = game_state(match=match, game=game)
    seat = state.current_player()
    assert seat is not None and state.view(None).dealer is not None
    dealer_box = f"#seat-{game.match_seat(state.view(None).dealer)} .marks"
    assert page.locator(dealer_box).inner_text().startswith("D")
    assert page.locator("#info .boardno").inner_text().startswith("Board 1")
    mover = game.match_seat(seat)
    code = next(c for c in state.legal_actions() if c.startswith("play:"))
    action_submit(match_id=match.pk, player=by_seat[mover], code=code, ply=match.ply)
    card = code.removeprefix("play:")
    page.wait_for_selector(f'#trick .card[data-code="{card}"]', timeout=10_000)

    # then: the card is labelled with the name of the person who played it, in their box's place
    names = ["ana", "ben"]
    played = page.locator("#trick .played", has=page.locator(f'.card[data-code="{card}"]'))
    assert played.locator(".who").inner_text() == names[mover]
    # and: each box counts the cards of the hand its person holds now
    assert "cards: 7" in page.locator(f"#seat-{mover} .facts").inner_text()
    assert "cards: 8" in page.locator(f"#seat-{1 - mover} .facts").inner_text()
    assert page.locator("#turn").inner_text() == f"Waiting for {names[1 - mover]}"

    # when: the board is played out and the finished page replays the second play
    play_out(match, seed=8)
    page.goto(f"{site}/matches/{match.pk}/")
    assert_fits_and_accessible(page, "duplicate match")
    page.select_option("#replay-game", index=1)
    page.click("#next-step")
    # then: once the second play's steps have loaded (a fetch; until then the first play's stay shown),
    # its hands are named by who held them (game seat 0: ben), and so is the first move
    expect(page.locator("#step-label")).to_have_text(re.compile(r"^Step 1 of "))
    assert page.locator("#r-hands .seat-hand .name").first.inner_text().startswith("ben")
    assert page.locator("#r-action").inner_text().startswith(names[mover])

    # when: the board's page is opened from the result's list of boards
    page.click(f'#boards a[href="/matches/{match.pk}/boards/0/"]')
    page.wait_for_selector("#plays .play")
    # then: both plays side by side, who held the cards named in each, each play replayable
    assert page.locator("#plays .play").count() == 2
    assert page.locator("#play-1 .holder .name").first.inner_text() == "ana"
    assert page.locator("#play-2 .holder .name").first.inner_text() == "ben"
    assert page.locator("#p2-step-label").inner_text() == page.locator("#p1-step-label").inner_text()
    page.click("#p2-next-step")
    assert page.locator("#p2-r-action").inner_text().startswith(names[mover])
    assert page.locator("#p1-r-action").inner_text() == "The deal"
    assert page.locator("#p2-r-hands .seat-hand .name").first.inner_text().startswith("ben")
    assert_fits_and_accessible(page, "board")
    shoot(page, "board-desktop", tmp_path)
    # and: on a phone the plays stack, nothing scrolls sideways
    for tab in _tab(page.context.browser, PHONE):
        tab.goto(f"{site}/matches/{match.pk}/boards/0/")
        assert_fits_and_accessible(tab, "board (phone)")
        shoot(tab, "board-phone", tmp_path)

    # when: the worker has worked out what the cards average, and ana's page is opened
    from games.models import Game
    from games.services.luck import game_luck_compute

    for game_id in Game.objects.filter(match=match).values_list("pk", flat=True):
        assert game_luck_compute(game_id=game_id) is not None
    page.goto(f"{site}/players/ana/")
    # then: her skill over time is drawn, a dot a game, and the page passes axe
    assert page.locator("#skill-chart-tute2 circle.dot").count() == 2
    assert_fits_and_accessible(page, "player with skill chart")
    shoot(page, "player-skill", tmp_path)


def start_against_bots(page: Any, site: str, game: str, **fields: str) -> Match:
    page.goto(f"{site}/play/")
    page.select_option("#id_game", game)
    for name, value in fields.items():
        if name == "pocha_sequence":
            page.select_option(f"#id_{name}", value)
        else:
            page.fill(f"#id_{name}", value)
    page.click("#play-form button[type=submit]")
    page.wait_for_url(f"{site}/matches/*/")
    return Match.objects.filter(seats__player__user__username=page.locator("header .me").inner_text()).latest(
        "created_at"
    )


@pytest.mark.parametrize(
    ("game", "fields", "seats"),
    [
        ("tute4", {}, 4),
        ("pocha", {"players": "3", "pocha_sequence": "up_down", "pocha_max_cards": "2"}, 3),
    ],
)
def test_tute4_and_a_short_pocha_are_played_to_the_end_on_a_phone(
    phone: Any, site: str, worker: Worker, game: str, fields: dict[str, str], seats: int, tmp_path: Path
) -> None:
    page = phone
    # given: a signed-up person starts the game against the house bots, on a phone
    sign_up(page, site, "marta")
    match = start_against_bots(page, site, game, **fields)
    assert match.num_players == seats
    mine = match.seats.get(player__handle="marta").index

    # then: the table: the person at the bottom, every seat named (distinct names), partner opposite
    page.wait_for_selector("#seats-panel .seat-box .facts:not(:empty)")
    assert "pos-bottom" in (page.get_attribute(f"#seat-{mine}", "class") or "")
    names = [page.locator(f"#seat-{i} .name").inner_text() for i in range(seats)]
    assert len(set(names)) == seats, names
    if game == "tute4":
        partner = page.locator(f"#seat-{(mine + 2) % 4}")
        assert "pos-top" in (partner.get_attribute("class") or "") and "partner" in partner.inner_text()
        assert "opponent" in page.locator(f"#seat-{(mine + 1) % 4}").inner_text()

    looked: list[int] = []

    def on_turn(page: Any, moves: int) -> None:
        # on each turn: the hand in view without scrolling, the person's clock running
        box = page.locator("#hand").bounding_box()
        assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= PHONE["height"], box
        page.wait_for_function(
            f"() => document.querySelector('#seat-{mine} .clock').textContent.trim() !== ''"
        )
        if not looked:
            assert_fits_and_accessible(page, f"{game}: the table on the person's turn")
            shoot(page, f"match-{game}-phone", tmp_path)
        looked.append(moves)

    # when: they play every turn (Pocha's bids are buttons too)
    moves = play_to_the_end(page, timeout=GAME_SECONDS, on_turn=on_turn)

    # then: the match was played to the end and the result shows
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED and match.finish_reason == "completed"
    assert moves == match.actions.filter(seat=mine).count()
    if game == "pocha":
        assert match.actions.filter(seat=mine, code__startswith="bid:").count() == 3  # hands of 1, 2, 1
    assert "marta" in page.locator("#result").inner_text()
    # and: every ply was drawn, in order, from the first the page saw to the last
    shown = shown_plies(page, match.pk)
    assert shown == list(range(shown[0], match.ply + 1)), shown
    assert_fits_and_accessible(page, f"{game}: the result and the replay")


def test_a_person_resigns_from_the_page(page: Any, site: str, worker: Worker) -> None:
    # given: a Tute 2 match against the random bot, on the person's turn
    sign_up(page, site, "marta")
    match = start_against_bots(page, site, "tute2", **{})
    page.wait_for_selector(LEGAL, timeout=30_000)

    # when: they resign and confirm
    page.on("dialog", lambda dialog: dialog.accept())
    page.click("#resign")

    # then: the match is over, lost by resignation
    page.wait_for_selector("#result", timeout=15_000)
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED and match.finish_reason == "resigned"
    assert "resignation" in page.locator("#result").inner_text()


def test_the_bracket_of_a_running_tournament(page: Any, site: str, worker: Worker, tmp_path: Path) -> None:
    # given: a single elimination of a person and seven house bots; the worker plays the bots' matches,
    # the person's waits for them, so the tournament stays in round 1
    from tests.web.conftest import person
    from tournaments.models import Tournament, TournamentMatch
    from tournaments.services import (
        Settings,
        club_create,
        entrant_bot_fill,
        register,
        tournament_create,
        tournament_start,
    )

    ana = person("ana")
    club = club_create(name="Casino de Madrid", slug="casino", by=ana)
    tournament = tournament_create(
        club=club, by=ana, settings=Settings(name="Copa de Bastos", game="tute2", format="single_elim")
    )
    register(tournament_id=tournament.pk, player=ana)
    entrant_bot_fill(tournament_id=tournament.pk, by=ana, level="random", count=7)
    tournament_start(tournament_id=tournament.pk, by=ana)
    wait_for(
        "the three bot matches of round 1",
        lambda: TournamentMatch.objects.filter(tournament=tournament, status="done").count() >= 3,
        timeout=60,
        log=worker.log_tail,
    )

    # when: anyone opens the tournament's page
    page.goto(f"{site}/tournaments/{tournament.pk}/")

    # then: the bracket: three rounds, seven boxes, three winners marked, the person's match to watch
    assert Tournament.objects.get(pk=tournament.pk).status == Tournament.Status.RUNNING
    assert page.locator("#bracket .bracket-round").count() == 3
    assert page.locator("#bracket .bracket-match").count() == 7
    assert page.locator("#bracket .side.won").count() >= 3
    ana_box = page.locator("#bracket .bracket-match", has_text="ana")
    assert ana_box.locator("a", has_text="watch").count() == 1
    assert page.locator("#rounds").count() == 1 and page.locator("#entrants tbody tr").count() == 8
    # and: joined connectors: each pair of boxes feeding one box of the next round is drawn as a pair,
    # the box they feed level with the middle of the two (where their lines meet)
    assert page.locator("#bracket .bracket-slot.pair-top").count() == 3
    assert page.locator("#bracket .bracket-slot.pair-bottom").count() == 3
    rounds = page.locator("#bracket .bracket-round")
    for r in range(2):
        fed = rounds.nth(r).locator(".bracket-match")
        into = rounds.nth(r + 1).locator(".bracket-match")
        for i in range(into.count()):
            top, bottom, box = (
                fed.nth(2 * i).bounding_box(),
                fed.nth(2 * i + 1).bounding_box(),
                into.nth(i).bounding_box(),
            )
            assert top and bottom and box
            middle = (top["y"] + top["height"] / 2 + bottom["y"] + bottom["height"] / 2) / 2
            assert abs(box["y"] + box["height"] / 2 - middle) <= 2
    shoot(page, "tournament-bracket", tmp_path)

    # and: the home page lists the person's live match, the tournament in play and one taking entries
    tournament_create(
        club=club, by=ana, settings=Settings(name="Liga de Copas", game="tute4", format="round_robin")
    )
    page.goto(f"{site}/")
    assert (
        page.locator("text=Liga de Copas").count() == 1 and page.locator("text=Copa de Bastos").count() == 1
    )
    assert page.locator("table.matches").first.locator("tbody tr", has_text="ana").count() == 1
    shoot(page, "home", tmp_path)


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_the_main_pages_fit_the_screen_and_pass_axe(
    browser: Any, site: str, viewport: dict[str, int], tmp_path: Path
) -> None:
    # given: a person with a finished match, a club with a Swiss tournament and a bracket in play
    from tests.web.conftest import bot_match, person, play_out
    from tournaments.services import (
        Settings,
        club_create,
        entrant_bot_fill,
        register,
        tournament_create,
        tournament_start,
    )

    ana = person("ana")
    ana.user.set_password(PASSWORD)
    ana.user.save()
    finished = play_out(bot_match("pocha", ana, players=3))
    club = club_create(name="Casino de Madrid", slug="casino", by=ana)
    swiss = tournament_create(
        club=club,
        by=ana,
        settings=Settings(name="Suizo de Otoño", game="tute2", format="swiss", swiss_rounds=3),
    )
    entrant_bot_fill(tournament_id=swiss.pk, by=ana, level="rule", count=6)
    tournament_start(tournament_id=swiss.pk, by=ana)
    bracket = tournament_create(
        club=club,
        by=ana,
        settings=Settings(name="Copa de Bastos con nombre largo", game="tute2", format="double_elim"),
    )
    register(tournament_id=bracket.pk, player=ana)
    entrant_bot_fill(tournament_id=bracket.pk, by=ana, level="random", count=7)
    tournament_start(tournament_id=bracket.pk, by=ana)

    size = "phone" if viewport is PHONE else "desktop"
    for tab in _tab(browser, viewport):
        tab.goto(f"{site}/login/")
        tab.fill("#id_username", "ana")
        tab.fill("#id_password", PASSWORD)
        tab.click("main button[type=submit]")
        tab.wait_for_url(f"{site}/")
        pages = {
            "home": "/",
            "leaderboard": "/leaderboards/tute2/",
            "player": "/players/ana/",
            "match-pocha-result": f"/matches/{finished.pk}/",
            "play": "/play/",
            "tournaments": "/tournaments/",
            "tournament-swiss": f"/tournaments/{swiss.pk}/",
            "tournament-bracket": f"/tournaments/{bracket.pk}/",
            "tournament-new": "/tournaments/new/",
            "clubs": "/clubs/",
            "club": "/clubs/casino/",
            "bots": "/bots/",
            "tokens": "/tokens/",
            "rules": "/rules/",
        }
        for name, url in pages.items():
            # when: each main page is opened
            tab.goto(f"{site}{url}")
            # then: it fits the screen's width and axe-core finds nothing to fix
            assert_fits_and_accessible(tab, f"{name} ({size})")
            if name in (
                "tournaments",
                "tournament-swiss",
                "tournament-bracket",
                "match-pocha-result",
                "player",
            ):
                shoot(tab, f"{name}-{size}", tmp_path)


def test_a_duplicate_tournaments_board_shows_every_tables_play_side_by_side(
    page: Any, site: str, tmp_path: Path
) -> None:
    from tests.tournaments.conftest import run_to_end
    from tests.web.test_tournament_boards import duplicate_tournament

    # given: a duplicate tournament played to the end (two tables, each board played twice at each)
    t = run_to_end(duplicate_tournament(), lambda tm: None)
    # when: board 1's score sheet is opened
    page.goto(f"{site}/tournaments/{t.pk}/boards/1/")
    page.wait_for_selector("#plays .play")
    # then: every table's play below the sheet, each replayable on its own
    assert page.locator("#plays .play").count() == 4
    assert page.locator("#play-3-title a").inner_text().startswith("Table R1.B")
    page.click("#p3-next-step")
    assert page.locator("#p3-r-action").inner_text() != "The deal"
    assert page.locator("#p1-r-action").inner_text() == "The deal"
    assert_fits_and_accessible(page, "tournament board")
    shoot(page, "tournament-board", tmp_path)


def test_the_table_s_rough_edges_on_a_phone(phone: Any, site: str) -> None:
    """Issue 29.7 on a 390x844 phone: the header's menu button, "skip to your hand", a wide scoresheet
    reachable by keyboard, a board's commitment that wraps, a round's entrants that do not wrap."""
    from tests.factories import MatchFactory
    from tests.web.conftest import play_out
    from tests.web.test_tournament_boards import duplicate_tournament

    # given: ana (who organises a duplicate tournament in play), seated at a live match, with a finished
    # Pocha of six (a scoresheet wider than the phone)
    t = duplicate_tournament()
    ana = Player.objects.get(handle="ana")
    ana.user.set_password(PASSWORD)
    ana.user.save()
    live = MatchFactory(created_by=ana, game="tute4", seats=[ana, "rule", "rule", "rule"])
    wide = play_out(
        MatchFactory(
            created_by=ana,
            game="pocha",
            players=6,
            options={"pocha_sequence": [1, 1]},
            seats=[ana] + ["rule"] * 5,
        )
    )
    phone.goto(f"{site}/login/")
    phone.fill("#id_username", "ana")
    phone.fill("#id_password", PASSWORD)
    phone.click("main button[type=submit]")
    phone.wait_for_url(f"{site}/")

    # when: the live match is opened
    phone.goto(f"{site}/matches/{live.pk}/")
    phone.wait_for_selector("#hand .card")
    # then: the header shows a menu button, its links folded away; Enter opens them, Escape folds them
    toggle = phone.locator("#menu-toggle")
    assert toggle.is_visible() and toggle.get_attribute("aria-expanded") == "false"
    assert not phone.locator("#main-nav").is_visible()
    assert_fits_and_accessible(phone, "match, menu closed")
    toggle.focus()
    phone.keyboard.press("Enter")
    assert toggle.get_attribute("aria-expanded") == "true"
    links = phone.locator("#main-nav a")
    assert links.count() >= 8 and all(links.nth(i).is_visible() for i in range(links.count()))
    assert_fits_and_accessible(phone, "match, menu open")
    phone.keyboard.press("Tab")
    assert phone.evaluate("() => document.activeElement.closest('#main-nav') !== null")
    phone.keyboard.press("Escape")
    assert toggle.get_attribute("aria-expanded") == "false" and not phone.locator("#main-nav").is_visible()
    assert phone.evaluate("() => document.activeElement.id") == "menu-toggle"
    # and: the page's first stop for the keyboard is "skip to your hand", which lands on the hand
    phone.goto(f"{site}/matches/{live.pk}/")
    phone.wait_for_selector("#hand .card")
    phone.keyboard.press("Tab")
    assert phone.evaluate("() => document.activeElement.className") == "skip-link"
    assert phone.locator(".skip-link").is_visible()
    phone.keyboard.press("Enter")
    assert phone.evaluate("() => document.activeElement.id") == "dock"

    # when: the finished Pocha of six is opened
    phone.goto(f"{site}/matches/{wide.pk}/")
    # then: its scoresheet scrolls in a region the keyboard reaches (axe: scrollable-region-focusable)
    region = phone.locator(".table-scroll:has(#final-scoresheet)")
    assert region.get_attribute("tabindex") == "0"
    assert phone.evaluate(
        "() => { const r = document.querySelector('.table-scroll:has(#final-scoresheet)');"
        " return r.scrollWidth > r.clientWidth; }"
    ), "the sheet is wider than the phone"
    assert_fits_and_accessible(phone, "wide Pocha result")

    # when: the tournament's page and its board's page are opened
    phone.goto(f"{site}/tournaments/{t.pk}/")
    # then: each entrant of a round's match stays on one line
    lines = phone.evaluate(
        "() => Array.from(document.querySelectorAll('table.round .entrant')).map((e) => e.getClientRects().length)"
    )
    assert lines and set(lines) == {1}, lines
    assert_fits_and_accessible(phone, "tournament")
    phone.goto(f"{site}/tournaments/{t.pk}/boards/1/")
    # and: the board's 64-hexadecimal commitment wraps instead of widening the page
    assert len(phone.locator("code.seed").inner_text()) == 64
    assert_fits_and_accessible(phone, "tournament board")
