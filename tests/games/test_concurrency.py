"""One action per ply under real concurrency, on PostgreSQL: real threads, each with its own connection.

On SQLite these tests skip (``postgres_required``); under TUTE_REQUIRE_SERVICES=1, as CI runs, they fail
instead, so CI never passes without having run them.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from django.db import connections, transaction
from rest_framework.test import APIClient

from games.errors import StalePly
from games.models import Action, Game, Match, Player, Seat
from games.services import action_submit, match_create, match_spec, seat_join, token_create
from tests.factories import PlayerFactory, UserFactory, token_for
from tute_site.exceptions import ApplicationError

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("postgres_required")]

PARALLEL = 20


def in_threads(count: int, work: Callable[[int], Any], *, timeout: float = 30) -> list[Any]:
    """Run ``work(i)`` in ``count`` threads released together; each result, or the exception it raised."""
    start = threading.Barrier(count)
    results: list[Any] = [None] * count

    def run(i: int) -> None:
        try:
            start.wait()
            results[i] = work(i)
        except Exception as exc:
            results[i] = exc
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout)
    assert not any(t.is_alive() for t in threads), "a thread hung"
    return results


def state_of(match: Match) -> tuple[int, int]:
    match.refresh_from_db()
    return match.ply, Action.objects.filter(match=match).count()


def test_twenty_parallel_submissions_of_one_move_apply_it_once(
    started_match: Callable[..., Match], turn: Callable[..., Any]
) -> None:
    # given: a Tute 2 at ply 0 and the seat to act
    match = started_match("tute2")
    now = turn(match.pk)
    code = now.legal[0]

    # when: 20 threads submit its move for ply 0 at once (a client retrying in a hurry)
    results = in_threads(
        PARALLEL, lambda i: action_submit(match_id=match.pk, player=now.player, code=code, ply=0)
    )

    # then: exactly one applied it; the other 19 were told the match is at ply 1
    applied = [r for r in results if not isinstance(r, Exception)]
    refused = [r for r in results if isinstance(r, Exception)]
    assert len(applied) == 1 and applied[0].ply == 0
    assert len(refused) == PARALLEL - 1
    assert all(isinstance(r, StalePly) and r.detail == {"ply": 1} for r in refused), refused
    assert state_of(match) == (1, 1)
    assert list(Action.objects.filter(match=match).values_list("code", flat=True)) == [code]


def test_twenty_parallel_posts_of_one_move_get_one_200_and_nineteen_409(
    started_match: Callable[..., Match], turn: Callable[..., Any]
) -> None:
    # given: the seat to act with one API client per thread
    match = started_match("tute4")
    now = turn(match.pk)
    token = token_for(now.player)
    clients = []
    for _ in range(PARALLEL):
        client = APIClient()
        client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
        clients.append(client)

    # when: all post the same move for ply 0 at once
    results = in_threads(
        PARALLEL,
        lambda i: clients[i].post(
            f"/api/v1/matches/{match.pk}/actions/", {"action": now.legal[0], "ply": 0}, format="json"
        ),
    )

    # then: one 200 with the new view; nineteen 409 stale_ply giving the current ply
    assert not [r for r in results if isinstance(r, Exception)], results
    statuses = sorted(r.status_code for r in results)
    assert statuses == [200] + [409] * (PARALLEL - 1)
    for response in results:
        if response.status_code == 409:
            assert response.json()["code"] == "stale_ply"
            assert response.json()["detail"] == {"ply": 1}
        else:
            assert response.json()["ply"] == 1
    assert state_of(match) == (1, 1)


def test_parallel_moves_of_different_seats_at_one_ply_apply_only_the_right_one(
    started_match: Callable[..., Match], turn: Callable[..., Any], players_of: Callable[..., Any]
) -> None:
    # given: a Pocha for 4 at ply 0: every seat tries to bid at once
    match = started_match("pocha", players=4, options={"pocha_sequence": [1, 2]})
    now = turn(match.pk)
    players = players_of(match)

    results = in_threads(
        8, lambda i: action_submit(match_id=match.pk, player=players[i % 4], code="bid:0", ply=0)
    )

    applied = [r for r in results if not isinstance(r, Exception)]
    assert len(applied) == 1
    assert state_of(match) == (1, 1)
    assert Action.objects.get(match=match).seat == now.seat


def test_parallel_retries_with_one_idempotency_key_all_get_the_first_answer(
    started_match: Callable[..., Match], turn: Callable[..., Any]
) -> None:
    # given: the seat to act retries its move with the same Idempotency-Key, 20 times at once
    match = started_match("tute2")
    now = turn(match.pk)
    token = token_for(now.player)

    def post(i: int) -> Any:
        client = APIClient()
        client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
        return client.post(
            f"/api/v1/matches/{match.pk}/actions/",
            {"action": now.legal[0], "ply": 0},
            format="json",
            HTTP_IDEMPOTENCY_KEY="one-key",
        )

    results = in_threads(PARALLEL, post)

    # then: the move applied once, and every retry got the same answer as the first
    assert not [r for r in results if isinstance(r, Exception)], results
    assert [r.status_code for r in results] == [200] * PARALLEL, [r.content for r in results]
    assert len({r.content for r in results}) == 1
    assert state_of(match) == (1, 1)


@contextmanager
def row_locked(match_id: int) -> Iterator[None]:
    """Hold ``SELECT ... FOR UPDATE`` on one match row in another thread until the block ends."""
    locked, release = threading.Event(), threading.Event()
    errors: list[BaseException] = []

    def hold() -> None:
        try:
            with transaction.atomic():
                Match.objects.select_for_update().get(pk=match_id)
                locked.set()
                release.wait(30)
        except BaseException as exc:
            errors.append(exc)
            locked.set()
        finally:
            connections.close_all()

    holder = threading.Thread(target=hold)
    holder.start()
    assert locked.wait(10), "the lock was not taken"
    assert not errors, errors
    try:
        yield
    finally:
        release.set()
        holder.join(10)


def move_in_thread(match: Match, player: Player, code: str, ply: int) -> tuple[threading.Thread, list[Any]]:
    outcome: list[Any] = []

    def run() -> None:
        try:
            outcome.append(action_submit(match_id=match.pk, player=player, code=code, ply=ply))
        except Exception as exc:
            outcome.append(exc)
        finally:
            connections.close_all()

    thread = threading.Thread(target=run)
    thread.start()
    return thread, outcome


def test_moves_in_different_matches_do_not_block_each_other(
    started_match: Callable[..., Match], turn: Callable[..., Any]
) -> None:
    # given: two matches in progress
    match_a, match_b = started_match("tute2"), started_match("tute2")
    now_a, now_b = turn(match_a.pk), turn(match_b.pk)

    # when: match A's row is locked by a transaction that stays open
    with row_locked(match_a.pk):
        # then: a move in match B completes meanwhile
        b_thread, b_outcome = move_in_thread(match_b, now_b.player, now_b.legal[0], 0)
        b_thread.join(10)
        assert not b_thread.is_alive(), "a move in match B waited for match A's lock"
        assert b_outcome and not isinstance(b_outcome[0], Exception), b_outcome

        # and: a move in match A waits for the lock (the lock is real)
        a_thread, a_outcome = move_in_thread(match_a, now_a.player, now_a.legal[0], 0)
        a_thread.join(0.5)
        assert a_thread.is_alive(), "a move in match A went through a held lock"
        assert state_of(match_a) == (0, 0)

    # and: once the lock is released, the move in match A goes through
    a_thread.join(10)
    assert not a_thread.is_alive()
    assert a_outcome and not isinstance(a_outcome[0], Exception), a_outcome
    assert state_of(match_a) == (1, 1) and state_of(match_b) == (1, 1)


def test_parallel_first_requests_of_a_new_account_all_succeed() -> None:
    """A person's first requests (a web page firing several at once) each make sure a Player exists."""
    # given: a new account with a token and no player yet
    user = UserFactory()
    token = token_create(user=user)

    def me(i: int) -> Any:
        client = APIClient()
        client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
        return client.get("/api/v1/me/")

    # when: ten requests arrive at once
    results = in_threads(10, me)

    # then: every one answers 200 with the one player made for the account
    assert [getattr(r, "status_code", r) for r in results] == [200] * 10
    assert Player.objects.filter(user=user).count() == 1
    assert len({r.json()["handle"] for r in results}) == 1


def test_parallel_joins_fill_the_last_seat_once_and_deal_once() -> None:
    # given: an open Tute 2 with one empty seat, and ten players wanting it
    creator = PlayerFactory()
    match = match_create(spec=match_spec(created_by=creator, game="tute2"))
    joiners = [PlayerFactory() for _ in range(10)]

    # when: all join at once
    results = in_threads(10, lambda i: seat_join(match_id=match.pk, player=joiners[i]))

    # then: one took the seat and started the match, with one game dealt; the others got a 409
    taken = [r for r in results if not isinstance(r, Exception)]
    refused = [r for r in results if isinstance(r, Exception)]
    assert len(taken) == 1
    assert all(isinstance(r, ApplicationError) and r.http_status == 409 for r in refused), refused
    match.refresh_from_db()
    assert match.status == Match.Status.IN_PROGRESS
    assert Game.objects.filter(match=match).count() == 1
    assert Seat.objects.filter(match=match, player__in=joiners).count() == 1


# -- concurrent joins of a match with several empty seats (issue 16, point 3) ---------------------------


def joining_client(player: Player) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token_for(player)}")
    return client


def open_pocha(empty: int) -> Match:
    """An open Pocha whose creator sits at seat 0, with ``empty`` empty seats after it."""
    creator = PlayerFactory()
    return match_create(spec=match_spec(created_by=creator, game="pocha", players=empty + 1))


@pytest.mark.parametrize("trial", range(4))
def test_two_joins_of_the_last_two_seats_fill_them_and_start_the_match(trial: int) -> None:
    # given: a 3-seat Pocha with seats 1 and 2 empty, and two people, one for each
    match = open_pocha(2)
    joiners = [PlayerFactory(), PlayerFactory()]
    clients = [joining_client(p) for p in joiners]

    # when: both join their seat at once through the API
    results = in_threads(
        2, lambda i: clients[i].post(f"/api/v1/matches/{match.pk}/join/", {"seat": i + 1}, format="json")
    )

    # then: both 200, both seated, and the full match started with one game dealt
    assert [r.status_code for r in results] == [200, 200], [r.content for r in results]
    match.refresh_from_db()
    assert match.status == Match.Status.IN_PROGRESS
    assert Game.objects.filter(match=match).count() == 1
    seated = dict(Seat.objects.filter(match=match).values_list("index", "player_id"))
    assert seated[1] == joiners[0].pk and seated[2] == joiners[1].pk


@pytest.mark.parametrize("trial", range(4))
def test_two_joins_without_a_seat_index_both_take_a_seat(trial: int) -> None:
    match = open_pocha(2)
    joiners = [PlayerFactory(), PlayerFactory()]
    clients = [joining_client(p) for p in joiners]

    results = in_threads(2, lambda i: clients[i].post(f"/api/v1/matches/{match.pk}/join/", {}, format="json"))

    assert [r.status_code for r in results] == [200, 200], [r.content for r in results]
    for response, joiner in zip(results, joiners, strict=True):
        body = response.json()
        assert joiner.handle in [s["player"]["handle"] for s in body["seats"] if s["player"]]
    match.refresh_from_db()
    assert match.status == Match.Status.IN_PROGRESS
    assert set(Seat.objects.filter(match=match).values_list("player_id", flat=True)) >= {
        j.pk for j in joiners
    }


@pytest.mark.parametrize("trial", range(4))
def test_one_person_joining_two_seats_at_once_gets_one_seat_and_a_409(trial: int) -> None:
    match = open_pocha(3)
    joiner = PlayerFactory()
    clients = [joining_client(joiner), joining_client(joiner)]

    results = in_threads(
        2, lambda i: clients[i].post(f"/api/v1/matches/{match.pk}/join/", {"seat": i + 1}, format="json")
    )

    assert sorted(r.status_code for r in results) == [200, 409], [r.content for r in results]
    refused = next(r for r in results if r.status_code == 409)
    assert refused.json()["code"] == "already_seated"
    assert Seat.objects.filter(match=match, player=joiner).count() == 1


def test_twenty_joins_on_five_empty_seats_seat_five_and_every_200_is_a_seat() -> None:
    # given: a 6-seat Pocha with five empty seats and twenty people
    match = open_pocha(5)
    joiners = [PlayerFactory() for _ in range(PARALLEL)]
    clients = [joining_client(p) for p in joiners]

    # when: all join at once, half naming a seat
    def join(i: int) -> Any:
        body = {"seat": 1 + i % 5} if i % 2 else {}
        return clients[i].post(f"/api/v1/matches/{match.pk}/join/", body, format="json")

    results = in_threads(PARALLEL, join)

    # then: five 200s, each one a seat taken; the rest 409; the full match started
    ok = [i for i, r in enumerate(results) if r.status_code == 200]
    assert sorted(r.status_code for r in results) == [200] * 5 + [409] * (PARALLEL - 5), [
        r.content for r in results
    ]
    seated = set(Seat.objects.filter(match=match, index__gt=0).values_list("player_id", flat=True))
    assert seated == {joiners[i].pk for i in ok}
    match.refresh_from_db()
    assert match.status == Match.Status.IN_PROGRESS
    assert Game.objects.filter(match=match).count() == 1
