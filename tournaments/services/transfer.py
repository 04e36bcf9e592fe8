"""A tournament read back from its JSON export (``tournaments.exports.tournament_document``), to move it to
another installation or keep it as an archive: its settings, entrants (players found by handle), seeds,
rounds, every table's result and the entered results' log. Online matches do not move with it (their
games were played on the other site): an imported table keeps its result without a games match, and
an online tournament still taking entries or in play is refused."""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils import timezone

from games.models import Player
from tournaments.errors import InvalidImport
from tournaments.exports import EXPORT_FORMAT
from tournaments.models import Club, Entrant, ResultEntry, Round, Slot, Tournament, TournamentMatch
from tournaments.services.common import require_organiser
from tournaments.services.rounds import final_rows
from tournaments.services.setup.settings import Settings, checked_fields


def _players(document: dict[str, Any]) -> dict[str, Player]:
    handles = {h for e in document.get("entrants", []) for h in e.get("players", [])}
    found = {p.handle: p for p in Player.objects.filter(handle__in=handles)}
    missing = sorted(handles - set(found))
    if missing:
        raise InvalidImport(
            f"No player here has the handles {', '.join(missing)}: they sign up first.",
            detail={"missing": missing},
        )
    return found


def _entrant(tournament: Tournament, row: dict[str, Any], players: dict[str, Player]) -> Entrant:
    handles, bots = list(row.get("players", [])), list(row.get("house_bots", []))
    fields: dict[str, Any] = {"player": None, "partner": None, "house_bot": "", "partner_bot": ""}
    if handles:
        fields["player"] = players[handles[0]]
        if len(handles) > 1:
            fields["partner"] = players[handles[1]]
        elif bots:
            fields["partner_bot"] = bots[0]
    elif bots:
        fields["house_bot"] = bots[0]
        fields["partner_bot"] = bots[1] if len(bots) > 1 else ""
    else:
        raise InvalidImport(f"entrant {row.get('id')}: neither a player nor a house bot")
    return Entrant.objects.create(
        tournament=tournament,
        display_name=str(row.get("name") or ""),
        seed=row.get("seed"),
        status=row["status"],
        **fields,
    )


@transaction.atomic
def tournament_import(*, club: Club, by: Player, document: dict[str, Any]) -> Tournament:
    """The exported tournament as a new tournament of ``club`` (an organiser of which imports it)."""
    require_organiser(club, by)
    if not isinstance(document, dict) or document.get("format") != EXPORT_FORMAT:
        raise InvalidImport(f"not a tournament export ({EXPORT_FORMAT})")
    settings = dict(document.get("settings") or {})
    status = document.get("status")
    if status not in Tournament.Status.values:
        raise InvalidImport(f"status must be one of {', '.join(Tournament.Status.values)}")
    if settings.get("play") != Tournament.Play.TABLE and status in (
        Tournament.Status.REGISTRATION,
        Tournament.Status.RUNNING,
    ):
        raise InvalidImport(
            "an online tournament moves once it is over: its matches are played on the other site"
        )
    try:
        checked = checked_fields(
            Settings(**{**settings, "tie_breaks": tuple(settings.get("tie_breaks") or ())}),
            had_passcode=False,
        )
    except TypeError as exc:
        raise InvalidImport(f"settings: {exc}") from None
    players = _players(document)
    now = timezone.now()
    tournament = Tournament.objects.create(club=club, created_by=by, status=status, started_at=now, **checked)
    ids = {row["id"]: _entrant(tournament, row, players).pk for row in document.get("entrants", [])}
    by_code: dict[str, TournamentMatch] = {}
    for r in document.get("rounds", []):
        round_ = Round.objects.create(tournament=tournament, number=r["number"], status=r["status"])
        for t in r.get("tables", []):
            tm = TournamentMatch.objects.create(
                tournament=tournament,
                round=round_,
                code=t["code"],
                board=t["table"],
                kind=t["kind"],
                status=TournamentMatch.Status.DONE
                if t.get("points") is not None
                else TournamentMatch.Status.PLAYING,
                points=t.get("points"),
                games_won=t.get("games_won"),
                card_points=t.get("card_points"),
                winner_id=ids.get(t.get("winner")) if t.get("winner") is not None else None,
                forfeit=bool(t.get("forfeit")),
                recorded_at=now if t.get("points") is not None else None,
            )
            Slot.objects.bulk_create(
                [
                    Slot(tournament_match=tm, position=i, entrant_id=ids[e])
                    for i, e in enumerate(t["entrants"])
                ]
            )
            by_code[tm.code] = tm
    tournament.seeds = [ids[e] for e in document.get("seeds", []) if e in ids]
    tournament.current_round = max((r["number"] for r in document.get("rounds", [])), default=0)
    if status == Tournament.Status.FINISHED:
        tournament.finished_at = now
        tournament.final_standings = final_rows(tournament)
    tournament.save(update_fields=["seeds", "current_round", "finished_at", "final_standings"])
    keepers = {
        p.handle: p
        for p in Player.objects.filter(handle__in={e["by"] for e in document.get("entered_results", [])})
    }
    ResultEntry.objects.bulk_create(
        [
            ResultEntry(
                tournament_match=by_code[e["code"]],
                by=keepers[e["by"]],
                entered=e["entered"],
                points=by_code[e["code"]].points or [],
                games_won=by_code[e["code"]].games_won or [],
                card_points=by_code[e["code"]].card_points or [],
                replaced=bool(e.get("replaced")),
            )
            for e in document.get("entered_results", [])
            if e.get("code") in by_code and e.get("by") in keepers
        ]
    )
    return tournament
