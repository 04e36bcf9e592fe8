"""Spanish complete: every catalogue entry translated and compiled, no English left on the main pages,
service objections in Spanish, and numbers in the rating chart's SVG never written with a decimal comma."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

import polib
import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse
from django.utils import translation

from ratings.models import RatingChange
from tests.web.conftest import bot_match, person, play_out, rate
from tournaments.services import Settings, club_create, entrant_bot_fill, tournament_create, tournament_start
from web.errors import error_text

pytestmark = pytest.mark.django_db

LOCALE = Path(settings.BASE_DIR) / "web" / "locale" / "es" / "LC_MESSAGES"


def test_every_entry_of_the_catalogue_is_translated_and_compiled() -> None:
    po = polib.pofile(str(LOCALE / "django.po"))
    fuzzy = [e.msgid for e in po.fuzzy_entries()]
    untranslated = [e.msgid for e in po.untranslated_entries()]
    assert fuzzy == [] and untranslated == []
    assert po.obsolete_entries() == []
    # and: the compiled catalogue says the same
    mo = {(e.msgctxt, e.msgid): (e.msgstr, e.msgstr_plural) for e in polib.mofile(str(LOCALE / "django.mo"))}
    for e in po.translated_entries():
        assert mo.get((e.msgctxt, e.msgid)) == (e.msgstr, e.msgstr_plural), f"not compiled: {e.msgid!r}"


def test_questions_and_exclamations_open_in_spanish() -> None:
    po = polib.pofile(str(LOCALE / "django.po"))
    for e in po.translated_entries():
        for text in [e.msgstr, *e.msgstr_plural.values()]:
            for sentence in re.split(r"(?<=[.:;])\s+", text):
                if sentence.endswith("?"):
                    assert "¿" in sentence, f"{text!r} lacks its ¿"
                if sentence.endswith("!"):
                    assert "¡" in sentence, f"{text!r} lacks its ¡"


class _Text(HTMLParser):
    """The text a reader sees (not scripts, styles, the JSON data islands or code, which is not translated)."""

    def __init__(self) -> None:
        super().__init__()
        self.parts: list[str] = []
        self._skip = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("script", "style", "pre", "code"):
            self._skip += 1
        for name, value in attrs:
            if name in ("title", "aria-label", "placeholder") and value:
                self.parts.append(value)

    def handle_endtag(self, tag: str) -> None:
        if tag in ("script", "style", "pre", "code"):
            self._skip -= 1

    def handle_data(self, data: str) -> None:
        if not self._skip:
            self.parts.append(data)


def english_left(html: str) -> list[str]:
    """Catalogue sentences shown in English on a Spanish page."""
    parser = _Text()
    parser.feed(html)
    text = " ".join(" ".join(parser.parts).split())
    po = polib.pofile(str(LOCALE / "django.po"))
    found = []
    for e in po.translated_entries():
        if e.msgid == e.msgstr or "%(" in e.msgid or len(e.msgid) < 6 or " " not in e.msgid:
            continue
        if re.search(r"(?<![\w-])" + re.escape(e.msgid) + r"(?![\w-])", text):
            found.append(e.msgid)
    return found


def test_the_main_pages_have_no_english_left_in_spanish(client: Client) -> None:
    # given: a person who played a rated match, and a running tournament they organise
    ana = person("ana")
    rating = rate("tute2", ana, 1510, matches=1)
    done = play_out(bot_match("tute2", ana))
    RatingChange.objects.create(
        match=done,
        rating=rating,
        pool="tute2",
        subject=rating.subject,
        before=1500,
        after=1510,
        delta=10,
        k=40,
        played_at=done.finished_at,
    )
    live = bot_match("tute4", ana)
    club = club_create(name="Peña El Rey", slug="pena", by=ana)
    tournament = tournament_create(
        club=club, by=ana, settings=Settings(name="Copa", game="tute2", format="swiss", swiss_rounds=3)
    )
    entrant_bot_fill(tournament_id=tournament.pk, by=ana, level="rule", count=4)
    tournament_start(tournament_id=tournament.pk, by=ana)
    client.force_login(ana.user)

    pages = [
        "/",
        "/leaderboards/tute2/",
        "/players/ana/",
        f"/matches/{done.pk}/",
        f"/matches/{live.pk}/",
        "/play/",
        "/tournaments/",
        f"/tournaments/{tournament.pk}/",
        "/tournaments/new/",
        "/clubs/",
        "/clubs/pena/",
        "/bots/",
        "/tokens/",
        "/ladder/tute2/",
    ]
    for url in pages:
        # when: each is read in Spanish
        response = client.get(url, HTTP_ACCEPT_LANGUAGE="es")
        assert response.status_code == 200, url
        # then: no sentence of the catalogue is left in English
        assert english_left(response.content.decode()) == [], url


def test_service_objections_are_spanish_on_spanish_pages(client: Client) -> None:
    ana = person("ana")
    club_create(name="Peña", slug="pena", by=ana)
    client.force_login(ana.user)
    html = client.post(
        reverse("web:club-new"), {"name": "Otra", "slug": "pena"}, HTTP_ACCEPT_LANGUAGE="es"
    ).content.decode()
    assert "Otro club tiene el nombre corto «pena»: elige otro." in html  # the form's own words (issue 29.7)

    from tournaments.errors import ClubSlugTaken

    with translation.override("en"):
        assert error_text(ClubSlugTaken("the slug pena is taken")) == "the slug pena is taken"


def test_the_rating_chart_writes_numbers_with_a_point_in_spanish(client: Client) -> None:
    # given: a rated history whose chart has fractional coordinates
    ana = person("ana")
    rating = rate("tute2", ana, 1533, matches=3)
    for i, after in enumerate((1512.5, 1547.25, 1533.0)):
        match = play_out(bot_match("tute2", ana), seed=i)
        RatingChange.objects.create(
            match=match,
            rating=rating,
            pool="tute2",
            subject=rating.subject,
            before=after - 7.3,
            after=after,
            delta=7.3,
            k=40,
            played_at=match.finished_at,
        )
    # when: the Spanish player page is read
    html = client.get("/players/ana/", HTTP_ACCEPT_LANGUAGE="es").content.decode()
    svg = re.search(r'<svg class="chart".*?</svg>', html, re.S)
    assert svg is not None
    # then: every number in the SVG's geometry has a decimal point, never a comma
    number = r"-?\d+(\.\d+)?"
    singles = re.findall(r'\b(?:x|y|x1|x2|y1|y2|cx|cy)="([^"]*)"', svg.group(0))
    assert singles and all(re.fullmatch(number, v) for v in singles), singles
    points = re.search(r'points="([^"]*)"', svg.group(0))
    assert points is not None
    assert all(re.fullmatch(f"{number},{number}", pair) for pair in points.group(1).split())
