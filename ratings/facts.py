"""What a finished match means for ratings: its competitors and outcome, and the changes they earn."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from django.conf import settings

from ratings.elo import KPolicy, Standing, multiplayer, pairs_seats, two_sided
from ratings.models import Pool


def policy() -> KPolicy:
    return KPolicy(
        new=settings.RATINGS_K_NEW,
        regular=settings.RATINGS_K,
        master=settings.RATINGS_K_MASTER,
        new_matches=settings.RATINGS_NEW_MATCHES,
        master_rating=settings.RATINGS_MASTER_RATING,
    )


@dataclass(frozen=True, slots=True)
class Competitor:
    subject: str
    player_id: int | None
    house_bot: str
    is_bot: bool


def player_subject(player_id: int) -> str:
    return f"player:{player_id}"


def house_subject(level: str) -> str:
    return f"house:{level}"


def pair_subject(a: int, b: int) -> str:
    low, high = sorted((a, b))
    return f"pair:{low}-{high}"


@dataclass(frozen=True, slots=True)
class MatchFacts:
    """A finished, rated match reduced to what Elo needs."""

    match_id: int
    game: str
    seats: tuple[Competitor, ...]
    winners: tuple[int, ...]  # sides: seats, or pairs in Tute 4
    totals: tuple[float, ...]  # Pocha: each seat's total over the match's games


#: A seat as the history stores it: (index, player_id, bot_level, the player's is_bot or None).
SeatRow = tuple[int, int | None, str, bool | None]


def match_facts(
    match_id: int,
    game: str,
    result: dict[str, Any],
    seats: Sequence[SeatRow],
    game_results: Iterable[dict[str, Any] | None],
) -> MatchFacts | None:
    """A finished rated match's facts from plain values; None when a seat is empty.

    The incremental path and the recompute both build their facts here, from model instances and from
    ``values_list`` rows, so that both feed Elo the same competitors and the same float totals.
    ``game_results``: the results of the match's finished games, in order (only Pocha reads them).
    """
    competitors = []
    for _, player_id, bot_level, is_bot in sorted(seats):
        if player_id is not None:
            competitors.append(_player(player_id, bool(is_bot)))
        elif bot_level:
            competitors.append(_house(bot_level))
        else:
            return None
    totals = [0.0] * len(competitors)
    if game == Pool.POCHA and result.get("format") == "duplicate":
        # A duplicate match: each player's score against the others who held the same cards (its games'
        # scores are by game seat, which rotate through the players).
        totals = [float(x) for x in result["score_difference"]]
    elif game == Pool.POCHA:
        for game_result in game_results:
            if game_result:
                for seat_index, score in enumerate(game_result["scores"]):
                    totals[seat_index] += score
        conceded = result.get("conceded_by")
        if conceded is not None:
            totals[conceded] = float("-inf")  # who resigns or forfeits finishes last
    return MatchFacts(
        match_id=match_id,
        game=game,
        seats=tuple(competitors),
        winners=tuple(result["winners"]),
        totals=tuple(totals),
    )


@lru_cache(maxsize=1 << 16)
def _player(player_id: int, is_bot: bool) -> Competitor:
    """Competitors are immutable: one object per player serves every match (a recompute has 290,000 seats)."""
    return Competitor(player_subject(player_id), player_id, "", is_bot)


@lru_cache(maxsize=64)
def _house(level: str) -> Competitor:
    return Competitor(house_subject(level), None, level, True)


@dataclass(frozen=True, slots=True)
class Change:
    pool: str
    competitor: Competitor
    partner_id: int | None
    delta: float
    k: float


Lookup = Callable[[str, str], Standing]


@dataclass(frozen=True, slots=True)
class _SeatChange:
    """One seat's change in one pool; ``delta`` None when the seat was compared with nobody."""

    pool: str
    competitor: Competitor
    partner_id: int | None
    delta: float | None
    k: float


def rate(facts: MatchFacts, standing: Lookup, k_policy: KPolicy) -> list[Change]:
    """The rating changes a match earns, pool by pool, given each competitor's standing before it.

    A seat is never compared with a seat of its own competitor (two seats of one house-bot level). A
    competitor holding several seats moves by the mean of its seats' changes and counts the match once;
    one that met nobody but itself gets no change at all (neither moves nor counts). One change per
    competitor and pool, in the order of its first seat.
    """
    grouped: dict[tuple[str, str], list[_SeatChange]] = {}
    for seat in _rate_seats(facts, standing, k_policy):
        grouped.setdefault((seat.pool, seat.competitor.subject), []).append(seat)
    changes = []
    for seats in grouped.values():
        deltas = [s.delta for s in seats if s.delta is not None]
        if not deltas:
            continue  # it met only itself
        first = seats[0]
        changes.append(
            Change(
                pool=first.pool,
                competitor=first.competitor,
                partner_id=first.partner_id,
                delta=deltas[0] if len(deltas) == 1 else sum(deltas) / len(deltas),
                k=first.k,
            )
        )
    return changes


def _rate_seats(facts: MatchFacts, standing: Lookup, k_policy: KPolicy) -> list[_SeatChange]:
    who = [c.subject for c in facts.seats]
    if facts.game == Pool.TUTE2:
        a, b = facts.seats
        sa, sb = standing(Pool.TUTE2, a.subject), standing(Pool.TUTE2, b.subject)
        if a.subject == b.subject:
            return [_seat(Pool.TUTE2, a, None, sa, k_policy), _seat(Pool.TUTE2, b, None, sb, k_policy)]
        da, db = two_sided(sa, sb, _side_score(facts.winners, 0), k_policy)
        return [_seat(Pool.TUTE2, a, da, sa, k_policy), _seat(Pool.TUTE2, b, db, sb, k_policy)]
    if facts.game == Pool.TUTE4:
        return _rate_tute4(facts, standing, k_policy)
    standings = [standing(Pool.POCHA, c.subject) for c in facts.seats]
    deltas = multiplayer(standings, list(facts.totals), k_policy, who)
    return [
        _seat(Pool.POCHA, c, d, s, k_policy) for c, d, s in zip(facts.seats, deltas, standings, strict=True)
    ]


def _side_score(winners: tuple[int, ...], side: int) -> float:
    if side in winners:
        return 0.5 if len(winners) > 1 else 1.0
    return 0.0


def _seat(
    pool: str, who: Competitor, delta: float | None, before: Standing, k_policy: KPolicy
) -> _SeatChange:
    return _SeatChange(
        pool=pool, competitor=who, partner_id=None, delta=delta, k=k_policy.k(before.rating, before.matches)
    )


def _rate_tute4(facts: MatchFacts, standing: Lookup, k_policy: KPolicy) -> list[_SeatChange]:
    seats = facts.seats
    score = _side_score(facts.winners, 0)
    standings = [standing(Pool.TUTE4, c.subject) for c in seats]
    deltas = pairs_seats(standings, [c.subject for c in seats], score, k_policy)
    changes = [
        _seat(Pool.TUTE4, who, delta, before, k_policy)
        for who, delta, before in zip(seats, deltas, standings, strict=True)
    ]
    # Pairs of two players get a pair rating too, when the other side is a pair of players as well.
    side_a, side_b = (seats[0], seats[2]), (seats[1], seats[3])
    if all(c.player_id for c in seats):
        pair_a = _pair(side_a)
        pair_b = _pair(side_b)
        pa, pb = standing(Pool.TUTE4_PAIRS, pair_a.subject), standing(Pool.TUTE4_PAIRS, pair_b.subject)
        da, db = two_sided(pa, pb, score, k_policy)
        for pair, side, delta, before in ((pair_a, side_a, da, pa), (pair_b, side_b, db, pb)):
            low, high = sorted(c.player_id for c in side if c.player_id is not None)
            changes.append(
                _SeatChange(
                    pool=Pool.TUTE4_PAIRS,
                    competitor=Competitor(
                        subject=pair.subject, player_id=low, house_bot="", is_bot=pair.is_bot
                    ),
                    partner_id=high,
                    delta=delta,
                    k=k_policy.k(before.rating, before.matches),
                )
            )
    return changes


def _pair(side: tuple[Competitor, Competitor]) -> Competitor:
    a, b = side
    assert a.player_id is not None and b.player_id is not None
    return Competitor(
        subject=pair_subject(a.player_id, b.player_id),
        player_id=None,
        house_bot="",
        is_bot=a.is_bot or b.is_bot,
    )
