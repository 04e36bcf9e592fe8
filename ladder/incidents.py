"""Recording what went wrong for a bot account's seat, for its author's status page, its validation and
its event stream: a refused action (after the refused transaction rolled back) and a move played for it
on timeout (inside the timeout's transaction)."""

from __future__ import annotations

from typing import Any

from django.db import transaction

from games.errors import MatchNotFound
from games.events import publish_match_event
from games.models import Match, Player, Seat
from games.selectors import MatchContext, match_context, match_view_for
from ladder.models import BotIncident


def _turn_payload(view: dict[str, Any], match: Match) -> dict[str, Any]:
    """What the bot's ``your_turn`` carried for this turn (the match, ply, legal codes and view)."""
    return {"match": match.pk, "ply": view["ply"], "legal": view["legal"], "view": view["view"]}


@transaction.atomic
def refusal_record(*, match_id: int, player: Player, code: str, ply: int, answer: dict[str, Any]) -> None:
    """A bot account's action the engine refused: the turn it had, what it sent, the 422 it got."""
    if not player.is_bot:
        return
    try:
        context = match_context(match_id, lock=False)
    except MatchNotFound:
        return
    match, seat = context.match, context.seat_of(player)
    if seat is None:
        return
    view = match_view_for(context=context, player=player)
    BotIncident.objects.create(
        player=player,
        match=match,
        seat=seat.index,
        ply=ply,
        kind=BotIncident.Kind.ILLEGAL,
        payload=_turn_payload(view, match),
        sent={"action": code, "ply": ply},
        answer=answer,
    )
    publish_match_event(match, context.seats)  # its stream hears of it at once


def timeout_record(*, context: MatchContext, seat: Seat, ply: int, code: str) -> None:
    """In the timeout's transaction, before the move is applied: the turn the bot let run out."""
    if seat.player is None or not seat.player.is_bot:
        return
    match = context.match
    view = match_view_for(context=context, player=seat.player)
    BotIncident.objects.create(
        player=seat.player,
        match=match,
        seat=seat.index,
        ply=ply,
        kind=BotIncident.Kind.TIMEOUT,
        payload=_turn_payload(view, match),
        sent=None,
        answer={
            "played": code,
            "timeouts": seat.timeouts,
            "max_timeouts": match.max_timeouts,
            "reason": "the move's time ran out: the rule bot's move was played for the seat",
        },
    )
