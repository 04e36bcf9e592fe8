"""Domain errors of the tournaments app; the API renders each as {"code", "message", "detail"}."""

from __future__ import annotations

from rest_framework import status

from tute_site.exceptions import ApplicationError


class ClubNotFound(ApplicationError):
    code = "club_not_found"
    http_status = status.HTTP_404_NOT_FOUND
    message = "No such club."


class ClubSlugTaken(ApplicationError):
    code = "club_slug_taken"
    http_status = status.HTTP_409_CONFLICT
    message = "A club already has that slug."


class TournamentNotFound(ApplicationError):
    code = "tournament_not_found"
    http_status = status.HTTP_404_NOT_FOUND
    message = "No such tournament."


class EntrantNotFound(ApplicationError):
    code = "entrant_not_found"
    http_status = status.HTTP_404_NOT_FOUND
    message = "No such entrant in this tournament."


class EntrantNameTaken(ApplicationError):
    code = "entrant_name_taken"
    http_status = status.HTTP_409_CONFLICT
    message = "Another entrant of this tournament has that name."


class TournamentBoardNotFound(ApplicationError):
    code = "tournament_board_not_found"
    http_status = status.HTTP_404_NOT_FOUND
    message = "No board with that number in this tournament."


class TournamentMatchNotFound(ApplicationError):
    code = "tournament_match_not_found"
    http_status = status.HTTP_404_NOT_FOUND
    message = "No such match in this tournament."


class PlayerNotFound(ApplicationError):
    # 404 as everywhere else in the API (ratings): the handle names no player. A request of the right
    # shape naming someone who is not there is not malformed.
    code = "player_not_found"
    http_status = status.HTTP_404_NOT_FOUND
    message = "No player has that handle."


class NotOrganiser(ApplicationError):
    code = "not_organiser"
    http_status = status.HTTP_403_FORBIDDEN
    message = "Only the club's organisers may do that."


class NotMember(ApplicationError):
    code = "not_member"
    http_status = status.HTTP_403_FORBIDDEN
    message = "You are not a member of that club."


class InvalidTournament(ApplicationError):
    code = "invalid_tournament"
    http_status = status.HTTP_400_BAD_REQUEST
    message = "The tournament's settings do not fit together."


class WrongStatus(ApplicationError):
    code = "wrong_status"
    http_status = status.HTTP_409_CONFLICT
    message = "The tournament is not at the stage this needs."


class RegistrationClosed(ApplicationError):
    code = "registration_closed"
    http_status = status.HTTP_409_CONFLICT
    message = "Registration for this tournament is closed."


class NotInvited(ApplicationError):
    code = "not_invited"
    http_status = status.HTTP_403_FORBIDDEN
    message = "This tournament is by invitation, and you have none."


class WrongPasscode(ApplicationError):
    code = "wrong_passcode"
    http_status = status.HTTP_403_FORBIDDEN
    message = "The passcode is wrong."


class AlreadyRegistered(ApplicationError):
    code = "already_registered"
    http_status = status.HTTP_409_CONFLICT
    message = "That player is already entered in this tournament."


class TournamentFull(ApplicationError):
    code = "tournament_full"
    http_status = status.HTTP_409_CONFLICT
    message = "The tournament has no room for another entrant."


class InvalidEntry(ApplicationError):
    code = "invalid_entry"
    http_status = status.HTTP_400_BAD_REQUEST
    message = "The entry does not fit the tournament's game."


class CheckInClosed(ApplicationError):
    code = "check_in_closed"
    http_status = status.HTTP_409_CONFLICT
    message = "Check-in is not open."


class NotEntered(ApplicationError):
    code = "not_entered"
    http_status = status.HTTP_404_NOT_FOUND
    message = "You are not entered in this tournament."


class TooFewEntrants(ApplicationError):
    code = "too_few_entrants"
    http_status = status.HTTP_409_CONFLICT
    message = "Not enough entrants to start."


class PairIncomplete(ApplicationError):
    code = "pair_incomplete"
    http_status = status.HTTP_409_CONFLICT
    message = "Some pairs have no partner: add one or fill it with a house bot."


class InvalidSeeding(ApplicationError):
    code = "invalid_seeding"
    http_status = status.HTTP_400_BAD_REQUEST
    message = "The seeding order must list every entrant exactly once."


class InvalidCorrection(ApplicationError):
    code = "invalid_correction"
    http_status = status.HTTP_400_BAD_REQUEST
    message = "That result does not fit the match."


class CorrectionBlocked(ApplicationError):
    code = "correction_blocked"
    http_status = status.HTTP_409_CONFLICT
    message = "The correction would change matches that have already started."


class NoBracket(ApplicationError):
    code = "no_bracket"
    http_status = status.HTTP_404_NOT_FOUND
    message = "This tournament has no bracket (it is not an elimination, or it has not started)."


class InvalidResult(ApplicationError):
    code = "invalid_result"
    http_status = status.HTTP_400_BAD_REQUEST
    message = "That result cannot have been played: check the points, the hands and the positions."


class NotOverTheBoard(ApplicationError):
    code = "not_over_the_board"
    http_status = status.HTTP_409_CONFLICT
    message = "This match is played on the site: its result comes from the match itself."


class RoundClosed(ApplicationError):
    code = "round_closed"
    http_status = status.HTTP_409_CONFLICT
    message = "That round is closed: every table has its result. Change a result with a correction."


class NotAtTable(ApplicationError):
    code = "not_at_table"
    http_status = status.HTTP_403_FORBIDDEN
    message = "Only the players of this table report or confirm its result."


class NoReportWaiting(ApplicationError):
    code = "no_report_waiting"
    http_status = status.HTTP_409_CONFLICT
    message = "No result of this table waits for a confirmation."


class SelfReportOff(ApplicationError):
    code = "self_report_off"
    http_status = status.HTTP_403_FORBIDDEN
    message = "In this tournament the organisers enter the results: the players do not report them."


class InvalidImport(ApplicationError):
    code = "invalid_import"
    http_status = status.HTTP_400_BAD_REQUEST
    message = "That is not a tournament export this site can read back."
