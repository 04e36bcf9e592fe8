"""Single and double elimination brackets: the structure, and its state as results come in.

A bracket is a DAG of matches. Each match has two slots, and each slot is fed by a seed, the winner of
an earlier match or (in a losers' bracket, a third-place match) the loser of one. The structure is
built once from the seeds (best first) at the next power of two; byes go to the top seeds, and a match
with an empty slot is folded away at build time, so ``matches`` holds only real matches and a bye is a
seed feeding a round-2 slot directly. Match indices are in play order: feeders come first.

The state (``Bracket``) is the structure plus the recorded results and the withdrawn entrants; every
match's entrants, status and winner are derived from them. A withdrawn entrant loses each pending match
by walkover (when both have withdrawn, the better seed goes through and forfeits the next one).
``record``, ``correct`` and ``withdraw`` return a new bracket. A service stores ``recorded()`` and
``forfeited`` and rebuilds the bracket with ``with_results`` in one pass. ``feeders``, ``upstream``,
``downstream`` and ``correction_effects`` say which matches a result reads or reaches, so a service can
refuse a correction whose effects reach a started match; ``correct`` itself refuses one that would
change a match that already has a result.

Double elimination: the winners' bracket (W1..WR), a losers' bracket of 2(R-1) rounds where odd rounds
pair the survivors and even rounds take the losers dropping from the next winners' round (in
alternating orders, so that a dropped entrant does not at once meet one it has just played), the grand
final (GF1) between the two bracket champions, and a bracket reset (GF2, the same two again) played only
if the losers'-bracket champion wins GF1. Everyone but the champion is out after exactly two losses.
"""

from __future__ import annotations

import heapq
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum

from .common import Entrant, PairingError, check_entrants
from .seeding import bracket_positions, bracket_size


class BracketError(PairingError):
    """A result or a change the bracket cannot take (unknown match, not ready, wrong winner ...)."""


class CorrectionRefused(BracketError):
    """A correction whose effects reach matches that already have results: ``blocking`` names them."""

    def __init__(self, message: str, blocking: tuple[str, ...]) -> None:
        super().__init__(message)
        self.blocking = blocking


class BracketKind(StrEnum):
    SINGLE = "single"
    DOUBLE = "double"


class Section(StrEnum):
    WINNERS = "W"
    LOSERS = "L"
    GRAND_FINAL = "GF"
    THIRD_PLACE = "3P"


class FeedKind(StrEnum):
    SEED = "seed"
    WINNER = "winner"
    LOSER = "loser"


class Status(StrEnum):
    WAITING = "waiting"  # an entrant is not known yet (or, for a reset, whether it is needed)
    READY = "ready"  # both entrants known: to be played
    PLAYED = "played"
    WALKOVER = "walkover"  # decided by a forfeit: recorded (a no-show) or automatic (a withdrawal)
    SKIPPED = "skipped"  # a bracket reset that is not needed


DECIDED = frozenset({Status.PLAYED, Status.WALKOVER})
FINISHED = frozenset({Status.PLAYED, Status.WALKOVER, Status.SKIPPED})


@dataclass(frozen=True, slots=True)
class Feed:
    """Where a slot's entrant comes from: seed number ``ref`` (0 = top seed) or match ``ref``."""

    kind: FeedKind
    ref: int


@dataclass(frozen=True, slots=True)
class Match:
    index: int
    code: str  # "W1.3", "L2.1", "GF1", "GF2", "3P": section, round, position in the full-size round
    section: Section
    round: int
    feeds: tuple[Feed, Feed]
    #: Orders eliminations for the final placings: who lost a later stage places higher.
    stage: int
    #: A bracket reset: played only if the second slot's entrant won match ``reset_of``.
    reset_of: int | None = None


@dataclass(frozen=True, slots=True)
class Result:
    winner: Entrant
    walkover: bool = False


@dataclass(frozen=True, slots=True)
class MatchState:
    match: Match
    entrants: tuple[Entrant | None, Entrant | None]
    status: Status
    winner: Entrant | None = None
    recorded: bool = False  # the result is in ``Bracket.results`` (not derived from a withdrawal)

    @property
    def loser(self) -> Entrant | None:
        if self.winner is None:
            return None
        a, b = self.entrants
        return b if self.winner == a else a


@dataclass(frozen=True, slots=True)
class Structure:
    """The static part of a bracket, shared by all its states."""

    kind: BracketKind
    seeds: tuple[Entrant, ...]
    size: int
    third_place: bool
    matches: tuple[Match, ...] = field(repr=False)
    #: Matches that read each match's result (its winner, its loser, or whether a reset is needed).
    dependents: tuple[tuple[int, ...], ...] = field(repr=False, compare=False)
    seed_of: Mapping[Entrant, int] = field(repr=False, compare=False)
    index_of: Mapping[str, int] = field(repr=False, compare=False)
    #: The last match of the winners' bracket (single: the final; double: the winners' final).
    winners_final: int
    #: The match that decides the champion when it is not reset (single: the final; double: GF1).
    final: int
    reset: int | None

    @property
    def rounds(self) -> int:
        """Rounds of the winners' bracket (log2 of the bracket size)."""
        return self.size.bit_length() - 1

    @property
    def byes(self) -> tuple[Entrant, ...]:
        """Entrants who skip round 1: the top ``size - n`` seeds."""
        out = [
            self.seeds[feed.ref]
            for m in self.matches
            if m.section is Section.WINNERS and m.round > 1
            for feed in m.feeds
            if feed.kind is FeedKind.SEED
        ]
        return tuple(sorted(out, key=self.seed_of.__getitem__))


class _Builder:
    """Adds matches in play order, folding away the ones with an empty slot (a bye)."""

    def __init__(self, seeds: tuple[Entrant, ...]) -> None:
        self.seeds = seeds
        self.matches: list[Match] = []
        self.winner: dict[tuple[str, int, int], Feed | None] = {}
        self.loser: dict[tuple[str, int, int], Feed | None] = {}

    def seed(self, number: int) -> Feed | None:
        """Seed ``number`` (1-based), or None past the last entrant: a bye for the opponent."""
        return Feed(FeedKind.SEED, number - 1) if number <= len(self.seeds) else None

    def add(
        self,
        key: tuple[str, int, int],
        code: str,
        section: Section,
        stage: int,
        a: Feed | None,
        b: Feed | None,
        reset_of: int | None = None,
    ) -> int | None:
        if a is None or b is None:
            self.winner[key] = a if b is None else b
            self.loser[key] = None
            return None
        index = len(self.matches)
        self.matches.append(Match(index, code, section, key[1], (a, b), stage, reset_of))
        self.winner[key] = Feed(FeedKind.WINNER, index)
        self.loser[key] = Feed(FeedKind.LOSER, index)
        return index

    def winners_bracket(self, size: int, stage_per_round: int) -> None:
        positions = bracket_positions(size)
        for j in range(size // 2):
            a, b = self.seed(positions[2 * j]), self.seed(positions[2 * j + 1])
            self.add(("W", 1, j), f"W1.{j + 1}", Section.WINNERS, stage_per_round, a, b)
        rounds = size.bit_length() - 1
        for r in range(2, rounds + 1):
            for j in range(size >> r):
                a, b = self.winner[("W", r - 1, 2 * j)], self.winner[("W", r - 1, 2 * j + 1)]
                self.add(("W", r, j), f"W{r}.{j + 1}", Section.WINNERS, stage_per_round * r, a, b)

    def structure(
        self,
        kind: BracketKind,
        size: int,
        third_place: bool,
        winners_final: int,
        final: int,
        reset: int | None,
    ) -> Structure:
        dependents: list[list[int]] = [[] for _ in self.matches]
        for m in self.matches:
            refs = {f.ref for f in m.feeds if f.kind is not FeedKind.SEED}
            if m.reset_of is not None:
                refs.add(m.reset_of)
            for ref in sorted(refs):
                dependents[ref].append(m.index)
        return Structure(
            kind=kind,
            seeds=self.seeds,
            size=size,
            third_place=third_place,
            matches=tuple(self.matches),
            dependents=tuple(tuple(d) for d in dependents),
            seed_of={e: i for i, e in enumerate(self.seeds)},
            index_of={m.code: m.index for m in self.matches},
            winners_final=winners_final,
            final=final,
            reset=reset,
        )


def _drop_order(k: int, count: int) -> list[int]:
    """For losers' round 2k, which winners'-round-(k+1) match drops into each of its ``count`` matches.

    Reversed for odd k, each half reversed for even k: a dropped entrant lands away from the part of the
    losers' bracket that holds the entrants it beat on its way (of the simple orders tried on random
    brackets of 8 to 128, this one gave the fewest early losers'-bracket rematches).
    """
    if k % 2 == 1 or count < 2:
        return [count - 1 - j for j in range(count)]
    half = count // 2
    return [half - 1 - j if j < half else count - 1 - (j - half) for j in range(count)]


def single_elimination(seeds: Iterable[Entrant], *, third_place: bool = False) -> Bracket:
    """A single-elimination bracket for ``seeds`` (best first), with a third-place match if asked.

    The third-place match (between the semi-final losers) needs at least 4 entrants: with 3, the top
    seed's semi-final is a bye and the other semi-final's loser is third.
    """
    order = check_entrants(seeds, minimum=2, what="an elimination bracket")
    size = bracket_size(len(order))
    rounds = size.bit_length() - 1
    b = _Builder(order)
    b.winners_bracket(size, stage_per_round=2)
    final = b.winner[("W", rounds, 0)]
    assert final is not None and final.kind is FeedKind.WINNER
    if third_place and rounds >= 2:
        a, c = b.loser[("W", rounds - 1, 0)], b.loser[("W", rounds - 1, 1)]
        b.add(("3P", rounds, 0), "3P", Section.THIRD_PLACE, 2 * rounds - 1, a, c)
    structure = b.structure(BracketKind.SINGLE, size, third_place, final.ref, final.ref, None)
    return Bracket.start(structure)


def double_elimination(seeds: Iterable[Entrant], *, reset: bool = True) -> Bracket:
    """A double-elimination bracket for ``seeds`` (best first), with a grand final and, if ``reset``, a
    bracket reset (GF2) when the losers'-bracket champion wins it. Without the reset GF1 alone decides
    the champion (the winners'-bracket champion is then out after a single loss)."""
    order = check_entrants(seeds, minimum=2, what="an elimination bracket")
    size = bracket_size(len(order))
    rounds = size.bit_length() - 1
    b = _Builder(order)
    b.winners_bracket(size, stage_per_round=0)
    if rounds >= 2:
        for j in range(size // 4):
            a, c = b.loser[("W", 1, 2 * j)], b.loser[("W", 1, 2 * j + 1)]
            b.add(("L", 1, j), f"L1.{j + 1}", Section.LOSERS, 1, a, c)
        for k in range(1, rounds):
            count = size >> (k + 1)
            drops = _drop_order(k, count)
            for j in range(count):
                a, c = b.winner[("L", 2 * k - 1, j)], b.loser[("W", k + 1, drops[j])]
                b.add(("L", 2 * k, j), f"L{2 * k}.{j + 1}", Section.LOSERS, 2 * k, a, c)
            if k < rounds - 1:
                for j in range(count // 2):
                    a, c = b.winner[("L", 2 * k, 2 * j)], b.winner[("L", 2 * k, 2 * j + 1)]
                    b.add(("L", 2 * k + 1, j), f"L{2 * k + 1}.{j + 1}", Section.LOSERS, 2 * k + 1, a, c)
        losers_champion = b.winner[("L", 2 * rounds - 2, 0)]
    else:
        losers_champion = b.loser[("W", 1, 0)]
    winners_champion = b.winner[("W", rounds, 0)]
    assert winners_champion is not None and winners_champion.kind is FeedKind.WINNER
    gf1 = b.add(("GF", 1, 0), "GF1", Section.GRAND_FINAL, 2 * rounds - 1, winners_champion, losers_champion)
    assert gf1 is not None
    gf2 = None
    if reset:
        gf2 = b.add(
            ("GF", 2, 0), "GF2", Section.GRAND_FINAL, 2 * rounds, winners_champion, losers_champion, gf1
        )
    structure = b.structure(BracketKind.DOUBLE, size, False, winners_champion.ref, gf1, gf2)
    return Bracket.start(structure)


@dataclass(frozen=True, slots=True)
class Bracket:
    """A bracket's state: its structure, the recorded results and the withdrawn entrants."""

    structure: Structure
    results: tuple[Result | None, ...] = field(repr=False)
    forfeited: frozenset[Entrant] = frozenset()
    #: Derived from the three fields above: one state per match, in match order.
    states: tuple[MatchState, ...] = field(default=(), repr=False, compare=False)

    # -- construction -------------------------------------------------------------------------------
    @classmethod
    def start(cls, structure: Structure) -> Bracket:
        results: tuple[Result | None, ...] = (None,) * len(structure.matches)
        return cls(structure, results, frozenset(), _resolve_all(structure, results, frozenset()))

    def with_results(
        self, results: Mapping[int | str, Entrant | Result], forfeited: Iterable[Entrant] = ()
    ) -> Bracket:
        """This bracket's structure with ``results`` (by match index or code) and withdrawals, in one
        pass: how a service rebuilds a bracket from what it stored. Every result must fit."""
        table: list[Result | None] = [None] * len(self.structure.matches)
        for key, value in results.items():
            table[self.index(key)] = value if isinstance(value, Result) else Result(value)
        out = tuple(table)
        withdrawn = self._check_withdrawn(forfeited)
        return Bracket(self.structure, out, withdrawn, _resolve_all(self.structure, out, withdrawn))

    # -- the structure --------------------------------------------------------------------------------
    @property
    def kind(self) -> BracketKind:
        return self.structure.kind

    @property
    def seeds(self) -> tuple[Entrant, ...]:
        return self.structure.seeds

    @property
    def matches(self) -> tuple[Match, ...]:
        return self.structure.matches

    @property
    def byes(self) -> tuple[Entrant, ...]:
        return self.structure.byes

    def index(self, match: int | str) -> int:
        """A match's index from its index or its code."""
        if isinstance(match, str):
            try:
                return self.structure.index_of[match]
            except KeyError:
                raise BracketError(f"no match {match!r} in this bracket") from None
        if not 0 <= match < len(self.structure.matches):
            raise BracketError(f"no match #{match} in this bracket")
        return match

    def state(self, match: int | str) -> MatchState:
        return self.states[self.index(match)]

    def feeders(self, match: int | str) -> tuple[int, ...]:
        """The earlier matches whose results this one reads (its slots' and, for a reset, GF1)."""
        m = self.structure.matches[self.index(match)]
        refs = {f.ref for f in m.feeds if f.kind is not FeedKind.SEED}
        if m.reset_of is not None:
            refs.add(m.reset_of)
        return tuple(sorted(refs))

    def upstream(self, match: int | str) -> tuple[int, ...]:
        """Every match this one depends on, directly or not."""
        seen: set[int] = set()
        todo = list(self.feeders(match))
        while todo:
            i = todo.pop()
            if i not in seen:
                seen.add(i)
                todo.extend(self.feeders(i))
        return tuple(sorted(seen))

    def downstream(self, match: int | str) -> tuple[int, ...]:
        """Every later match whose entrants (or whose being played) may depend on this one's result."""
        seen: set[int] = set()
        todo = list(self.structure.dependents[self.index(match)])
        while todo:
            i = todo.pop()
            if i not in seen:
                seen.add(i)
                todo.extend(self.structure.dependents[i])
        return tuple(sorted(seen))

    # -- what to play ----------------------------------------------------------------------------------
    def ready(self) -> tuple[MatchState, ...]:
        """The matches to play now: both entrants known, no result yet."""
        return tuple(s for s in self.states if s.status is Status.READY)

    def next_match(self, entrant: Entrant) -> MatchState | None:
        """The entrant's next match (ready, or waiting for the opponent), or None once they are out."""
        self._check_entrant(entrant)
        for s in self.states:
            if entrant in s.entrants and s.status in (Status.READY, Status.WAITING):
                return s
        return None

    def losses(self, entrant: Entrant) -> int:
        return sum(1 for s in self.states if s.status in DECIDED and s.loser == entrant)

    @property
    def is_complete(self) -> bool:
        return all(s.status in FINISHED for s in self.states)

    @property
    def champion(self) -> Entrant | None:
        reset = self.structure.reset
        if reset is not None and self.states[reset].status is not Status.SKIPPED:
            return self.states[reset].winner
        return self.states[self.structure.final].winner

    def placements(self) -> tuple[tuple[Entrant, int], ...]:
        """Final places, best first, once the bracket is complete: the champion 1, the final's loser 2,
        then by the stage of each entrant's last match (entrants out at the same stage share a place;
        equal places are listed by seed)."""
        if not self.is_complete:
            raise BracketError("the bracket is not complete")
        key: dict[Entrant, int] = {}
        for s in self.states:
            if s.status in DECIDED:
                assert s.winner is not None and s.loser is not None
                key[s.winner] = 2 * s.match.stage + 1
                key[s.loser] = 2 * s.match.stage
        champion = self.champion
        assert champion is not None
        key[champion] = max(key.values()) + 1
        values = sorted(key.values(), reverse=True)
        place = {v: values.index(v) + 1 for v in set(values)}
        order = sorted(self.seeds, key=lambda e: (-key[e], self.structure.seed_of[e]))
        return tuple((e, place[key[e]]) for e in order)

    # -- changes ------------------------------------------------------------------------------------------
    def record(self, match: int | str, winner: Entrant, *, walkover: bool = False) -> Bracket:
        """The bracket after ``match`` (ready to play) is won by ``winner`` (a no-show: ``walkover``)."""
        i = self.index(match)
        s = self.states[i]
        if s.status is not Status.READY:
            raise BracketError(f"{s.match.code} is {s.status.value}, not ready for a result")
        if winner not in s.entrants:
            raise BracketError(f"{winner} does not play in {s.match.code}")
        return self._with(i, Result(winner, walkover))

    def correct(self, match: int | str, winner: Entrant, *, walkover: bool = False) -> Bracket:
        """The bracket with ``match``'s result changed; refused when a match whose entrants would change
        already has a result (``CorrectionRefused.blocking`` names them)."""
        i = self.index(match)
        effects = self.correction_effects(i, winner)
        blocking = tuple(self.states[j].match.code for j in effects if self.results[j] is not None)
        if blocking:
            raise CorrectionRefused(
                f"correcting {self.states[i].match.code} would change matches that have results: "
                + ", ".join(blocking),
                blocking,
            )
        return self._with(i, Result(winner, walkover))

    def correction_effects(self, match: int | str, winner: Entrant) -> tuple[int, ...]:
        """The other matches whose entrants or status would change if ``match`` were won by ``winner``."""
        i = self.index(match)
        s = self.states[i]
        if s.status not in DECIDED:
            raise BracketError(f"{s.match.code} has no result to correct")
        if winner not in s.entrants:
            raise BracketError(f"{winner} does not play in {s.match.code}")
        results = list(self.results)
        results[i] = Result(winner)
        states = list(self.states)
        changed = _propagate(self.structure, states, results, self.forfeited, [i], strict=False)
        return tuple(j for j in changed if j != i)

    def withdraw(self, entrant: Entrant) -> Bracket:
        """The bracket after ``entrant`` withdraws: their pending matches become walkovers, now or when
        their opponent is known.

        A walkover that ``entrant`` already won from an earlier withdrawal is written into ``results``
        first, so that the state stays a function of ``results`` and ``forfeited`` (with both withdrawn,
        the rule would now give that match to the better seed).
        """
        self._check_entrant(entrant)
        if entrant in self.forfeited:
            return self
        results = list(self.results)
        start: list[int] = []
        for i, s in enumerate(self.states):
            if entrant not in s.entrants:
                continue
            if s.status is Status.READY:
                start.append(i)
            elif s.status is Status.WALKOVER and not s.recorded and s.winner == entrant:
                results[i] = Result(entrant, walkover=True)
                start.append(i)
        forfeited = self.forfeited | {entrant}
        states = list(self.states)
        _propagate(self.structure, states, results, forfeited, start, strict=True)
        return replace(self, results=tuple(results), forfeited=forfeited, states=tuple(states))

    def recorded(self) -> dict[str, Result]:
        """The results to store, by match code: with ``forfeited``, ``with_results`` rebuilds this bracket."""
        return {m.code: r for m, r in zip(self.structure.matches, self.results, strict=True) if r is not None}

    # -- internals --------------------------------------------------------------------------------------------
    def _with(self, i: int, result: Result) -> Bracket:
        results = list(self.results)
        results[i] = result
        states = list(self.states)
        _propagate(self.structure, states, results, self.forfeited, [i], strict=True)
        return replace(self, results=tuple(results), states=tuple(states))

    def _check_entrant(self, entrant: Entrant) -> None:
        if entrant not in self.structure.seed_of:
            raise BracketError(f"{entrant} is not in this bracket")

    def _check_withdrawn(self, entrants: Iterable[Entrant]) -> frozenset[Entrant]:
        out = frozenset(entrants)
        for e in out:
            self._check_entrant(e)
        return out


def _compute(
    st: Structure,
    i: int,
    states: Sequence[MatchState | None],
    results: Sequence[Result | None],
    forfeited: frozenset[Entrant],
    strict: bool,
) -> MatchState:
    m = st.matches[i]
    a = _value(st, m.feeds[0], states)
    b = _value(st, m.feeds[1], states)
    if m.reset_of is not None:
        first = states[m.reset_of]
        assert first is not None
        if first.status not in DECIDED:
            return MatchState(m, (a, b), Status.WAITING)
        if first.winner == first.entrants[0]:
            return MatchState(m, (a, b), Status.SKIPPED)
    if a is None or b is None:
        return MatchState(m, (a, b), Status.WAITING)
    result = results[i]
    if result is not None:
        if result.winner in (a, b):
            status = Status.WALKOVER if result.walkover else Status.PLAYED
            return MatchState(m, (a, b), status, result.winner, recorded=True)
        if strict:
            raise BracketError(f"{m.code} is {a} v {b}: {result.winner} cannot win it")
    fa, fb = a in forfeited, b in forfeited
    if fa or fb:
        if fa and fb:
            winner = a if st.seed_of[a] < st.seed_of[b] else b
        else:
            winner = b if fa else a
        return MatchState(m, (a, b), Status.WALKOVER, winner)
    return MatchState(m, (a, b), Status.READY)


def _value(st: Structure, feed: Feed, states: Sequence[MatchState | None]) -> Entrant | None:
    if feed.kind is FeedKind.SEED:
        return st.seeds[feed.ref]
    source = states[feed.ref]
    assert source is not None
    return source.winner if feed.kind is FeedKind.WINNER else source.loser


def _resolve_all(
    st: Structure, results: Sequence[Result | None], forfeited: frozenset[Entrant]
) -> tuple[MatchState, ...]:
    states: list[MatchState | None] = [None] * len(st.matches)
    for i in range(len(st.matches)):
        states[i] = _compute(st, i, states, results, forfeited, strict=True)
    return tuple(s for s in states if s is not None)


def _propagate(
    st: Structure,
    states: list[MatchState],
    results: Sequence[Result | None],
    forfeited: frozenset[Entrant],
    start: Iterable[int],
    *,
    strict: bool,
) -> list[int]:
    """Recompute the matches in ``start`` and, while states change, their dependents (in index order,
    so feeders first). Returns the indices whose state changed, in order."""
    heap = sorted(set(start))
    queued = set(heap)
    changed: list[int] = []
    while heap:
        i = heapq.heappop(heap)
        new = _compute(st, i, states, results, forfeited, strict)
        if new != states[i]:
            states[i] = new
            changed.append(i)
            for d in st.dependents[i]:
                if d not in queued:
                    queued.add(d)
                    heapq.heappush(heap, d)
    return changed
