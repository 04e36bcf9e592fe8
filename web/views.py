"""The website's views: thin. Reads go through selectors, writes through the apps' services.

A service's ``ApplicationError`` becomes a form error on the page it came from; nothing here decides a
rule of the game or of the site.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.db import IntegrityError, transaction
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.cache import cache_control, never_cache
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from games.engine import RulesError
from games.models import Game, Match
from games.selectors import boards_sealed, context_of, match_view_for, tokens_of
from games.services import (
    SeatSpec,
    bot_create,
    bot_settings_update,
    bot_token_rotate,
    match_create,
    match_spec,
    player_for_user,
    token_create,
    token_revoke,
)
from ratings.models import Rating
from tute_site.exceptions import ApplicationError
from web import live, selectors
from web.charts import rating_chart
from web.errors import error_text
from web.fairness import luck_rows, skill_summary, verify_panel, verify_strings
from web.forms import BotChallengeForm, BotCreateForm, PlayForm, SignupForm
from web.jsi18n import js_strings
from web.people import request_player, request_user
from web.rules import doc_html, example_bot, rules_html, rules_lang


def home(request: HttpRequest) -> HttpResponse:
    top = selectors.top_ratings(per_pool=5)
    return render(
        request,
        "web/home.html",
        {
            "live": selectors.live_matches(limit=10),
            "recent": selectors.recent_matches(limit=10),
            "tournaments": selectors.upcoming_tournaments(limit=5),
            "running_tournaments": selectors.running_tournaments(limit=5),
            "top": [(pool, [_rating_row(r) for r in top[pool]]) for pool in selectors.POOLS],
        },
    )


def _rating_row(rating: Rating) -> dict[str, Any]:
    return {
        "rating": rating,
        "label": selectors.rating_label(rating),
        "handle": rating.player.handle if rating.player is not None else None,
        "provisional": selectors.is_provisional(rating),
    }


def leaderboard(request: HttpRequest, pool: str) -> HttpResponse:
    if pool not in selectors.POOLS:
        raise Http404
    bots = request.GET.get("bots", "include")
    if bots not in selectors.BOTS_FILTERS:
        bots = "include"
    club = request.GET.get("club") or ""
    page = Paginator(selectors.leaderboard_page(pool=pool, bots=bots, club=club or None), 50).get_page(
        request.GET.get("page")
    )
    offset = (page.number - 1) * 50
    rows = [{**_rating_row(r), "rank": offset + i + 1} for i, r in enumerate(page.object_list)]
    return render(
        request,
        "web/leaderboard.html",
        {
            "pool": pool,
            "pools": selectors.POOLS,
            "bots": bots,
            "club": club,
            "clubs": selectors.club_choices(),
            "page": page,
            "rows": rows,
        },
    )


def leaderboards(request: HttpRequest) -> HttpResponse:
    return redirect("web:leaderboard", pool=selectors.POOLS[0])


def player_detail(request: HttpRequest, handle: str) -> HttpResponse:
    player = selectors.player_by_handle(handle=handle)
    if player is None:
        raise Http404
    ratings = []
    for row in selectors.player_rating_summaries(player=player):
        history = row["history"]
        initial = history[0]["rating"] - history[0]["change"] if history else None
        ratings.append({**row, "chart": rating_chart(history, initial=initial)})
    return render(
        request,
        "web/player.html",
        {
            "player": player,
            "ratings": ratings,
            "rows": selectors.player_match_rows(
                player=player, matches=selectors.player_matches(player=player, limit=20)
            ),
            "record": selectors.player_record(player=player),
            "clubs": selectors.clubs_of(player=player),
            "skill": skill_summary(player),
        },
    )


def match_detail(request: HttpRequest, match_id: int) -> HttpResponse:
    match = selectors.match_page(match_id=match_id)
    if match is None:
        raise Http404
    me = request_player(request)
    my_seat = next((s.index for s in match.seats.all() if me and s.player_id == me.pk), None)
    seats = selectors.seat_labels(match, viewer=my_seat)
    replay = selectors.match_replay(match=match)
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
            "replay": _replay_data(match, replay),
            "js_strings": js_strings(),
            "live": live_now,
            "outcome": selectors.match_outcome(
                match, cantes=replay[-1].steps[-1]["cantes"] if replay and replay[-1].steps else None
            ),
            "mine": selectors.my_outcome(match=match, seat=my_seat, player=me),
            "scoresheet": selectors.pocha_scoresheet(match=match, replay=replay),
            "rematch": selectors.rematch_fields(match) if my_seat is not None else None,
            "in_tournament": selectors.tournament_of_match(match=match),
            "boards": selectors.board_rows(match),
            "verify_games": verify_panel(match),
            "luck": luck_rows(match, my_seat),
            "verify_strings": verify_strings(),
        },
    )


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


@login_required
def me(request: HttpRequest) -> HttpResponse:
    return redirect("web:player", handle=player_for_user(user=request_user(request)).handle)


@login_required
@require_http_methods(["GET", "POST"])
def play(request: HttpRequest) -> HttpResponse:
    form = PlayForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        me = player_for_user(user=request_user(request))
        game = form.cleaned_data["game"]
        try:
            seats_total = selectors.seats_of_game(
                game=game, players=form.seat_count(), options=form.options()
            )
            spec = match_spec(
                capped=True,
                created_by=me,
                game=game,
                players=seats_total,
                options=form.options(),
                seats=[SeatSpec(player=me.handle)]
                + [SeatSpec(bot=form.cleaned_data["bot"])] * (seats_total - 1),
                client_seed=form.cleaned_data.get("client_seed") or None,
            )
            match = match_create(spec=spec)
        except (ApplicationError, RulesError) as exc:
            form.add_error(None, error_text(exc))
        else:
            return redirect("web:match", match_id=match.pk)
    return render(request, "web/play.html", {"form": form})


@require_http_methods(["GET", "POST"])
def signup(request: HttpRequest) -> HttpResponse:
    form = SignupForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            with transaction.atomic():
                user = form.save()
                player_for_user(user=user)
        except IntegrityError:
            # The same username signed up a moment ago, between the form's check and the insert.
            form.add_error("username", _("A user with that username already exists."))
            return render(request, "registration/signup.html", {"form": form})
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        messages.success(request, _("Welcome, %(name)s!") % {"name": user.get_username()})
        return redirect("web:home")
    return render(request, "registration/signup.html", {"form": form})


@never_cache  # it may show a new token: no cache keeps the page
@login_required
@require_http_methods(["GET", "POST"])
def bots(request: HttpRequest) -> HttpResponse:
    """The person's bot accounts; creating one shows its token on this one answer only."""
    user = request_user(request)
    form = BotCreateForm(request.POST or None)
    token = None
    created = None
    if request.method == "POST" and form.is_valid():
        try:
            created, token = bot_create(
                owner=user,
                handle=form.cleaned_data["handle"],
                display_name=form.cleaned_data["display_name"],
            )
        except ApplicationError as exc:
            form.add_error("handle", error_text(exc))
        else:
            form = BotCreateForm()
    return render(
        request,
        "web/bots.html",
        {**_bots_page(user), "form": form, "token": token, "token_for": created},
    )


def _bots_page(user: Any) -> dict[str, Any]:
    return {
        "bots": selectors.bots_of(user=user),
        "challenge_form": BotChallengeForm(),
        "example_bot": example_bot(),
    }


@never_cache
@login_required
@require_POST
def bot_rotate(request: HttpRequest, handle: str) -> HttpResponse:
    user = request_user(request)
    try:
        token = bot_token_rotate(owner=user, handle=handle)
    except ApplicationError as exc:
        messages.error(request, error_text(exc))
        return redirect("web:bots")
    bot = next((b for b in selectors.bots_of(user=user) if b.handle == handle), None)
    return render(
        request,
        "web/bots.html",
        {**_bots_page(user), "form": BotCreateForm(), "token": token, "token_for": bot},
    )


@never_cache
@login_required
@require_http_methods(["GET", "POST"])
def tokens(request: HttpRequest) -> HttpResponse:
    """The person's personal API tokens: list, create (shown on this one answer only), revoke."""
    user = request_user(request)
    token = token_create(user=user) if request.method == "POST" else None
    return render(request, "web/tokens.html", {"tokens": tokens_of(user=user), "token": token})


@login_required
@require_POST
def token_revoke_view(request: HttpRequest, token_id: int) -> HttpResponse:
    try:
        token_revoke(user=request_user(request), token_id=token_id)
    except ApplicationError as exc:
        messages.error(request, error_text(exc))
    else:
        messages.success(request, _("The token was revoked: it no longer works."))
    return redirect("web:tokens")


def doc_page(request: HttpRequest, name: str) -> HttpResponse:
    """One of the project's documents a bot author needs (docs/BOTS.md, docs/API.md), rendered."""
    html = doc_html(name)
    if html is None:
        raise Http404
    return render(request, "web/doc.html", {"doc_html": html, "name": name})


@login_required
@require_POST
def bot_challenge(request: HttpRequest, handle: str) -> HttpResponse:
    """The owner challenges their bot (as anyone may, through the API): a match of the chosen game, the
    rule bot in any other seat. The bot accepts it, or does at once with auto-accept."""
    me = player_for_user(user=request_user(request))
    form = BotChallengeForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Choose a game."))
        return redirect("web:bots")
    game = form.cleaned_data["game"]
    total = {"tute2": 2, "tute4": 4, "pocha": 3}[game]
    try:
        spec = match_spec(
            capped=True,
            created_by=me,
            game=game,
            players=total if game == "pocha" else None,
            seats=[SeatSpec(player=me.handle), SeatSpec(player=handle)]
            + [SeatSpec(bot="rule")] * (total - 2),
        )
        match = match_create(spec=spec)
    except (ApplicationError, RulesError) as exc:
        messages.error(request, error_text(exc))
        return redirect("web:bots")
    return redirect("web:match", match_id=match.pk)


@login_required
@require_POST
def bot_auto_accept(request: HttpRequest, handle: str) -> HttpResponse:
    """Switch the bot's auto-accept: whether it takes every challenge at once."""
    try:
        bot_settings_update(
            owner=request_user(request), handle=handle, auto_accept=request.POST.get("auto_accept") == "1"
        )
    except ApplicationError as exc:
        messages.error(request, error_text(exc))
    return redirect("web:bots")


def rules(request: HttpRequest) -> HttpResponse:
    """How to play: docs/RULES.md, the rules as the engine plays them, or its Spanish translation
    docs/RULES.es.md for Spanish readers."""
    return render(request, "web/rules.html", {"rules_html": rules_html(), "rules_lang": rules_lang()})
