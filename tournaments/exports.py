"""A tournament written out (reads only): the standings and every result as CSV rows, and the whole
tournament as a JSON document (docs/TOURNAMENTS.md, "Exports")."""

from __future__ import annotations

from typing import Any

from tournaments.models import ResultEntry, Tournament
from tournaments.selectors import entrants_of, matches_of, rounds_with_matches, standings_table

#: The JSON document's format: a reader refuses another.
EXPORT_FORMAT = "tute-arena-tournament/1"


def standings_rows(tournament: Tournament) -> list[list[str]]:
    """The standings as CSV rows: a header, then one row per entrant, best first."""
    breaks = list(tournament.tie_breaks)
    rows = [["rank", "seed", "entrant", "points", "played", *breaks, "withdrawn"]]
    for row in standings_table(tournament=tournament):
        rows.append(
            [
                str(row.rank),
                str(row.entrant.seed or ""),
                row.entrant.name,
                str(row.points),
                str(row.played),
                *[str(row.tie_breaks[name]) for name in breaks],
                "yes" if row.withdrawn else "",
            ]
        )
    return rows


def results_rows(tournament: Tournament) -> list[list[str]]:
    """Every pairing of every round as CSV rows: round, table, code, kind, each entrant with its points,
    games won and card points (positions joined by ' | ')."""
    rows = [
        [
            "round",
            "table",
            "code",
            "kind",
            "status",
            "entrants",
            "points",
            "games_won",
            "card_points",
            "winner",
            "forfeit",
        ]
    ]
    for m in matches_of(tournament=tournament):
        names = {e.id: e.name for e in m.entrants}
        rows.append(
            [
                str(m.round),
                str(m.board),
                m.code,
                m.kind,
                m.status,
                " | ".join(e.name for e in m.entrants),
                " | ".join(str(p) for p in m.points) if m.points is not None else "",
                " | ".join(str(g) for g in m.games_won) if m.games_won else "",
                " | ".join(str(c) for c in m.card_points) if m.card_points else "",
                names.get(m.winner, "") if m.winner is not None else "",
                "yes" if m.forfeit else "",
            ]
        )
    return rows


def tournament_document(tournament: Tournament) -> dict[str, Any]:
    """The tournament as one JSON document: its settings, entrants (with seeds), every round's
    pairings and results (exact points as fractions in text), the entered results' log and the
    standings."""
    settings = {
        name: getattr(tournament, name)
        for name in (
            "name",
            "game",
            "format",
            "play",
            "self_report",
            "options",
            "match_format",
            "match_target",
            "duplicate_scoring",
            "third_place",
            "grand_final_reset",
            "double_round_robin",
            "swiss_rounds",
            "avoid_same_club",
            "table_size",
            "pocha_rounds",
            "rated",
            "seeding",
            "tie_breaks",
        )
    }
    entries = ResultEntry.objects.filter(tournament_match__tournament=tournament).select_related(
        "by", "tournament_match"
    )
    rounds = rounds_with_matches(tournament=tournament)
    return {
        "format": EXPORT_FORMAT,
        "club": tournament.club.slug,
        "settings": settings,
        "status": tournament.status,
        "seeds": list(tournament.seeds),
        "entrants": [
            {
                "id": e.id,
                "seed": e.seed,
                "name": e.name,
                "players": list(e.players),
                "house_bots": list(e.house_bots),
                "status": e.status,
            }
            for e in entrants_of(tournament=tournament)
        ],
        "rounds": [
            {
                "number": r.number,
                "status": r.status,
                "tables": [
                    {
                        "table": m.board,
                        "code": m.code,
                        "kind": m.kind,
                        "entrants": [e.id for e in m.entrants],
                        "points": [str(p) for p in m.points] if m.points is not None else None,
                        "games_won": m.games_won,
                        "card_points": m.card_points,
                        "winner": m.winner,
                        "forfeit": m.forfeit,
                    }
                    for m in r.matches
                ],
            }
            for r in rounds
        ],
        "entered_results": [
            {
                "code": e.tournament_match.code,
                "by": e.by.handle,
                "at": e.created_at.isoformat(),
                "entered": e.entered,
                "replaced": e.replaced,
            }
            for e in entries
        ],
        "standings": [
            {"rank": row[0], "seed": row[1], "entrant": row[2], "points": row[3]}
            for row in standings_rows(tournament)[1:]
        ],
    }
