"""Spanish and English, card names in Spanish in both, the rating chart's geometry, static files."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest
from django.core.management import call_command
from django.test import Client, override_settings
from django.urls import reverse
from django.utils import translation

from web.cards import action_label, card_name
from web.charts import rating_chart, skill_chart

pytestmark = pytest.mark.django_db


def test_pages_speak_spanish_when_asked(client: Client) -> None:
    english = client.get(reverse("web:leaderboard", args=["tute2"])).content.decode()
    spanish = client.get(
        reverse("web:leaderboard", args=["tute2"]), HTTP_ACCEPT_LANGUAGE="es"
    ).content.decode()

    assert "Leaderboard" in english and '<html lang="en' in english
    assert "Clasificación" in spanish and '<html lang="es"' in spanish
    assert "Leaderboard" not in spanish


def test_the_language_switcher_sets_spanish(client: Client) -> None:
    response = client.post(reverse("set_language"), {"language": "es", "next": "/"})

    assert response.status_code == 302
    assert "Partidas en juego" in client.get("/").content.decode()


def test_card_and_suit_names_are_spanish_in_both_languages() -> None:
    for language in ("en", "es"):
        with translation.override(language):
            assert card_name("12C") == "Rey de copas"
            assert card_name("10O") == "Sota de oros"
            assert card_name("11E") == "Caballo de espadas"
            assert card_name("1B") == "As de bastos"
            assert card_name("7O") == "7 de oros"
    with translation.override("en"):
        assert action_label("sing:E") == "Sing in espadas"
        assert action_label("exchange:7O") == "Swap the 7 de oros for the face-up card"
    with translation.override("es"):
        assert action_label("sing:E") == "Cantar en espadas"
        assert action_label("play:12C") == "Jugar Rey de copas"


def test_the_rating_chart_scales_the_history_into_the_box() -> None:
    history = [
        {"date": datetime(2026, 11, d, tzinfo=UTC), "rating": r, "change": 0, "match": d}
        for d, r in ((1, 1520.0), (2, 1560.0), (3, 1490.0))
    ]

    chart = rating_chart(history, initial=1500.0)

    assert chart is not None
    assert [p.rating for p in chart.points] == [1500, 1520, 1560, 1490]
    xs = [p.x for p in chart.points]
    assert xs == sorted(xs) and xs[0] == chart.left and xs[-1] == chart.right
    ys = {p.rating: p.y for p in chart.points}
    assert ys[1560] < ys[1520] < ys[1500] < ys[1490]  # higher rating, higher on the page
    assert all(chart.top <= p.y <= chart.bottom for p in chart.points)
    assert [t.label for t in chart.x_ticks] == ["2026-11-01", "2026-11-02", "2026-11-03"]
    assert [t.anchor for t in chart.x_ticks] == ["middle", "middle", "end"]  # the last label ends at the edge
    assert rating_chart([]) is None


def test_the_skill_chart_puts_each_game_against_zero_and_draws_the_running_average() -> None:
    day = datetime(2026, 3, 1, tzinfo=UTC)
    rows = [
        {"finished_at": day.replace(day=d), "skill": skill, "match": d}
        for d, skill in ((1, 10.0), (2, -20.0), (3, 4.0))
    ]

    chart = skill_chart(rows)

    assert chart is not None and skill_chart([]) is None
    # then: a game above zero is drawn above the zero line, one below under it, oldest on the left
    assert [p.skill for p in chart.points] == [10.0, -20.0, 4.0]
    assert chart.points[0].y < chart.zero < chart.points[1].y
    assert [p.x for p in chart.points] == sorted(p.x for p in chart.points)
    assert chart.top <= min(p.y for p in chart.points) and max(p.y for p in chart.points) <= chart.bottom
    # and: the line is the average so far: 10, -5, -2
    averages = [float(xy.split(",")[1]) for xy in chart.average.split()]
    assert averages[0] == chart.points[0].y and chart.latest == -2.0
    assert averages[1] > chart.zero > averages[0]  # -5 is below zero (greater y)
    assert [t.label for t in chart.x_ticks] == ["2026-03-01", "2026-03-02", "2026-03-03"]
    assert "0" in [t.label for t in chart.y_ticks]


def test_collectstatic_gathers_the_sites_files(tmp_path: Path) -> None:
    manifest = {"BACKEND": "django.contrib.staticfiles.storage.ManifestStaticFilesStorage"}
    with override_settings(STATIC_ROOT=tmp_path, STORAGES={"staticfiles": manifest}):
        call_command("collectstatic", "--noinput", verbosity=0)
    assert (tmp_path / "web" / "site.css").exists()
    assert (tmp_path / "web" / "match.js").exists()
    assert (tmp_path / "staticfiles.json").exists()  # the manifest production serves hashed names from
