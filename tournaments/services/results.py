"""Results of tables played over the board (``play: table``): the organiser enters each table's result,
checked against the rules (impossible points are refused) and scored by the engine's own scoring rules,
then recorded exactly as a finished games match would be, so standings and the next round's pairings
follow the same way; every entry and change is logged (``ResultEntry``).

A result is given per position (the table's entrants in order: a pair's two players are one position
in Tute 4) in one of three shapes:

- Tute 2 / Tute 4, each game played: ``{"points": [a, b], "cantes": [a, b], "last_trick": side,
  "tute": side or None}``: the card points of the tricks won (120 in all, fewer only when a side sang
  tute and the hand ended), the cantes (20s and a 40), who won the last trick, who sang tute;
- Pocha, each game: ``{"hands": [{"bids": [...], "tricks": [...]}, ...]}``: every hand of the game's
  sequence, each player's bid and tricks won (the tricks add up to the hand's cards);
- a plain result where the club keeps only that: ``{"winner": position or None}`` (None: a draw) for
  two, ``{"totals": [...]}`` (each player's final total) at a Pocha table.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.utils import timezone

from games.engine import Rules, pocha_hand_score, tute_winners
from games.models import Match, Player
from games.services import match_record, match_record_change, match_spec
from games.services.play import match_decided
from tournaments.errors import (
    InvalidResult,
    NotOverTheBoard,
    RoundClosed,
    TournamentMatchNotFound,
    WrongStatus,
)
from tournaments.models import Entrant, ResultEntry, ResultReport, Round, Tournament, TournamentMatch
from tournaments.services.common import lock_tournament, require_organiser
from tournaments.services.rounds import complete_round_if_done, table_seats
from tournaments.services.running import UNSEEDED
from tournaments.state import elimination_winner, outcome_from, slot_entrants, stored_points

log = logging.getLogger(__name__)

#: Card points in a Spanish deck (40 cards; the 48-card deck's 8s and 9s count nothing).
CARD_POINTS = 120
#: The most cantes a hand holds: the 40 in trumps and three 20s.
MOST_CANTES = 100
#: Players' reports not yet settled: waiting for the other side, or disputed.
WAITING_REPORTS = (ResultReport.Status.PENDING, ResultReport.Status.DISPUTED)


@dataclass(frozen=True, slots=True)
class Scored:
    """A table's entered result, scored: per position its games won and its game scores summed, and
    the match's winning positions."""

    games_won: list[int]
    card_points: list[int]
    winners: list[int]
    #: Each game's result as the engine writes one (``scores`` and ``winners`` by side, and what made
    #: them), for the games match that records the table for ratings.
    games: list[dict[str, Any]]


def _ints(value: Any, size: int, what: str) -> list[int]:
    if not isinstance(value, list) or len(value) != size or not all(type(v) is int for v in value):
        raise InvalidResult(f"{what}: give {size} whole numbers, one per position")
    return list(value)


def _side(value: Any, size: int, what: str, *, optional: bool = False) -> int | None:
    if value is None and optional:
        return None
    if type(value) is not int or not 0 <= value < size:
        raise InvalidResult(f"{what}: a position from 0 to {size - 1}")
    return int(value)


def tute_game(rules: Rules, entry: Any) -> dict[str, Any]:
    """One Tute hand's scores per side and its winners, checked: the engine's rules decide."""
    if not isinstance(entry, dict):
        raise InvalidResult("each game is an object with points, cantes and last_trick")
    points = _ints(entry.get("points"), 2, "points")
    cantes = _ints(entry.get("cantes", [0, 0]), 2, "cantes")
    tute = _side(entry.get("tute"), 2, "tute", optional=True)
    last = _side(entry.get("last_trick"), 2, "last_trick", optional=tute is not None)
    if any(p < 0 for p in points) or (
        sum(points) != CARD_POINTS if tute is None else sum(points) > CARD_POINTS
    ):
        raise InvalidResult(f"points: the card points of a hand add up to {CARD_POINTS}, not {sum(points)}")
    if any(c < 0 or c % 20 for c in cantes) or sum(cantes) > MOST_CANTES:
        raise InvalidResult(f"cantes: 20s and one 40, at most {MOST_CANTES} in a hand, not {cantes}")
    if tute is not None and rules.tute_declaration == "off":
        raise InvalidResult("tute: these rules do not declare tute")
    scores = [p + c for p, c in zip(points, cantes, strict=True)]
    bonus = 10 if rules.last_trick_bonus and tute is None else 0
    if bonus and last is not None:
        scores[last] += bonus
    winners = tute_winners(scores, last_trick_side=last if last is not None else 0, tute_side=tute)
    return {
        "scores": scores,
        "winners": list(winners),
        "points": points,
        "cantes": cantes,
        "last_trick": last,
        "last_trick_bonus": bonus,
        "tute": tute,
    }


def pocha_game(rules: Rules, entry: Any, positions: int) -> dict[str, Any]:
    """One Pocha game's totals per player and its winners (ties share), from every hand's bids and
    tricks, scored by the engine's rule."""
    hands = entry.get("hands") if isinstance(entry, dict) else None
    sizes = rules.hand_sizes()
    if not isinstance(hands, list) or len(hands) != len(sizes):
        raise InvalidResult(f"hands: this game has {len(sizes)} hands ({', '.join(map(str, sizes))} cards)")
    totals = [0] * positions
    played = []
    for number, (hand, cards) in enumerate(zip(hands, sizes, strict=True), start=1):
        if not isinstance(hand, dict):
            raise InvalidResult(f"hand {number}: an object with bids and tricks")
        bids = _ints(hand.get("bids"), positions, f"hand {number} bids")
        tricks = _ints(hand.get("tricks"), positions, f"hand {number} tricks")
        if any(not 0 <= b <= cards for b in bids):
            raise InvalidResult(f"hand {number}: a bid is from 0 to {cards}")
        if any(t < 0 for t in tricks) or sum(tricks) != cards:
            raise InvalidResult(f"hand {number}: the tricks won add up to {cards}, not {sum(tricks)}")
        scores = [pocha_hand_score(bid, won) for bid, won in zip(bids, tricks, strict=True)]
        totals = [t + s for t, s in zip(totals, scores, strict=True)]
        played.append({"cards": cards, "bids": bids, "tricks": tricks, "scores": scores})
    best = max(totals)
    return {"scores": totals, "winners": [i for i, t in enumerate(totals) if t == best], "hands": played}


def score_entry(tournament: Tournament, positions: int, entered: dict[str, Any]) -> Scored:
    """The entered result scored, or ``InvalidResult`` saying what cannot be."""
    if not isinstance(entered, dict):
        raise InvalidResult("a result is an object")
    if "winner" in entered or "totals" in entered:
        return _plain(positions, entered)
    games = entered.get("games")
    if not isinstance(games, list) or not games:
        raise InvalidResult("give the games played (games), or a plain result (winner, or totals at a table)")
    rules = Rules.build(
        tournament.game, positions if tournament.game == "pocha" else None, tournament.options
    )
    won = [0] * positions
    cards = [0] * positions
    results = []
    for number, game in enumerate(games, start=1):
        if match_decided(
            format=tournament.match_format, target=tournament.match_target, won=won, played=number - 1
        ):
            raise InvalidResult(f"game {number}: the match was decided after game {number - 1}")
        result = tute_game(rules, game) if rules.is_tute else pocha_game(rules, game, positions)
        for side in result["winners"]:
            won[side] += 1
        cards = [c + s for c, s in zip(cards, result["scores"], strict=True)]
        results.append(result)
    if not match_decided(
        format=tournament.match_format, target=tournament.match_target, won=won, played=len(games)
    ):
        raise InvalidResult(f"the match is not decided after {len(games)} games: enter every game played")
    best = max(won)
    return Scored(
        games_won=won, card_points=cards, winners=[i for i, w in enumerate(won) if w == best], games=results
    )


def _plain(positions: int, entered: dict[str, Any]) -> Scored:
    if positions == 2 and "winner" in entered:
        winner = _side(entered["winner"], 2, "winner", optional=True)
        if winner is None:
            return Scored(games_won=[0, 0], card_points=[0, 0], winners=[0, 1], games=[])
        games = [1 if i == winner else 0 for i in range(2)]
        return Scored(games_won=games, card_points=[0, 0], winners=[winner], games=[])
    if positions > 2 and "totals" in entered:
        totals = _ints(entered["totals"], positions, "totals")
        best = max(totals)
        winners = [i for i, t in enumerate(totals) if t == best]
        return Scored(
            games_won=[1 if i in winners else 0 for i in range(positions)],
            card_points=totals,
            winners=winners,
            games=[{"scores": totals, "winners": winners}],  # the players' totals, which ratings read
        )
    raise InvalidResult("a plain result: winner (a position, or null for a draw) for two, totals at a table")


@transaction.atomic
def result_enter(
    *, tournament_id: int, tournament_match_id: int, by: Player, entered: dict[str, Any]
) -> TournamentMatch:
    """The organiser (or a co-organiser) enters a table's result, or changes it while its round is
    open. It is recorded as a finished match's would be, logged, and the round completes (and the next
    one is paired) once every table has its result."""
    tournament = lock_tournament(tournament_id)
    require_organiser(tournament.club, by)
    tm, order = open_table(tournament, tournament_match_id)
    # The organiser's word settles the table: reports still waiting are set aside.
    ResultReport.objects.filter(tournament_match=tm, status__in=WAITING_REPORTS).update(
        status=ResultReport.Status.SUPERSEDED
    )
    return record_entry(tournament, tm, order, by=by, entered=entered)


def open_table(tournament: Tournament, tournament_match_id: int) -> tuple[TournamentMatch, list[Entrant]]:
    """The table of a running tournament over the board whose round is open, and its entrants in
    position order; refused otherwise (the caller holds the tournament's lock)."""
    tm = (
        TournamentMatch.objects.select_related("round")
        .filter(tournament=tournament, pk=tournament_match_id)
        .first()
    )
    if tm is None:
        raise TournamentMatchNotFound()
    if tournament.play != Tournament.Play.TABLE:
        raise NotOverTheBoard()
    if tournament.status != Tournament.Status.RUNNING or tm.kind != TournamentMatch.Kind.MATCH:
        raise WrongStatus("Only a table of a running tournament takes a result.")
    if tm.round.status == Round.Status.COMPLETE:
        raise RoundClosed(detail={"round": tm.round.number})
    if tm.forfeit:
        raise WrongStatus("This table was decided by a no-show or a withdrawal.")
    entrants = {e.pk: e for e in Entrant.objects.filter(slots__tournament_match=tm)}
    return tm, [entrants[i] for i in slot_entrants(tm)]


def record_entry(
    tournament: Tournament, tm: TournamentMatch, order: list[Entrant], *, by: Player, entered: dict[str, Any]
) -> TournamentMatch:
    """Score ``entered`` and record it as the table's result (as a finished match's would be), log it,
    and complete the round once every table has its result."""
    scored = score_entry(tournament, len(order), entered)
    outcome = outcome_from(
        games_won=scored.games_won,
        winners=scored.winners,
        card_points=scored.card_points,
        seeds=[e.seed or UNSEEDED for e in order],
    )
    winner = (
        elimination_winner(outcome, [e.seed or UNSEEDED for e in order])
        if tournament.is_elimination
        else outcome.winner
    )
    replaced = tm.status == TournamentMatch.Status.DONE
    tm.points = stored_points(outcome.points)
    tm.games_won = outcome.games_won
    tm.card_points = outcome.card_points
    tm.winner = order[winner] if winner is not None else None
    tm.status = TournamentMatch.Status.DONE
    tm.recorded_at = timezone.now()
    if tournament.rated:
        tm.match = _rated_match(tournament, tm, order, scored)
    tm.save(update_fields=["points", "games_won", "card_points", "winner", "status", "recorded_at", "match"])
    ResultEntry.objects.create(
        tournament_match=tm,
        by=by,
        entered=entered,
        points=tm.points,
        games_won=tm.games_won,
        card_points=tm.card_points,
        replaced=replaced,
    )
    log.info(
        "tournament %s: table %s (%s) result %s by %s",
        tournament.pk,
        tm.board,
        tm.code,
        "changed" if replaced else "entered",
        by.handle,
    )
    complete_round_if_done(tournament, tm.round)
    return tm


def _rated_match(tournament: Tournament, tm: TournamentMatch, order: list[Entrant], scored: Scored) -> Match:
    """The games match recording the table for ratings (rated once on commit, like any match); a changed
    result replaces its games and result, and ratings recompute (``match_record_change``)."""
    result = {"games_won": scored.games_won, "winners": scored.winners, "games": len(scored.games)}
    if tm.match_id is not None:
        return match_record_change(match_id=tm.match_id, games=scored.games, result=result)
    spec = match_spec(
        created_by=tournament.created_by,
        game=tournament.game,
        players=len(order) * (2 if tournament.game == Match.GameName.TUTE4 else 1),
        options=tournament.options,
        format=tournament.match_format,
        format_target=tournament.match_target,
        seats=table_seats(tournament, order),
        rated=True,
        challenge=False,
        managed=True,
    )
    return match_record(spec=spec, games=scored.games, result=result)
