"""The games app's services: the only writers of its models."""

from games.services.hints import Hint, match_hint
from games.services.matches import (
    client_seed_set,
    match_abort,
    match_call_off,
    match_create,
)
from games.services.play import (
    Applied,
    action_submit,
    bot_turn_play,
    house_bot_action,
    house_bot_turns_requeue,
    match_resign,
    overdue_turns,
    turn_timeout,
)
from games.services.players import (
    bot_create,
    bot_settings_update,
    bot_token_rotate,
    player_for_user,
    player_seen,
    token_create,
    token_revoke,
)
from games.services.recorded import match_record, match_record_change
from games.services.seating import (
    challenge_accept,
    challenge_decline,
    match_rematch,
    open_tables_sweep,
    seat_join,
    seat_leave,
    seats_fill_with_bots,
)
from games.services.specs import Clock, MatchSpec, SeatSpec, match_spec

__all__ = [
    "Applied",
    "Clock",
    "Hint",
    "MatchSpec",
    "SeatSpec",
    "action_submit",
    "bot_create",
    "bot_settings_update",
    "bot_token_rotate",
    "bot_turn_play",
    "challenge_accept",
    "challenge_decline",
    "client_seed_set",
    "house_bot_action",
    "house_bot_turns_requeue",
    "match_abort",
    "match_call_off",
    "match_create",
    "match_hint",
    "match_record",
    "match_record_change",
    "match_rematch",
    "match_resign",
    "match_spec",
    "open_tables_sweep",
    "overdue_turns",
    "player_for_user",
    "player_seen",
    "seat_join",
    "seat_leave",
    "seats_fill_with_bots",
    "token_create",
    "token_revoke",
    "turn_timeout",
]
