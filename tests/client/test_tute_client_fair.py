"""The client's client seeds (docs/FAIRNESS.md): accept, join and set_client_seed, against a live server."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from client.tute_client import ApiError
from games.models import Game
from tests.client.conftest import Account

pytestmark = pytest.mark.django_db(transaction=True)


def test_client_seeds_through_accept_join_and_before_the_first_action(
    person: Callable[[str], Account], bot_account: Callable[[Account, str], Account]
) -> None:
    owner = person("fair-owner")
    ann = bot_account(owner, "fair-ann")
    challenged = owner.client.create_match("tute2", seats=[{"player": owner.handle}, {"player": ann.handle}])
    started = ann.client.accept(challenged["id"], client_seed="ann's seed")
    assert started["status"] == "in_progress" and started["seats"][1]["client_seed"] == "ann's seed"
    assert Game.objects.get(match=challenged["id"]).client_seeds == ["", "ann's seed"]

    # before the first action the owner adds its own: the game is dealt again, the commitment unchanged
    again = owner.client.set_client_seed(challenged["id"], "owner 42")
    assert again["seed_sha256"] == started["seed_sha256"]
    assert Game.objects.get(match=challenged["id"]).client_seeds == ["owner 42", "ann's seed"]

    # join an open match with a seed
    bob = person("fair-bob")
    open_match = owner.client.create_match("tute2")
    joined = bob.client.join(open_match["id"], client_seed="bob")
    assert joined["seats"][1]["client_seed"] == "bob"

    # a bad seed is refused with its reason
    with pytest.raises(ApiError) as bad:
        owner.client.set_client_seed(open_match["id"], "a:b")
    assert bad.value.status == 400
