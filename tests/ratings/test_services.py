"""Applying a finished match's ratings (``match_ratings_apply``): known values for each pool, worked out
by hand, on matches finished through the games services.

Resigning gives a known result without playing: in Tute the resigner's side loses; in Pocha the resigner
finishes last and the others keep the totals of the games finished so far (none: all tie at 0).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest
from django.db.models import Count, QuerySet
from django.utils import timezone

from games.models import Game, Match, Player
from games.services import match_abort
from ratings.models import Pool, RatedMatch, Rating, RatingChange
from ratings.selectors import is_provisional
from ratings.services import match_ratings_apply, pending_before
from tests.ratings.conftest import new_player

pytestmark = pytest.mark.django_db

E200 = 0.7597469266  # the expected score of a side 200 points above the other


def approx(value: float) -> object:
    return pytest.approx(value, abs=1e-6)


def changes_of(match: Match) -> dict[tuple[str, str], RatingChange]:
    return {(c.pool, c.subject): c for c in RatingChange.objects.filter(match=match)}


# -- Tute 2 ---------------------------------------------------------------------------------------------


def test_tute2_two_newcomers_winner_gains_20(
    players: Callable[[int], list[Player]],
    resigned_match: Callable[..., Match],
    rating: Callable[..., Rating],
) -> None:
    # given: two new players; seat 1 resigns, so seat 0 wins
    a, b = players(2)
    match = resigned_match("tute2", [a, b], loser=1)

    # when
    written = match_ratings_apply(match_id=match.pk)

    # then: 40 x (1 - 0.5) = +20 and -20, from 1500; each has one rated match
    assert written == 2
    ra, rb = rating(Pool.TUTE2, a), rating(Pool.TUTE2, b)
    assert (ra.rating, rb.rating) == (1520.0, 1480.0)
    assert (ra.rated_matches, rb.rated_matches) == (1, 1)
    assert ra.last_played_at == match.finished_at == rb.last_played_at
    assert ra.player == a and not ra.is_bot and ra.house_bot == ""
    # and: one change row each, with what it was before and after
    change = RatingChange.objects.get(match=match, rating=ra)
    assert (change.pool, change.subject) == (Pool.TUTE2, f"player:{a.pk}")
    assert (change.before, change.after, change.delta, change.k) == (1500.0, 1520.0, 20.0, 40.0)
    assert change.played_at == match.finished_at
    assert RatingChange.objects.get(match=match, rating=rb).delta == -20.0


def test_tute2_a_drawn_match_moves_the_weaker_player_up(
    players: Callable[[int], list[Player]],
    given_rating: Callable[..., Rating],
    rating: Callable[..., Rating],
    drawn_tute2_match: Callable[[Player, Player], Match],
) -> None:
    # given: 1700 (seat 0) and 1500 (seat 1), both in their first 30 matches
    a, b = players(2)
    given_rating(Pool.TUTE2, a, 1700.0, 5)
    given_rating(Pool.TUTE2, b, 1500.0, 5)
    # and: a best-of-2 match played until the games are split 1-1, a drawn match
    match = drawn_tute2_match(a, b)

    # when
    match_ratings_apply(match_id=match.pk)

    # then: 40 x (0.5 - 0.759747) = -10.3899 for the favourite, the opposite for the other
    assert rating(Pool.TUTE2, a).rating == approx(1700 - 10.389877066)
    assert rating(Pool.TUTE2, b).rating == approx(1500 + 10.389877066)


@pytest.fixture
def drawn_tute2_match(
    started_match: Callable[..., Match], play: Callable[..., Match]
) -> Callable[[Player, Player], Match]:
    """A best-of-2 Tute 2 match played with random moves, played again until its games are split 1-1."""

    def make(a: Player, b: Player) -> Match:
        rng = random.Random(2)
        for _ in range(40):  # each try is a draw with probability about 1/2
            match = play(started_match("tute2", [a, b], format=Match.Format.BEST_OF, games=2), rng)
            if match.result is not None and match.result["winners"] == [0, 1]:
                return match
            match.delete()
        raise AssertionError("no drawn match in 40 tries")

    return make


def test_tute2_unequal_ratings_use_the_expected_score(
    players: Callable[[int], list[Player]],
    given_rating: Callable[..., Rating],
    resigned_match: Callable[..., Match],
    rating: Callable[..., Rating],
) -> None:
    # given: 1700 against 1500, both new enough for K 40
    favourite, underdog = players(2)
    given_rating(Pool.TUTE2, favourite, 1700.0, 12)
    given_rating(Pool.TUTE2, underdog, 1500.0, 3)

    # when: the favourite resigns: the underdog wins
    match = resigned_match("tute2", [favourite, underdog], loser=0)
    match_ratings_apply(match_id=match.pk)

    # then: 40 x (1 - 0.240253) = 30.3899 either way
    assert rating(Pool.TUTE2, underdog).rating == approx(1530.389877066)
    assert rating(Pool.TUTE2, favourite).rating == approx(1669.610122934)
    assert rating(Pool.TUTE2, favourite).rated_matches == 13


def test_tute2_k_is_20_after_30_rated_matches(
    players: Callable[[int], list[Player]],
    given_rating: Callable[..., Rating],
    resigned_match: Callable[..., Match],
    rating: Callable[..., Rating],
) -> None:
    # given: a player with 30 rated matches at 1500, and a newcomer
    seasoned, newcomer = players(2)
    given_rating(Pool.TUTE2, seasoned, 1500.0, 30)

    # when: the seasoned player wins
    match = resigned_match("tute2", [seasoned, newcomer], loser=1)
    match_ratings_apply(match_id=match.pk)

    # then: 20 x 0.5 = +10 for the seasoned player, 40 x -0.5 = -20 for the newcomer
    assert rating(Pool.TUTE2, seasoned).rating == 1510.0
    assert rating(Pool.TUTE2, newcomer).rating == 1480.0
    assert changes_of(match)[(Pool.TUTE2, f"player:{seasoned.pk}")].k == 20.0


def test_tute2_k_is_10_from_2400_up(
    players: Callable[[int], list[Player]],
    given_rating: Callable[..., Rating],
    resigned_match: Callable[..., Match],
    rating: Callable[..., Rating],
) -> None:
    # given: a seasoned 2400 (K 10) against a seasoned 2000 (K 20)
    master, challenger = players(2)
    given_rating(Pool.TUTE2, master, 2400.0, 100)
    given_rating(Pool.TUTE2, challenger, 2000.0, 100)

    # when: the master wins (expected 10/11)
    match = resigned_match("tute2", [challenger, master], loser=0)
    match_ratings_apply(match_id=match.pk)

    # then: +10/11 and -20/11
    assert rating(Pool.TUTE2, master).rating == approx(2400 + 10 / 11)
    assert rating(Pool.TUTE2, challenger).rating == approx(2000 - 20 / 11)


@pytest.mark.parametrize(("k_new", "gain"), [(32.0, 16.0), (50.0, 25.0)])
def test_tute2_k_comes_from_the_settings(
    k_new: float,
    gain: float,
    settings: Any,
    players: Callable[[int], list[Player]],
    resigned_match: Callable[..., Match],
    rating: Callable[..., Rating],
) -> None:
    # given: another K for newcomers
    settings.RATINGS_K_NEW = k_new
    a, b = players(2)

    # when
    match = resigned_match("tute2", [a, b], loser=1)
    match_ratings_apply(match_id=match.pk)

    # then: K x 0.5
    assert rating(Pool.TUTE2, a).rating == 1500.0 + gain


def test_tute2_played_to_the_end_rates_the_engines_winner(
    players: Callable[[int], list[Player]], played_match: Callable[..., Match], rating: Callable[..., Rating]
) -> None:
    # given: a Tute 2 game played to the end with random legal moves
    a, b = players(2)
    match = played_match("tute2", [a, b], seed=7)
    assert match.result is not None
    (winner,) = match.result["winners"]
    won, lost = (a, b) if winner == 0 else (b, a)

    # when
    match_ratings_apply(match_id=match.pk)

    # then
    assert rating(Pool.TUTE2, won).rating == 1520.0
    assert rating(Pool.TUTE2, lost).rating == 1480.0


# -- Tute 4: individual ratings from the pairs' averages, and the pairs pool ----------------------------


def test_tute4_four_newcomers_each_gets_the_pairs_change(
    players: Callable[[int], list[Player]],
    resigned_match: Callable[..., Match],
    rating: Callable[..., Rating],
) -> None:
    # given: seats 0 & 2 against seats 1 & 3, all new; seat 3 resigns for its pair
    p = players(4)
    match = resigned_match("tute4", p, loser=3)

    # when
    written = match_ratings_apply(match_id=match.pk)

    # then: 4 individual changes of 40 x 0.5 and 2 pair changes
    assert written == 6
    assert [rating(Pool.TUTE4, x).rating for x in p] == [1520.0, 1480.0, 1520.0, 1480.0]


def test_tute4_pair_averages_set_the_expectation_and_each_player_has_its_own_k(
    players: Callable[[int], list[Player]],
    given_rating: Callable[..., Rating],
    resigned_match: Callable[..., Match],
    rating: Callable[..., Rating],
) -> None:
    # given: seats 0 & 2 are 1700 (new) and 1500 (seasoned, K 20): average 1600;
    #        seats 1 & 3 are 1400 and 1400, new: average 1400
    p = players(4)
    given_rating(Pool.TUTE4, p[0], 1700.0, 10)
    given_rating(Pool.TUTE4, p[2], 1500.0, 45)
    given_rating(Pool.TUTE4, p[1], 1400.0, 2)
    given_rating(Pool.TUTE4, p[3], 1400.0, 2)

    # when: seat 1 resigns, so seats 0 & 2 win (their pair expected 0.759747)
    match = resigned_match("tute4", p, loser=1)
    match_ratings_apply(match_id=match.pk)

    # then: K x (1 - 0.759747): 40 -> +9.6101, 20 -> +4.8051; the losers 40 x -0.240253 = -9.6101
    assert rating(Pool.TUTE4, p[0]).rating == approx(1709.610122934)
    assert rating(Pool.TUTE4, p[2]).rating == approx(1504.805061467)
    assert rating(Pool.TUTE4, p[1]).rating == approx(1390.389877066)
    assert rating(Pool.TUTE4, p[3]).rating == approx(1390.389877066)


def test_tute4_pairs_pool_rates_the_pairs_head_to_head(
    players: Callable[[int], list[Player]],
    given_rating: Callable[..., Rating],
    resigned_match: Callable[..., Match],
    rating: Callable[..., Rating],
) -> None:
    # given: pair (seats 0 & 2) rated 1550 after 35 matches (K 20), pair (seats 1 & 3) new
    p = players(4)
    given_rating(Pool.TUTE4_PAIRS, (p[0], p[2]), 1550.0, 35)

    # when: seat 2 resigns: the new pair wins. The first pair expected 1 / (1 + 10^(-50/400)) = 0.571463
    match = resigned_match("tute4", p, loser=2)
    match_ratings_apply(match_id=match.pk)

    # then: 20 x (0 - 0.571463) = -11.4293 and 40 x (1 - 0.428537) = +22.8585
    old, new = rating(Pool.TUTE4_PAIRS, (p[0], p[2])), rating(Pool.TUTE4_PAIRS, (p[1], p[3]))
    assert old.rating == approx(1550 - 11.429262348)
    assert new.rating == approx(1500 + 22.858524696)
    assert (old.rated_matches, new.rated_matches) == (36, 1)
    # and: a pair's row names its two players, lower id first, whatever the seats
    assert new.subject == f"pair:{min(p[1].pk, p[3].pk)}-{max(p[1].pk, p[3].pk)}"
    assert {new.player, new.partner} == {p[1], p[3]}
    assert new.player is not None and new.partner is not None and new.player.pk < new.partner.pk
    # and: the individual pool is separate: all four were new there, +-20
    assert [rating(Pool.TUTE4, x).rating for x in p] == [1480.0, 1520.0, 1480.0, 1520.0]


def test_tute4_pairs_with_a_house_bot_get_no_pair_rating(
    players: Callable[[int], list[Player]],
    resigned_match: Callable[..., Match],
    rating: Callable[..., Rating],
) -> None:
    # given: two players against a player and a house bot
    a, b, c = players(3)
    match = resigned_match("tute4", [a, b, c, "rule"], loser=1)

    # when
    written = match_ratings_apply(match_id=match.pk)

    # then: four individual changes (the house bot among them), no pair rating for either side
    assert written == 4
    assert not Rating.objects.filter(pool=Pool.TUTE4_PAIRS).exists()
    assert rating(Pool.TUTE4, "rule").rating == 1480.0
    assert rating(Pool.TUTE4, a).rating == 1520.0


# -- Pocha: multiplayer by totals -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("n", "others", "resigner"),
    [
        # the others tie at 0 with each other and beat the resigner:
        (3, 40 / 2 * 0.5, -40.0 / 2 * 2 * 0.5),  # K / 2 = 20: others +0.5 -> +10; resigner -1 -> -20
        (4, 40 / 3 * 0.5, -40.0 / 3 * 3 * 0.5),  # K / 3: others +0.5 -> +6.667; resigner -1.5 -> -20
    ],
)
def test_pocha_a_resigner_finishes_last_and_the_others_tie(
    n: int,
    others: float,
    resigner: float,
    players: Callable[[int], list[Player]],
    resigned_match: Callable[..., Match],
    rating: Callable[..., Rating],
) -> None:
    # given: n new players; seat 1 resigns before any game is over (all totals 0)
    p = players(n)
    match = resigned_match("pocha", p, loser=1, options={"pocha_sequence": [1, 2]})

    # when
    assert match_ratings_apply(match_id=match.pk) == n

    # then
    assert rating(Pool.POCHA, p[1]).rating == approx(1500 + resigner)
    for x in p[:1] + p[2:]:
        assert rating(Pool.POCHA, x).rating == approx(1500 + others)


def pairwise_deltas(totals: list[float], k: float = 40.0) -> list[float]:
    """Equal ratings expect 0.5 against everyone: K / (n - 1) x sum of (1, 0.5 or 0 minus 0.5)."""
    n = len(totals)
    return [
        k
        / (n - 1)
        * sum((1.0 if t > u else 0.5 if t == u else 0.0) - 0.5 for j, u in enumerate(totals) if j != i)
        for i, t in enumerate(totals)
    ]


@pytest.mark.parametrize("n", [3, 4])
def test_pocha_played_to_the_end_compares_every_two_players_by_total(
    n: int,
    players: Callable[[int], list[Player]],
    played_match: Callable[..., Match],
    rating: Callable[..., Rating],
) -> None:
    # given: a Pocha match of hands of 1 and 2 cards, played with random legal moves
    p = players(n)
    match = played_match("pocha", p, seed=n, options={"pocha_sequence": [1, 2]})
    (game,) = Game.objects.filter(match=match)
    assert game.result is not None
    totals = game.result["scores"]

    # when
    match_ratings_apply(match_id=match.pk)

    # then
    expected = pairwise_deltas(totals)
    assert [rating(Pool.POCHA, x).rating - 1500 for x in p] == [approx(d) for d in expected]


def test_pocha_totals_add_up_the_finished_games_and_the_resigner_is_last(
    players: Callable[[int], list[Player]],
    started_match: Callable[..., Match],
    step: Callable[[Match, random.Random], None],
    resign_seat: Callable[[Match, int], Match],
    rating: Callable[..., Rating],
) -> None:
    # given: a best-of-3 Pocha match of one-card hands; the first game is played out, then seat 0 resigns
    p = players(3)
    match = started_match("pocha", p, options={"pocha_sequence": [1]}, format=Match.Format.BEST_OF, games=3)
    rng = random.Random(5)
    while Game.objects.filter(match=match).count() < 2:
        step(match, rng)
    first = Game.objects.get(match=match, number=0)
    assert first.result is not None
    match = resign_seat(match, 0)

    # when
    match_ratings_apply(match_id=match.pk)

    # then: seat 0 loses to everyone; seats 1 and 2 are compared by the first game's scores
    totals = [float("-inf"), first.result["scores"][1], first.result["scores"][2]]
    assert [rating(Pool.POCHA, x).rating - 1500 for x in p] == [approx(d) for d in pairwise_deltas(totals)]


# -- provisional ----------------------------------------------------------------------------------------


def test_a_rating_is_provisional_until_the_set_number_of_rated_matches(
    settings: Any,
    players: Callable[[int], list[Player]],
    resigned_match: Callable[..., Match],
    rating: Callable[..., Rating],
) -> None:
    # given: ratings stop being provisional after 3 rated matches
    settings.RATINGS_PROVISIONAL_MATCHES = 3
    a, b = players(2)

    # when / then: provisional after 1 and 2 matches, not after the 3rd
    seen = []
    for _ in range(3):
        match = resigned_match("tute2", [a, b], loser=1)
        match_ratings_apply(match_id=match.pk)
        seen.append(is_provisional(rating(Pool.TUTE2, a)))
    assert seen == [True, True, False]


# -- never rated ----------------------------------------------------------------------------------------


def test_an_unrated_match_is_never_rated(
    players: Callable[[int], list[Player]], resigned_match: Callable[..., Match]
) -> None:
    # given: the organiser made the match unrated
    a, b = players(2)
    match = resigned_match("tute2", [a, b], loser=1, rated=False)

    # when
    written = match_ratings_apply(match_id=match.pk)

    # then
    assert written == 0
    assert not Rating.objects.exists()
    assert not RatingChange.objects.exists()


def test_an_aborted_match_is_never_rated(
    players: Callable[[int], list[Player]], started_match: Callable[..., Match]
) -> None:
    # given: a match in progress that its creator aborts
    a, b = players(2)
    match = started_match("tute2", [a, b])
    match_abort(match_id=match.pk, by=a)

    # when
    written = match_ratings_apply(match_id=match.pk)

    # then
    assert written == 0
    assert not Rating.objects.exists()


def test_a_match_in_progress_or_unknown_is_not_rated(
    players: Callable[[int], list[Player]], started_match: Callable[..., Match]
) -> None:
    match = started_match("tute2", players(2))
    assert match_ratings_apply(match_id=match.pk) == 0
    assert match_ratings_apply(match_id=10**9) == 0
    assert not RatingChange.objects.exists()


# -- bots -----------------------------------------------------------------------------------------------


def test_a_bot_account_is_rated_in_the_same_pool_and_labelled(
    make_player: Callable[..., Player],
    make_bot: Callable[..., Player],
    resigned_match: Callable[..., Match],
    rating: Callable[..., Rating],
) -> None:
    # given: a person beats a bot account at Tute 2
    person, bot = make_player(), make_bot()
    match = resigned_match("tute2", [bot, person], loser=0)

    # when
    match_ratings_apply(match_id=match.pk)

    # then: both in the tute2 pool; the bot's row says it is a bot
    bot_rating, person_rating = rating(Pool.TUTE2, bot), rating(Pool.TUTE2, person)
    assert (bot_rating.rating, bot_rating.is_bot, bot_rating.player) == (1480.0, True, bot)
    assert (person_rating.rating, person_rating.is_bot) == (1520.0, False)


@pytest.mark.parametrize(
    ("game", "seats", "options"),
    [
        ("tute2", ["p", "rule"], {}),
        ("tute4", ["p", "random", "p", "rule"], {}),
        ("pocha", ["p", "rule", "p"], {"pocha_sequence": [1]}),
    ],
)
def test_house_bots_are_rated_by_level_in_the_same_pools(
    game: str,
    seats: list[str],
    options: dict[str, Any],
    players: Callable[[int], list[Player]],
    resigned_match: Callable[..., Match],
    rating: Callable[..., Rating],
) -> None:
    # given: players and house bots; the first player resigns
    people = iter(players(seats.count("p")))
    seated: list[Player | str] = [next(people) if s == "p" else s for s in seats]
    match = resigned_match(game, seated, loser=0, options=options)

    # when
    match_ratings_apply(match_id=match.pk)

    # then: each house bot level has a rating "house:<level>" in the game's pool, labelled a bot
    for level in (s for s in seats if s != "p"):
        row = rating(game, level)
        assert row.subject == f"house:{level}"
        assert (row.house_bot, row.is_bot, row.player, row.rated_matches) == (level, True, None, 1)
        assert row.rating > 1500.0  # it won against the resigner


def test_a_pair_with_a_bot_account_is_labelled_a_bot(
    players: Callable[[int], list[Player]],
    make_bot: Callable[..., Player],
    resigned_match: Callable[..., Match],
    rating: Callable[..., Rating],
) -> None:
    # given: a person and a bot account (seats 0 & 2) against two people
    a, b, c = players(3)
    bot = make_bot()
    match = resigned_match("tute4", [a, b, bot, c], loser=0)

    # when
    match_ratings_apply(match_id=match.pk)

    # then
    assert rating(Pool.TUTE4_PAIRS, (a, bot)).is_bot
    assert not rating(Pool.TUTE4_PAIRS, (b, c)).is_bot


# -- one fixed order -------------------------------------------------------------------------------------


def test_new_rating_rows_are_created_in_pool_and_subject_order(
    players: Callable[[int], list[Player]],
    resigned_match: Callable[..., Match],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Rows are locked in (pool, subject) order; new ones must be inserted in one fixed order too, or
    two services inserting the same new rows deadlock (see test_concurrency.py)."""
    # given: a Tute 4 match whose seats hold four new players in descending id order
    four = sorted(players(4), key=lambda x: -x.pk)
    match = resigned_match("tute4", four, loser=0)
    inserted: list[list[tuple[str, str]]] = []
    bulk_create = QuerySet.bulk_create

    def spy(self: QuerySet[Any], objs: Any, *args: Any, **kwargs: Any) -> Any:
        objs = list(objs)
        if self.model is Rating:
            inserted.append([(o.pool, o.subject) for o in objs])
        return bulk_create(self, objs, *args, **kwargs)

    monkeypatch.setattr(QuerySet, "bulk_create", spy)

    # when
    match_ratings_apply(match_id=match.pk)

    # then: one insert of the six new rows (four players, two pairs), sorted
    (rows,) = inserted
    assert len(rows) == 6
    assert rows == sorted(rows)


# -- the same house bot in two seats: one competitor --------------------------------------------------


@pytest.mark.parametrize(
    ("game", "seats", "options"),
    [
        ("tute4", ["p", "rule", "p", "rule"], {}),  # one pair of two rule bots
        ("tute4", ["p", "rule", "rule", "p"], {}),  # a rule bot on each side
        ("pocha", ["p", "random", "random"], {"pocha_sequence": [1]}),
    ],
)
def test_a_match_with_two_house_bots_of_one_level_is_rated_once_per_competitor(
    game: str,
    seats: list[str],
    options: dict[str, Any],
    players: Callable[[int], list[Player]],
    resigned_match: Callable[..., Match],
) -> None:
    # given: a match where one house bot level holds two seats (match_create allows it)
    people = iter(players(seats.count("p")))
    seated: list[Player | str] = [next(people) if s == "p" else s for s in seats]
    match = resigned_match(game, seated, loser=0, options=options)

    # when: its ratings are applied (one change per (match, pool, subject): a unique constraint)
    match_ratings_apply(match_id=match.pk)

    # then: every player is rated, and the house bot's rating counts the match once
    assert RatingChange.objects.filter(match=match, subject__startswith="player:").count() == seats.count("p")
    house = Rating.objects.get(pool=game, subject=f"house:{seats[1]}")
    assert house.rated_matches == 1
    per_competitor = (
        RatingChange.objects.filter(match=match).values("pool", "subject").annotate(n=Count("id"))
    )
    assert {row["n"] for row in per_competitor} == {1}


# -- one competitor, one change, counted once (issue 17) -------------------------------------------------


def test_a_house_bot_meeting_only_itself_neither_moves_nor_counts(
    resigned_match: Callable[..., Match], played_match: Callable[..., Match], rating: Callable[..., Rating]
) -> None:
    # given: a rule bot that has played one rated match against a player
    match_ratings_apply(match_id=resigned_match("tute2", [new_player(), "rule"], loser=0).pk)
    before = rating(Pool.TUTE2, "rule")
    assert before.rated_matches == 1

    # when: rule plays rule, a Tute 2 match played to the end, and its ratings are applied
    match = played_match("tute2", ["rule", "rule"], seed=4)
    written = match_ratings_apply(match_id=match.pk)

    # then: no change, the match does not count, and it is recorded as applied (never looked at again)
    assert written == 0
    after = rating(Pool.TUTE2, "rule")
    assert (after.rating, after.rated_matches) == (before.rating, 1)
    assert not RatingChange.objects.filter(match=match).exists()
    assert RatedMatch.objects.filter(match=match).exists()
    assert pending_before(match_id=match.pk + 1, finished_at=timezone.now()) == []


def test_a_tute4_house_pair_moves_once_by_k_and_counts_once(
    players: Callable[[int], list[Player]],
    resigned_match: Callable[..., Match],
    rating: Callable[..., Rating],
) -> None:
    # given: two new players against a pair of new rule bots (seats 1 and 3); seat 0 resigns
    a, b = players(2)
    match = resigned_match("tute4", [a, "rule", b, "rule"], loser=0)

    # when
    assert match_ratings_apply(match_id=match.pk) == 3

    # then: the pair of rule seats won at an even expectation: +K x 0.5 = +20, the mean of its two seats'
    # +20 (not their sum), and one rated match
    house = rating(Pool.TUTE4, "rule")
    assert (house.rating, house.rated_matches) == (1520.0, 1)
    assert rating(Pool.TUTE4, a).rating == 1480.0 and rating(Pool.TUTE4, b).rating == 1480.0
    assert changes_of(match)[(Pool.TUTE4, "house:rule")].delta == 20.0


def test_a_pocha_table_with_three_seats_of_one_level_moves_it_by_the_mean(
    make_player: Callable[..., Player], resigned_match: Callable[..., Match], rating: Callable[..., Rating]
) -> None:
    # given: a new player and three seats of the new rule bot; the player resigns (finishes last)
    p = make_player()
    match = resigned_match("pocha", ["rule", "rule", p, "rule"], loser=2, options={"pocha_sequence": [1]})

    # when
    assert match_ratings_apply(match_id=match.pk) == 2

    # then: each rule seat is compared with the player only: K x (1 - 0.5) = +20, and the mean of the
    # three is +20 (not +60); the player lost to three seats: K x mean(-0.5, -0.5, -0.5) = -20
    house = rating(Pool.POCHA, "rule")
    assert (house.rating, house.rated_matches) == (1520.0, 1)
    assert (rating(Pool.POCHA, p).rating, rating(Pool.POCHA, p).rated_matches) == (1480.0, 1)


def test_a_tute4_table_of_one_level_and_its_tute2_twin_change_nothing(
    played_match: Callable[..., Match],
) -> None:
    # given: four rule seats at Tute 4
    match = played_match("tute4", ["rule"] * 4, seed=2)

    # when / then: nothing is written but the ledger row
    assert match_ratings_apply(match_id=match.pk) == 0
    assert not Rating.objects.exists()
    assert RatedMatch.objects.filter(match=match).count() == 1
