"""The finished-match page's "verify this deal" panel: what it is handed, so that the browser can check
docs/RULES.md section 11 alone (web/static/web/verify.js: SHA-256 and the Fisher-Yates of section 7).

The panel gets the revealed seeds (as the record API serves them) and the decks the server dealt from,
and recomputes the second from the first; it asks the server nothing more.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from games.engine.fair import commitment
from games.engine.rules import side_of
from games.models import Game, Match, Player, Seat
from games.selectors import boards_sealed, review_progress
from games.states import match_rules
from web.cards import RANK_NAMES, SUIT_NAMES
from web.charts import skill_chart


def verify_panel(match: Match) -> list[dict[str, Any]] | None:
    """Per game of a finished match: its revealed seeds (as its record reveals them), the decks the server
    dealt and what the shuffle needs to build the canonical deck; None while the match is not finished
    (the seeds are secret), and while other tables still play its boards (a duplicate tournament's)."""
    if match.status != Match.Status.FINISHED or boards_sealed(match):
        return None
    rules = match_rules(match)
    games = []
    rows = Game.objects.filter(match=match).exclude(server_seed="").order_by("number")
    for game in rows.only(
        "number", "board", "seat_map", "dealer", "seed", "server_seed", "client_seeds", "decks"
    ):
        games.append(
            {
                "number": game.number,
                "board": game.board,
                "seat_map": game.seat_map,
                "players": rules.players,
                "dealer": game.dealer,
                "seed": game.seed,
                "server_seed": game.server_seed,
                "seed_sha256": commitment(game.server_seed),
                "client_seeds": game.client_seeds,
                "deck48": rules.deck48,
                "without_twos": rules.without_twos,
                "hand_size": rules.hand_sizes()[0],
                "decks": game.decks,
            }
        )
    return games or None


def luck_rows(match: Match, my_seat: int | None) -> list[dict[str, Any]] | None:
    """Per finished game with its luck figure: each side's score next to what its cards average (house
    bots playing the same deal), and the viewer's own line; None before the end or before any figure."""
    if match.status != Match.Status.FINISHED:
        return None
    names: dict[int, list[str]] = {}
    for seat in match.seats.all():
        label = seat.player.display_name if seat.player else f"{seat.bot_level} bot"
        names.setdefault(side_of(match.game, seat.index), []).append(label)
    rows = []
    games = Game.objects.filter(match=match, luck__isnull=False, result__isnull=False).order_by("number")
    for game in games.only("number", "seat_map", "luck", "result"):
        assert game.luck is not None and game.result is not None
        sides = []
        for game_side, (score, expected) in enumerate(
            zip(game.result["scores"], game.luck["expected"], strict=False)
        ):
            holder = game.match_seat(game_side)  # a duplicate game's side is held by rotated seats
            side = side_of(match.game, holder)
            mine = my_seat is not None and side_of(match.game, my_seat) == side
            sides.append(
                {
                    "names": names.get(side, []),
                    "score": score,
                    "expected": expected,
                    "mine": mine,
                    "skill": round(score - expected, 1),
                }
            )
        rows.append(
            {"number": game.number, "sides": sides, "mine": next((s for s in sides if s["mine"]), None)}
        )
    return rows or None


#: The skill section's table shows this many latest games of a kind; its chart every game read.
SKILL_TABLE_ROWS = 10


def skill_summary(player: Player, *, limit: int = 60) -> list[dict[str, Any]] | None:
    """Per game kind: the player's latest ``limit`` games with a luck figure, oldest first, each with what it
    scored, what its cards average and the difference (its skill); the average difference; the chart of
    skill over time (web.charts.skill_chart) and the latest rows for the table. Two queries."""
    games = list(
        Game.objects.filter(match__seats__player=player, status=Game.Status.FINISHED, luck__isnull=False)
        .select_related("match")
        .only("number", "seat_map", "luck", "result", "finished_at", "match__id", "match__game")
        .order_by("-finished_at", "-id")[:limit]
    )
    if not games:
        return None
    seat_of = dict(
        Seat.objects.filter(player=player, match_id__in={g.match_id for g in games}).values_list(
            "match_id", "index"
        )
    )
    kinds: dict[str, list[dict[str, Any]]] = {}
    for game in reversed(games):
        assert game.luck is not None and game.result is not None
        seat = game.game_seat(seat_of[game.match_id])
        side = side_of(game.match.game, seat)
        score, expected = game.result["scores"][side], game.luck["expected"][side]
        kinds.setdefault(game.match.game, []).append(
            {
                "match": game.match_id,
                "game": game.number,
                "finished_at": game.finished_at,
                "score": score,
                "expected": expected,
                "skill": round(score - expected, 1),
            }
        )
    return [
        {
            "game": kind,
            "rows": rows,
            "recent": rows[-SKILL_TABLE_ROWS:][::-1],
            "chart": skill_chart(rows),
            "average": round(sum(r["skill"] for r in rows) / len(rows), 1),
        }
        for kind, rows in sorted(kinds.items())
    ]


def progress_summary(player: Player) -> list[dict[str, Any]] | None:
    """Per game kind: the player's reviewed games (games.services.review), oldest first, each with its
    points lost per decision against the best the analysis found; the chart of it over time (drawn as
    skill is, below zero: 0 is every decision the best) and the latest rows for the table."""
    reviews = review_progress(player=player)
    if not reviews:
        return None
    kinds: dict[str, list[dict[str, Any]]] = {}
    for review in reviews:
        per_decision = round(review.points_lost / review.decisions, 2)
        kinds.setdefault(review.match.game, []).append(
            {
                "match": review.match_id,
                "game": review.game.number,
                "seat": review.seat,
                "finished_at": review.game.finished_at,
                "decisions": review.decisions,
                "points_lost": review.points_lost,
                "per_decision": per_decision,
                "skill": -per_decision,  # the chart's value
            }
        )
    return [
        {
            "game": kind,
            "recent": rows[-SKILL_TABLE_ROWS:][::-1],
            "chart": skill_chart(rows),
            "average": round(sum(r["points_lost"] for r in rows) / sum(r["decisions"] for r in rows), 2),
        }
        for kind, rows in sorted(kinds.items())
    ]


def verify_strings() -> dict[str, Any]:
    """The panel's words; cards are named as everywhere on the site ("3 de oros"), never by their codes."""
    return {
        "suits": SUIT_NAMES,
        "ranks": RANK_NAMES,
        "of": "de",
        "commitment": _("Commitment: SHA-256(server seed) = %(got)s, published before play as %(want)s"),
        "seed": _("Deal seed: SHA-256(%(text)s) = %(got)s; the game was dealt from %(want)s"),
        "deck": _("Hand %(n)s: %(count)s cards shuffled from the seed, each where the server dealt it"),
        "deck_bad": _("Hand %(n)s: the shuffle gives %(got)s, but the server dealt %(want)s"),
        "dealt": _("Seat %(seat)s was dealt: %(cards)s"),
        "ok": _("verified"),
        "bad": _("does not match"),
        "all_ok": _("Every check passed: these cards were fixed before the first card was played."),
        "some_bad": _("A check failed: this deal is not the one the seeds give."),
        "game": _("Game %(n)s"),
        "board": _("board %(n)s"),
    }
