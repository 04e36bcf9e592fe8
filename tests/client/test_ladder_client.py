"""The client's ladder side: polling bots, the notices of what happened to a bot, the ladder example."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from client.tute_client import Event
from games.models import Action, Match
from ladder.models import BotProfile
from tests.client.conftest import Account, Bots
from tests.client.test_tute_client import challenge, finished, random_choice

PROJECT_DIR = Path(__file__).resolve().parents[2]
MakePerson = Callable[[str], Account]
MakeBot = Callable[[Account, str], Account]

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_polling_bot_plays_a_match_and_is_online(
    person: MakePerson, bot_account: MakeBot, bots: Bots
) -> None:
    # given: two bots that accept at once, one polling, one streaming
    owner = person("owner")
    poller, streamer = bot_account(owner, "poller"), bot_account(owner, "streamer")
    for bot in (poller, streamer):
        owner.client.set_auto_accept(bot.handle, True)
    polling = bots.start(poller, random_choice, poll=True, poll_interval=0.1)
    bots.start(streamer, random_choice)

    # when: they are matched
    match = challenge(owner, poller, streamer)

    # then: the polling bot plays its turns to the end, and counts as online for the ladder
    bots.wait_for(finished(match))
    assert Action.objects.filter(match=match, player=poller.player, kind=Action.Kind.MOVE).exists()
    assert polling.saw("your_turn", match.pk)
    assert BotProfile.objects.get(player=poller.player).last_seen_at is not None


def test_a_bot_hears_of_its_refused_move_on_its_stream_and_by_polling(
    person: MakePerson, bot_account: MakeBot, bots: Bots
) -> None:
    # given: a bot that first sends an illegal action
    owner = person("owner")
    clumsy, other = bot_account(owner, "clumsy"), bot_account(owner, "other")
    for bot in (clumsy, other):
        owner.client.set_auto_accept(bot.handle, True)
    sent: list[str] = []

    def choose(event: Event) -> str:
        if not sent:
            sent.append("bid:99")
            return "bid:99"
        return random_choice(event)

    heard = bots.start(clumsy, choose)
    bots.start(other, random_choice)
    match = challenge(owner, clumsy, other)

    # then: the stream says what was refused and why, before anything else of that match
    bots.wait_for(lambda: bool(heard.saw("action_refused", match.pk)))
    (refused,) = heard.saw("action_refused", match.pk)
    assert refused["action"] == "bid:99" and refused["code"] == "illegal_action" and refused["reason"]
    assert refused["legal"] and refused["ply"] >= 0
    # and: polling sees the same as notices
    notices = clumsy.client.notices()
    assert [n["type"] for n in notices["results"]] == ["action_refused"] and notices["last"]
    assert clumsy.client.notices(notices["last"])["results"] == []
    bots.wait_for(finished(match))
    assert Match.objects.get(pk=match.pk).status == Match.Status.FINISHED


def test_the_ladder_example_runs_as_is_and_opts_in(
    person: MakePerson, bot_account: MakeBot, server: str
) -> None:
    owner = person("owner")
    bot = bot_account(owner, "ladderling")
    env = {k: v for k, v in os.environ.items() if k != "DJANGO_SETTINGS_MODULE"}
    env.update(
        {
            "TUTE_URL": server,
            "TUTE_TOKEN": bot.client.token or "",
            "TUTE_OWNER_TOKEN": owner.client.token or "",
            "TUTE_LADDER_GAMES": "tute2",
        }
    )
    proc = subprocess.Popen(
        [sys.executable, "-m", "client.examples.ladder_bot"],
        cwd=PROJECT_DIR,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert proc.stdout is not None
        first = proc.stdout.readline()
        second = proc.stdout.readline()
    finally:
        proc.terminate()
        proc.wait(timeout=30)
    assert first.strip() == "ladderling tute2: validation pending (0/3)"
    assert second.startswith("playing as ladderling")
    assert BotProfile.objects.get(player=bot.player).ladder_games == ["tute2"]
