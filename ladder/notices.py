"""What the ladder's incidents tell a bot: the events of its stream (``games.signals.bot_stream_looked``)
and the notices it polls (``MyNoticesApi``), one shape for both."""

from __future__ import annotations

from typing import Any

from games.models import Player
from games.streams import RECENT_FINISH, StreamMemory, api_time
from ladder.models import BotIncident


def incident_events(*, player: Player, memory: StreamMemory) -> list[dict[str, Any]]:
    """What happened to the bot's seat that it did not choose: ``action_refused`` (an action of its the
    engine refused, with the reason), ``timeout`` (a move the server played for it when its time ran
    out) and ``forfeit_warning`` (the next timeout in that match forfeits it). Each once per connection;
    on connecting, those of the last five minutes."""
    if not player.is_bot:
        return []  # incidents are kept for bot accounts only
    told = memory.notices.setdefault("incidents", set())
    qs = BotIncident.objects.filter(player=player, created_at__gte=memory.connected_at - RECENT_FINISH)
    if told:
        qs = qs.exclude(pk__in=told)
    events: list[dict[str, Any]] = []
    for incident in qs.select_related("match").order_by("created_at", "id"):
        told.add(incident.pk)
        events.extend(incident_notices(incident))
    return events


def incident_notices(incident: BotIncident) -> list[dict[str, Any]]:
    """The events (stream) and notices (polling) one incident makes."""
    answer = incident.answer or {}
    if incident.kind == BotIncident.Kind.ILLEGAL:
        detail = answer.get("detail") or {}
        return [
            {
                "type": "action_refused",
                "match": incident.match_id,
                "ply": incident.ply,
                "action": (incident.sent or {}).get("action"),
                "code": answer.get("code"),
                "reason": detail.get("reason"),
                "legal": detail.get("legal"),
                "time": api_time(incident.created_at),
            }
        ]
    timeouts, limit = answer.get("timeouts", 0), answer.get("max_timeouts", 0)
    notices = [
        {
            "type": "timeout",
            "match": incident.match_id,
            "ply": incident.ply,
            "action": answer.get("played"),
            "timeouts": timeouts,
            "max_timeouts": limit,
            "time": api_time(incident.created_at),
        }
    ]
    if limit and timeouts == limit - 1:
        notices.append(
            {
                "type": "forfeit_warning",
                "match": incident.match_id,
                "timeouts": timeouts,
                "max_timeouts": limit,
                "message": f"One more timeout in match {incident.match_id} forfeits it.",
            }
        )
    return notices
