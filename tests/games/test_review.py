"""A finished game's review through the service and the API (issue 32.2): queued once per game and
seat on the background queue, worked out by the task with progress, shown to whom it may be."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest
from django.conf import settings
from rest_framework.test import APIClient

from games.bots.review import Reviewer
from games.bots.search import Budget
from games.engine import SeatView
from games.models import Game, Match, Player, Review
from games.services import review as review_service
from games.services.review import review_compute
from tests.factories import MatchFactory
from tute_site.celery import app

from .conftest import play_one, play_to_end

pytestmark = pytest.mark.django_db

SMALL = Budget(samples=6, playouts=36, solve_cards=8, solve_nodes=20000, solve_samples=2, prior=0.0)


@pytest.fixture(autouse=True)
def quick_reviewer(monkeypatch: pytest.MonkeyPatch) -> Reviewer:
    reviewer = Reviewer(SMALL, tute4=SMALL)
    monkeypatch.setattr(review_service, "REVIEWER", reviewer)
    return reviewer


@pytest.fixture
def sent(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, list[Any], str | None]]:
    """Tasks published, by name, arguments and queue, instead of sent to a broker."""
    messages: list[tuple[str, list[Any], str | None]] = []

    def send_task(name: str, args: Any = None, kwargs: Any = None, **options: Any) -> None:
        messages.append((name, list(args or ()), options.get("queue")))

    monkeypatch.setattr(app, "send_task", send_task)
    return messages


def finished(me: Player, *, game: str = "tute2", private: bool = False, seed: str = "r") -> Match:
    seats: list[Any] = [me, "rule"] if game == "tute2" else [me, "rule", "rule", "rule"]
    match = MatchFactory(created_by=me, game=game, seats=seats, rated=False, private=private)
    return play_to_end(match.pk, random.Random(seed))


def review_url(match: Match, game: int = 0, seat: int = 0) -> str:
    return f"/api/v1/matches/{match.pk}/review/?game={game}&seat={seat}"


def test_a_review_is_queued_once_worked_out_with_progress_and_shown_done(
    make_player: Callable[..., Player],
    token_client: Callable[[Player], APIClient],
    sent: list[tuple[str, list[Any], str | None]],
    django_capture_on_commit_callbacks: Any,
) -> None:
    me = make_player()
    match = finished(me)
    client = token_client(me)
    with django_capture_on_commit_callbacks(execute=True):
        first = client.get(review_url(match))
    assert first.status_code == 202, first.content
    body = first.json()
    assert body["status"] == "queued" and body["progress"] == 0 and body["entries"] == []
    assert body["decisions"] > 5 and body["match"] == match.pk and body["game"] == 0 and body["seat"] == 0
    review = Review.objects.get()
    assert sent == [("games.game_review", [review.pk], settings.TUTE_BACKGROUND_QUEUE)]
    with django_capture_on_commit_callbacks(execute=True):
        assert client.get(review_url(match)).status_code == 202
    assert len(sent) == 1 and Review.objects.count() == 1, "asked again: the same review, not queued twice"

    review_compute(review_id=review.pk)
    done = client.get(review_url(match))
    assert done.status_code == 200
    out = done.json()
    assert out["status"] == "done" and out["progress"] == 1.0 and out["finished_at"]
    entries = out["entries"]
    assert len(entries) == out["decisions"] == body["decisions"]
    plies = [e["ply"] for e in entries]
    assert plies == sorted(plies)
    actions = dict(match.actions.values_list("ply", "code"))
    for e in entries:
        assert e["played"] == actions[e["ply"]] and e["played"] in e["values"] and e["best"] in e["values"]
        assert e["cost"] == pytest.approx(
            max(0.0, e["values"][e["best"]] - e["values"][e["played"]]), abs=0.02
        )
    assert out["points_lost"] == pytest.approx(sum(e["cost"] for e in entries), abs=0.05)
    assert all(entries[i]["cost"] >= 2 for i in out["worst"]) and len(out["worst"]) <= 3
    # a redelivered task changes nothing
    assert review_compute(review_id=review.pk).entries == review_compute(review_id=review.pk).entries


def test_the_task_goes_on_from_the_decisions_stored_and_sees_only_the_seats_view(
    make_player: Callable[..., Player], monkeypatch: pytest.MonkeyPatch, quick_reviewer: Reviewer
) -> None:
    me = make_player()
    match = finished(me, game="tute4")
    review = review_service.review_request(match_id=match.pk, game_number=0, seat=0, player=me)
    seen: list[SeatView] = []
    real = quick_reviewer.review

    def spy(view: SeatView, legal: tuple[str, ...], played: str) -> Any:
        assert isinstance(view, SeatView)
        seen.append(view)
        return real(view, legal, played)

    monkeypatch.setattr(quick_reviewer, "review", spy)
    Review.objects.filter(pk=review.pk).update(status=Review.Status.RUNNING)
    done = review_compute(review_id=review.pk)
    assert done is not None and done.status == Review.Status.DONE
    assert {v.seat for v in seen} == {0} and len(seen) == done.decisions
    assert all(len(v.hand) == v.hand_sizes[0] for v in seen)
    # half of it lost with a worker: the next run reviews only the rest, to the same result
    Review.objects.filter(pk=review.pk).update(
        status=Review.Status.RUNNING, entries=done.entries[:3], finished_at=None
    )
    seen.clear()
    again = review_compute(review_id=review.pk)
    assert again is not None and again.entries == done.entries and len(seen) == done.decisions - 3


def test_who_may_see_a_review(
    make_player: Callable[..., Player],
    token_client: Callable[[Player], APIClient],
    anon_client: APIClient,
) -> None:
    me, other = make_player(), make_player()
    public = finished(me, seed="p")
    assert anon_client.get(review_url(public)).status_code == 202, "a public finished match: anyone"
    assert token_client(other).get(review_url(public, seat=1)).status_code == 202
    private = finished(me, private=True, seed="q")
    refused = anon_client.get(review_url(private))
    assert refused.status_code == 403 and refused.json()["code"] == "review_not_allowed"
    assert token_client(other).get(review_url(private)).json()["code"] == "review_not_allowed"
    assert token_client(me).get(review_url(private)).status_code == 202, "one's own seat, always"
    assert token_client(me).get(review_url(private, seat=1)).json()["code"] == "review_not_allowed"


def test_a_game_still_played_and_bad_arguments_are_refused(
    make_player: Callable[..., Player],
    token_client: Callable[[Player], APIClient],
    anon_client: APIClient,
) -> None:
    me, other = make_player(), make_player()
    match = MatchFactory(created_by=me, game="tute2", seats=[me, "rule"], rated=False)
    rng = random.Random(1)
    for _ in range(6):
        play_one(match.pk, rng)
    client = token_client(me)
    busy = client.get(review_url(match))
    assert busy.status_code == 409 and busy.json()["code"] == "game_not_finished"
    assert token_client(other).get(review_url(match)).json()["code"] == "review_not_allowed"
    assert client.get(review_url(match, game=3)).json()["code"] == "game_not_found"
    assert client.get(review_url(match, seat=5)).json()["code"] == "seat_not_found"
    for query in ("", "?game=0", "?seat=0", "?game=x&seat=0", "?game=-1&seat=0", "?game=0&seat=1.0"):
        answer = client.get(f"/api/v1/matches/{match.pk}/review/{query}")
        assert answer.status_code == 400 and answer.json()["code"] == "invalid", query
    assert anon_client.get("/api/v1/matches/999999/review/?game=0&seat=0").json()["code"] == "match_not_found"
    assert not Review.objects.exists()


def test_a_finished_game_of_a_match_still_played_is_its_seats_own(
    make_player: Callable[..., Player], token_client: Callable[[Player], APIClient], anon_client: APIClient
) -> None:
    me = make_player()
    match = MatchFactory(
        created_by=me, game="tute2", seats=[me, "rule"], rated=False, format="best_of", format_target=3
    )
    rng = random.Random(2)
    while not Game.objects.filter(match=match, status=Game.Status.FINISHED).exists():
        assert play_one(match.pk, rng) is not None
    match.refresh_from_db()
    assert match.status == Match.Status.IN_PROGRESS, "best of 3: one game won does not end it"
    assert token_client(me).get(review_url(match)).status_code == 202
    assert anon_client.get(review_url(match)).json()["code"] == "review_not_allowed"
