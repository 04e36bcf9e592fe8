"""Issue 29.7, the table's remaining rough edges: what the live table announces follows the rules in
force, a Pocha match's live updates carry its scoresheet only when it changed, the club form makes the
short name from the name and says clearly what is wrong, on the field it is about."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any, cast

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from games.models import Match
from games.selectors import match_context
from games.streams import moments_since
from tests.factories import MatchFactory
from tests.web.conftest import bot_match, person, play_out
from tests.web.test_live import sse_events
from tests.web.test_pages import script_json
from tournaments.models import Club, Tournament
from tournaments.services import club_create
from web.live import moment_payload

pytestmark = pytest.mark.django_db

MATCH_JS = Path(__file__).resolve().parents[2] / "web" / "static" / "web" / "match.js"


# -- the last trick's ten ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("game", "options", "scored"),
    [
        ("tute2", {}, False),
        ("tute2", {"last_trick_bonus": True}, True),
        ("tute4", {}, True),
        ("pocha", {}, False),
    ],
)
def test_the_table_announces_the_last_tricks_ten_only_when_the_rules_score_it(
    client: Client, game: str, options: dict[str, Any], scored: bool
) -> None:
    # given: a live match under its rules (Tute 2 scores no last trick unless chosen, Tute 4 does)
    ana = person("ana")
    seats = {"tute2": 2, "tute4": 4, "pocha": 3}[game]
    match = MatchFactory(
        created_by=ana,
        game=game,
        players=3 if game == "pocha" else None,
        options=options,
        seats=[ana] + ["rule"] * (seats - 1),
    )
    client.force_login(ana.user)

    # when: its page is opened
    html = client.get(reverse("web:match", args=[match.pk])).content.decode()

    # then: the page is told what the engine's rules score, and announces "diez de últimas" from that alone
    assert script_json(html, "scoring-data") == {"last_trick_bonus": scored}
    source = MATCH_JS.read_text()
    assert (
        "scoring.last_trick_bonus" in source
        and 'game !== "pocha") text += " · " + S.diez_ultimas' not in source
    )


# -- the Pocha scoresheet in the live updates --------------------------------------------------------------


def short_pocha(seed: int = 3) -> Match:
    ana = person("ana")
    match = cast(
        Match,
        MatchFactory(
            created_by=ana,
            game="pocha",
            players=3,
            options={"pocha_sequence": [1, 2, 1, 3]},
            seats=[ana, "rule", "rule"],
        ),
    )
    return play_out(match, seed=seed)


def whole_moments(match: Match) -> list[dict[str, Any]]:
    return [
        moment_payload(m)
        for m in moments_since(context=match_context(match.pk, lock=False), player=None, after=0)
    ]


def filled(moments: list[dict[str, Any]], sheet: list[Any] | None = None) -> list[list[Any]]:
    """Each moment's scoresheet as the page keeps it: a moment without one keeps the last one it got."""
    out = []
    for m in moments:
        if "hands_played" in m["view"]:
            sheet = m["view"]["hands_played"]
        assert sheet is not None, m["ply"]
        out.append(sheet)
    return out


def test_a_pocha_stream_sends_the_scoresheet_only_when_a_hand_has_ended(client: Client) -> None:
    # given: a finished Pocha of four hands, watched from its first ply
    match = short_pocha()
    whole = whole_moments(match)

    # when: the page's stream sends every moment
    response = client.get(f"/matches/{match.pk}/events/?after=0&status=in_progress")
    moments = [e[1] for e in sse_events(b"".join(response.streaming_content)) if e[0] == "moment"]  # type: ignore[attr-defined]

    # then: the sheet comes with the first moment and with each moment after a hand ended, no other
    assert [m["ply"] for m in moments] == [m["ply"] for m in whole]
    carried = [i for i, m in enumerate(moments) if "hands_played" in m["view"]]
    changed = [0] + [
        i
        for i in range(1, len(whole))
        if len(whole[i]["view"]["hands_played"]) != len(whole[i - 1]["view"]["hands_played"])
    ]
    assert carried == changed and len(carried) == 1 + 4
    # and: the page, keeping the last sheet it got, has every moment's whole sheet
    assert filled(moments) == [m["view"]["hands_played"] for m in whole]
    assert sum(len(json.dumps(m)) for m in moments) < sum(len(json.dumps(m)) for m in whole)


def test_a_page_that_has_the_sheet_already_is_not_sent_it_again_on_reconnecting(client: Client) -> None:
    # given: a page that saw the match up to the middle of its last hand, with that hand's sheet (3 hands)
    match = short_pocha()
    whole = whole_moments(match)
    at = next(i for i, m in enumerate(whole) if len(m["view"]["hands_played"]) == 3) + 1
    after, known = whole[at - 1]["ply"], whole[at - 1]["view"]["hands_played"]
    sheet = f"{whole[at - 1]['game_number']}:3"

    # when: it reconnects to the stream, and polls the fallback, saying which sheet it has
    stream = client.get(f"/matches/{match.pk}/events/?after={after}&status=in_progress&sheet={sheet}")
    streamed = [e[1] for e in sse_events(b"".join(stream.streaming_content)) if e[0] == "moment"]  # type: ignore[attr-defined]
    polled = client.get(f"/matches/{match.pk}/moments/?after={after}&sheet={sheet}").json()["moments"]

    # then: the sheet it has is not sent again; the one after the last hand is; it can draw every moment
    for moments in (streamed, polled):
        assert "hands_played" not in moments[0]["view"]
        assert "hands_played" in moments[-1]["view"] and len(moments[-1]["view"]["hands_played"]) == 4
        assert filled(moments, known) == [m["view"]["hands_played"] for m in whole[at:]]
    # and: a page that says nothing gets the sheet with its first moment; another sheet is another answer
    fresh = client.get(f"/matches/{match.pk}/moments/?after={after}")
    assert "hands_played" in fresh.json()["moments"][0]["view"]
    assert fresh["ETag"] != client.get(f"/matches/{match.pk}/moments/?after={after}&sheet={sheet}")["ETag"]


def test_a_tute_stream_is_unchanged_but_for_its_empty_sheet(client: Client) -> None:
    match = play_out(bot_match("tute2", person("ana")))
    response = client.get(f"/matches/{match.pk}/events/?after={match.ply - 3}&status=in_progress")
    moments = [e[1] for e in sse_events(b"".join(response.streaming_content)) if e[0] == "moment"]  # type: ignore[attr-defined]
    assert [("hands_played" in m["view"]) for m in moments] == [True, False, False]


# -- the club form -----------------------------------------------------------------------------------------


def test_the_clubs_short_name_is_made_from_its_name_when_left_empty(client: Client) -> None:
    client.force_login(person("ana").user)

    created = client.post(reverse("web:club-new"), {"name": "Peña del Tute Álvarez", "slug": ""})

    assert created.status_code == 302 and created["Location"] == reverse(
        "web:club", args=["pena-del-tute-alvarez"]
    )
    assert Club.objects.get(slug="pena-del-tute-alvarez").name == "Peña del Tute Álvarez"


def form_errors(html: str) -> dict[str, str]:
    """Each field's errors as the page shows them (Django puts a field's list just before its input)."""
    out = {}
    for field, errors in re.findall(r'<ul class="errorlist" id="id_(\w+)_error">(.*?)</ul>', html, re.S):
        out[field] = re.sub(r"<[^>]+>", " ", errors).strip()
    return out


@pytest.mark.parametrize("language", ["en", "es"])
def test_a_short_name_with_spaces_gets_a_clear_error_on_its_own_field(client: Client, language: str) -> None:
    client.force_login(person("ana").user)
    client.cookies["django_language"] = language

    response = client.post(reverse("web:club-new"), {"name": "Casino de Madrid", "slug": "casino madrid"})

    errors = form_errors(response.content.decode())
    assert list(errors) == ["slug"]
    assert "casino-madrid" in errors["slug"] and "slug" not in errors["slug"].lower()
    if language == "es":
        assert "guiones" in errors["slug"]
    assert not Club.objects.exists()


def test_a_taken_short_name_made_from_the_name_is_a_clear_error_on_the_short_name(client: Client) -> None:
    club_create(name="Casino", slug="casino", by=person("ana"))
    client.force_login(person("ben").user)

    response = client.post(reverse("web:club-new"), {"name": "Casino", "slug": ""})

    errors = form_errors(response.content.decode())
    assert list(errors) == ["slug"] and "casino" in errors["slug"] and "choose another" in errors["slug"]
    assert Club.objects.count() == 1


# -- Spanish -----------------------------------------------------------------------------------------------


def test_spanish_counts_one_trick_in_the_singular_and_names_the_hand_number_apart_from_the_mano() -> None:
    from web.fairness import verify_strings
    from web.jsi18n import js_strings

    with translation.override("es"):
        s = js_strings()
        verify = verify_strings()
    # "1 bazas" no more: the page picks the singular form for one trick
    assert s["bid_total_one"] % {"bids": 1, "tricks": 1} == "Pedidas: 1 para 1 baza"
    assert s["bid_total"] % {"bids": 3, "tricks": 2} == "Pedidas: 3 para 2 bazas"
    assert "bid_total_one" in MATCH_JS.read_text()
    # the hand number is a "reparto"; "mano" is the seat that leads
    assert s["hand"] % {"n": 3, "total": 28} == "Reparto 3 de 28"
    assert s["hand_col"] == "Reparto (cartas)" and s["mano"].startswith("Es mano")
    assert verify["deck"].startswith("Reparto %(n)s")
    # and: the verify list names its cards, as the page does everywhere else
    assert verify["suits"]["O"] == "oros" and verify["ranks"]["12"] == "Rey" and verify["of"] == "de"


# -- the tournament form -----------------------------------------------------------------------------------


@pytest.mark.parametrize("language", ["en", "es"])
def test_duplicate_scoring_is_offered_and_taken_for_duplicate_matches_only(
    client: Client, language: str
) -> None:
    ana = person("ana")
    club = club_create(name="Peña", slug="pena", by=ana)
    client.force_login(ana.user)
    client.cookies["django_language"] = language
    # given: the form, whose duplicate scoring shows only for duplicate matches (site.js)
    form = client.get(reverse("web:tournament-new")).content.decode()
    assert re.search(r'<select name="duplicate_scoring"[^>]*data-match-formats="duplicate"', form)

    # when: a Pocha tables tournament of single games asks for total points on the same cards
    response = client.post(
        reverse("web:tournament-new"),
        {
            "club": club.pk,
            "name": "Pocha de los lunes",
            "game": "pocha",
            "format": "pocha_tables",
            "match_format": "single",
            "match_target": "1",
            "duplicate_scoring": "total_points",
            "table_size": "4",
            "pocha_rounds": "3",
            "registration": "open",
            "seeding": "rating",
        },
    )

    # then: a clear error on that field, in the reader's language, and no tournament
    errors = form_errors(response.content.decode())
    assert list(errors) == ["duplicate_scoring"]
    assert ("Duplicado" if language == "es" else "Duplicate") in errors["duplicate_scoring"]
    assert not Tournament.objects.exists()


def test_tie_breaks_are_offered_for_the_formats_that_rank_by_points_only(client: Client) -> None:
    ana = person("ana")
    club_create(name="Peña", slug="pena", by=ana)
    client.force_login(ana.user)
    form = client.get(reverse("web:tournament-new")).content.decode()
    boxes = re.findall(r'<input type="checkbox" name="tie_breaks"[^>]*>', form)
    assert len(boxes) == 5
    assert all('data-formats="round_robin swiss pocha_tables"' in box for box in boxes)
