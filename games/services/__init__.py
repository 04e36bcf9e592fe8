"""The games app's services: the only writers of its models."""

from games.services.matches import (
    Applied,
    SeatSpec,
    action_submit,
    bot_turn_play,
    house_bot_action,
    match_abort,
    match_create,
    match_resign,
    seat_join,
    seat_leave,
)
from games.services.players import bot_create, bot_token_rotate, player_for_user, token_create

__all__ = [
    "Applied",
    "SeatSpec",
    "action_submit",
    "bot_create",
    "bot_token_rotate",
    "bot_turn_play",
    "house_bot_action",
    "match_abort",
    "match_create",
    "match_resign",
    "player_for_user",
    "seat_join",
    "seat_leave",
    "token_create",
]
