"""Website bench (issue 18): each main page's weight and server time, and what a live match tab downloads
per ply (Server-Sent Events, the conditional fallback, and the old 500 ms polling for comparison).

Run by hand from the project root (nothing needs to be running)::

    python bench/web.py [--repeat N]

It sets Django up on a throwaway SQLite database in a temporary directory (DEBUG off, the production
settings otherwise), migrates it, makes a person with a finished Tute 2 match and a finished Tute 4 match
against the rule bot and a duplicate Tute 4 match of two boards (played through ``games.services``, as the
workers would, with each game's luck figure for the player's skill chart), a club with a Swiss
tournament of six rule bots in play, and reads every main page ``--repeat`` times (5) with Django's test
client in this process: the figures are the page's HTML bytes (and gzipped, as a browser on a compressing
proxy gets them; the stylesheet and scripts are cached after the first page and listed once) and the
median server time (no network). For the live tab it reads the finished Tute 4 match's event stream from
its first ply (every moment a watcher gets, one per ply) and the fallback's answers, and divides by the
plies; and the same for a Pocha match of 4 (whose moments carry its scoresheet when a hand ends).
"""

from __future__ import annotations

import argparse
import gzip
import json
import logging
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def setup() -> None:
    data = tempfile.mkdtemp(prefix="tute-bench-web-")
    os.environ["DATABASE_URL"] = f"sqlite:///{data}/db.sqlite3"
    os.environ["TUTE_DATA_DIR"] = data
    os.environ.setdefault("DJANGO_SECRET_KEY", "bench-" + "x" * 50)
    os.environ.setdefault("DJANGO_ALLOWED_HOSTS", "testserver")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tute_site.settings")
    os.environ.pop("CELERY_BROKER_URL", None)
    import django

    django.setup()
    from django.conf import settings
    from django.core.management import call_command

    # The static files as they are in the tree (no collectstatic into the project): the same bytes.
    settings.STORAGES = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
    }
    logging.disable(logging.INFO)
    call_command("migrate", verbosity=0)


def play_out(match_id: int) -> int:
    """The match played to its end: the person's seat by the rule bot's choice, the house bots' own."""
    from games.models import Match, Seat
    from games.services import action_submit, bot_turn_play
    from games.services.play import house_bot_action
    from games.states import game_state

    match = Match.objects.get(pk=match_id)
    people = {s.index: s.player for s in Seat.objects.select_related("player").filter(match=match)}
    while match.status == Match.Status.IN_PROGRESS:
        game = match.current_game
        assert game is not None
        state = game_state(match=match, game=game)
        seat = state.current_player()
        assert seat is not None
        person = people[game.match_seat(seat)]  # a duplicate board's later plays rotate the seats
        if person is None:
            bot_turn_play(match_id=match.pk, ply=match.ply)
        else:
            code = house_bot_action("rule", state, seat, seed=f"bench-{match.ply}")
            action_submit(match_id=match.pk, player=person, code=code, ply=match.ply)
        match.refresh_from_db()
    return match.ply


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    setup()

    from unittest import mock

    from django.contrib.auth.models import User
    from django.test import Client

    from games.models import Game, Match
    from games.services import SeatSpec, match_create, match_spec, player_for_user
    from games.services.luck import game_luck_compute
    from tournaments.services import (
        Settings,
        club_create,
        entrant_bot_fill,
        tournament_create,
        tournament_start,
    )

    # Celery is not running: the house bots' queued turns are played by play_out instead.
    with mock.patch("games.services.common.queue_house_bot"):
        user = User.objects.create_user("ana", password="s3cret-Baraja-40")
        ana = player_for_user(user=user)
        tute2 = match_create(
            spec=match_spec(
                created_by=ana, game="tute2", seats=[SeatSpec(player="ana"), SeatSpec(bot="rule")]
            )
        )
        tute4 = match_create(
            spec=match_spec(
                created_by=ana, game="tute4", seats=[SeatSpec(player="ana")] + [SeatSpec(bot="rule")] * 3
            )
        )
        duplicate = match_create(
            spec=match_spec(
                created_by=ana,
                game="tute4",
                format=Match.Format.DUPLICATE,
                format_target=2,
                seats=[SeatSpec(player="ana")] + [SeatSpec(bot="rule")] * 3,
            )
        )
        pocha = match_create(
            spec=match_spec(
                created_by=ana,
                game="pocha",
                players=4,
                seats=[SeatSpec(player="ana")] + [SeatSpec(bot="rule")] * 3,
            )
        )
        play_out(tute2.pk)
        plies = play_out(tute4.pk)
        pocha_plies = play_out(pocha.pk)
        play_out(duplicate.pk)
        # What the cards average, as the worker works it out after each game: the player's skill chart.
        for game_id in Game.objects.filter(status=Game.Status.FINISHED).values_list("pk", flat=True):
            game_luck_compute(game_id=game_id)
        live = match_create(
            spec=match_spec(
                created_by=ana, game="tute4", seats=[SeatSpec(player="ana")] + [SeatSpec(bot="rule")] * 3
            )
        )
        club = club_create(name="Casino", slug="casino", by=ana)
        swiss = tournament_create(
            club=club, by=ana, settings=Settings(name="Suizo", game="tute2", format="swiss", swiss_rounds=3)
        )
        entrant_bot_fill(tournament_id=swiss.pk, by=ana, level="rule", count=6)
        tournament_start(tournament_id=swiss.pk, by=ana)

    client = Client()
    client.force_login(user)
    pages = {
        "home": "/",
        "leaderboard": "/leaderboards/tute2/",
        "player": "/players/ana/",
        "match (live, Tute 4)": f"/matches/{live.pk}/",
        "match (finished, replay)": f"/matches/{tute4.pk}/",
        "match (duplicate, 2 boards)": f"/matches/{duplicate.pk}/",
        "board (Tute 4, 2 plays)": f"/matches/{duplicate.pk}/boards/1/",
        "play": "/play/",
        "tournaments": "/tournaments/",
        "tournament (Swiss)": f"/tournaments/{swiss.pk}/",
        "bots": "/bots/",
        "rules": "/rules/",
    }
    print(f"{'page':28} {'HTML bytes':>11} {'gzipped':>9} {'median ms':>10}")
    for name, url in pages.items():
        times = []
        body = b""
        for _ in range(args.repeat):
            started = time.perf_counter()
            response = client.get(url, secure=True)
            times.append((time.perf_counter() - started) * 1000)
            assert response.status_code == 200, (url, response.status_code)
            body = response.content
        print(f"{name:28} {len(body):>11,} {len(gzip.compress(body)):>9,} {statistics.median(times):>10.1f}")
    for asset in ("web/site.css", "web/site.js", "web/match.js"):
        data = (ROOT / "web" / "static" / asset).read_bytes()
        print(f"{'static ' + asset:28} {len(data):>11,} {len(gzip.compress(data)):>9,} {'(cached)':>10}")

    # The live tab: every moment of the finished Tute 4 match, as its event stream sends them.
    response = client.get(f"/matches/{tute4.pk}/events/?after=0&status=in_progress", secure=True)
    stream = b"".join(response.streaming_content)  # type: ignore[attr-defined]
    moments = stream.count(b"event: moment")
    fallback = client.get(f"/matches/{tute4.pk}/moments/?after=0", secure=True)
    not_modified = client.get(
        f"/matches/{tute4.pk}/moments/?after=0", HTTP_IF_NONE_MATCH=fallback["ETag"], secure=True
    )
    view = client.get(f"/api/v1/matches/{live.pk}/view/", secure=True)
    print()
    print(f"live Tute 4 tab over {plies} plies ({moments} moments sent):")
    print(f"  Server-Sent Events: {len(stream):,} bytes, {len(stream) / plies:,.0f} bytes a ply")
    print(
        f"  fallback JSON: {len(fallback.content) / plies:,.0f} bytes a ply, a 304 while nothing moves: 0 bytes of body"
    )
    print(f"  (304 status {not_modified.status_code})")
    hour = len(view.content) * 2 * 3600
    print(
        f"  the old 500 ms polling: {len(view.content):,} bytes a poll, {hour / 1e6:,.1f} MB an hour whatever the play"
    )
    # A Pocha tab of 4 players: the stream's last moments (its backlog, as a late watcher gets them), each
    # with the scoresheet only when a hand ended; "whole": each with the whole sheet, as before issue 29.7.
    from games.selectors import match_context
    from games.streams import MOMENTS_BACKLOG, moments_since
    from web.live import moment_payload

    print()
    response = client.get(f"/matches/{pocha.pk}/events/?after=0&status=in_progress", secure=True)
    pocha_stream = b"".join(response.streaming_content)  # type: ignore[attr-defined]
    sent = pocha_stream.count(b"event: moment")
    whole = sum(
        len(json.dumps(moment_payload(m), separators=(",", ":")))
        for m in moments_since(context=match_context(pocha.pk, lock=False), player=ana, after=0)
    )
    print(f"live Pocha tab ({pocha_plies} plies), its last {min(MOMENTS_BACKLOG, pocha_plies)} moments:")
    print(
        f"  Server-Sent Events: {len(pocha_stream) / sent:,.0f} bytes a ply (the scoresheet when it changed)"
    )
    print(f"  every moment whole: {whole / sent:,.0f} bytes a ply (each with the whole scoresheet)")


if __name__ == "__main__":
    main()
