"""Who is calling: the signed-in account and its player, for the API views of every app."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request

from games.errors import PeopleOnly
from games.models import Player
from games.services import player_for_user


def caller(request: Request) -> Player | None:
    """The caller's player (made on first use for a person who signed up on the website); None when
    anonymous."""
    user = request.user
    if not user or not user.is_authenticated:
        return None
    try:
        return user.player  # loaded with the token; one query for a session
    except Player.DoesNotExist:
        return player_for_user(user=user)


def signed_in(request: Request) -> Player:
    player = caller(request)
    assert player is not None  # IsAuthenticated ran first
    return player


def signed_in_user(request: Request) -> User:
    user = request.user
    assert isinstance(user, User)  # IsAuthenticated ran first
    return user


class IsPerson(IsAuthenticated):
    """Signed in as a person: bot accounts own no bots and no personal tokens (403 people_only)."""

    message = PeopleOnly.message
    code = PeopleOnly.code

    def has_permission(self, request: Request, view: Any) -> bool:
        if not super().has_permission(request, view):
            return False
        player = caller(request)
        return player is None or not player.is_bot
