"""Duplicate tournaments, write side: the boards of a round, and each table's points from the comparison
with the other tables on the same boards (tournaments.duplicate). Called under the tournament's row lock
by the round and result services."""

from __future__ import annotations

from fractions import Fraction

from games.engine.rules import side_of
from games.models import Board, Match
from games.services.boards import board_create
from tournaments.duplicate import round_points
from tournaments.models import Round, Tournament, TournamentBoard, TournamentMatch
from tournaments.state import slot_entrants, stored_points


def round_boards_create(tournament: Tournament, round_: Round, sizes: set[int]) -> dict[int, list[Board]]:
    """The round's boards, ``match_target`` of them for each table size in ``sizes``, numbered on from
    the tournament's last board; each dealt now from a fresh server seed (committed at once, secret
    until every table has played it), board k's dealer game seat k mod n."""
    number = TournamentBoard.objects.filter(tournament=tournament).count()
    out: dict[int, list[Board]] = {}
    for players in sorted(sizes):
        boards = []
        for k in range(tournament.match_target):
            board = board_create(
                game=tournament.game, players=players, options=tournament.options, dealer=k % players
            )
            number += 1
            TournamentBoard.objects.create(
                tournament=tournament, round=round_, number=number, players=players, board=board
            )
            boards.append(board)
        out[players] = boards
    return out


def table_size(tournament: Tournament, entrants: int) -> int:
    """Seats at a table of ``entrants`` entrants (a Tute 4 entrant is a pair)."""
    return 4 if tournament.game == Match.GameName.TUTE4 else entrants


def duplicate_round_score(tournament: Tournament, round_: Round) -> None:
    """Give every recorded table of the round its entrants' points from the comparison with the other
    tables (matchpoints or total points), as far as the round has been played.

    A bye and a walkover's winner score the round's mean over the entrants who played; a walkover's
    loser 0. An entrant who conceded keeps at most 0, the other side at least the mean. (Results are not
    corrected by hand in a duplicate tournament; a row with a correction from before is left as it is.)
    """
    points = round_points(tournament, round_)
    rows = list(
        TournamentMatch.objects.filter(round=round_, status=TournamentMatch.Status.DONE)
        .select_related("match")
        .prefetch_related("slots", "corrections")
    )
    played = [p for tm in rows if tm.pk in points for p in points[tm.pk]]
    mean = sum(played, Fraction(0)) / len(played) if played else Fraction(0)
    for tm in rows:
        if tm.corrections.all():
            continue
        entrants = slot_entrants(tm)
        if tm.pk in points and tm.match is not None and tm.match.status == Match.Status.FINISHED:
            mine = list(points[tm.pk])
            conceded = (tm.match.result or {}).get("conceded_by")
            if conceded is not None:
                loser = _position(tm.match, int(conceded))
                mine = [min(p, Fraction(0)) if i == loser else max(p, mean) for i, p in enumerate(mine)]
        elif tm.kind == TournamentMatch.Kind.BYE:
            mine = [mean]
        elif tm.winner_id is not None:
            mine = [mean if e == tm.winner_id else Fraction(0) for e in entrants]
        else:
            mine = [Fraction(0)] * len(entrants)
        stored = stored_points(mine)
        if stored != tm.points:
            tm.points = stored
            tm.save(update_fields=["points"])


def _position(match: Match, seat: int) -> int:
    return side_of(match.game, seat)
