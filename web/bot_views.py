"""The website's pages for a person's bot accounts and personal API tokens: create, rotate, revoke,
auto-accept. Writes through the games services; a service's ``ApplicationError`` becomes a message."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods, require_POST

from games.selectors import tokens_of
from games.services import bot_create, bot_settings_update, bot_token_rotate, token_create, token_revoke
from tute_site.exceptions import ApplicationError
from web import selectors
from web.errors import error_text
from web.forms import BotChallengeForm, BotCreateForm
from web.people import request_user
from web.rules import example_bot


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
