"""The website's ladder pages: the bot leaderboard per game and a bot's status page for its author
(with the ladder's opt-in and a new validation). Reads through selectors, writes through services."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from ladder.models import GAMES
from ladder.selectors import LEADERBOARD_GAMES, bot_for_author, bot_leaderboard, bot_status
from ladder.services import ladder_games_set, validation_request
from tute_site.exceptions import ApplicationError
from web.people import request_user


def ladder(request: HttpRequest, game: str = "tute2") -> HttpResponse:
    if game not in LEADERBOARD_GAMES:
        raise Http404
    return render(
        request,
        "web/ladder.html",
        {"game": game, "games": LEADERBOARD_GAMES, "rows": bot_leaderboard(game=game)},
    )


@login_required
@require_http_methods(["GET", "POST"])
def bot_status_page(request: HttpRequest, handle: str) -> HttpResponse:
    user = request_user(request)
    try:
        bot = bot_for_author(user=user, handle=handle)
    except ApplicationError:
        raise Http404 from None
    if request.method == "POST":
        try:
            if "validate" in request.POST:
                validation_request(owner=user, handle=handle, game=request.POST["validate"])
                messages.success(request, _("Validation requested: it starts while the bot is online."))
            else:
                chosen = [g for g in GAMES if request.POST.get(f"game-{g}")]
                ladder_games_set(owner=user, handle=handle, games=chosen)
                messages.success(request, _("Ladder games saved."))
        except ApplicationError as exc:
            messages.error(request, str(exc))
        return redirect("web:bot-status", handle=handle)
    status = bot_status(bot=bot)
    return render(
        request,
        "web/bot_status.html",
        {"bot": bot, "status": status, "games": GAMES, "owner": bot.owner_id == user.pk},
    )
