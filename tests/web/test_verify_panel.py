"""The finished match's "verify this deal" panel: the revealed seeds on the page (never before the end),
in English and Spanish, and its script recomputing every card in a real browser with no server call."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.test import Client

from games.models import Game, Match
from games.services.luck import game_luck_compute
from tests.web.conftest import bot_match, person, play_out

pytestmark = pytest.mark.django_db

SCRIPT = Path(settings.BASE_DIR) / "web" / "static" / "web" / "verify.js"


def panel_data(html: str) -> list[dict[str, Any]]:
    found = re.search(r'<script id="verify-data" type="application/json">(.*?)</script>', html, re.S)
    assert found, "the panel's data is on the page"
    return list(json.loads(found.group(1)))


def finished(game: str = "tute2") -> Match:
    return play_out(bot_match(game, person(f"v-{game}")), seed=4)


def test_a_finished_match_shows_the_panel_with_the_revealed_seeds(client: Client) -> None:
    match = finished()
    game = Game.objects.get(match=match)
    html = client.get(f"/matches/{match.pk}/").content.decode()
    assert 'id="verify"' in html and "Verify this deal" in html and "web/verify.js" in html
    [data] = panel_data(html)
    assert data["server_seed"] == game.server_seed and data["seed"] == game.seed
    assert data["client_seeds"] == game.client_seeds and data["decks"] == game.decks
    # and: in Spanish
    spanish = client.get(f"/matches/{match.pk}/", HTTP_ACCEPT_LANGUAGE="es").content.decode()
    assert "Comprueba este reparto" in spanish


def test_no_panel_and_no_seed_while_the_match_is_played(client: Client) -> None:
    match = bot_match("tute2", person("v-live"))
    game = Game.objects.get(match=match)
    html = client.get(f"/matches/{match.pk}/").content.decode()
    assert 'id="verify-data"' not in html
    assert game.server_seed not in html and game.seed not in html


def run_panel(browser: Any, html: str) -> str:
    page = browser.new_page()
    try:
        page.route("**/*", lambda route: route.abort())  # no server at all: the page alone
        page.set_content(html)
        page.add_script_tag(content=SCRIPT.read_text())
        page.click("#verify-run")
        return str(page.inner_text("#verify")).strip()
    finally:
        page.close()


@pytest.mark.parametrize("game", ["tute2", "tute4", "pocha"])
def test_the_browser_recomputes_every_card(browser: Any, client: Client, game: str) -> None:
    match = finished(game)
    html = client.get(f"/matches/{match.pk}/").content.decode()
    text = run_panel(browser, html)
    assert "Every check passed" in text, text
    assert "does not match" not in text
    data = panel_data(html)[0]
    assert data["seed_sha256"] in text and data["seed"] in text
    assert text.count("verified:") >= 2 + len(data["decks"])
    # and: each seat's cards by their names ("3 de oros"), never their codes ("3O")
    dealt = [line for line in text.splitlines() if " was dealt: " in line]
    assert dealt and all(" de " in line for line in dealt), dealt
    assert not re.search(r"\b(?:[1-9]|1[0-2])[OCEB]\b", "\n".join(dealt)), dealt


def test_the_browser_catches_a_card_the_seeds_do_not_give(browser: Any, client: Client) -> None:
    match = finished()
    html = client.get(f"/matches/{match.pk}/").content.decode()
    [data] = panel_data(html)
    forged = [dict(data, decks=[[*data["decks"][0][1:], data["decks"][0][0]]])]
    original = re.search(r'<script id="verify-data" type="application/json">(.*?)</script>', html, re.S)
    assert original is not None
    forged_html = html.replace(original.group(1), json.dumps(forged))
    text = run_panel(browser, forged_html)
    assert "A check failed" in text and "does not match" in text


def test_the_page_shows_what_the_cards_average(client: Client) -> None:
    alice = person("v-luck")
    match = play_out(bot_match("tute4", alice), seed=5)
    game = Game.objects.get(match=match)
    assert game.result is not None
    assert 'id="luck"' not in client.get(f"/matches/{match.pk}/").content.decode()  # not worked out yet
    luck = game_luck_compute(game_id=game.pk)
    assert luck is not None
    client.force_login(alice.user)
    html = client.get(f"/matches/{match.pk}/").content.decode()
    mine = f"you scored {game.result['scores'][0]}; these cards average {luck['expected'][0]}"
    assert 'id="luck"' in html and mine in html
    spanish = client.get(f"/matches/{match.pk}/", HTTP_ACCEPT_LANGUAGE="es").content.decode()
    assert f"sumaste {game.result['scores'][0]}; estas cartas suman de media" in spanish


def test_the_player_page_shows_skill_against_the_cards(client: Client) -> None:
    alice = person("v-skill")
    match = play_out(bot_match("tute2", alice), seed=6)
    assert 'id="skill"' not in client.get(f"/players/{alice.handle}/").content.decode()
    game = Game.objects.get(match=match)
    luck = game_luck_compute(game_id=game.pk)
    assert luck is not None and game.result is not None
    html = client.get(f"/players/{alice.handle}/").content.decode()
    skill = round(game.result["scores"][0] - luck["expected"][0], 1)
    assert 'id="skill"' in html and f"{skill} a game on average" in html
    chart = re.search(r'<svg class="chart" id="skill-chart-tute2".*?</svg>', html, re.S)
    assert chart is not None and chart.group(0).count("<circle") == 1
    assert "Skill over time, Tute 2" in chart.group(0)
    spanish = client.get(f"/players/{alice.handle}/", HTTP_ACCEPT_LANGUAGE="es").content.decode()
    assert (
        f"{str(skill).replace('.', ',')} por partida de media" in spanish
        or f"{skill} por partida de media" in spanish
    )


def test_the_skill_chart_follows_the_games_in_a_bounded_number_of_queries(
    client: Client, django_assert_max_num_queries: Any
) -> None:
    # given: three finished games of alice with their luck figures
    alice = person("v-chart")
    skills = []
    for seed in (7, 8, 9):
        game = Game.objects.get(match=play_out(bot_match("tute2", alice), seed=seed))
        luck = game_luck_compute(game_id=game.pk)
        assert luck is not None and game.result is not None
        skills.append(round(game.result["scores"][0] - luck["expected"][0], 1))

    # when: her page is read (the page's nine queries, and the skill's seats)
    with django_assert_max_num_queries(10):
        html = client.get(f"/players/{alice.handle}/").content.decode()

    # then: one dot per game, oldest first, and the running average's line
    chart = re.search(r'<svg class="chart" id="skill-chart-tute2".*?</svg>', html, re.S)
    assert chart is not None
    dots = re.findall(
        r'<circle [^>]*class="dot (up|down)"><title>[^<]* ([-+]?[0-9.]+)</title>', chart.group(0)
    )
    assert [float(value) for _, value in dots] == skills
    assert [kind for kind, _ in dots] == ["up" if s >= 0 else "down" for s in skills]
    assert len(re.search(r'<polyline points="([^"]+)"', chart.group(0)).group(1).split()) == 3  # type: ignore[union-attr]
    # and: in Spanish
    spanish = client.get(f"/players/{alice.handle}/", HTTP_ACCEPT_LANGUAGE="es").content.decode()
    assert "Habilidad a lo largo del tiempo, Tute 2" in spanish


def test_the_play_form_takes_a_client_seed(client: Client) -> None:
    client.force_login(person("v-seed").user)
    response = client.post(
        "/play/", {"game": "tute2", "bot": "rule", "players": "", "client_seed": "my 7 dice"}
    )
    assert response.status_code == 302
    match = Match.objects.get()
    assert Game.objects.get(match=match).client_seeds == ["my 7 dice", ""]
    refused = client.post("/play/", {"game": "tute2", "bot": "rule", "players": "", "client_seed": "a:b"})
    assert refused.status_code == 200 and "may not contain" in refused.content.decode()
    assert Match.objects.count() == 1
