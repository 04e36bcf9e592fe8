"""The website's match pages: a match (live or its replay), the replay's pages of steps, a duplicate
match's board side by side. Reads through selectors."""

from __future__ import annotations

from typing import Any

from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.urls import reverse
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_GET

from games.models import Game, Match, Player
from games.selectors import boards_sealed, context_of, match_view_for, reviews_public
from web import live, selectors
from web.fairness import luck_rows, verify_panel, verify_strings
from web.forms import LEVEL_CHOICES
from web.jsi18n import js_strings
from web.people import request_player


def match_detail(request: HttpRequest, match_id: int) -> HttpResponse:
    match = selectors.match_page(match_id=match_id)
    if match is None:
        raise Http404
    me = request_player(request)
    my_seat = next((s.index for s in match.seats.all() if me and s.player_id == me.pk), None)
    seats = selectors.seat_labels(match, viewer=my_seat)
    # A table played over the board was entered, not dealt: no replay, no deal to verify.
    replay = [] if match.over_the_board else selectors.match_replay(match=match)
    live_now = match.status in (Match.Status.OPEN, Match.Status.IN_PROGRESS)
    return render(
        request,
        "web/match.html",
        {
            "match": match,
            "seats": seats,
            "my_seat": my_seat,
            # The live table's first view; a finished match shows its replay instead (a long Pocha's
            # last view carries every hand's tricks).
            "initial_view": match_view_for(context=context_of(match), player=me) if live_now else None,
            "clock": live.clock(match, list(match.seats.all())),
            "variant": selectors.variant_in_force(match),
            "scoring": selectors.table_scoring(match),
            "replay": _replay_data(match, replay),
            "js_strings": js_strings(),
            # An open table shows its seats (#open-table, which reloads when it starts), not the felt.
            "live": live_now and match.status != Match.Status.OPEN,
            "outcome": selectors.match_outcome(
                match, cantes=replay[-1].steps[-1]["cantes"] if replay and replay[-1].steps else None
            ),
            "mine": selectors.my_outcome(match=match, seat=my_seat, player=me),
            "scoresheet": selectors.pocha_scoresheet(match=match, replay=replay),
            "rematch": selectors.rematch_fields(match) if my_seat is not None else None,
            "people_rematch": selectors.rematch_offer(match, viewer=me),
            "open_table": _open_table(match, me),
            "hints": my_seat is not None and live_now and _practice(match),
            "levels": LEVEL_CHOICES,
            "in_tournament": selectors.tournament_of_match(match=match),
            "boards": selectors.board_rows(match),
            "verify_games": [] if match.over_the_board else verify_panel(match),
            "luck": [] if match.over_the_board else luck_rows(match, my_seat),
            "verify_strings": verify_strings(),
            "review": _review_panel(match, me, seats) if replay else None,
        },
    )


def _review_panel(match: Match, me: Player | None, seats: list[dict[str, Any]]) -> dict[str, Any] | None:
    """The replay's review panel: the seats the viewer may have reviewed (games.selectors.review_may_see:
    their own, or every seat where the match's reviews are public), the viewer's own first."""
    mine = [s.index for s in match.seats.all() if me is not None and s.player_id == me.pk]
    allowed = [s.index for s in match.seats.all()] if reviews_public(match) else mine
    if not allowed:
        return None
    order = sorted(allowed, key=lambda index: (index not in mine, index))
    return {
        "url": reverse("match-review", args=[match.pk]),
        "seats": [{"index": index, "name": seats[index]["name"]} for index in order],
    }


def _practice(match: Match) -> bool:
    """An unrated game of one person against house bots: hints may be asked for (games.services.hints)."""
    seats = list(match.seats.all())
    return (
        not match.rated
        and not match.managed
        and sum(1 for s in seats if s.player_id is not None) == 1
        and sum(1 for s in seats if s.bot_level) == len(seats) - 1
    )


def _open_table(match: Match, me: Player | None) -> dict[str, Any] | None:
    """What an open table's page shows: its seats, the invite link for its creator, what the viewer may do."""
    if match.status != Match.Status.OPEN:
        return None
    mine = me is not None and match.created_by_id == me.user_id
    return {
        "seats": selectors.open_table_seats(match, viewer=me),
        "creator": mine,
        "invite_code": match.invite_code if mine else None,
        "may_sit": me is not None
        and not match.private
        and all(s.player_id != me.pk for s in match.seats.all()),
        "seated": me is not None and any(s.player_id == me.pk and s.accepted for s in match.seats.all()),
        "challenged": me is not None
        and any(s.player_id == me.pk and not s.accepted for s in match.seats.all()),
        "status_url": reverse("match-detail", args=[match.pk]),
    }


def _replay_data(match: Match, replay: list[selectors.ReplayGame]) -> dict[str, Any] | None:
    """The replay viewer's start: each game's index and the first game's first page of steps; the viewer
    asks ``web:match-replay`` for the other pages as it moves (a long Pocha has thousands of steps)."""
    if not replay:
        return None
    return {
        "url": reverse("web:match-replay", args=[match.pk]),
        "page": selectors.REPLAY_PAGE_STEPS,
        "games": selectors.replay_index(replay),
        "first": selectors.replay_page(replay, game=0, start=0),
    }


@require_GET
@cache_control(public=True, max_age=selectors.REPLAY_CACHE_SECONDS)
def match_replay_steps(request: HttpRequest, match_id: int) -> HttpResponse:
    """One page of a finished match's replay: ``?game=<index>&start=<step>``, ``start`` a multiple of the
    page size. A finished match never changes, so caches may keep the answer."""
    match = Match.objects.filter(pk=match_id).first()
    if match is None or match.status != Match.Status.FINISHED:
        # Until it is over the deals are secret (docs/RULES.md 9): no replay to give.
        return JsonResponse(
            {"code": "match_not_found", "message": "No finished match with that id."}, status=404
        )
    try:
        game, start = int(request.GET.get("game", "0")), int(request.GET.get("start", "0"))
    except ValueError:
        return JsonResponse({"code": "bad_page", "message": "game and start must be integers."}, status=400)
    steps = selectors.replay_page(selectors.match_replay(match=match), game=game, start=start)
    if steps is None:
        return JsonResponse(
            {"code": "bad_page", "message": "No such game, or start is not a page's first step."}, status=400
        )
    return JsonResponse({"game": game, "start": start, "steps": steps})


def match_board(request: HttpRequest, match_id: int, board: int) -> HttpResponse:
    """A finished duplicate match's board: its plays side by side (who held which cards, the tricks, each
    play's score and the difference) and each play's replay."""
    match = selectors.match_page(match_id=match_id)
    # Until the match is over, and every other table holding its boards too, the deals are secret.
    if match is None or match.status != Match.Status.FINISHED or boards_sealed(match):
        raise Http404
    boards = selectors.board_numbers(match)
    if board not in boards:
        raise Http404
    plays = selectors.board_plays(games=Game.objects.filter(match=match, board=board))
    return render(
        request,
        "web/board.html",
        {
            "match": match,
            "board": board,
            "boards": boards,
            "summary": []
            if match.game == Match.GameName.POCHA
            else selectors.duplicate_board_summary(match=match, board=board),
            "pocha_summary": selectors.pocha_board_summary(match=match, board=board, plays=plays)
            if match.game == Match.GameName.POCHA
            else [],
            "plays": selectors.board_play_items(plays),
            "js_strings": js_strings(),
        },
    )
