"""docs/RULES.md section 11 through the services and the API: the commitment is public before play, client
seeds are taken at create, join, accept and before a game's first action, and the record reveals the
seeds once the match is over, so that anyone can recompute every card (here: from the spec's words)."""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Callable
from typing import Any

import pytest
from rest_framework.test import APIClient

from games.engine.verify import verify_document
from games.models import Game, Match, Player
from games.services import (
    SeatSpec,
    action_submit,
    challenge_accept,
    client_seed_set,
    match_create,
    match_spec,
    seat_join,
)
from games.streams import StreamMemory, pending_events
from tests.factories import BotPlayerFactory, PlayerFactory
from tests.games.engine.test_seeded_deck import reference_deck

pytestmark = pytest.mark.django_db

ClientFor = Callable[[Player], APIClient]


def sha(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def spec_hands(record: dict[str, Any]) -> list[list[str]]:
    """Tute 2 hands recomputed from the record with only the words of sections 7 and 11: check the
    commitment, derive the seed, shuffle, deal 8 cards a seat in blocks from the mano (the seat after the
    dealer)."""
    assert sha(record["server_seed"]) == record["seed_sha256"]
    seed = sha(":".join([record["server_seed"], *record["client_seeds"]]))
    assert seed == record["seed"]
    deck = reference_deck(seed, 0)
    mano = (record["dealer"] + 1) % 2
    hands: list[list[str]] = [[], []]
    for block, seat in enumerate([mano, 1 - mano]):
        hands[seat] = deck[8 * block : 8 * block + 8]
    return hands


def test_the_commitment_is_public_before_play_and_the_record_reveals_it_after(
    token_client: ClientFor,
    anon_client: APIClient,
    url: Callable[..., str],
    play_random: Callable[..., Match],
) -> None:
    alice, bob = PlayerFactory(), PlayerFactory()
    # when: alice creates a match with her client seed; then: the commitment is public while it is open
    created = token_client(alice).post(
        "/api/v1/matches/", {"game": "tute2", "client_seed": "alice's lucky seed"}, format="json"
    )
    assert created.status_code == 201, created.content
    body = created.json()
    committed = body["seed_sha256"]
    assert len(committed) == 64 and body["seats"][0]["client_seed"] == "alice's lucky seed"
    assert anon_client.get(url(body["id"], "view")).json()["seed_sha256"] == committed

    # when: bob joins with his; then: game 0 is dealt from that commitment's server seed and both seeds
    joined = token_client(bob).post(url(body["id"], "join"), {"client_seed": "b0b"}, format="json")
    assert joined.status_code == 200, joined.content
    assert joined.json()["seed_sha256"] == committed
    game = Game.objects.get(match=body["id"])
    assert sha(game.server_seed) == committed
    assert game.client_seeds == ["alice's lucky seed", "b0b"]
    assert game.seed == sha(f"{game.server_seed}:alice's lucky seed:b0b")

    # and: every view shows the commitment (envelope and view), never a seed
    views = [token_client(p).get(url(body["id"], "view")).json() for p in (alice, bob)]
    views.append(anon_client.get(url(body["id"], "view")).json())
    for view in views:
        assert view["seed_sha256"] == committed == view["view"]["seed_sha256"]
        assert view["client_seeds"] == ["alice's lucky seed", "b0b"]
        text = json.dumps(view)
        assert game.server_seed not in text and game.seed not in text
    seen_hands = [views[0]["view"]["hand"], views[1]["view"]["hand"]]

    # and: the record is refused while the match is played
    refused = anon_client.get(url(body["id"], "record"))
    assert refused.status_code == 403 and refused.json()["code"] == "match_not_finished"

    # when: the match is played out
    play_random(Match.objects.get(pk=body["id"]), seed=3)

    # then: the record reveals seed, server_seed, seed_sha256 and client_seeds, and the hands each seat
    # saw recompute from them by the spec alone
    record = anon_client.get(url(body["id"], "record")).json()["games"][0]["record"]
    assert record["seed_sha256"] == committed and record["server_seed"] == game.server_seed
    assert record["client_seeds"] == ["alice's lucky seed", "b0b"]
    assert [sorted(h) for h in spec_hands(record)] == [sorted(h) for h in seen_hands]


def test_a_client_seed_counts_until_the_first_action_and_not_after(
    token_client: ClientFor, url: Callable[..., str]
) -> None:
    alice, bob = PlayerFactory(), PlayerFactory()
    match = match_create(
        spec=match_spec(created_by=alice, game="tute2", seats=[SeatSpec(player=alice.handle), SeatSpec()])
    )
    match = seat_join(match_id=match.pk, player=bob)
    game = Game.objects.get(match=match)
    assert game.client_seeds == ["", ""]
    before = token_client(bob).get(url(match.pk, "view")).json()

    # when: bob gives a client seed before the first action
    response = token_client(bob).post(
        url(match.pk, "client-seed"), {"client_seed": "late but ok"}, format="json"
    )

    # then: the game is dealt again from it, the commitment unchanged
    assert response.status_code == 200, response.content
    game.refresh_from_db()
    assert game.client_seeds == ["", "late but ok"]
    assert game.seed == sha(f"{game.server_seed}::late but ok")
    after = token_client(bob).get(url(match.pk, "view")).json()
    assert after["seed_sha256"] == before["seed_sha256"] == sha(game.server_seed)
    assert after["client_seeds"] == ["", "late but ok"]
    assert sorted(after["view"]["hand"]) == sorted(
        spec_hands({**game_fair(game), "dealer": game.dealer, "seed": game.seed})[1]
    )

    # when: the first action is played, a client seed is refused, and nothing changes
    state_view = token_client(alice).get(url(match.pk, "view")).json()
    mover = alice if state_view["legal"] else bob
    view = token_client(mover).get(url(match.pk, "view")).json()
    action_submit(match_id=match.pk, player=mover, code=view["legal"][0], ply=0)
    refused = token_client(alice).post(
        url(match.pk, "client_seed"), {"client_seed": "too late"}, format="json"
    )
    assert refused.status_code == 409 and refused.json()["code"] == "game_started"
    game.refresh_from_db()
    assert game.client_seeds == ["", "late but ok"]


def game_fair(game: Game) -> dict[str, Any]:
    return {
        "server_seed": game.server_seed,
        "seed_sha256": sha(game.server_seed),
        "client_seeds": game.client_seeds,
    }


@pytest.mark.parametrize("value", ["", "a:b", "x" * 65, "tab\there", "ñ"])
def test_a_bad_client_seed_is_a_400_everywhere_and_changes_nothing(
    value: str, token_client: ClientFor, url: Callable[..., str]
) -> None:
    alice, bob = PlayerFactory(), PlayerFactory()
    client = token_client(alice)
    created = client.post("/api/v1/matches/", {"game": "tute2", "client_seed": value}, format="json")
    assert created.status_code == 400 and created.json()["code"] == "invalid_client_seed"
    assert Match.objects.count() == 0
    match = match_create(spec=match_spec(created_by=bob, game="tute2"))
    joined = client.post(url(match.pk, "join"), {"client_seed": value}, format="json")
    assert joined.status_code == 400 and joined.json()["code"] == "invalid_client_seed"
    assert match.seats.filter(player=alice).count() == 0
    other = match_create(
        spec=match_spec(created_by=bob, game="tute2", seats=[SeatSpec(player=bob.handle), SeatSpec()])
    )
    seat_join(match_id=other.pk, player=alice)
    refused = client.post(url(other.pk, "client-seed"), {"client_seed": value}, format="json")
    assert refused.status_code == 400, refused.content
    assert refused.json()["code"] == "invalid_client_seed"


def test_accept_and_seats_carry_client_seeds_and_a_bot_hears_the_commitment() -> None:
    alice = PlayerFactory()
    bot = BotPlayerFactory()
    match = match_create(
        spec=match_spec(
            created_by=alice,
            game="tute2",
            seats=[SeatSpec(player=alice.handle, client_seed="from the seat"), SeatSpec(player=bot.handle)],
        )
    )
    memory = StreamMemory(connected_at=match.created_at)
    challenge_accept(match_id=match.pk, player=bot, client_seed="bot-7")
    game = Game.objects.get(match=match)
    assert game.client_seeds == ["from the seat", "bot-7"]
    events = pending_events(bot, memory)
    started = next(e for e in events if e["type"] == "match_started")
    assert started["seed_sha256"] == sha(game.server_seed)
    for event in events:
        assert game.server_seed not in json.dumps(event) and game.seed not in json.dumps(event)


def test_a_turn_is_told_again_when_a_client_seed_deals_the_game_again() -> None:
    alice, bot = PlayerFactory(), BotPlayerFactory(auto_accept=True)
    match = match_create(
        spec=match_spec(
            created_by=alice, game="tute2", seats=[SeatSpec(player=alice.handle), SeatSpec(player=bot.handle)]
        )
    )
    memory = StreamMemory(connected_at=match.created_at)
    first = [e for e in pending_events(bot, memory) if e["type"] == "your_turn"]
    if not first:  # alice is the mano: she sets her seed; the bot is told nothing of a turn
        client_seed_set(match_id=match.pk, player=alice, client_seed="mine")
        assert [e for e in pending_events(bot, memory) if e["type"] == "your_turn"] == []
        return
    client_seed_set(match_id=match.pk, player=alice, client_seed="mine")
    again = [e for e in pending_events(bot, memory) if e["type"] == "your_turn"]
    assert len(again) == 1 and again[0]["client_seeds"] == ["mine", ""]
    assert again[0]["seed_sha256"] == first[0]["seed_sha256"]


def test_each_game_of_a_match_has_its_own_committed_server_seed(
    started_match: Callable[..., Match], play_random: Callable[..., Match], anon_client: APIClient
) -> None:
    match = started_match("tute2", format=Match.Format.BEST_OF, games=3)
    match.refresh_from_db()
    next_commitment = match.next_seed_sha256
    assert next_commitment and next_commitment != match.seed_sha256
    play_random(match, seed=random.Random(5).random())
    answer = anon_client.get(f"/api/v1/matches/{match.pk}/record/").json()
    records = answer["games"]
    # and: every record the API serves verifies, every check passing (python -m games.engine verify)
    verified = verify_document(answer)
    assert len(verified) == len(records) and all(v.ok for v in verified), [v.to_dict() for v in verified]
    server_seeds = [r["record"]["server_seed"] for r in records]
    assert len(set(server_seeds)) == len(records) >= 2
    assert records[1]["record"]["seed_sha256"] == next_commitment  # committed while game 0 was played
    for entry in records:
        record = entry["record"]
        assert sha(record["server_seed"]) == record["seed_sha256"]
        assert sha(":".join([record["server_seed"], *record["client_seeds"]])) == record["seed"]
