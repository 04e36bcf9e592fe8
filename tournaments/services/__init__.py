"""The tournaments app's services: the only writers of its models."""

from tournaments.services.clubs import club_create, membership_add
from tournaments.services.corrections import result_correct
from tournaments.services.reports import result_confirm, result_report
from tournaments.services.results import result_enter
from tournaments.services.running import (
    match_result_record,
    no_show,
    tournament_advance,
    tournament_cancel,
    tournament_start,
    tournaments_sweep,
    withdraw,
)
from tournaments.services.setup import (
    Settings,
    check_in,
    entrant_bot_fill,
    entrant_rename,
    invite,
    partner_set,
    register,
    tournament_create,
    tournament_update,
)

__all__ = [
    "Settings",
    "check_in",
    "club_create",
    "entrant_bot_fill",
    "entrant_rename",
    "invite",
    "match_result_record",
    "membership_add",
    "no_show",
    "partner_set",
    "register",
    "result_confirm",
    "result_correct",
    "result_enter",
    "result_report",
    "tournament_advance",
    "tournament_cancel",
    "tournament_create",
    "tournament_start",
    "tournament_update",
    "tournaments_sweep",
    "withdraw",
]
