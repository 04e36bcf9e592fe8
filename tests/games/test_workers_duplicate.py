"""A duplicate match end to end with a real Celery worker (issue 20): a person and three house bots play
a Tute 4 board twice, the pairs changing sides, and the records verify (RULES.md 11)."""

from __future__ import annotations

import random
from typing import Any

import pytest
from rest_framework.test import APIClient

from games.engine.verify import verify_document
from games.models import Action, Game, Match
from tests.games.test_workers import (  # noqa: F401 (the worker fixtures of that module)
    MATCH_SECONDS,
    api_client,
    broker,
    new_player,
    slot,
    worker,
)
from tests.workers import Worker, play_through_api

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_tute4_duplicate_board_is_played_from_both_sides_with_house_bots(worker: Worker) -> None:  # noqa: F811
    person, token = new_player("duplicate-person")
    client = api_client(token)
    created = client.post(
        "/api/v1/matches/",
        {
            "game": "tute4",
            "format": "duplicate",
            "games": 1,
            "client_seed": "my own dice 3 5 1",
            "seats": [{"player": person.handle}, {"bot": "rule"}, {"bot": "random"}, {"bot": "rule"}],
        },
        format="json",
    )
    assert created.status_code == 201, created.content
    match_id = created.json()["id"]
    committed = created.json()["seed_sha256"]
    rng = random.Random(7)
    seen_maps = set()

    def look(view: dict[str, Any]) -> None:
        seen_maps.add(tuple(view["seat_map"]))
        if view["legal"]:
            assert view["to_act"] == 0 == view["seat"]

    play_through_api(client, match_id, rng=rng, timeout=2 * MATCH_SECONDS, log=worker.log_tail, on_view=look)

    match = Match.objects.get(pk=match_id)
    assert match.status == Match.Status.FINISHED, match.finish_reason
    assert seen_maps == {(0, 1, 2, 3), (1, 2, 3, 0)}
    first, second = Game.objects.filter(match=match).order_by("number")
    assert first.seed == second.seed and first.dealer == second.dealer
    assert first.client_seeds[0] == "my own dice 3 5 1"
    assert match.result is not None and match.result["format"] == "duplicate"
    assert sum(match.result["score_difference"]) == 0
    # the person's moves are match seat 0's in both plays; the bots' are the house bots'
    for action in Action.objects.filter(match=match):
        assert (action.seat == 0) == (action.kind == Action.Kind.MOVE)
    answer = APIClient().get(f"/api/v1/matches/{match_id}/record/").json()
    assert answer["games"][0]["record"]["seed_sha256"] == committed
    verified = verify_document(answer)
    assert len(verified) == 2 and all(v.ok for v in verified), [v.to_dict() for v in verified]


def test_a_pocha_duplicate_board_rotates_a_person_through_every_seat_with_house_bots(worker: Worker) -> None:  # noqa: F811
    person, token = new_player("duplicate-pocha")
    client = api_client(token)
    created = client.post(
        "/api/v1/matches/",
        {
            "game": "pocha",
            "format": "duplicate",
            "games": 1,
            "options": {"pocha_sequence": [1, 2, 1]},
            "seats": [{"player": person.handle}, {"bot": "rule"}, {"bot": "random"}],
        },
        format="json",
    )
    assert created.status_code == 201, created.content
    match_id = created.json()["id"]
    rng = random.Random(3)
    seen = set()

    def look(view: dict[str, Any]) -> None:
        seen.add((tuple(view["seat_map"]), view["game_seat"]))

    play_through_api(client, match_id, rng=rng, timeout=2 * MATCH_SECONDS, log=worker.log_tail, on_view=look)

    match = Match.objects.get(pk=match_id)
    assert match.status == Match.Status.FINISHED, match.finish_reason
    # the person (match seat 0) held game seats 0, 2 and 1 in the three plays of the board
    assert seen == {((0, 1, 2), 0), ((2, 0, 1), 1), ((1, 2, 0), 2)}
    plays = list(Game.objects.filter(match=match).order_by("number"))
    assert len(plays) == 3 and len({(g.seed, g.dealer) for g in plays}) == 1
    assert match.result is not None and match.result["format"] == "duplicate"
    assert sum(match.result["matchpoints"]) == 3 * 3 * 2
    verified = verify_document(APIClient().get(f"/api/v1/matches/{match_id}/record/").json())
    assert len(verified) == 3 and all(v.ok for v in verified), [v.to_dict() for v in verified]
