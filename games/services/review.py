"""Reviews of finished games: each decision of one seat (swaps, cantes, bids, cards) set against the best
the server's strongest analysis finds from that seat's view (``games.bots.review``), with the expected
points it cost. Asked for once (``review_request``), worked out by a worker on the background queue
(``review_compute``), stored once per game and seat.

Who may see one: the person who held the seat, once the game is over; anyone, once a public match is
over and its deals are revealed (a duplicate's boards no other table still plays).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import timedelta

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone

from games.bots.review import Reviewer, worst_moments
from games.engine import State
from games.errors import (
    GameNotFinished,
    GameNotFound,
    MatchNotFound,
    NoMovesToReview,
    ReviewNotAllowed,
    SeatNotFound,
)
from games.models import Action, Game, Match, Player, Review, Seat
from games.selectors import review_may_see
from games.states import match_rules
from tute_site.celery import queue_on_commit

log = logging.getLogger(__name__)

#: The analysis every review runs (its budgets: games.bots.review).
REVIEWER = Reviewer()
ANALYSIS = "search+solver"
#: A review queued or running that has not moved for this long lost its worker: asking again re-queues it.
STALE_AFTER = timedelta(minutes=3)


@dataclass(frozen=True, slots=True)
class Decision:
    """A decision of the reviewed seat: where it was taken, from what it could see, and what it chose."""

    ply: int  # the match's ply
    state: State
    seat: int  # the game seat
    played: str


def _decisions(match: Match, game: Game, game_seat: int) -> list[Decision]:
    """Every point of ``game`` where ``game_seat`` acted with a choice of more than one action."""
    state = State.new(match_rules(match), dealer=game.dealer, seed=game.seed)
    out: list[Decision] = []
    for ply, code in Action.objects.filter(game=game).order_by("ply").values_list("ply", "code"):
        if state.current_player() == game_seat and len(state.legal_actions()) > 1:
            out.append(Decision(ply, state, game_seat, code))
        state = state.apply(code)
    return out


@transaction.atomic
def review_request(*, match_id: int, game_number: int, seat: int, player: Player | None) -> Review:
    """The review of ``seat``'s decisions in game ``game_number``: the stored one, or a new one queued on
    the background queue (one per game and seat, whoever asks first; a stalled or failed one queued
    again)."""
    match = Match.objects.filter(pk=match_id).first()
    if match is None:
        raise MatchNotFound()
    seat_row = Seat.objects.filter(match=match, index=seat).first()
    if seat_row is None:
        raise SeatNotFound(detail={"seats": match.num_players})
    if not review_may_see(match=match, seat=seat_row, player=player):
        raise ReviewNotAllowed()
    if match.over_the_board:
        raise NoMovesToReview()
    game = Game.objects.filter(match=match, number=game_number).first()
    if game is None:
        raise GameNotFound(detail={"games": match.games.count()})
    if game.status != Game.Status.FINISHED:
        raise GameNotFinished()
    review = Review.objects.filter(game=game, seat=seat).first()
    if review is None:
        decisions = _decisions(match, game, game.game_seat(seat))
        try:
            with transaction.atomic():
                review = Review.objects.create(
                    match=match,
                    game=game,
                    seat=seat,
                    player=seat_row.player,
                    decisions=len(decisions),
                    analysis=ANALYSIS,
                )
        except IntegrityError:  # another request made it first: that one is queued
            return Review.objects.get(game=game, seat=seat)
        queue_on_commit("games.game_review", review.pk, queue=settings.TUTE_BACKGROUND_QUEUE)
        return review
    stalled = review.status in (Review.Status.QUEUED, Review.Status.RUNNING) and (
        review.updated_at < timezone.now() - STALE_AFTER
    )
    if stalled or review.status == Review.Status.FAILED:
        Review.objects.filter(pk=review.pk).update(
            status=Review.Status.QUEUED, error="", updated_at=timezone.now()
        )
        review.refresh_from_db()
        queue_on_commit("games.game_review", review.pk, queue=settings.TUTE_BACKGROUND_QUEUE)
    return review


def review_compute(*, review_id: int) -> Review | None:
    """Work the review out, decision by decision, storing each as it comes (the progress; a redelivered
    task goes on from the last one stored). Outside any transaction: each write is one conditional update
    of its own, and the analysis is deterministic, so two runs of one review store the same entries."""
    review = Review.objects.select_related("match", "game").filter(pk=review_id).first()
    if review is None or review.status == Review.Status.DONE:
        return review
    match, game = review.match, review.game
    Review.objects.filter(pk=review.pk, status=Review.Status.QUEUED).update(status=Review.Status.RUNNING)
    try:
        decisions = _decisions(match, game, game.game_seat(review.seat))
        entries = list(review.entries)[: len(decisions)]
        for decision in decisions[len(entries) :]:
            view = decision.state.view(decision.seat)
            entry = REVIEWER.review(view, decision.state.legal_actions(), decision.played).to_dict()
            entry["ply"] = decision.ply
            entries.append(entry)
            Review.objects.filter(pk=review.pk).exclude(status=Review.Status.DONE).update(
                entries=entries, decisions=len(decisions), updated_at=timezone.now()
            )
    except Exception as exc:  # a review that cannot be made says so, and asking again retries it
        log.exception("review %s of match %s failed", review.pk, match.pk)
        Review.objects.filter(pk=review.pk).exclude(status=Review.Status.DONE).update(
            status=Review.Status.FAILED, error=f"{type(exc).__name__}: {exc}"[:200]
        )
        raise
    costs = [float(entry["cost"]) for entry in entries]
    Review.objects.filter(pk=review.pk).exclude(status=Review.Status.DONE).update(
        status=Review.Status.DONE,
        entries=entries,
        decisions=len(decisions),
        worst=worst_moments(costs),
        points_lost=round(sum(costs), 2),
        finished_at=timezone.now(),
        error="",
    )
    return Review.objects.get(pk=review.pk)
