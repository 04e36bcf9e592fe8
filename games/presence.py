"""Who is here: every request of a signed-in account marks its person as seen (``player_seen``, written at
most every few seconds), which tells who is online and who is away from their table."""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse

from games.services import player_seen


def presence(get_response: Callable[[HttpRequest], HttpResponse]) -> Callable[[HttpRequest], HttpResponse]:
    """After the view: the account that asked, by session or by token (DRF sets ``request.user`` on the
    request it wraps), was here now."""

    def middleware(request: HttpRequest) -> HttpResponse:
        response = get_response(request)
        user = getattr(request, "user", None)
        if user is not None and user.is_authenticated:
            player_seen(user_id=user.pk)
        return response

    return middleware
