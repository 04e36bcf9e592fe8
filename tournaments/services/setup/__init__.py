"""Before the start: creating and editing tournaments (``settings``), entries, check-in, house bots
(``entries``)."""

from tournaments.services.setup.entries import (
    ENTERED,
    check_in,
    entrant_bot_fill,
    entrant_of,
    entrant_rename,
    invite,
    organiser_or_self,
    partner_set,
    register,
)
from tournaments.services.setup.settings import Settings, tournament_create, tournament_update

__all__ = [
    "ENTERED",
    "Settings",
    "check_in",
    "entrant_bot_fill",
    "entrant_of",
    "entrant_rename",
    "invite",
    "organiser_or_self",
    "partner_set",
    "register",
    "tournament_create",
    "tournament_update",
]
