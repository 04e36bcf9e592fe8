"""The bot leaderboard and the authors' status page, API and website."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest
from django.test import Client

from games.bots import BOT_LEVELS
from games.errors import IllegalActionError
from games.models import Match, Player
from games.services import SeatSpec, action_submit, bot_turn_play, match_create, match_spec
from ladder.services import bot_seen, ladder_games_set
from ratings.services import match_ratings_apply_pending
from tests.factories import BotPlayerFactory, PlayerFactory
from tests.games.conftest import play_to_end, turn_of

pytestmark = pytest.mark.django_db


@pytest.fixture
def rated_bot() -> Player:
    """A bot that played a rated Tute 2 against the rule bot, sending one illegal action on the way."""
    bot = BotPlayerFactory(handle="alpha", display_name="Alpha")
    match = match_create(
        spec=match_spec(
            created_by=bot, game="tute2", seats=[SeatSpec(player=bot.handle), SeatSpec(bot="rule")]
        )
    )
    assert match.rated
    while (now := turn_of(match.pk)) is not None and now.player != bot:
        bot_turn_play(match_id=match.pk, ply=now.match.ply)
    assert now is not None
    with pytest.raises(IllegalActionError):
        action_submit(match_id=match.pk, player=bot, code="bid:99", ply=now.match.ply)
    play_to_end(match.pk, random.Random(2))
    match_ratings_apply_pending(match_id=match.pk)
    return bot


def test_the_bot_leaderboard_lists_bots_and_house_anchors(rated_bot: Player, anon_client: Any) -> None:
    bot_seen(player=rated_bot)
    answer = anon_client.get("/api/v1/ladder/tute2/leaderboard/")

    assert answer.status_code == 200
    rows = answer.json()["results"]
    by_name = {row["handle"] or row["house_bot"]: row for row in rows}
    assert set(by_name) == {"alpha", *BOT_LEVELS}  # the unplayed levels too
    alpha, rule = by_name["alpha"], by_name["rule"]
    assert alpha["owner"] == rated_bot.owner.username and alpha["matches"] == 1 and alpha["online"]
    assert alpha["win_share"] in (0.0, 1.0) and rule["house_bot"] == "rule" and rule["handle"] is None
    assert 0 < alpha["error_rate"] < 1 and alpha["timeout_rate"] == 0.0
    assert rule["matches"] == 1 and by_name["search"]["matches"] == 0
    assert [row["rank"] for row in rows] == list(range(1, len(BOT_LEVELS) + 2))
    assert [row["rating"] for row in rows] == sorted((row["rating"] for row in rows), reverse=True)


def test_the_bot_leaderboard_lists_every_house_level_before_it_played(anon_client: Any) -> None:
    """docs/BOTS.md promises every house-bot level on each bot leaderboard; before the fix a level
    without a ladder match (no rating row yet) was missing, and a new site's leaderboards were empty."""
    # given: no rated match of Pocha at all

    # when: anyone reads its bot leaderboard
    rows = anon_client.get("/api/v1/ladder/pocha/leaderboard/").json()["results"]

    # then: every house level is there, at the starting rating, with no matches, provisional
    assert [row["house_bot"] for row in rows] == sorted(BOT_LEVELS)
    assert {(row["rating"], row["matches"], row["provisional"], row["handle"]) for row in rows} == {
        (1500.0, 0, True, None)
    }
    assert [row["rank"] for row in rows] == list(range(1, len(BOT_LEVELS) + 1))
    assert anon_client.get("/api/v1/ladder/chess/leaderboard/").json()["code"] == "unknown_game"


def test_the_status_page_shows_the_author_everything_and_others_nothing(
    rated_bot: Player, token_client: Callable[[Player], Any]
) -> None:
    owner = PlayerFactory(user=rated_bot.owner, handle="owner")
    ladder_games_set(owner=rated_bot.owner, handle=rated_bot.handle, games=["tute2"])
    current = match_create(
        spec=match_spec(
            created_by=rated_bot,
            game="pocha",
            seats=[SeatSpec(player=rated_bot.handle), SeatSpec(bot="rule")],
            rated=False,
        )
    )

    status = token_client(owner).get("/api/v1/bots/alpha/status/")
    as_bot = token_client(rated_bot).get("/api/v1/bots/alpha/status/")
    stranger = token_client(PlayerFactory()).get("/api/v1/bots/alpha/status/")

    assert status.status_code == 200 and as_bot.status_code == 200
    assert stranger.status_code == 404 and stranger.json()["code"] == "not_a_bot"
    body = status.json()
    assert body["online"] is False and body["games"] == ["tute2"]
    assert {v["game"]: v["status"] for v in body["validation"]}["tute2"] == "passed"
    assert [m["match"] for m in body["current_matches"]] == [current.pk]
    (error,) = body["recent_errors"]
    assert error["kind"] == "illegal" and error["sent"]["action"] == "bid:99"
    assert error["answer"]["code"] == "illegal_action" and error["payload"]["legal"]
    (rating,) = body["ratings"]
    assert rating["pool"] == "tute2" and len(rating["history"]) == 1
    assert Match.objects.filter(pk=current.pk, status=Match.Status.IN_PROGRESS).exists()


def test_the_website_pages(rated_bot: Player) -> None:
    owner_client = Client()
    owner_client.force_login(rated_bot.owner)

    board = Client().get("/ladder/tute2/")
    page = owner_client.get("/bots/alpha/status/")
    saved = owner_client.post("/bots/alpha/status/", {"game-pocha": "1"})
    stranger = Client()
    stranger.force_login(PlayerFactory().user)

    assert board.status_code == 200 and b"Alpha" in board.content and b"house bot" in board.content
    assert page.status_code == 200 and b"bid:99" in page.content and b"illegal_action" in page.content
    assert saved.status_code == 302
    assert rated_bot.ladder.ladder_games == ["pocha"]  # type: ignore[attr-defined]
    assert stranger.get("/bots/alpha/status/").status_code == 404
