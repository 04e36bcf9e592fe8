"""Standings with tie-breaks chosen per tournament, applied in the order given.

Results come in as ``Encounter`` values: one per match (two entrants), per Pocha table (three to six)
or per bye (one entrant). Each entrant's line holds the tournament points it earned there, and
optionally games won (a best-of-3 match) and card points. Within an encounter, entrant A *beat* B when
A earned more points there (half when equal); for a two-entrant match that is the usual win/draw/loss.

Tie-breaks (``TieBreak``):

* ``buchholz``: the sum of the final scores of everyone the entrant met (every table mate at Pocha).
* ``sonneborn_berger``: the sum of the final scores of the opponents it beat, plus half those it drew.
* ``head_to_head``: among the entrants still tied when it applies, what each scored against the others
  (1 a beaten opponent, 1/2 a draw, summed over their encounters).
* ``games_won``: games won within matches.
* ``card_point_difference``: card points scored minus the opponents' (their mean, at a table of more).

A bye (an encounter of one) gives its points and counts for nothing else. Entrants tied on the points
and on every tie-break share a rank and are listed by seed.

Points and tie-breaks are exact (``Fraction``): a Pocha table of n scores in (n - 1)ths, and thirds or
fifths in binary floats would leave equal totals unequal (1/3 + 5/6 + 1 against 1 + 2/3 + 1/2). Give
``Encounter`` points as ``Fraction`` (or ints); a float is taken at its exact binary value.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction

from .common import Entrant, PairingError, check_entrants


class TieBreak(StrEnum):
    BUCHHOLZ = "buchholz"
    SONNEBORN_BERGER = "sonneborn_berger"
    HEAD_TO_HEAD = "head_to_head"
    GAMES_WON = "games_won"
    CARD_POINT_DIFFERENCE = "card_point_difference"


@dataclass(frozen=True, slots=True)
class Scoring:
    """Tournament points of a two-entrant match and of a bye."""

    win: float = 1.0
    draw: float = 0.5
    loss: float = 0.0
    bye: float = 1.0


@dataclass(frozen=True, slots=True)
class Encounter:
    """One match, table or bye: per entrant (same order throughout), what it earned there."""

    round: int
    entrants: tuple[Entrant, ...]
    points: tuple[Fraction | float, ...]
    games_won: tuple[int, ...] = ()
    card_points: tuple[int, ...] = ()

    def __post_init__(self) -> None:
        n = len(self.entrants)
        if n == 0 or len(set(self.entrants)) != n:
            raise PairingError(f"an encounter needs distinct entrants, not {self.entrants}")
        for name in ("points", "games_won", "card_points"):
            value = getattr(self, name)
            if value and len(value) != n:
                raise PairingError(f"an encounter's {name} must have one value per entrant")
        if len(self.points) != n:
            raise PairingError("an encounter's points must have one value per entrant")

    @classmethod
    def match(
        cls,
        round: int,
        first: Entrant,
        second: Entrant,
        winner: Entrant | None,
        *,
        games: tuple[int, int] = (0, 0),
        cards: tuple[int, int] = (0, 0),
        scoring: Scoring | None = None,
    ) -> Encounter:
        """A two-entrant match won by ``winner`` (None: a draw)."""
        s = scoring or Scoring()
        if winner is None:
            points = (s.draw, s.draw)
        elif winner == first:
            points = (s.win, s.loss)
        elif winner == second:
            points = (s.loss, s.win)
        else:
            raise PairingError(f"{winner} did not play {first} v {second}")
        return cls(round, (first, second), points, games, cards)

    @classmethod
    def bye(cls, round: int, entrant: Entrant, *, scoring: Scoring | None = None) -> Encounter:
        return cls(round, (entrant,), ((scoring or Scoring()).bye,))

    @classmethod
    def table(cls, round: int, players: Sequence[Entrant], points: Sequence[Fraction | float]) -> Encounter:
        """A Pocha table: each player's tournament points for it (higher is better)."""
        return cls(round, tuple(players), tuple(points))


@dataclass(frozen=True, slots=True)
class Standing:
    rank: int  # 1-based; entrants tied on everything share it
    entrant: Entrant
    points: Fraction
    played: int  # encounters with an opponent (byes not counted)
    #: One value per tie-break of the tournament, in its order (head-to-head: within the tied group).
    tie_breaks: tuple[Fraction, ...]


ONE, HALF, ZERO = Fraction(1), Fraction(1, 2), Fraction(0)


def _beat(mine: Fraction, theirs: Fraction) -> Fraction:
    return ONE if mine > theirs else HALF if mine == theirs else ZERO


def standings(
    seeds: Iterable[Entrant], encounters: Iterable[Encounter], tie_breaks: Sequence[TieBreak | str] = ()
) -> tuple[Standing, ...]:
    """The standings of ``seeds`` (every entrant, best seed first) after ``encounters``."""
    order = check_entrants(seeds, minimum=0, what="standings")
    seed_of = {e: i for i, e in enumerate(order)}
    breaks = _checked_breaks(tie_breaks)
    played = _checked_encounters(encounters, seed_of)
    exact = {id(enc): tuple(Fraction(p) for p in enc.points) for enc in played}
    points, games, cards, count = _totals(played, exact)
    buchholz, sonneborn = _opposition(played, exact, points)
    fixed = {
        TieBreak.BUCHHOLZ: buchholz,
        TieBreak.SONNEBORN_BERGER: sonneborn,
        TieBreak.GAMES_WON: games,
        TieBreak.CARD_POINT_DIFFERENCE: cards,
    }
    groups, values = _ranked(order, points, breaks, fixed, _meetings(played), exact)

    out: list[Standing] = []
    position = 1
    for group in groups:
        for e in sorted(group, key=seed_of.__getitem__):
            out.append(Standing(position, e, points[e], count[e], tuple(values[e])))
        position += len(group)
    return tuple(out)


def _checked_breaks(tie_breaks: Sequence[TieBreak | str]) -> tuple[TieBreak, ...]:
    breaks = tuple(TieBreak(t) for t in tie_breaks)
    if len(set(breaks)) != len(breaks):
        raise PairingError(f"a tie-break is listed twice: {[t.value for t in breaks]}")
    return breaks


def _checked_encounters(encounters: Iterable[Encounter], seed_of: Mapping[Entrant, int]) -> list[Encounter]:
    played = list(encounters)
    for enc in played:
        unknown = [e for e in enc.entrants if e not in seed_of]
        if unknown:
            raise PairingError(f"round {enc.round}: entrants {unknown} are not in the standings")
    return played


Totals = dict[Entrant, Fraction]


def _totals(
    played: Sequence[Encounter], exact: Mapping[int, tuple[Fraction, ...]]
) -> tuple[Totals, Totals, Totals, dict[Entrant, int]]:
    """Each entrant's points, games won, card-point difference (against the average opponent at the
    table) and encounters with an opponent."""
    points: Totals = defaultdict(Fraction)
    games: Totals = defaultdict(Fraction)
    cards: Totals = defaultdict(Fraction)
    count: dict[Entrant, int] = defaultdict(int)
    for enc in played:
        n = len(enc.entrants)
        total_cards = sum(enc.card_points)
        for i, e in enumerate(enc.entrants):
            points[e] += exact[id(enc)][i]
            if enc.games_won:
                games[e] += enc.games_won[i]
            if n > 1:
                count[e] += 1
                if enc.card_points:
                    others = total_cards - enc.card_points[i]
                    cards[e] += enc.card_points[i] - Fraction(others, n - 1)
    return points, games, cards, count


def _opposition(
    played: Sequence[Encounter], exact: Mapping[int, tuple[Fraction, ...]], points: Totals
) -> tuple[Totals, Totals]:
    """Buchholz (the opponents' points) and Sonneborn-Berger (those of the opponents beaten, half of
    those drawn with)."""
    buchholz: Totals = defaultdict(Fraction)
    sonneborn: Totals = defaultdict(Fraction)
    for enc in played:
        mine = exact[id(enc)]
        for i, e in enumerate(enc.entrants):
            for j, o in enumerate(enc.entrants):
                if i != j:
                    buchholz[e] += points[o]
                    sonneborn[e] += _beat(mine[i], mine[j]) * points[o]
    return buchholz, sonneborn


def _meetings(played: Sequence[Encounter]) -> dict[Entrant, list[Encounter]]:
    """The encounters each entrant had with an opponent (byes left out)."""
    met_in: dict[Entrant, list[Encounter]] = defaultdict(list)
    for enc in played:
        if len(enc.entrants) > 1:
            for e in enc.entrants:
                met_in[e].append(enc)
    return met_in


def _ranked(
    order: Sequence[Entrant],
    points: Totals,
    breaks: Sequence[TieBreak],
    fixed: Mapping[TieBreak, Totals],
    met_in: Mapping[Entrant, list[Encounter]],
    exact: Mapping[int, tuple[Fraction, ...]],
) -> tuple[list[list[Entrant]], dict[Entrant, list[Fraction]]]:
    """The groups still tied, best first, after points and each tie-break in turn (head-to-head within
    the group it splits), and every entrant's tie-break values."""
    values: dict[Entrant, list[Fraction]] = {e: [] for e in order}
    groups: list[list[Entrant]] = _split(list(order), dict(points))
    for tb in breaks:
        refined: list[list[Entrant]] = []
        for group in groups:
            if tb is TieBreak.HEAD_TO_HEAD:
                table = _head_to_head(group, met_in, exact)
            else:
                table = {e: fixed[tb][e] for e in group}
            for e in group:
                values[e].append(table[e])
            refined.extend(_split(group, table) if len(group) > 1 else [group])
        groups = refined
    return groups, values


def _split(group: list[Entrant], key: Mapping[Entrant, Fraction]) -> list[list[Entrant]]:
    """``group`` ordered by ``key`` (highest first), cut where the key changes (stable within a tie)."""
    ordered = sorted(group, key=lambda e: -key.get(e, ZERO))
    out: list[list[Entrant]] = []
    for e in ordered:
        if out and key.get(out[-1][0], ZERO) == key.get(e, ZERO):
            out[-1].append(e)
        else:
            out.append([e])
    return out


def _head_to_head(
    group: Sequence[Entrant],
    met_in: Mapping[Entrant, list[Encounter]],
    exact: Mapping[int, tuple[Fraction, ...]],
) -> dict[Entrant, Fraction]:
    members = set(group)
    score = dict.fromkeys(group, ZERO)
    if len(group) < 2:
        return score
    for e in group:
        for enc in met_in.get(e, ()):
            i = enc.entrants.index(e)
            for j, o in enumerate(enc.entrants):
                if j != i and o in members:
                    score[e] += _beat(exact[id(enc)][i], exact[id(enc)][j])
    return score
