"""A club night over the board in a real browser: the organiser enters a round's results through the
website's form (games for one table, a plain result for the other), and the result form, the printed
pages and the standings screen fit a phone and a 1920x1080 screen with 0 axe violations."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest

from tests.web.browsing import DESKTOP, PASSWORD, PHONE, _tab, assert_fits_and_accessible
from tests.web.conftest import person
from tournaments.models import Round, Tournament, TournamentMatch
from tournaments.services import Settings, club_create, entrant_bot_fill, tournament_create, tournament_start

pytestmark = pytest.mark.django_db(transaction=True)

TV = {"width": 1920, "height": 1080}


@pytest.fixture
def tabs(browser: Any, site: str) -> Iterator[Callable[..., Any]]:
    opened: list[Iterator[Any]] = []

    def open_tab(viewport: dict[str, int] = DESKTOP) -> Any:
        tab_iter = _tab(browser, viewport)
        opened.append(tab_iter)
        return next(tab_iter)

    yield open_tab
    for tab_iter in opened:
        for _ in tab_iter:
            pass


def test_an_organiser_enters_a_round_over_the_board_and_the_paper_and_screen_pages_read_well(
    tabs: Callable[..., Any], site: str
) -> None:
    # given: a Swiss of four over the board, running, organised by ana
    ana = person("ana")
    ana.user.set_password(PASSWORD)
    ana.user.save()
    club = club_create(name="Peña El As", slug="el-as", by=ana)
    t = tournament_create(
        club=club,
        by=ana,
        settings=Settings(
            name="Noche de Tute", game="tute2", format="swiss", swiss_rounds=2, play="table", seeding="manual"
        ),
    )
    entrant_bot_fill(tournament_id=t.pk, by=ana, level="random", count=4)
    tournament_start(tournament_id=t.pk, by=ana)
    first, second = TournamentMatch.objects.filter(tournament=t).order_by("board")

    tab = tabs(PHONE)
    tab.goto(f"{site}/login/?next=/tournaments/{t.pk}/")
    tab.fill("#id_username", "ana")
    tab.fill("#id_password", PASSWORD)
    tab.click("main button[type=submit]")
    tab.wait_for_url(f"{site}/tournaments/{t.pk}/")

    # when: she enters table 1's game through the form
    tab.click(f"a[href='/tournaments/{t.pk}/matches/{first.pk}/result/']")
    tab.wait_for_url(f"{site}/tournaments/{t.pk}/matches/{first.pk}/result/")
    assert_fits_and_accessible(tab, "result form (phone)")
    tab.fill("#id_g0_points_0", "64")
    tab.fill("#id_g0_points_1", "56")
    tab.fill("#id_g0_cantes_1", "20")
    tab.select_option("#id_g0_last", "1")
    tab.click("#result-form button[type=submit]")
    tab.wait_for_url(f"{site}/tournaments/{t.pk}/#rounds")
    first.refresh_from_db()
    assert first.status == TournamentMatch.Status.DONE and first.card_points == [64, 76]

    # and: table 2 as a plain result
    tab.click(f"a[href='/tournaments/{t.pk}/matches/{second.pk}/result/']")
    tab.check("#id_mode_1")
    tab.select_option("#id_winner", "0")
    tab.click("#result-form button[type=submit]")
    tab.wait_for_url(f"{site}/tournaments/{t.pk}/#rounds")

    # then: the round is complete, its results in the standings
    assert Round.objects.get(tournament=t, number=1).status == Round.Status.COMPLETE
    assert Tournament.objects.get(pk=t.pk).status == Tournament.Status.RUNNING

    # and: the printed pages and the screen fit a phone and a TV, with nothing for axe to fix
    for viewport, size in ((PHONE, "phone"), (TV, "1920x1080")):
        view = tabs(viewport)
        view.goto(f"{site}/tournaments/{t.pk}/print/")
        assert view.locator(".score-sheet .qr").count() == 2
        assert_fits_and_accessible(view, f"print ({size})")
        view.goto(f"{site}/tournaments/{t.pk}/screen/")
        assert view.locator("header.top").is_hidden()
        assert_fits_and_accessible(view, f"screen ({size})")
        if viewport is TV:  # readable from across a room
            size_px = view.evaluate(
                "() => parseFloat(getComputedStyle(document.querySelector('.screen-list td')).fontSize)"
            )
            assert size_px >= 28, size_px
