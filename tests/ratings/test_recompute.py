"""``manage.py ratings_recompute`` rebuilds exactly what the incremental updates wrote.

A history of about 300 finished matches of every pool is made two ways, both real games:

- 30 through the games services (``match_create``, ``action_submit``, ``bot_turn_play``,
  ``match_resign``, ``match_abort``): Tute 2 single and best of 2 (draws), Tute 4 with and without house
  bots, Pocha of hands of 1 and 2 cards, resignations, unrated and aborted matches;
- the rest played by the engine itself (``State.apply`` of random legal codes, ``Game.result`` is the
  engine's ``result().to_dict()``) and stored as the rows the services write (match, seats, games,
  actions), because 300 matches through the services would take minutes.

K switches early (after 8 matches) and the "master" K starts at 1550 here, so that every branch of the
K policy is taken along the way.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from io import StringIO
from typing import Any

import pytest
from django.core.management import call_command
from django.utils import timezone

from games.engine import CODE_OF, RULES_VERSION, Rules, State
from games.models import Action, Game, Match, Player, Seat
from games.services import match_abort
from ratings.models import Pool, RatedMatch, Rating, RatingChange
from ratings.services import match_ratings_apply, ratings_recompute
from ratings.tasks import apply_match_ratings

pytestmark = pytest.mark.django_db

TOTAL_MATCHES = 300
SERVICE_MATCHES = 30
POCHA_SHORT = {"pocha_sequence": [1, 2]}


@pytest.fixture(autouse=True)
def _every_k_branch(settings: Any) -> None:
    settings.RATINGS_NEW_MATCHES = 8
    settings.RATINGS_MASTER_RATING = 1550.0


# -- engine-played matches stored as the services store them --------------------------------------------


def engine_match(
    game: str,
    seats: Sequence[Player | str],
    rng: random.Random,
    *,
    options: dict[str, Any] | None = None,
    format: str = Match.Format.SINGLE,
    games: int = 1,
    rated: bool = True,
) -> Match:
    """A match played to its end by the engine with random legal codes, stored as match_create,
    action_submit and the finishing service would have stored it."""
    rules = Rules.build(game, len(seats), options or {})
    now = timezone.now()
    match = Match.objects.create(
        game=rules.game,
        num_players=rules.players,
        options=rules.to_options(),
        rules_version=RULES_VERSION,
        format=format,
        format_target=games,
        rated=rated,
        status=Match.Status.IN_PROGRESS,
        started_at=now,
    )
    Seat.objects.bulk_create(
        Seat(
            match=match,
            index=i,
            player=s if isinstance(s, Player) else None,
            bot_level=s if isinstance(s, str) else "",
        )
        for i, s in enumerate(seats)
    )
    sides = 2 if game == "tute4" else rules.players
    won = [0] * sides
    ply = 0
    number = 0
    while True:
        seed = f"{match.pk}:{number}:{rng.random()}"
        state = State.new(rules, dealer=number % rules.players, seed=seed)
        row = Game.objects.create(
            match=match,
            number=number,
            seed=seed,
            decks=[[CODE_OF[c] for c in deck] for deck in state.table.decks],
            dealer=number % rules.players,
            first_ply=ply,
        )
        actions = []
        while not state.is_terminal():
            seat = state.current_player()
            assert seat is not None
            code = rng.choice(state.legal_actions())
            who = seats[seat]
            actions.append(
                Action(
                    match=match,
                    game=row,
                    ply=ply,
                    seat=seat,
                    code=code,
                    kind=Action.Kind.MOVE if isinstance(who, Player) else Action.Kind.HOUSE_BOT,
                    player=who if isinstance(who, Player) else None,
                )
            )
            state = state.apply(code)
            ply += 1
        Action.objects.bulk_create(actions)
        result = state.result()
        assert result is not None
        row.status, row.result, row.finished_at = Game.Status.FINISHED, result.to_dict(), timezone.now()
        row.save(update_fields=["status", "result", "finished_at"])
        for side in result.winners:
            won[side] += 1
        number += 1
        if format == Match.Format.FIRST_TO:
            over = max(won) >= games
        else:
            over = max(won) > games // 2 or number >= games
        if over:
            break
    best = max(won)
    match.status = Match.Status.FINISHED
    match.result = {"games_won": won, "winners": [s for s, w in enumerate(won) if w == best], "games": number}
    match.finish_reason = "completed"
    match.finished_at = timezone.now()
    match.ply = ply
    match.save()
    return match


# -- the history ----------------------------------------------------------------------------------------


@dataclass
class History:
    matches: list[Match] = field(default_factory=list)

    @property
    def rated(self) -> list[Match]:
        return [m for m in self.matches if m.status == Match.Status.FINISHED and m.rated]


@pytest.fixture
def build_history(
    players: Callable[[int], list[Player]],
    make_bot: Callable[..., Player],
    started_match: Callable[..., Match],
    play: Callable[..., Match],
    resign_seat: Callable[[Match, int], Match],
) -> Callable[..., History]:
    """``build_history(on_finish, service_matches=30)``: 300 finished matches in a random but seeded mix,
    the first ``service_matches`` through the services; ``on_finish(match)`` runs as each one finishes,
    as the rating task would."""

    def build(on_finish: Callable[[Match], Any], service_matches: int = SERVICE_MATCHES) -> History:
        rng = random.Random(20261202)
        people = players(10)
        bots = [make_bot(), make_bot()]
        regulars = people[:5]  # most Tute 2 is among these, so their K drops and some reach "master"
        everyone: list[Player] = people + bots
        history = History()

        def pick(pool: list[Player], n: int) -> list[Player | str]:
            return list(rng.sample(pool, n))

        def done(match: Match) -> None:
            match.refresh_from_db()
            history.matches.append(match)
            on_finish(match)

        # -- through the services
        for i in range(service_matches):
            kind = i % 10
            if kind in (0, 1, 2):
                match = play(started_match("tute2", pick(regulars, 2)), rng)
            elif kind == 3:
                match = play(started_match("tute2", pick(everyone, 2), format="best_of", games=2), rng)
            elif kind == 4:
                match = play(started_match("tute4", pick(everyone, 4)), rng)
            elif kind == 5:
                a, b = pick(people, 2)
                bots_at = rng.choice([["rule", "random"], ["random", "rule"]])
                seats: list[Player | str] = (
                    [a, bots_at[0], b, bots_at[1]] if i % 20 < 10 else [a, "rule", "random", b]
                )
                match = play(started_match("tute4", seats), rng)
            elif kind == 6:
                # a table with one house bot, or with three seats of one level
                seats = (
                    [*pick(everyone, rng.choice([2, 3])), "rule"]
                    if i % 20 < 10
                    else [*pick(everyone, 1)] + ["rule"] * 3
                )
                rng.shuffle(seats)
                match = play(started_match("pocha", seats, options=POCHA_SHORT), rng)
            elif kind == 7:
                match = play(started_match("pocha", pick(everyone, 4), options=POCHA_SHORT), rng)
            elif kind == 8:
                game, n = rng.choice([("tute2", 2), ("tute4", 4), ("pocha", 3)])
                seated = pick(everyone, n)
                match = started_match(game, seated, options=POCHA_SHORT if game == "pocha" else None)
                match = resign_seat(match, rng.randrange(n))
            else:  # never rated: unrated (finished), or aborted
                creator, other = rng.sample(everyone, 2)
                match = started_match("tute2", [creator, other], rated=i % 20 < 10)
                if match.rated:
                    match_abort(match_id=match.pk, by=creator)
                else:
                    match = play(match, rng)
            done(match)

        # -- played by the engine, stored as rows
        while len(history.matches) < TOTAL_MATCHES:
            roll = rng.random()
            special = len(history.matches) % 50  # a few of each kind below, whatever the rolls
            if special == 0:  # one level against itself: changes nothing, counts for nobody
                match = engine_match("tute2", ["rule", "rule"], rng)
            elif special == 1:
                match = engine_match("tute4", ["random"] * 4, rng)
            elif special == 2:  # a Tute 4 house pair
                a, b = pick(everyone, 2)
                match = engine_match("tute4", [a, "rule", b, "rule"], rng)
            elif special == 3:  # a Pocha table with three seats of one level
                seats = ["rule", *pick(everyone, 1), "rule", "rule"]
                match = engine_match("pocha", seats, rng, options=POCHA_SHORT)
            elif roll < 0.45:
                match = engine_match("tute2", pick(regulars, 2), rng)
            elif roll < 0.55:
                match = engine_match("tute2", pick(everyone, 2), rng, format="best_of", games=2)
            elif roll < 0.70:
                match = engine_match("tute4", pick(everyone, 4), rng)
            elif roll < 0.75:
                a, b = pick(everyone, 2)
                match = engine_match("tute4", [a, "random", b, "rule"], rng)
            elif roll < 0.95:
                n = rng.choice([3, 4])
                last: list[Player | str] = ["rule", *pick(everyone, 1)]
                seats = [*pick(everyone, n - 1), rng.choice(last)]
                if len({id(s) for s in seats}) < n:
                    seats = pick(everyone, n)
                rng.shuffle(seats)
                match = engine_match("pocha", seats, rng, options=POCHA_SHORT)
            elif roll < 0.965:  # a Tute 4 house pair: one level holds both seats of a side
                a, b = pick(everyone, 2)
                match = engine_match("tute4", ["rule", a, "rule", b], rng)
            elif roll < 0.98:  # a Pocha table with several seats of one level
                seats = [*pick(everyone, 1), "rule", "rule", rng.choice(["rule", "random"])]
                rng.shuffle(seats)
                match = engine_match("pocha", seats, rng, options=POCHA_SHORT)
            elif roll < 0.99:  # one level against itself: changes nothing, counts for nobody
                match = engine_match(*rng.choice([("tute2", ["rule"] * 2), ("tute4", ["random"] * 4)]), rng)
            else:
                match = engine_match("tute2", pick(everyone, 2), rng, rated=False)
            done(match)
        return history

    return build


Snapshot = tuple[dict[tuple[str, str], tuple[Any, ...]], list[tuple[Any, ...]], list[int]]


def snapshot() -> Snapshot:
    """Every rating (by pool and subject) and every change, with every stored value, floats exact."""
    ratings = {
        (r.pool, r.subject): (
            r.rating,
            r.rated_matches,
            r.last_played_at,
            r.is_bot,
            r.house_bot,
            r.player_id,
            r.partner_id,
        )
        for r in Rating.objects.all()
    }
    changes = sorted(
        RatingChange.objects.values_list(
            "match_id", "pool", "subject", "before", "after", "delta", "k", "played_at", "rating__subject"
        )
    )
    return ratings, changes, sorted(RatedMatch.objects.values_list("match_id", flat=True))


# -- tests ----------------------------------------------------------------------------------------------


def test_recompute_equals_the_incremental_updates(build_history: Callable[..., History]) -> None:
    # given: ~300 finished matches, each rated as it finished (the order the task sees them in)
    history = build_history(lambda match: match_ratings_apply(match_id=match.pk))
    incremental = snapshot()
    rated = history.rated
    assert 250 <= len(rated) < TOTAL_MATCHES
    assert {m.game for m in rated} == {"tute2", "tute4", "pocha"}
    ratings, changes, _ = incremental
    assert {pool for pool, _ in ratings} == set(Pool.values)
    assert {k for *_, k, _, _ in changes} == {40.0, 20.0, 10.0}, "every K of the policy was used"
    assert any(s.startswith("house:") for _, s in ratings) and any(s.startswith("pair:") for _, s in ratings)
    several = [m for m in rated if Seat.objects.filter(match=m, bot_level="rule").count() >= 2]
    assert {m.game for m in several} == {"tute2", "tute4", "pocha"}, "house pairs, tables and self-play"
    alone = [m for m in several if not Seat.objects.filter(match=m).exclude(bot_level="rule").exists()]
    assert alone and not RatingChange.objects.filter(match__in=alone).exists()

    # when
    out = StringIO()
    call_command("ratings_recompute", stdout=out)

    # then: the same rows, the same floats, bit for bit
    assert snapshot() == incremental
    assert out.getvalue().startswith(f"rated {len(rated)} matches, wrote {len(changes)} rating changes in ")


def test_tasks_delivered_out_of_order_and_twice_still_equal_the_recompute(
    build_history: Callable[..., History],
) -> None:
    # given: a history of the same kind (played by the engine only: the services add nothing to the point
    # here), nothing rated yet
    history = build_history(lambda match: None, service_matches=0)
    assert not RatingChange.objects.exists()

    # when: each match's task is delivered twice, in a shuffled order
    deliveries = [m.pk for m in history.matches] * 2
    random.Random(5).shuffle(deliveries)
    for match_id in deliveries:
        apply_match_ratings(match_id)
    delivered = snapshot()

    # then: every rated match was applied once, in finishing order: what a recompute writes
    assert RatedMatch.objects.count() == len(history.rated)
    ratings_recompute()
    assert snapshot() == delivered


def test_recompute_of_an_empty_history_clears_everything(
    players: Callable[[int], list[Player]], given_rating: Callable[..., Rating]
) -> None:
    # given: a rating row left with no rated match behind it
    (a,) = players(1)
    given_rating(Pool.TUTE2, a, 1800.0, 40)

    # when
    assert ratings_recompute() == (0, 0)

    # then
    assert not Rating.objects.exists()


def test_recompute_undoes_a_hand_edited_rating(
    players: Callable[[int], list[Player]], resigned_match: Callable[..., Match]
) -> None:
    # given: two rated matches; then someone edits a rating in the admin
    a, b = players(2)
    for loser in (1, 0):
        match_ratings_apply(match_id=resigned_match("tute2", [a, b], loser=loser).pk)
    before = snapshot()
    Rating.objects.filter(player=a).update(rating=2500.0, rated_matches=99)

    # when
    ratings_recompute()

    # then
    assert snapshot() == before


def test_recompute_copes_with_two_house_bots_of_one_level_in_a_match(
    players: Callable[[int], list[Player]], played_match: Callable[..., Match]
) -> None:
    # given: rated history that holds a Tute 4 match of a player and three house bots (two "rule")
    (a,) = players(1)
    played_match("tute4", [a, "rule", "random", "rule"], seed=3)

    # when: the recompute (two changes for one (match, pool, subject) would break its unique constraint)
    rated, _ = ratings_recompute()

    # then
    assert rated == 1
    assert Rating.objects.get(pool=Pool.TUTE4, subject="house:rule").rated_matches == 1
