"""A bracket's state: the structure plus the recorded results and the withdrawn entrants; every match's
entrants, status and winner derived from them, recomputed downstream of a change."""

from __future__ import annotations

import heapq
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace

from ..common import Entrant
from .structure import (
    DECIDED,
    FINISHED,
    BracketError,
    BracketKind,
    CorrectionRefused,
    Feed,
    FeedKind,
    Match,
    MatchState,
    Result,
    Status,
    Structure,
)


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
