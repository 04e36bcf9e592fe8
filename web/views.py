"""The website's views: thin. Reads go through selectors, writes through the apps' services.

A service's ``ApplicationError`` becomes a form error on the page it came from; nothing here decides a
rule of the game or of the site.

Here: the home page, leaderboards, players, playing (a new match, a challenge to one's bot), signing
up, documents and rules; matches in ``web.match_views``, bots and tokens in ``web.bot_views``.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.db import IntegrityError, transaction
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from games.bots import BOT_LEVELS
from games.engine import RulesError
from games.models import Player
from games.services import SeatSpec, match_create, match_spec, player_for_user
from ratings.models import Rating
from ratings.selectors import house_levels
from tute_site.exceptions import ApplicationError
from web import selectors
from web.charts import rating_chart
from web.errors import error_text
from web.fairness import progress_summary, skill_summary
from web.forms import BotChallengeForm, PlayForm, SignupForm
from web.people import request_player, request_user, safe_next
from web.people_forms import ChallengeForm
from web.people_views import play_page
from web.rules import doc_html, rules_html, rules_lang


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
            "progress": progress_summary(player),
            "online": selectors.is_online(player),
            "challenge_form": _challenge_form(request, player),
        },
    )


def _challenge_form(request: HttpRequest, player: Player) -> ChallengeForm | None:
    """The challenge form on a person's page, for another signed-in person."""
    me = request_player(request)
    if me is None or me.pk == player.pk or player.is_bot or me.is_bot:
        return None
    return ChallengeForm(prefix="challenge")


@login_required
def me(request: HttpRequest) -> HttpResponse:
    return redirect("web:player", handle=player_for_user(user=request_user(request)).handle)


@login_required
@require_http_methods(["GET", "POST"])
def play(request: HttpRequest) -> HttpResponse:
    chosen = request.GET.get("bot")  # the lobby's Play link beside a level
    form = PlayForm(
        request.POST or None,
        levels=house_levels(),
        initial={"bot": chosen} if chosen in BOT_LEVELS else None,
    )
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
    return play_page(request, bots=form)


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
            return render(request, "registration/signup.html", {"form": form, "next": safe_next(request)})
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        messages.success(request, _("Welcome, %(name)s!") % {"name": user.get_username()})
        return redirect(safe_next(request) or "web:home")  # an invite link's table, say
    return render(request, "registration/signup.html", {"form": form, "next": safe_next(request)})


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


def rules(request: HttpRequest) -> HttpResponse:
    """How to play: docs/RULES.md, the rules as the engine plays them, or its Spanish translation
    docs/RULES.es.md for Spanish readers."""
    return render(request, "web/rules.html", {"rules_html": rules_html(), "rules_lang": rules_lang()})
