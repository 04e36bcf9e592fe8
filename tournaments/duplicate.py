"""Duplicate tournaments, read side: the travelling score sheet of each board and what each table's
entrants score in a round (docs/TOURNAMENTS.md, "Duplicate tournaments").

Every table of a round plays the round's boards (``TournamentBoard``); each play of a board gives each of
its hands (a side's cards in Tute, a seat's in Pocha) to one entrant, who scores on it:
- Tute 2 and Tute 4: the side's score minus the other side's (card points, cantes, last trick);
- Pocha: the seat's score.
An entrant's holding is compared with every holding of the same hand of the same board at the other
tables: **matchpoints** are 2 per other table's holder outscored and 1 per tie (as in duplicate bridge),
**total points** are the scores themselves (everyone played the same cards, so they compare).
Reads only.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from games.engine.rules import side_of
from games.models import Game, Match
from tournaments.models import Entrant, Round, Tournament, TournamentBoard, TournamentMatch
from tournaments.state import slot_entrants


@dataclass(frozen=True, slots=True)
class Holding:
    """One hand of one play of a board: who held it and what they made of it."""

    hand: int  # the game side (Tute) or game seat (Pocha)
    position: int  # the entrant's position at its table
    entrant: int
    score: int
    matchpoints: int = 0


@dataclass(frozen=True, slots=True)
class Line:
    """A play of the board at one table: one line of the travelling score sheet."""

    tournament_match: TournamentMatch
    game: Game
    holdings: tuple[Holding, ...]


@dataclass
class Sheet:
    board: TournamentBoard
    lines: list[Line] = field(default_factory=list)


def holdings_of(match: Match, game: Game, entrants: list[int]) -> list[Holding]:
    """The hands of a finished play, by the game's result and seat map (``entrants`` by position)."""
    assert game.result is not None and game.seat_map is not None
    scores = [int(s) for s in game.result["scores"]]
    out = []
    if match.game == Match.GameName.POCHA:
        for hand, score in enumerate(scores[: match.num_players]):
            seat = int(game.seat_map[hand])
            out.append(Holding(hand, seat, entrants[seat], score))
        return out
    for hand in (0, 1):
        seat = int(game.seat_map[hand])  # game seat ``hand`` is on game side ``hand``
        position = side_of(match.game, seat)
        out.append(Holding(hand, position, entrants[position], scores[hand] - scores[1 - hand]))
    return out


def _lines(board: TournamentBoard, rows: dict[int, TournamentMatch]) -> list[Line]:
    games = (
        Game.objects.filter(dealt_from_id=board.board_id, status=Game.Status.FINISHED, match_id__in=rows)
        .select_related("match")
        .order_by("match_id", "number")
    )
    lines = []
    for game in games:
        tm = rows[game.match_id]
        lines.append(Line(tm, game, tuple(holdings_of(game.match, game, slot_entrants(tm)))))
    return lines


def _scored(lines: list[Line]) -> list[Line]:
    """The lines with each holding's matchpoints against the same hand at the other tables."""
    by_hand: dict[int, list[tuple[int, int]]] = defaultdict(list)  # hand: (table, score)
    for line in lines:
        for h in line.holdings:
            by_hand[h.hand].append((line.tournament_match.pk, h.score))
    out = []
    for line in lines:
        table = line.tournament_match.pk
        scored = []
        for h in line.holdings:
            others = [s for t, s in by_hand[h.hand] if t != table]
            points = sum(2 if h.score > s else 1 if h.score == s else 0 for s in others)
            scored.append(Holding(h.hand, h.position, h.entrant, h.score, points))
        out.append(Line(line.tournament_match, line.game, tuple(scored)))
    return out


def _round_rows(round_: Round) -> dict[int, TournamentMatch]:
    rows = TournamentMatch.objects.filter(round=round_, match__isnull=False).prefetch_related("slots")
    return {tm.match_id: tm for tm in rows if tm.match_id is not None}


def board_sheet(board: TournamentBoard) -> Sheet:
    """The travelling score sheet of ``board``: every finished play at every table, with matchpoints."""
    return Sheet(board, _scored(_lines(board, _round_rows(board.round))))


def round_points(tournament: Tournament, round_: Round) -> dict[int, list[Fraction]]:
    """What each played table's entrants score in ``round_`` by the tournament's duplicate scoring, by
    ``TournamentMatch`` id and position (tables with no finished play score 0)."""
    rows = _round_rows(round_)
    totals: dict[int, list[Fraction]] = {
        tm.pk: [Fraction(0)] * len(slot_entrants(tm)) for tm in rows.values()
    }
    matchpoints = tournament.duplicate_scoring == Tournament.DuplicateScoring.MATCHPOINTS
    for board in TournamentBoard.objects.filter(round=round_):
        for line in _scored(_lines(board, rows)):
            for h in line.holdings:
                totals[line.tournament_match.pk][h.position] += h.matchpoints if matchpoints else h.score
    return totals


def entrant_names(tournament: Tournament) -> dict[int, str]:
    return {
        e.pk: e.name
        for e in Entrant.objects.filter(tournament=tournament).select_related("player", "partner")
    }


def sheet_out(sheet: Sheet, names: dict[int, str]) -> dict[str, Any]:
    """A score sheet as the API and the website show it. Its lines are shown once the board is revealed
    (every table has played it): until then a table still playing could read how the cards went
    elsewhere; ``tables_done`` counts the plays recorded so far."""
    board = sheet.board
    revealed = board.board.is_revealed
    return {
        "number": board.number,
        "round": board.round.number,
        "players": board.players,
        "board": board.board_id,
        "seed_sha256": board.board.seed_sha256,
        "revealed": revealed,
        "dealer": board.board.dealer,
        "plays_done": len(sheet.lines),
        "lines": [
            {
                "table": line.tournament_match.code,
                "tournament_match": line.tournament_match.pk,
                "match": line.game.match_id,
                "game_number": line.game.number,
                "seat_map": line.game.seat_map,
                "holdings": [
                    {
                        "hand": h.hand,
                        "entrant": h.entrant,
                        "name": names.get(h.entrant, ""),
                        "score": h.score,
                        "matchpoints": h.matchpoints,
                    }
                    for h in line.holdings
                ],
            }
            for line in (sheet.lines if revealed else [])
        ],
    }
