"""The lobby's live feed: Server-Sent Events of the lobby's snapshot each time it changes, looked at when
a table's seats or a seek change (Redis pub/sub on ``games.events.LOBBY_CHANNEL``) and every few seconds
anyway. A signed-in watcher's seeks stay alive while it watches."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator

from django.db import connection
from rest_framework.utils.encoders import JSONEncoder

from games.events import LOBBY_CHANNEL, waiter_on
from games.models import Player
from games.services import player_seen
from lobby.selectors import lobby_snapshot
from lobby.services import seeks_seen

#: How often the lobby is looked at with no wake-up (its seeks' waiting times and windows grow). A quiet
#: look writes a keep-alive comment, so a closed tab's stream (and its slot under the stream caps) ends
#: within this long.
LOOK_SECONDS = 5.0
#: A stream ends after this long; EventSource reconnects by itself.
STREAM_SECONDS = 55.0
RETRY_MS = 1000


def lobby_lines(*, player: Player | None, max_seconds: float = STREAM_SECONDS) -> Iterator[bytes]:
    """``event: lobby`` with the whole snapshot when it changed since the last one sent; keep-alives."""
    started = time.monotonic()
    sent: str | None = None
    yield f"retry: {RETRY_MS}\n\n".encode()
    with waiter_on(LOBBY_CHANNEL) as waiter:
        while True:
            if player is not None:  # watching the lobby is being there, with one's seeks
                seeks_seen(player=player)
                player_seen(user_id=player.user_id)
            data = json.dumps(lobby_snapshot(), cls=JSONEncoder, separators=(",", ":"))
            now = time.monotonic()
            if data != sent:
                yield f"event: lobby\ndata: {data}\n\n".encode()
                sent = data
            else:
                yield b": keepalive\n\n"
            left = max_seconds - (now - started)
            if left <= 0:
                break
            if not connection.in_atomic_block:
                connection.close()  # no database connection held between looks
            waiter.wait(max(min(LOOK_SECONDS, left), 0.05))
    yield b"event: bye\ndata: {}\n\n"
