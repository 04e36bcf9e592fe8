"""Who is asking: the signed-in user and their player."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.http import HttpRequest

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
