"""Domain errors of the games app; the API renders each as {"code", "message", "detail"}."""

from __future__ import annotations

from typing import Any

from rest_framework import status

from tute_site.exceptions import ApplicationError


class InvalidRules(ApplicationError):
    code = "invalid_rules"
    http_status = status.HTTP_400_BAD_REQUEST
    message = "The game's rules options are not valid."


class InvalidSeats(ApplicationError):
    code = "invalid_seats"
    http_status = status.HTTP_400_BAD_REQUEST
    message = "The seats do not fit the game."


class UnknownPlayer(ApplicationError):
    # 404, as player_not_found elsewhere: a well-formed request naming a player who is not there.
    code = "unknown_player"
    http_status = status.HTTP_404_NOT_FOUND
    message = "No player has that handle."


class MatchNotFound(ApplicationError):
    code = "match_not_found"
    http_status = status.HTTP_404_NOT_FOUND
    message = "No such match."


class MatchNotOpen(ApplicationError):
    code = "match_not_open"
    http_status = status.HTTP_409_CONFLICT
    message = "The match is no longer open for seating."


class MatchNotInProgress(ApplicationError):
    code = "match_not_in_progress"
    http_status = status.HTTP_409_CONFLICT
    message = "The match is not in progress."


class SeatTaken(ApplicationError):
    code = "seat_taken"
    http_status = status.HTTP_409_CONFLICT
    message = "That seat is taken."


class AlreadySeated(ApplicationError):
    code = "already_seated"
    http_status = status.HTTP_409_CONFLICT
    message = "You already have a seat in this match."


class NotSeated(ApplicationError):
    code = "not_seated"
    http_status = status.HTTP_403_FORBIDDEN
    message = "You have no seat in this match."


class NotYourTurn(ApplicationError):
    code = "not_your_turn"
    http_status = status.HTTP_409_CONFLICT
    message = "It is not your turn."


class StalePly(ApplicationError):
    code = "stale_ply"
    http_status = status.HTTP_409_CONFLICT
    message = "The match has moved on: send the current ply."

    def __init__(self, *, current: int) -> None:
        super().__init__(
            f"The match is at ply {current}: the action was for another ply.", detail={"ply": current}
        )


class IllegalActionError(ApplicationError):
    code = "illegal_action"
    http_status = status.HTTP_422_UNPROCESSABLE_ENTITY
    message = "That action is not legal now."

    def __init__(self, reason: str, *, action: str, ply: int, legal: list[str] | None = None) -> None:
        detail: dict[str, Any] = {"action": action, "reason": reason, "ply": ply}
        if legal is not None:
            detail["legal"] = legal
        super().__init__(f"Illegal action {action}: {reason}", detail=detail)


class IdempotencyKeyReused(ApplicationError):
    code = "idempotency_key_reused"
    http_status = status.HTTP_422_UNPROCESSABLE_ENTITY
    message = "That idempotency key was used for a different action."


class MatchNotFinished(ApplicationError):
    code = "match_not_finished"
    http_status = status.HTTP_403_FORBIDDEN
    message = "Records are shown once the match is finished."


class NotAllowed(ApplicationError):
    code = "not_allowed"
    http_status = status.HTTP_403_FORBIDDEN
    message = "You may not do that."


class AbortTooLate(ApplicationError):
    code = "abort_too_late"
    http_status = status.HTTP_409_CONFLICT
    message = "Every seat has played: the match can no longer be aborted; resign instead."


class ManagedMatch(ApplicationError):
    code = "managed_match"
    http_status = status.HTTP_403_FORBIDDEN
    message = (
        "This match belongs to a tournament: only the tournament's organisers end it, through the tournament."
    )


class TooManyOpenMatches(ApplicationError):
    code = "too_many_open_matches"
    http_status = status.HTTP_429_TOO_MANY_REQUESTS
    message = "You have as many matches open or in play as an account may: finish or abort one first."


class PeopleOnly(ApplicationError):
    code = "people_only"
    http_status = status.HTTP_403_FORBIDDEN
    message = "Only people own bots, clubs and personal tokens: a bot account may not do this."


class NotABot(ApplicationError):
    code = "not_a_bot"
    http_status = status.HTTP_404_NOT_FOUND
    message = "No bot of yours has that handle."


class HandleTaken(ApplicationError):
    code = "handle_taken"
    http_status = status.HTTP_409_CONFLICT
    message = "That handle is taken."


class NotInvited(ApplicationError):
    code = "not_invited"
    http_status = status.HTTP_409_CONFLICT
    message = "There is no pending challenge for you in this match."


class TokenNotFound(ApplicationError):
    code = "token_not_found"
    http_status = status.HTTP_404_NOT_FOUND
    message = "You have no token with that id."


class InvalidClientSeed(ApplicationError):
    code = "invalid_client_seed"
    http_status = status.HTTP_400_BAD_REQUEST
    message = "A client seed is 1 to 64 printable ASCII characters, without ':'."


class GameStarted(ApplicationError):
    code = "game_started"
    http_status = status.HTTP_409_CONFLICT
    message = "The game has begun: a client seed counts only before a game's first action."


class BoardNotFound(ApplicationError):
    code = "board_not_found"
    http_status = status.HTTP_404_NOT_FOUND
    message = "No board has that id."


class BoardFixed(ApplicationError):
    code = "board_fixed"
    http_status = status.HTTP_409_CONFLICT
    message = "This match plays boards dealt for several tables: client seeds do not change their cards."


class BoardNotRevealed(ApplicationError):
    code = "board_not_revealed"
    http_status = status.HTTP_403_FORBIDDEN
    message = (
        "Other tables still play this match's boards: its records are shown once every table has played them."
    )


class BotNotValidated(ApplicationError):
    code = "bot_not_validated"
    http_status = status.HTTP_409_CONFLICT
    message = "A bot account must pass validation for this game before it plays rated matches."


class UnknownGame(ApplicationError):
    code = "unknown_game"
    http_status = status.HTTP_400_BAD_REQUEST
    message = "No such game."


class InvalidPushUrl(ApplicationError):
    code = "invalid_push_url"
    http_status = status.HTTP_400_BAD_REQUEST
    message = "A push URL must be https:// on a public address."


class InviteRequired(ApplicationError):
    # The same answer for a missing code and a wrong one: a guess learns nothing.
    code = "invite_required"
    http_status = status.HTTP_403_FORBIDDEN
    message = "This table is private: join it with its invite code (the link its creator shares)."


class ChallengeCooldown(ApplicationError):
    code = "challenge_cooldown"
    http_status = status.HTTP_429_TOO_MANY_REQUESTS
    message = "That player declined your last challenge a short while ago: wait before challenging again."


class RematchUnavailable(ApplicationError):
    code = "rematch_unavailable"
    http_status = status.HTTP_409_CONFLICT
    message = "A rematch is offered after a finished match, by one of its players."


class HintsNotAllowed(ApplicationError):
    code = "hints_not_allowed"
    http_status = status.HTTP_403_FORBIDDEN
    message = "Hints are for unrated practice games against house bots: never in rated games, tournaments or the ladder."


class ReviewNotAllowed(ApplicationError):
    code = "review_not_allowed"
    http_status = status.HTTP_403_FORBIDDEN
    message = (
        "A game's review is for the person who held the seat, and for anyone once a public match is over "
        "and its deals are revealed."
    )


class GameNotFound(ApplicationError):
    code = "game_not_found"
    http_status = status.HTTP_404_NOT_FOUND
    message = "The match has no game with that number."


class SeatNotFound(ApplicationError):
    code = "seat_not_found"
    http_status = status.HTTP_404_NOT_FOUND
    message = "The match has no seat with that number."


class GameNotFinished(ApplicationError):
    code = "game_not_finished"
    http_status = status.HTTP_409_CONFLICT
    message = "The game is not over: its review comes once it is."


class NoMovesToReview(ApplicationError):
    code = "no_moves_to_review"
    http_status = status.HTTP_409_CONFLICT
    message = "This game was played over the board: its result was entered, there are no moves to review."
