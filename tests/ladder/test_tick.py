"""The matchmaker's tick through the services: who is paired, the limits, rated ladder matches."""

from __future__ import annotations

import random
from typing import Any

import pytest

from games.models import Match, Player
from ladder.models import BotProfile, LadderMatch, Validation
from ladder.services import bot_seen, ladder_games_set, ladder_match_finished
from ladder.tick import ladder_tick
from tests.factories import BotPlayerFactory, UserFactory
from tests.games.conftest import play_to_end

pytestmark = pytest.mark.django_db


def ladder_bot(owner: Any = None, games: tuple[str, ...] = ("tute2",), online: bool = True) -> Player:
    bot = BotPlayerFactory(owner=owner or UserFactory())
    ladder_games_set(owner=bot.owner, handle=bot.handle, games=list(games))
    if online:
        bot_seen(player=bot)
    return bot


def test_online_validated_ladder_bots_are_paired_in_rated_matches() -> None:
    a, b = ladder_bot(), ladder_bot()
    offline = ladder_bot(online=False)
    unvalidated = ladder_bot()
    Validation.objects.filter(player=unvalidated, game="tute2").update(
        status=Validation.Status.PENDING, required=3
    )

    report = ladder_tick(rng=random.Random(0))

    ladder = LadderMatch.objects.filter(kind="ladder")
    assert report.matches == 1 and ladder.count() == 1
    match = ladder.get().match
    assert match.rated and match.status == Match.Status.IN_PROGRESS
    assert {s.player for s in match.seats.all()} == {a, b}
    assert not LadderMatch.objects.filter(bots=offline).exists()
    # the unvalidated bot got its validation match instead
    assert LadderMatch.objects.get(bots=unvalidated).kind == "validation"


def test_the_limits_per_bot_and_per_owner_hold(settings: Any) -> None:
    settings.TUTE_LADDER_MAX_CONCURRENT = 1
    settings.TUTE_LADDER_OWNER_MAX_CONCURRENT = 2
    owner = UserFactory()
    mine = [ladder_bot(owner) for _ in range(3)]
    other = ladder_bot()

    for seed in range(3):
        ladder_tick(rng=random.Random(seed))

    active = LadderMatch.objects.filter(kind="ladder", finished=False)
    assert active.filter(bots=other).count() == 1  # one at a time per bot
    assert sum(active.filter(bots=bot).count() for bot in mine) == 2  # two at a time for the owner
    # a finished match frees its bots
    match = active.filter(bots=other).get().match
    play_to_end(match.pk, random.Random(0))
    ladder_match_finished(match_id=match.pk)
    ladder_tick(rng=random.Random(5))
    assert active.filter(bots=other).count() == 1


def test_the_day_limit_holds(settings: Any) -> None:
    settings.TUTE_LADDER_MAX_PER_DAY = 1
    ladder_bot(), ladder_bot()
    ladder_tick(rng=random.Random(0))
    (match,) = [lm.match for lm in LadderMatch.objects.filter(kind="ladder")]
    play_to_end(match.pk, random.Random(0))
    ladder_match_finished(match_id=match.pk)

    assert ladder_tick(rng=random.Random(1)).matches == 0


def test_tute4_and_pocha_tables() -> None:
    bots = [ladder_bot(games=("tute4", "pocha")) for _ in range(3)]

    ladder_tick(rng=random.Random(0))

    tables = {lm.game: lm.match for lm in LadderMatch.objects.filter(kind="ladder")}
    assert set(tables) <= {"tute4", "pocha"} and tables
    for game, match in tables.items():
        seats = list(match.seats.order_by("index"))
        assert len(seats) == 4 and match.rated
        assert sum(s.player_id is not None for s in seats) >= 1
        if game == "tute4":
            assert seats[2].bot_level == "rule"  # the first bot's house partner
    assert BotProfile.objects.filter(player__in=bots).count() == 3


@pytest.mark.django_db(transaction=True)
def test_each_ladder_match_is_committed_when_made_and_the_bots_profiles_stay_unlocked(
    postgres_required: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A bot sees its ladder match, and its first move's clock runs, from the moment the match is made,
    not after the whole tick; and the tick never holds the profiles that the bots' streams and polls
    write (``bot_seen``), which would stall every stream while it runs."""
    import threading

    from django.db import DatabaseError, connection, transaction

    import ladder.tick

    bots = [ladder_bot() for _ in range(6)]
    seen: list[tuple[int, bool]] = []
    make = ladder.tick._table_create

    def look_from_elsewhere() -> None:  # another connection, as a bot's stream would be
        try:
            visible = LadderMatch.objects.filter(kind="ladder").count()
            try:
                with transaction.atomic():
                    list(BotProfile.objects.select_for_update(nowait=True).filter(player__in=bots))
                unlocked = True
            except DatabaseError:
                unlocked = False
            seen.append((visible, unlocked))
        finally:
            connection.close()

    def made_and_looked_at(*args: Any, **kwargs: Any) -> Match | None:
        match = make(*args, **kwargs)
        look = threading.Thread(target=look_from_elsewhere)
        look.start()
        look.join()
        return match

    monkeypatch.setattr(ladder.tick, "_table_create", made_and_looked_at)
    assert ladder_tick(rng=random.Random(0)).matches == 3

    # each look (made from inside the tick, after each match) saw every match made so far
    assert seen == [(1, True), (2, True), (3, True)]
