"""Player services: a player per user, bot accounts owned by people, API tokens kept as digests."""

from __future__ import annotations

import hashlib

import pytest
from django.contrib.auth.models import User

from games.errors import HandleTaken, NotABot
from games.models import ApiToken, Match, Player, Seat
from games.services import (
    SeatSpec,
    bot_create,
    bot_settings_update,
    bot_token_rotate,
    challenge_decline,
    match_abort,
    match_create,
    match_spec,
    player_for_user,
    token_create,
)
from tests.factories import BotPlayerFactory, PlayerFactory, UserFactory

pytestmark = pytest.mark.django_db


def sha256(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def test_player_for_user_makes_one_player_with_a_handle_from_the_username() -> None:
    user = UserFactory(username="Ana María")

    first = player_for_user(user=user)
    again = player_for_user(user=user)

    assert first == again
    assert Player.objects.filter(user=user).count() == 1
    assert first.handle == "ana-maria"
    assert first.display_name == "Ana María"
    assert not first.is_bot and first.owner is None


def test_player_for_user_picks_a_free_handle() -> None:
    PlayerFactory(handle="ana")

    player = player_for_user(user=UserFactory(username="ana"))

    assert player.handle == "ana-2"


def test_a_token_is_returned_once_and_only_its_digest_is_stored() -> None:
    user = UserFactory()

    token = token_create(user=user)

    row = ApiToken.objects.get(user=user)
    assert len(token) >= 40
    assert row.digest == sha256(token)
    assert row.prefix == token[:8]
    # and: no column holds the token itself
    stored = [str(value) for value in ApiToken.objects.filter(pk=row.pk).values().get().values()]
    assert not any(token in value for value in stored)


def test_tokens_differ() -> None:
    user = UserFactory()

    tokens = {token_create(user=user) for _ in range(10)}

    assert len(tokens) == 10
    assert ApiToken.objects.filter(user=user).count() == 10


def test_bot_create_makes_a_bot_account_owned_by_its_person() -> None:
    owner = UserFactory()

    bot, token = bot_create(owner=owner, handle="robo", display_name="Robo 1")

    assert bot.is_bot and bot.owner == owner
    assert (bot.handle, bot.display_name, str(bot)) == ("robo", "Robo 1", "robo (bot)")
    assert not bot.user.has_usable_password()
    assert ApiToken.objects.get(user=bot.user).digest == sha256(token)
    assert list(owner.bots.all()) == [bot]


def test_bot_create_uses_the_handle_as_display_name_by_default() -> None:
    bot, _ = bot_create(owner=UserFactory(), handle="plain")

    assert bot.display_name == "plain"


def test_bot_create_refuses_a_taken_handle() -> None:
    PlayerFactory(handle="taken")
    owner = UserFactory()

    with pytest.raises(HandleTaken) as refused:
        bot_create(owner=owner, handle="taken")

    assert refused.value.http_status == 409
    assert not Player.objects.filter(owner=owner).exists()


def test_bot_create_refuses_a_handle_whose_account_name_is_taken() -> None:
    # given: a person whose username is what the bot's account would be called
    UserFactory(username="bot-clash")
    owner = UserFactory()

    with pytest.raises(HandleTaken):
        bot_create(owner=owner, handle="clash")

    assert not Player.objects.filter(handle="clash").exists()
    assert User.objects.filter(username="bot-clash").count() == 1


def test_bot_token_rotate_revokes_every_old_token() -> None:
    owner = UserFactory()
    bot, first = bot_create(owner=owner, handle="rot")
    ApiToken.objects.create(user=bot.user, digest=sha256("an older token"), prefix="an older")

    new = bot_token_rotate(owner=owner, handle="rot")

    assert new != first
    assert list(ApiToken.objects.filter(user=bot.user).values_list("digest", flat=True)) == [sha256(new)]


@pytest.mark.parametrize("whose", ["another owner's bot", "a person", "nobody"])
def test_bot_token_rotate_only_for_ones_own_bots(whose: str) -> None:
    owner = UserFactory()
    handle = {
        "another owner's bot": lambda: BotPlayerFactory().handle,
        "a person": lambda: PlayerFactory().handle,
        "nobody": lambda: "no-such-bot",
    }[whose]()
    tokens_before = ApiToken.objects.count()

    with pytest.raises(NotABot) as refused:
        bot_token_rotate(owner=owner, handle=handle)

    assert refused.value.http_status == 404
    assert ApiToken.objects.count() == tokens_before


def test_bot_settings_update_only_for_ones_own_bots() -> None:
    owner = UserFactory()
    bot, _ = bot_create(owner=owner, handle="auto")

    assert bot_settings_update(owner=owner, handle="auto", auto_accept=True).auto_accept
    with pytest.raises(NotABot):
        bot_settings_update(owner=UserFactory(), handle="auto", auto_accept=False)
    bot.refresh_from_db()
    assert bot.auto_accept


def test_switching_auto_accept_on_takes_the_waiting_challenges_and_only_those() -> None:
    """Before the fix a challenge made before auto-accept was switched on stayed pending."""
    # given: a bot challenged twice (one challenge it declined already), and a match called off
    owner = UserFactory()
    bot, _ = bot_create(owner=owner, handle="late")
    creator = PlayerFactory()
    waiting, declined, called_off = (
        match_create(
            spec=match_spec(
                created_by=creator, game="tute2", seats=[SeatSpec(player="late"), SeatSpec(bot="rule")]
            )
        )
        for _ in range(3)
    )
    challenge_decline(match_id=declined.pk, player=bot)
    match_abort(match_id=called_off.pk, by=creator)

    # when: the owner switches auto-accept on
    bot_settings_update(owner=owner, handle="late", auto_accept=True)

    # then: the waiting challenge is accepted and its match under way; the others are left as they were
    statuses = {m.pk: Match.objects.get(pk=m.pk).status for m in (waiting, declined, called_off)}
    assert statuses == {
        waiting.pk: Match.Status.IN_PROGRESS,
        declined.pk: Match.Status.OPEN,
        called_off.pk: Match.Status.ABORTED,
    }
    assert Seat.objects.get(match=waiting, player=bot).accepted
    assert not Seat.objects.filter(match=declined, player=bot).exists()
