"""A service's objection as the website shows it: in the reader's language.

Services raise ``ApplicationError`` with a machine-readable ``code`` and an English message (the API's
words). The pages show the message itself in English, which is the most specific, and in any other
language the translated sentence for its code.
"""

from __future__ import annotations

from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _

from tute_site.exceptions import ApplicationError

MESSAGES = {
    "invalid_rules": _("Those rules cannot be played: check the options."),
    "invalid_seats": _("Those seats do not make a table for this game."),
    "unknown_player": _("There is no player with that handle."),
    "match_not_found": _("There is no such match."),
    "match_not_open": _("The match is no longer taking players."),
    "match_not_in_progress": _("The match is not being played."),
    "seat_taken": _("That seat is taken."),
    "already_seated": _("You already have a seat at this match."),
    "not_seated": _("You have no seat at this match."),
    "not_your_turn": _("It is not your turn."),
    "stale_ply": _("The table moved on meanwhile: look again."),
    "illegal_action": _("The rules do not allow that move."),
    "not_allowed": _("You may not do that."),
    "not_a_bot": _("That account is not one of your bots."),
    "handle_taken": _("That handle is taken: choose another."),
    "not_invited": _("You are not invited."),
    "token_not_found": _("There is no such token."),
    "club_not_found": _("There is no such club."),
    "club_slug_taken": _("That club address is taken: choose another."),
    "tournament_not_found": _("There is no such tournament."),
    "entrant_not_found": _("There is no such entrant."),
    "entrant_name_taken": _("Another entrant has that name."),
    "tournament_match_not_found": _("There is no such tournament match."),
    "player_not_found": _("There is no player with that handle."),
    "not_organiser": _("Only the club's organisers may do that."),
    "not_member": _("That player is not a member of the club."),
    "invalid_tournament": _("Those tournament settings do not work together: check the form."),
    "wrong_status": _("The tournament is not at a stage where that can be done."),
    "registration_closed": _("Entries are closed."),
    "wrong_passcode": _("Wrong passcode."),
    "already_registered": _("You are entered already."),
    "tournament_full": _("The tournament is full."),
    "invalid_entry": _("That entry is not valid for this tournament."),
    "check_in_closed": _("Check-in is not open."),
    "not_entered": _("You are not entered in this tournament."),
    "too_few_entrants": _("Too few entrants to start."),
    "pair_incomplete": _("A pair needs two players (or a house bot as partner)."),
    "invalid_seeding": _("That seeding is not valid."),
    "invalid_correction": _("That correction is not valid."),
    "correction_blocked": _("That result can no longer be corrected: later rounds depend on it."),
    "no_bracket": _("This tournament has no bracket."),
    "invite_required": _("This table is private: you need its invite link."),
    "challenge_cooldown": _("That player declined your last challenge a short while ago: try again later."),
    "rematch_unavailable": _("A rematch is offered after a finished match, by one of its players."),
    "too_many_open_matches": _(
        "You have as many matches open or in play as an account may: finish or abort one first."
    ),
    "abort_too_late": _("Every seat has played already: the match can only be resigned now."),
    "seek_not_found": _("There is no such search of yours."),
    "seek_exists": _("You are already looking for a game of this kind."),
    "seek_matched": _("This search found its match already."),
    "too_many_seeks": _("You started too many searches lately: wait a little."),
    "seek_out_of_range": _("Your rating is outside the range this player asked for."),
    "invalid_seek": _("That search does not fit the game."),
    "people_only": _("Only people may do that, not bot accounts."),
}


def error_text(exc: Exception) -> str:
    """The objection in the reader's language (English: the service's own, more specific, words)."""
    code = getattr(exc, "code", None) if isinstance(exc, ApplicationError) else None
    if (get_language() or "en").startswith("en") or code not in MESSAGES:
        return str(exc)
    return str(MESSAGES[code])
