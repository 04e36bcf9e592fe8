"""Who is asking: the signed-in user and their player."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.http import HttpRequest
from django.utils.http import url_has_allowed_host_and_scheme

from games.models import Player
from games.services import player_for_user


def request_user(request: HttpRequest) -> User:
    """The signed-in user (views that call this are behind ``login_required``)."""
    user = request.user
    assert isinstance(user, User)
    return user


def request_player(request: HttpRequest) -> Player | None:
    """The signed-in person's player (made on first use, as the API does), or None for a visitor."""
    if not request.user.is_authenticated:
        return None
    user = request_user(request)
    try:
        return user.player
    except Player.DoesNotExist:
        return player_for_user(user=user)


def signed_in_player(request: HttpRequest) -> Player:
    return player_for_user(user=request_user(request))


def safe_next(request: HttpRequest) -> str:
    """The page to go on to (``next``, posted or in the query), when it is on this site; else ''."""
    target = request.POST.get("next") or request.GET.get("next") or ""
    safe = url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    )
    return target if target and safe else ""
