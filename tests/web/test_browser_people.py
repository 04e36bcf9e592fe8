"""People playing people, in real browsers (Playwright, Debian's chromium), on the live server.

Two people at a private Tute 2 table through its invite link play it to the end; four people (two
browsers, two API clients) play Tute 4 in the pairs they chose; two seeks of close rating become one
match within seconds and a lone seek with house bots after a wait gets them (a real Celery worker runs
the pairer); a challenge from a player's page is accepted live by its target on another page; and every
new page fits a 390x844 phone and passes axe in English and Spanish.
"""

from __future__ import annotations

import random
import re
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest
import requests

from games.models import Match, Player
from tests.factories import token_for
from tests.web.browsing import DESKTOP, LEGAL, PASSWORD, PHONE, _tab, assert_fits_and_accessible
from tests.web.conftest import person
from tests.workers import Worker, wait_for

pytestmark = pytest.mark.django_db(transaction=True)

GAME_SECONDS = 240.0


def account(username: str) -> Player:
    """A person who signed up earlier (their password is PASSWORD)."""
    player = person(username)
    player.user.set_password(PASSWORD)
    player.user.save()
    return player


def log_in(tab: Any, site: str, username: str, *, then: str = "/") -> None:
    tab.goto(f"{site}/login/?next={then}")
    tab.fill("#id_username", username)
    tab.fill("#id_password", PASSWORD)
    tab.click("main button[type=submit]")
    tab.wait_for_url(f"{site}{then}")


@pytest.fixture
def tabs(browser: Any, site: str) -> Iterator[Callable[..., Any]]:
    """Browser tabs of their own contexts (each a person), closed (and checked for script errors) after."""
    opened: list[Iterator[Any]] = []

    def open_tab(viewport: dict[str, int] = DESKTOP) -> Any:
        tab_iter = _tab(browser, viewport)
        opened.append(tab_iter)
        return next(tab_iter)

    yield open_tab
    for tab_iter in opened:
        for _ in tab_iter:  # runs the rest of _tab: closes the context, asserts no script errors
            pass


def play_tabs(tabs: list[Any], match: Match, *, timeout: float = GAME_SECONDS) -> None:
    """Click a highlighted card or button in whichever tab has its turn, until the match is over."""
    from playwright.sync_api import Error as PlaywrightError

    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        match.refresh_from_db()
        if match.status != Match.Status.IN_PROGRESS:
            return
        for tab in tabs:
            try:
                legal = tab.locator(LEGAL)
                if not legal.count():
                    continue
                ply = tab.get_attribute("#live", "data-ply")
                legal.first.click(timeout=3_000)
                tab.wait_for_function(
                    "ply => !document.getElementById('live') || document.getElementById('result')"
                    " || document.getElementById('live').dataset.ply !== ply",
                    arg=ply,
                    timeout=20_000,
                )
            except PlaywrightError as exc:
                # the page reloads itself when the match ends, or the card went as another moment came
                text = str(exc)
                if not any(
                    s in text for s in ("destroyed", "navigat", "detached", "Timeout", "not attached")
                ):
                    raise
        time.sleep(0.05)
    raise AssertionError(f"match {match.pk} did not finish within {timeout:g} s (ply {match.ply})")


class ApiPlayer(threading.Thread):
    """A person playing through the API (as an app would): random legal moves until the match is over."""

    def __init__(self, site: str, player: Player, match_id: int, seed: int) -> None:
        super().__init__(daemon=True)
        self.url = f"{site}/api/v1/matches/{match_id}"
        self.session = requests.Session()
        self.session.headers["Authorization"] = f"Token {token_for(player)}"
        self.rng = random.Random(seed)
        self.moves = 0
        self.failure: str | None = None
        self.stop = threading.Event()

    def run(self) -> None:
        deadline = time.monotonic() + GAME_SECONDS
        while not self.stop.is_set() and time.monotonic() < deadline:
            view = self.session.get(f"{self.url}/view/", timeout=10).json()
            if view["status"] in ("finished", "aborted"):
                return
            if view.get("legal"):
                answer = self.session.post(
                    f"{self.url}/actions/",
                    json={"action": self.rng.choice(view["legal"]), "ply": view["ply"]},
                    timeout=10,
                )
                if answer.status_code == 200:
                    self.moves += 1
                elif answer.json().get("code") not in ("stale_ply", "not_your_turn"):
                    self.failure = answer.text
                    return
            time.sleep(0.2)


def test_two_people_play_a_private_tute2_table_through_its_invite_link(
    tabs: Callable[..., Any], site: str
) -> None:
    # given: ana opens a private, unrated Tute 2 table for a friend
    account("ana")
    ana = tabs()
    log_in(ana, site, "ana", then="/play/")
    ana.select_option("#id_table-game", "tute2")
    ana.uncheck("#id_table-rated")
    ana.select_option("#id_table-seat_0", "me")
    ana.select_option("#id_table-seat_1", "person")
    ana.click("#table-form button[type=submit]")
    ana.wait_for_url(f"{site}/matches/*/")
    link = ana.input_value("#invite-link")
    match = Match.objects.get(created_by__username="ana")
    assert match.private and link.endswith(f"/join/{match.invite_code}/")
    assert_fits_and_accessible(ana, "open table (creator)")

    # when: ben, new here, follows the link on his phone, signs up and takes the free seat
    ben = tabs(PHONE)
    ben.goto(link)
    ben.click("main a.button[href^='/signup/']")
    ben.fill("#id_username", "ben")
    ben.fill("#id_email", "ben@example.com")
    ben.fill("#id_password1", PASSWORD)
    ben.fill("#id_password2", PASSWORD)
    ben.click("#signup-form button[type=submit]")
    ben.wait_for_url(link)
    assert_fits_and_accessible(ben, "join (phone)")
    ben.click("#join-seats button")
    ben.wait_for_url(f"{site}/matches/{match.pk}/")

    # then: the match has started; ana's page, still open, turns into the live table by itself
    match.refresh_from_db()
    assert match.status == Match.Status.IN_PROGRESS and not match.rated
    ana.wait_for_selector("#live", timeout=15_000)
    assert ana.locator("#open-table").count() == 0

    # and: they play it to the end, each in their own browser
    play_tabs([ana, ben], match)
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED and match.finish_reason == "completed"
    for tab in (ana, ben):
        tab.wait_for_selector("#result", timeout=20_000)
    assert ana.locator("#people-rematch").count() == 1


def test_four_people_play_tute4_in_the_pairs_they_chose(tabs: Callable[..., Any], site: str) -> None:
    # given: ana opens a private Tute 4 table; ben is to be her partner (seat 3 on the page: index 2)
    account("ana"), account("ben")
    cris, dani = person("cris"), person("dani")
    ana = tabs()
    log_in(ana, site, "ana", then="/play/")
    ana.select_option("#id_table-game", "tute4")
    for index, choice in enumerate(["me", "person", "person", "person"]):
        ana.select_option(f"#id_table-seat_{index}", choice)
    ana.click("#table-form button[type=submit]")
    ana.wait_for_url(f"{site}/matches/*/")
    match = Match.objects.get(created_by__username="ana")

    # when: ben sits opposite her through the link, and cris and dani join through the API
    ben = tabs(PHONE)
    log_in(ben, site, "ben", then=f"/join/{match.invite_code}/")
    ben.click("#join-seats li:nth-child(3) button")
    ben.wait_for_url(f"{site}/matches/{match.pk}/")
    for player, seat in ((cris, 1), (dani, 3)):
        answer = requests.post(
            f"{site}/api/v1/matches/{match.pk}/join/",
            json={"seat": seat, "invite_code": match.invite_code},
            headers={"Authorization": f"Token {token_for(player)}"},
            timeout=10,
        )
        assert answer.status_code == 200, answer.text

    # then: the pairs are as chosen, and the four play it to the end
    match.refresh_from_db()
    assert match.status == Match.Status.IN_PROGRESS
    by_seat = {s.index: s.player.handle for s in match.seats.select_related("player")}
    assert by_seat == {0: "ana", 1: "cris", 2: "ben", 3: "dani"}
    apps = [ApiPlayer(site, player, match.pk, seed) for seed, player in enumerate((cris, dani))]
    for app in apps:
        app.start()
    ana.wait_for_selector("#live", timeout=15_000)
    try:
        play_tabs([ana, ben], match)
    finally:
        for app in apps:
            app.stop.set()
            app.join(timeout=15)
    assert [app.failure for app in apps] == [None, None]
    assert all(app.moves > 0 for app in apps)
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    ana.wait_for_selector("#result", timeout=20_000)


def test_quick_pairing_seats_two_close_seeks_together_and_a_lone_seek_with_house_bots(
    tabs: Callable[..., Any], site: str, worker: Worker
) -> None:
    # given: two people of close rating looking for Tute 2 on the website
    account("ana"), account("ben"), account("cris")
    seekers = []
    for name in ("ana", "ben"):
        tab = tabs()
        log_in(tab, site, name, then="/play/")
        tab.select_option("#id_seek-game", "tute2")
        tab.click("#seek-form button[type=submit]")
        # the wait's page, or the match itself when the worker seated the second seek before it loaded
        tab.wait_for_url(re.compile(rf"{re.escape(site)}/(play/seeks|matches)/\d+/"))
        seekers.append(tab)
    # then: within seconds both pages go to the same match, which has started
    started = time.monotonic()
    for tab in seekers:
        tab.wait_for_url(f"{site}/matches/*/", timeout=20_000)
    waited = time.monotonic() - started
    urls = {tab.url for tab in seekers}
    assert len(urls) == 1, urls
    match = Match.objects.get(pk=int(urls.pop().rstrip("/").rsplit("/", 1)[1]))
    assert match.status == Match.Status.IN_PROGRESS
    assert {s.player.handle for s in match.seats.select_related("player")} == {"ana", "ben"}
    assert waited < 20

    # when: cris looks for Tute 2 alone, house bots after 30 seconds
    lone = tabs(PHONE)
    log_in(lone, site, "cris", then="/play/")
    lone.select_option("#id_seek-game", "tute2")
    lone.select_option("#id_seek-bots_after_seconds", "30")
    lone.click("#seek-form button[type=submit]")
    lone.wait_for_url(f"{site}/play/seeks/*/")
    assert_fits_and_accessible(lone, "seek wait (phone)")
    assert lone.inner_text("#seek-waited").startswith("waiting 0:")

    # then: after the wait, a match against a house bot
    lone.wait_for_url(f"{site}/matches/*/", timeout=60_000)
    bots = Match.objects.exclude(pk=match.pk).get(seats__player__handle="cris")
    assert bots.status == Match.Status.IN_PROGRESS
    assert [s.bot_level for s in bots.seats.order_by("index")][1] != ""


def test_a_challenge_from_a_player_page_is_accepted_live_by_its_target(
    tabs: Callable[..., Any], site: str
) -> None:
    # given: ben, signed in, is reading the lobby; ana opens his page
    account("ana"), account("ben")
    ben = tabs()
    log_in(ben, site, "ben", then="/lobby/")
    ana = tabs()
    log_in(ana, site, "ana", then="/players/ben/")
    assert "Online now" in ana.inner_text("main")

    # when: ana challenges him to an unrated Tute 2
    ana.click("#challenge-box summary")
    ana.select_option("#id_challenge-game", "tute2")
    ana.uncheck("#id_challenge-rated")
    ana.click("#challenge-form button[type=submit]")
    ana.wait_for_url(f"{site}/matches/*/")
    match = Match.objects.get(created_by__username="ana")
    assert "not answered yet" in ana.inner_text("#table-seats")

    # then: the challenge shows on ben's page without a reload, and he accepts it there
    ben.wait_for_selector("#challenges .challenge", timeout=15_000)
    assert "ana challenges you to Tute (2 players)" in ben.inner_text("#challenges")
    assert_fits_and_accessible(ben, "challenge banner")
    ben.click("#challenges button[value=accept]")
    ben.wait_for_url(f"{site}/matches/{match.pk}/")
    match.refresh_from_db()
    assert match.status == Match.Status.IN_PROGRESS
    # and ana's page turns into the live table by itself
    ana.wait_for_selector("#live", timeout=15_000)
    wait_for("ana's page without the open table", lambda: ana.locator("#open-table").count() == 0, timeout=15)


@pytest.mark.parametrize("language", ["en", "es"])
def test_the_new_pages_fit_a_phone_and_pass_axe_in_both_languages(
    tabs: Callable[..., Any], site: str, language: str
) -> None:
    # given: ana with an open table, a private table, a waiting seek and a challenge for her
    from games.services import SeatSpec, match_create, match_spec
    from lobby.services import seek_create

    ana, ben = account("ana"), account("ben")
    public = match_create(spec=match_spec(created_by=ben, game="tute4"))
    private = match_create(spec=match_spec(created_by=ana, game="pocha", players=3, private=True))
    match_create(
        spec=match_spec(
            created_by=ben, game="tute2", seats=[SeatSpec(player="ben"), SeatSpec(player="ana")], private=True
        )
    )
    seek = seek_create(player=ana, game="tute2")
    seek_create(player=ben, game="pocha", players=3)

    tab = tabs(PHONE)
    tab.context.add_cookies([{"name": "django_language", "value": language, "url": site}])
    tab.goto(f"{site}/join/{private.invite_code}/")
    assert_fits_and_accessible(tab, f"join, signed out ({language})")
    log_in(tab, site, "ana")
    tab.wait_for_selector("#challenges .challenge", timeout=15_000)
    pages = {
        "play": "/play/",
        "lobby": "/lobby/",
        "seek": f"/play/seeks/{seek.pk}/",
        "open table (creator)": f"/matches/{private.pk}/",
        "open table (public)": f"/matches/{public.pk}/",
        "player with challenge": "/players/ben/",
    }
    for name, url in pages.items():
        tab.goto(f"{site}{url}")
        if name == "player with challenge":
            tab.click("#challenge-box summary")
        assert tab.locator("html").get_attribute("lang") == language
        assert_fits_and_accessible(tab, f"{name} ({language})")
    if language == "es":
        tab.goto(f"{site}/lobby/")
        assert "Mesas abiertas" in tab.inner_text("main")
