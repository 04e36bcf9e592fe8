"""What the stream and polling tell a bot about its seat: a move played for it on timeout, and the
warning before the timeout that forfeits the match."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from games.models import Match, Player
from games.services import SeatSpec, bot_turn_play, match_create, match_spec, turn_timeout
from games.streams import StreamMemory, pending_events
from tests.factories import BotPlayerFactory
from tests.games.conftest import turn_of

pytestmark = pytest.mark.django_db


def time_out_the_bot(match: Match, bot: Player) -> int:
    while (now := turn_of(match.pk)) is not None and now.player != bot:
        bot_turn_play(match_id=match.pk, ply=now.match.ply)
    assert now is not None
    Match.objects.filter(pk=match.pk).update(turn_deadline=timezone.now() - timedelta(seconds=1))
    turn_timeout(match_id=match.pk, ply=now.match.ply)
    return now.match.ply


def test_timeouts_and_the_forfeit_warning_reach_the_stream_and_the_turns_list(
    token_client: Callable[[Player], Any],
) -> None:
    bot = BotPlayerFactory()
    match = match_create(
        spec=match_spec(
            created_by=bot,
            game="tute2",
            seats=[SeatSpec(player=bot.handle), SeatSpec(bot="rule")],
            rated=False,
        )
    )
    memory = StreamMemory(connected_at=timezone.now())
    pending_events(bot, memory)

    first = time_out_the_bot(match, bot)
    events = [e for e in pending_events(bot, memory) if e["type"] in ("timeout", "forfeit_warning")]
    assert [e["type"] for e in events] == ["timeout"]
    assert events[0]["ply"] == first and events[0]["timeouts"] == 1 and events[0]["max_timeouts"] == 3

    second = time_out_the_bot(match, bot)
    events = [e for e in pending_events(bot, memory) if e["type"] in ("timeout", "forfeit_warning")]
    assert [(e["type"], e.get("ply")) for e in events] == [("timeout", second), ("forfeit_warning", None)]
    assert pending_events(bot, memory) == []  # each once per connection

    # polling: the notices and the turns list say the same
    client = token_client(bot)
    notices = client.get("/api/v1/bots/me/notices/").json()["results"]
    assert [n["type"] for n in notices] == ["timeout", "timeout", "forfeit_warning"]
    while (now := turn_of(match.pk)) is not None and now.player != bot:
        bot_turn_play(match_id=match.pk, ply=now.match.ply)
    if now is not None:
        (turn,) = client.get("/api/v1/bots/me/turns/").json()["results"]
        assert (turn["timeouts"], turn["max_timeouts"], turn["forfeit_warning"]) == (2, 3, True)
