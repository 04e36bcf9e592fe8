"""Validation of a new bot: clean matches against house bots before rated matches and the ladder; what
went wrong is kept for its owner with the exact request and answer."""

from __future__ import annotations

import random
from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from games.errors import BotNotValidated, IllegalActionError
from games.models import Match, Player
from games.services import SeatSpec, action_submit, bot_turn_play, match_create, match_spec, turn_timeout
from ladder.models import BotIncident, LadderMatch, Validation
from ladder.selectors import unvalidated_bots
from ladder.services import (
    bot_seen,
    ladder_games_set,
    ladder_match_finished,
    validation_request,
    validations_start_due,
)
from tests.factories import BotPlayerFactory, PlayerFactory
from tests.games.conftest import play_to_end, turn_of

pytestmark = pytest.mark.django_db


@pytest.fixture
def new_bot() -> Player:
    return BotPlayerFactory(validated=False)


def test_a_new_bot_plays_unrated_by_default_and_is_refused_a_rated_match(new_bot: Player) -> None:
    # when: the bot creates a match against a house bot without saying whether it is rated
    match = match_create(
        spec=match_spec(
            created_by=new_bot, game="tute2", seats=[SeatSpec(player=new_bot.handle), SeatSpec(bot="rule")]
        )
    )

    # then: it is unrated; asking for a rated one is refused with the games and bots named
    assert match.rated is False
    with pytest.raises(BotNotValidated) as refused:
        match_create(
            spec=match_spec(
                created_by=new_bot,
                game="tute2",
                seats=[SeatSpec(player=new_bot.handle), SeatSpec(bot="rule")],
                rated=True,
            )
        )
    assert refused.value.detail == {"bots": [new_bot.handle], "game": "tute2"}


def test_the_match_api_refuses_a_rated_match_with_an_unvalidated_bot(
    new_bot: Player, token_client: Callable[[Player], Any]
) -> None:
    person = PlayerFactory()
    body = {"game": "tute2", "seats": [{"player": new_bot.handle}, {"bot": "rule"}], "rated": True}

    answer = token_client(person).post("/api/v1/matches/", body, format="json")

    assert answer.status_code == 409 and answer.json()["code"] == "bot_not_validated"
    assert not Match.objects.exists()
    del body["rated"]
    assert token_client(person).post("/api/v1/matches/", body, format="json").json()["rated"] is False


def test_a_validated_game_allows_rated_matches_of_that_game_only(new_bot: Player) -> None:
    Validation.objects.create(
        player=new_bot, game="tute2", status=Validation.Status.PASSED, required=3, passed=3
    )

    assert unvalidated_bots(game="tute2", players=[new_bot]) == []
    assert unvalidated_bots(game="pocha", players=[new_bot]) == [new_bot]


def test_validation_waits_for_the_bot_to_be_online(new_bot: Player) -> None:
    # given: the owner opts the bot in to the Tute 2 ladder, which asks for its validation
    ladder_games_set(owner=new_bot.owner, handle=new_bot.handle, games=["tute2"])
    validation = Validation.objects.get(player=new_bot, game="tute2")
    assert (validation.status, validation.required, validation.passed) == ("pending", 3, 0)

    # then: nothing starts while the bot is offline; once it is seen, one match against the rule bot
    assert validations_start_due() == []
    bot_seen(player=new_bot)
    started = validations_start_due()
    assert len(started) == 1
    match = Match.objects.get(pk=started[0])
    assert match.rated is False and match.status == Match.Status.IN_PROGRESS
    assert [s.bot_level for s in match.seats.order_by("index")] == ["", "rule"]
    assert validations_start_due() == []  # one validation match at a time
    # and: a bot last seen long ago is offline again
    new_bot.ladder.last_seen_at = timezone.now() - timedelta(minutes=5)
    new_bot.ladder.save()
    ladder_match_finished(match_id=match.pk)  # (not over yet: nothing happens)
    assert LadderMatch.objects.get(match=match).finished is False


def _validation_match(bot: Player, game: str = "tute2") -> Match:
    validation_request(owner=bot.owner, handle=bot.handle, game=game)
    bot_seen(player=bot)
    (match_id,) = validations_start_due()
    return Match.objects.get(pk=match_id)


def test_clean_matches_pass_the_validation(new_bot: Player, settings: Any) -> None:
    settings.TUTE_LADDER_VALIDATION_MATCHES = 2
    for number in range(2):
        match = _validation_match(new_bot)
        play_to_end(match.pk, random.Random(number))
        ladder_match_finished(match_id=match.pk)
        ladder_match_finished(match_id=match.pk)  # a redelivered task counts nothing twice
    validation = Validation.objects.get(player=new_bot, game="tute2")
    assert (validation.status, validation.passed) == ("passed", 2)
    assert validations_start_due() == []
    assert match_create(
        spec=match_spec(
            created_by=new_bot, game="tute2", seats=[SeatSpec(player=new_bot.handle), SeatSpec(bot="rule")]
        )
    ).rated


def test_a_refused_action_fails_the_validation_and_keeps_request_and_answer(new_bot: Player) -> None:
    match = _validation_match(new_bot, "pocha")
    rng = random.Random(3)
    while (now := turn_of(match.pk)) is not None and now.player != new_bot:
        bot_turn_play(match_id=match.pk, ply=now.match.ply)
    now = turn_of(match.pk)
    assert now is not None
    illegal = next(code for code in ("bid:99", "play:1O", "play:1C", "pass") if code not in now.legal)

    # when: the bot sends an action that is not legal
    with pytest.raises(IllegalActionError):
        action_submit(match_id=match.pk, player=new_bot, code=illegal, ply=now.match.ply)

    # then: the refusal is kept with what the bot had, sent and got, and the finished match fails it
    incident = BotIncident.objects.get(player=new_bot)
    assert incident.kind == "illegal" and incident.ply == now.match.ply
    assert incident.sent == {"action": illegal, "ply": now.match.ply}
    assert incident.answer["code"] == "illegal_action" and incident.answer["detail"]["action"] == illegal
    assert incident.payload["legal"] == list(now.legal) and incident.payload["view"]["seat"] == now.seat
    play_to_end(match.pk, rng)
    ladder_match_finished(match_id=match.pk)
    validation = Validation.objects.get(player=new_bot, game="pocha")
    assert validation.status == "failed" and validation.failure == incident
    assert validation.failure_reason.startswith(f"refused action at ply {now.match.ply}")
    # and: the owner may ask again
    assert validation_request(owner=new_bot.owner, handle=new_bot.handle, game="pocha").status == "pending"


def test_a_timeout_fails_the_validation(new_bot: Player) -> None:
    match = _validation_match(new_bot)
    while (now := turn_of(match.pk)) is not None and now.player != new_bot:
        bot_turn_play(match_id=match.pk, ply=now.match.ply)
    now = turn_of(match.pk)
    assert now is not None
    Match.objects.filter(pk=match.pk).update(turn_deadline=timezone.now() - timedelta(seconds=1))

    turn_timeout(match_id=match.pk, ply=now.match.ply)

    incident = BotIncident.objects.get(player=new_bot)
    assert incident.kind == "timeout" and incident.sent is None
    assert incident.answer["timeouts"] == 1 and incident.answer["played"] in now.legal
    play_to_end(match.pk, random.Random(1))
    ladder_match_finished(match_id=match.pk)
    validation = Validation.objects.get(player=new_bot, game="tute2")
    assert validation.status == "failed" and validation.failure_reason == f"timeout at ply {now.match.ply}"


def test_opting_in_names_games_the_ladder_knows(
    new_bot: Player, session_client: Callable[[Player], Any]
) -> None:
    owner = (
        Player.objects.get(user=new_bot.owner) if Player.objects.filter(user=new_bot.owner).exists() else None
    )
    client = session_client(owner or PlayerFactory(user=new_bot.owner, handle="owner"))

    bad = client.patch(f"/api/v1/bots/{new_bot.handle}/", {"games": ["chess"]}, format="json")
    good = client.patch(f"/api/v1/bots/{new_bot.handle}/", {"games": ["pocha", "tute2"]}, format="json")

    assert bad.status_code == 400 and bad.json()["code"] == "invalid"
    assert good.status_code == 200
    body = good.json()
    assert body["games"] == ["tute2", "pocha"]
    assert body["validation"]["pocha"]["status"] == "pending" and body["validation"]["tute2"]["required"] == 3
    again = client.post(f"/api/v1/bots/{new_bot.handle}/validation/", {"game": "tute4"}, format="json")
    assert again.status_code == 202 and again.json()["status"] == "pending"


@pytest.mark.django_db(transaction=True)
def test_each_validation_match_is_committed_when_made(
    postgres_required: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A validation fails at its first timeout: its match must be visible to the bot (and its first
    move's clock run) from the moment it is made, not once every due validation has its match."""
    import threading

    from django.db import connection

    import ladder.services as ladder_services

    bots = [BotPlayerFactory(validated=False) for _ in range(3)]
    for bot in bots:
        ladder_games_set(owner=bot.owner, handle=bot.handle, games=["tute2"])
        bot_seen(player=bot)
    seen: list[int] = []
    start = ladder_services._validation_match_start

    def look_from_elsewhere() -> None:  # another connection, as the bot's stream would be
        try:
            seen.append(LadderMatch.objects.filter(kind="validation").count())
        finally:
            connection.close()

    def started_and_looked_at(**kwargs: Any) -> Match | None:
        match = start(**kwargs)
        look = threading.Thread(target=look_from_elsewhere)
        look.start()
        look.join()
        return match

    monkeypatch.setattr(ladder_services, "_validation_match_start", started_and_looked_at)
    assert len(validations_start_due()) == 3
    assert seen == [1, 2, 3]
    assert validations_start_due() == []  # one validation match at a time, still
