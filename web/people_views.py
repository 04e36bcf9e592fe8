"""The website's pages for people playing people: tables for friends and their invite links, seats at open
tables, quick pairing and its wait, the lobby, challenges and rematches. Thin: reads through selectors,
writes through the games and lobby services; a refusal becomes a message on the page it came from."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from games.bots import BOT_LEVELS
from games.engine import RulesError
from games.models import Match
from games.services import (
    Clock,
    SeatSpec,
    challenge_accept,
    challenge_decline,
    match_abort,
    match_create,
    match_rematch,
    match_spec,
    seat_join,
    seat_leave,
    seats_fill_with_bots,
)
from lobby.selectors import lobby_snapshot
from lobby.services import seek_answer, seek_cancel, seek_create, seek_seen
from ratings.selectors import house_levels
from tute_site.exceptions import ApplicationError
from web import selectors
from web.errors import error_text
from web.forms import LEVEL_CHOICES, PlayForm
from web.jsi18n import js_strings
from web.people import request_player, safe_next, signed_in_player
from web.people_forms import SEAT_ME, SEAT_PERSON, ChallengeForm, SeekForm, TableForm


def _back(request: HttpRequest, fallback: str) -> HttpResponse:
    """Back to the page the form was on (``next``, on this site only), else ``fallback``."""
    return redirect(safe_next(request) or fallback)


def play_page(
    request: HttpRequest,
    *,
    bots: PlayForm | None = None,
    seek: SeekForm | None = None,
    table: TableForm | None = None,
) -> HttpResponse:
    """/play/: play people (quick pairing, a table for friends) or the house bots; each form posts to its
    own address and comes back here with its errors."""
    return render(
        request,
        "web/play.html",
        {
            "form": bots or PlayForm(levels=house_levels()),
            "seek_form": seek or SeekForm(prefix="seek"),
            "table_form": table or TableForm(prefix="table"),
            "levels": LEVEL_CHOICES,
        },
    )


@login_required
@require_POST
def table_new(request: HttpRequest) -> HttpResponse:
    form = TableForm(request.POST, prefix="table")
    if form.is_valid():
        me = signed_in_player(request)
        plan = form.seat_plan()
        seats = [
            SeatSpec(player=me.handle)
            if s == SEAT_ME
            else SeatSpec()
            if s == SEAT_PERSON
            else SeatSpec(bot=s.removeprefix("bot:"))
            for s in plan
        ]
        try:
            spec = match_spec(
                capped=True,
                created_by=me,
                game=form.cleaned_data["game"],
                players=len(seats),
                seats=seats,
                rated=None if form.cleaned_data["rated"] else False,
                clock=Clock(human_move_seconds=form.cleaned_data["human_move_seconds"]),
                private=form.cleaned_data["private"],
            )
            match = match_create(spec=spec)
        except (ApplicationError, RulesError) as exc:
            form.add_error(None, error_text(exc))
        else:
            return redirect("web:match", match_id=match.pk)
    return play_page(request, table=form)


@login_required
@require_POST
def seek_new(request: HttpRequest) -> HttpResponse:
    form = SeekForm(request.POST, prefix="seek")
    if form.is_valid():
        try:
            seek = seek_create(
                player=signed_in_player(request),
                game=form.cleaned_data["game"],
                players=form.table_size(),
                rated=form.cleaned_data["rated"],
                human_move_seconds=form.cleaned_data["human_move_seconds"],
                bots_after_seconds=form.cleaned_data.get("bots_after_seconds"),
            )
        except ApplicationError as exc:
            detail = exc.detail if isinstance(exc.detail, dict) else {}
            if detail.get("seek"):  # already looking for this game: that wait
                return redirect("web:seek", seek_id=detail["seek"])
            form.add_error(None, error_text(exc))
        else:
            return redirect("web:seek", seek_id=seek.pk)
    return play_page(request, seek=form)


@login_required
@require_GET
def seek_page(request: HttpRequest, seek_id: int) -> HttpResponse:
    """The wait: how long, the rating window; the page polls the seek (which keeps it alive) and goes to
    the match once seated."""
    try:
        seek = seek_seen(seek_id=seek_id, player=signed_in_player(request))
    except ApplicationError:
        raise Http404 from None
    if seek.match_id is not None:
        return redirect("web:match", match_id=seek.match_id)
    return render(
        request,
        "web/seek.html",
        {"seek": seek, "api_url": reverse("seek-detail", args=[seek.pk]), "js_strings": js_strings()},
    )


@login_required
@require_POST
def seek_stop(request: HttpRequest, seek_id: int) -> HttpResponse:
    try:
        seek = seek_cancel(seek_id=seek_id, player=signed_in_player(request))
    except ApplicationError as exc:
        detail = exc.detail if isinstance(exc.detail, dict) else {}
        if detail.get("match"):  # seated just now: the match is what they want
            return redirect("web:match", match_id=detail["match"])
        messages.error(request, error_text(exc))
        return redirect("web:play")
    if seek.status == seek.Status.CANCELLED:
        messages.info(request, _("You stopped looking for a game."))
    return redirect("web:play")


@login_required
@require_POST
def seek_take(request: HttpRequest, seek_id: int) -> HttpResponse:
    """Take up a two-player seek from the lobby."""
    try:
        match = seek_answer(seek_id=seek_id, player=signed_in_player(request))
    except ApplicationError as exc:
        messages.error(request, error_text(exc))
        return redirect("web:lobby")
    return redirect("web:match", match_id=match.pk)


#: The games whose measured ratings the lobby's house-bot table shows, in its columns' order.
LEVEL_POOLS = ("tute2", "tute4", "pocha")


def _level_rows(levels: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The lobby's house-bot table: per level, its measured rating in each game (None: not measured)
    and when it was last measured."""
    rows = []
    for item in levels:
        measured = item["measured"]
        dates = [row["measured_at"] for row in measured.values()]
        rows.append(
            {
                "level": item["level"],
                "ratings": [measured[pool]["rating"] if pool in measured else None for pool in LEVEL_POOLS],
                "measured_at": max(dates) if dates else None,
            }
        )
    return rows


def lobby(request: HttpRequest) -> HttpResponse:
    snapshot = lobby_snapshot()
    return render(
        request,
        "web/lobby.html",
        {
            "lobby": snapshot,
            "levels": BOT_LEVELS,
            "level_rows": _level_rows(snapshot["house_levels"]),
            "stream_url": reverse("lobby-stream"),
            "js_strings": js_strings(),
            "me": me.handle if (me := request_player(request)) is not None else "",
        },
    )


def join(request: HttpRequest, code: str) -> HttpResponse:
    """A private table's invite link: a visitor signs up or in first (and comes back here); a person
    chooses a free seat (in Tute 4, which pair) and sits."""
    match = selectors.match_by_invite(code=code)
    if match is None:
        raise Http404
    if not request.user.is_authenticated:
        return render(request, "web/join.html", {"match": match, "code": code, "seats": None})
    me = signed_in_player(request)
    if any(s.player_id == me.pk for s in match.seats.all()):
        return redirect("web:match", match_id=match.pk)
    if request.method == "POST" and match.status == Match.Status.OPEN:
        raw = request.POST.get("seat") or ""
        try:
            seat_join(
                match_id=match.pk, player=me, seat=int(raw) if raw.isdigit() else None, invite_code=code
            )
        except ApplicationError as exc:
            messages.error(request, error_text(exc))
        else:
            return redirect("web:match", match_id=match.pk)
    return render(
        request,
        "web/join.html",
        {"match": match, "code": code, "seats": selectors.open_table_seats(match, viewer=me)},
    )


@login_required
@require_POST
def table_sit(request: HttpRequest, match_id: int) -> HttpResponse:
    """Sit at a public open table (from the lobby or the match page): the seat chosen, or the first free."""
    raw = request.POST.get("seat") or ""
    try:
        seat_join(
            match_id=match_id, player=signed_in_player(request), seat=int(raw) if raw.isdigit() else None
        )
    except ApplicationError as exc:
        messages.error(request, error_text(exc))
        return _back(request, reverse("web:lobby"))
    return redirect("web:match", match_id=match_id)


@login_required
@require_POST
def table_bots(request: HttpRequest, match_id: int) -> HttpResponse:
    """The creator seats house bots in the free seats."""
    try:
        seats_fill_with_bots(
            match_id=match_id, by=signed_in_player(request), bot=request.POST.get("bot") or "rule"
        )
    except ApplicationError as exc:
        messages.error(request, error_text(exc))
    return redirect("web:match", match_id=match_id)


@login_required
@require_POST
def table_leave(request: HttpRequest, match_id: int) -> HttpResponse:
    try:
        seat_leave(match_id=match_id, player=signed_in_player(request))
    except ApplicationError as exc:
        messages.error(request, error_text(exc))
        return redirect("web:match", match_id=match_id)
    messages.info(request, _("You left the table."))
    return redirect("web:lobby")


@login_required
@require_POST
def table_call_off(request: HttpRequest, match_id: int) -> HttpResponse:
    try:
        match_abort(match_id=match_id, by=signed_in_player(request))
    except ApplicationError as exc:
        messages.error(request, error_text(exc))
    return redirect("web:match", match_id=match_id)


@login_required
@require_POST
def challenge_answer(request: HttpRequest, match_id: int) -> HttpResponse:
    """Accept (to the match) or decline (back where the person was) a challenge, without script."""
    me = signed_in_player(request)
    try:
        if request.POST.get("answer") == "accept":
            challenge_accept(match_id=match_id, player=me)
            return redirect("web:match", match_id=match_id)
        challenge_decline(match_id=match_id, player=me, reason=request.POST.get("reason") or "")
    except ApplicationError as exc:
        messages.error(request, error_text(exc))
    return _back(request, reverse("web:home"))


@login_required
@require_POST
def rematch(request: HttpRequest, match_id: int) -> HttpResponse:
    try:
        match, _created = match_rematch(match_id=match_id, player=signed_in_player(request))
    except ApplicationError as exc:
        messages.error(request, error_text(exc))
        return redirect("web:match", match_id=match_id)
    return redirect("web:match", match_id=match.pk)


@login_required
@require_POST
def player_challenge(request: HttpRequest, handle: str) -> HttpResponse:
    """Challenge the person of this page: they sit opposite; any other seat is a house bot."""
    target = selectors.player_by_handle(handle=handle)
    if target is None:
        raise Http404
    form = ChallengeForm(request.POST, prefix="challenge")
    if not form.is_valid():
        messages.error(request, _("Choose a game and a clock."))
        return redirect("web:player", handle=handle)
    me = signed_in_player(request)
    total = form.table_size()
    bot = SeatSpec(bot=form.cleaned_data["bot"])
    seats = [SeatSpec(player=me.handle), SeatSpec(player=target.handle)] + [bot] * (total - 2)
    try:
        spec = match_spec(
            capped=True,
            created_by=me,
            game=form.cleaned_data["game"],
            players=total,
            seats=seats,
            rated=None if form.cleaned_data["rated"] else False,
            clock=Clock(human_move_seconds=form.cleaned_data["human_move_seconds"]),
            private=True,
        )
        match = match_create(spec=spec)
    except (ApplicationError, RulesError) as exc:
        messages.error(request, error_text(exc))
        return redirect("web:player", handle=handle)
    return redirect("web:match", match_id=match.pk)
