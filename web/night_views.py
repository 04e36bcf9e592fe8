"""The website's pages for tournaments played over the board (a club night at real tables): entering a
table's result, the printable pairings, score sheets (with a QR code to each table's result form) and
standings, the full-screen standings for a TV or a projector, and the exports (CSV, JSON). Thin: reads
through selectors, the result through ``tournaments.services.result_enter``."""

from __future__ import annotations

import csv
import json
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.serializers.json import DjangoJSONEncoder
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods

from tournaments.exports import results_rows, standings_rows, tournament_document
from tournaments.models import Tournament
from tournaments.selectors import MatchRow, rounds_with_matches, standings_table, tournament_match
from tournaments.services import result_confirm, result_enter, result_report
from tute_site.exceptions import ApplicationError
from web import selectors
from web.errors import error_text
from web.people import request_player, signed_in_player
from web.qr import qr_svg
from web.result_forms import ResultForm, hand_sizes


def _tournament(tournament_id: int) -> Tournament:
    tournament = Tournament.objects.select_related("club").filter(pk=tournament_id).first()
    if tournament is None:
        raise Http404
    return tournament


def _round_rows(tournament: Tournament, number: int | None) -> tuple[int, list[MatchRow]]:
    """A round's tables (the current round's by default)."""
    rounds = {r.number: r for r in rounds_with_matches(tournament=tournament)}
    chosen = number if number in rounds else tournament.current_round
    return chosen, list(rounds[chosen].matches) if chosen in rounds else []


@login_required
@require_http_methods(["GET", "POST"])
def table_result(request: HttpRequest, tournament_id: int, tournament_match_id: int) -> HttpResponse:
    """An over-the-board table's result form, for the club's organisers."""
    tournament = _tournament(tournament_id)
    row = tournament_match(tournament=tournament, tournament_match_id=tournament_match_id)
    if row is None or tournament.play != Tournament.Play.TABLE:
        raise Http404
    me = signed_in_player(request)
    organiser = selectors.organises(club_id=tournament.club_id, player=me)
    position = selectors.table_position(tournament=tournament, row=row, player=me)
    if not organiser and (not tournament.self_report or position is None):
        messages.error(request, _("Only the club's organisers may do that."))
        return redirect("web:tournament", tournament_id=tournament.pk)
    back = reverse("web:tournament", args=[tournament.pk]) + "#rounds"
    waiting = selectors.table_report(tournament_match_id=row.id)
    if request.method == "POST" and request.POST.get("confirm") in ("yes", "no"):
        try:
            result_confirm(
                tournament_id=tournament.pk,
                tournament_match_id=row.id,
                by=me,
                agree=request.POST["confirm"] == "yes",
            )
        except ApplicationError as exc:
            messages.error(request, error_text(exc))
        else:
            messages.success(request, _("Table %(n)s: your answer is saved.") % {"n": row.board})
        return redirect(back)
    names = [e.name for e in row.entrants]
    form = ResultForm(request.POST or None, tournament=tournament, positions=len(names), names=names)
    if request.method == "POST" and form.is_valid():
        try:
            if organiser:
                result_enter(
                    tournament_id=tournament.pk, tournament_match_id=row.id, by=me, entered=form.entered()
                )
            else:
                result_report(
                    tournament_id=tournament.pk, tournament_match_id=row.id, by=me, entered=form.entered()
                )
        except ApplicationError as exc:
            form.add_error(None, error_text(exc))
        else:
            if organiser:
                messages.success(request, _("Table %(n)s: result saved.") % {"n": row.board})
            else:
                messages.success(
                    request,
                    _("Table %(n)s: result reported; it counts once the other side confirms it.")
                    % {"n": row.board},
                )
            return redirect(back)
    sizes = hand_sizes(tournament, len(names)) if tournament.game == "pocha" else ()
    return render(
        request,
        "web/tournament_result.html",
        {
            "tournament": tournament,
            "row": row,
            "form": form,
            "names": names,
            "games": [
                {
                    "number": i + 1,
                    "fields": [form[f"g{i}_{w}_{s}"] for s in (0, 1) for w in ("points", "cantes")],
                    "last": form[f"g{i}_last"],
                }
                for i in form.game_indexes()
            ]
            if tournament.game != "pocha"
            else [],
            "hands": [
                {
                    "number": j + 1,
                    "cards": cards,
                    "cells": [(form[f"h{j}_bid_{k}"], form[f"h{j}_tricks_{k}"]) for k in range(len(names))],
                }
                for j, cards in enumerate(sizes)
            ],
            "totals": [form[f"total_{k}"] for k in range(len(names))] if tournament.game == "pocha" else [],
            "organiser": organiser,
            "waiting": waiting,
            "may_answer": waiting is not None
            and waiting.status == "pending"
            and position is not None
            and position != waiting.position,
        },
    )


@require_GET
def tournament_print(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """One printable page (A4): a round's pairings by table and by name, a score sheet per table with a
    QR code to its result form, and the standings."""
    tournament = _tournament(tournament_id)
    raw = request.GET.get("round") or ""
    number, rows = _round_rows(tournament, int(raw) if raw.isdigit() else None)
    tables = [r for r in rows if r.kind == "match"]
    by_name = sorted(
        ((e.name, r.board, r.kind) for r in rows for e in r.entrants), key=lambda item: item[0].casefold()
    )
    sheets = [
        {
            "row": r,
            "qr": qr_svg(
                request.build_absolute_uri(reverse("web:tournament-result", args=[tournament.pk, r.id])),
                title=_("Table %(n)s: the result form") % {"n": r.board},
            )
            if tournament.play == Tournament.Play.TABLE
            else None,
            "lines": range(_sheet_lines(tournament)),
        }
        for r in tables
    ]
    return render(
        request,
        "web/tournament_print.html",
        {
            "tournament": tournament,
            "round": number,
            "rows": rows,
            "by_name": by_name,
            "sheets": sheets,
            "standings": standings_table(tournament=tournament),
        },
    )


def _sheet_lines(tournament: Tournament) -> int:
    """Lines on a score sheet: one a game of the match (a Pocha game's hands: one a hand)."""
    if tournament.game == "pocha":
        return len(hand_sizes(tournament, tournament.table_size or 4))
    return max(tournament.match_target * (2 if tournament.match_format == "first_to" else 1), 1)


@require_GET
def tournament_screen(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """Full screen, for a TV or a projector across the room: the current round's tables and the
    standings, looked at again every few seconds."""
    tournament = _tournament(tournament_id)
    number, rows = _round_rows(tournament, None)
    return render(
        request,
        "web/tournament_screen.html",
        {
            "tournament": tournament,
            "round": number,
            "rows": rows,
            "standings": standings_table(tournament=tournament),
            "me": request_player(request),
        },
    )


def _csv(rows: list[list[str]], filename: str) -> HttpResponse:
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    writer = csv.writer(response)
    writer.writerows(rows)
    return response


@require_GET
def tournament_export(request: HttpRequest, tournament_id: int, what: str) -> HttpResponse:
    """``standings.csv``, ``results.csv`` or ``tournament.json`` (docs/TOURNAMENTS.md, "Exports")."""
    tournament = _tournament(tournament_id)
    stem = slugify(tournament.name) or f"tournament-{tournament.pk}"
    if what == "standings.csv":
        return _csv(standings_rows(tournament), f"{stem}-standings.csv")
    if what == "results.csv":
        return _csv(results_rows(tournament), f"{stem}-results.csv")
    if what == "tournament.json":
        document: dict[str, Any] = tournament_document(tournament)
        response = HttpResponse(
            json.dumps(document, cls=DjangoJSONEncoder, indent=2, ensure_ascii=False),
            content_type="application/json; charset=utf-8",
        )
        response["Content-Disposition"] = f'attachment; filename="{stem}.json"'
        return response
    raise Http404
