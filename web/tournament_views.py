"""Clubs and tournaments on the website: thin views over ``tournaments.selectors`` and its services.

Organisers create a club's tournaments, add house bots, start them and call them off here; the workers
carry a running tournament round by round. A service's ``ApplicationError`` is shown on the page.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from games.models import Game, Match
from tournaments.errors import ClubSlugTaken, TournamentBoardNotFound
from tournaments.models import Tournament
from tournaments.selectors import (
    club_by_slug,
    club_members,
    clubs_list,
    tournament_board_sheet,
    tournament_boards,
    tournament_detail,
    tournaments_list,
)
from tournaments.services import (
    check_in,
    club_create,
    entrant_bot_fill,
    invite,
    membership_add,
    no_show,
    register,
    result_correct,
    tournament_cancel,
    tournament_create,
    tournament_start,
    withdraw,
)
from tute_site.exceptions import ApplicationError
from web import selectors
from web.errors import error_text
from web.forms import (
    BotFillForm,
    ClubForm,
    CorrectionForm,
    InviteForm,
    MemberAddForm,
    NoShowForm,
    RegisterForm,
    TournamentForm,
)
from web.jsi18n import js_strings
from web.people import request_player, signed_in_player

TOURNAMENT_STATUSES = [s.value for s in Tournament.Status]


def tournament_list(request: HttpRequest) -> HttpResponse:
    status = request.GET.get("status") or None
    game = request.GET.get("game") or None
    if status not in TOURNAMENT_STATUSES:
        status = None
    me = request_player(request)
    return render(
        request,
        "web/tournaments.html",
        {
            "tournaments": list(tournaments_list(status=status, game=game)[:100]),
            "status": status or "",
            "game": game or "",
            "statuses": TOURNAMENT_STATUSES,
            "games": [g.value for g in Match.GameName],
            "can_create": bool(me and selectors.organiser_clubs(player=me)),
        },
    )


def _tournament_or_404(tournament_id: int) -> Tournament:
    tournament = tournament_detail(tournament_id=tournament_id)
    if tournament is None:
        raise Http404
    return tournament


def tournament_page(request: HttpRequest, tournament_id: int) -> HttpResponse:
    tournament = _tournament_or_404(tournament_id)
    return _render_tournament(request, tournament)


def tournament_board(request: HttpRequest, tournament_id: int, number: int) -> HttpResponse:
    """A duplicate tournament's board: its travelling score sheet (every table's result on the same cards,
    with matchpoints) and every table's play of it side by side, each replayable, shown once every table
    has played it."""
    tournament = _tournament_or_404(tournament_id)
    try:
        sheet = tournament_board_sheet(tournament=tournament, number=number)
    except TournamentBoardNotFound:
        raise Http404 from None
    hands = max((len(line["holdings"]) for line in sheet["lines"]), default=0)
    plays: list[selectors.BoardPlay] = []
    if sheet["revealed"]:  # every table has played the board: how each played the cards is public
        plays = selectors.board_plays(games=Game.objects.filter(dealt_from_id=sheet["board"]))
    tables = {line["match"]: line["table"] for line in sheet["lines"]}
    return render(
        request,
        "web/tournament_board.html",
        {
            "tournament": tournament,
            "sheet": sheet,
            "hands": range(hands),
            "plays": selectors.board_play_items(plays, tables=tables),
            "js_strings": js_strings(),
            "previous": number - 1 if number > 1 else None,
            "next": number + 1
            if tournament_boards(tournament=tournament).filter(number=number + 1).exists()
            else None,
        },
    )


def _render_tournament(request: HttpRequest, tournament: Tournament, **forms: Any) -> HttpResponse:
    me = request_player(request)
    page = selectors.tournament_page(tournament=tournament)
    organiser = selectors.organises(club_id=tournament.club_id, player=me)
    return render(
        request,
        "web/tournament.html",
        {
            "tournament": tournament,
            "page": page,
            "organiser": organiser,
            "entry": selectors.entry_of(tournament=tournament, player=me),
            "register_form": forms.get("register_form") or RegisterForm(),
            "bots_form": forms.get("bots_form") or BotFillForm(),
            "invite_form": forms.get("invite_form") or InviteForm(),
            "check_in_open": selectors.check_in_open(tournament=tournament),
            "corrections": selectors.tournament_corrections(tournament=tournament) if organiser else [],
            "taking_entries": tournament.status == Tournament.Status.REGISTRATION,
            "boards": list(tournament_boards(tournament=tournament)),
            "bracket": (
                selectors.bracket_columns(bracket=page.bracket, games_match=page.games_match)
                if page.bracket is not None
                else None
            ),
        },
        status=400 if forms else 200,
    )


@login_required
@require_POST
def tournament_register(request: HttpRequest, tournament_id: int) -> HttpResponse:
    return _form_action(
        request,
        _tournament_or_404(tournament_id),
        RegisterForm(request.POST),
        "register_form",
        lambda t, me, data: register(
            tournament_id=t.pk,
            player=me,
            passcode=data["passcode"] or None,
            partner=data["partner"] or None,
            partner_bot=data["partner_bot"] or None,
        ),
        _("You are entered."),
    )


@login_required
@require_POST
def tournament_check_in(request: HttpRequest, tournament_id: int) -> HttpResponse:
    return _organiser_action(
        request,
        tournament_id,
        lambda t, me: check_in(tournament_id=t.pk, player=me),
        _("You are checked in."),
    )


@login_required
@require_POST
def tournament_invite(request: HttpRequest, tournament_id: int) -> HttpResponse:
    return _form_action(
        request,
        _tournament_or_404(tournament_id),
        InviteForm(request.POST),
        "invite_form",
        lambda t, me, data: invite(tournament_id=t.pk, by=me, handle=data["handle"]),
        _("Invitation sent."),
    )


@login_required
@require_POST
def tournament_correct(request: HttpRequest, tournament_id: int, tournament_match_id: int) -> HttpResponse:
    """An organiser corrects a recorded result (the service refuses what later matches forbid)."""
    form = CorrectionForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Choose the winner."))
        return redirect("web:tournament", tournament_id=tournament_id)
    return _organiser_action(
        request,
        tournament_id,
        lambda t, me: result_correct(
            tournament_id=t.pk,
            tournament_match_id=tournament_match_id,
            by=me,
            winner=form.cleaned_data["winner"],
            reason=form.cleaned_data["reason"],
        ),
        _("The result was corrected."),
    )


@login_required
@require_POST
def tournament_no_show(request: HttpRequest, tournament_id: int, tournament_match_id: int) -> HttpResponse:
    """An organiser records a no-show: the opponent wins the match of two by walkover."""
    form = NoShowForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Choose who did not turn up."))
        return redirect("web:tournament", tournament_id=tournament_id)
    return _organiser_action(
        request,
        tournament_id,
        lambda t, me: no_show(
            tournament_id=t.pk,
            tournament_match_id=tournament_match_id,
            by=me,
            entrant_id=form.cleaned_data["entrant"],
        ),
        _("The no-show was recorded."),
    )


@login_required
@require_POST
def tournament_withdraw(request: HttpRequest, tournament_id: int) -> HttpResponse:
    return _organiser_action(
        request, tournament_id, lambda t, me: withdraw(tournament_id=t.pk, by=me), _("You have withdrawn.")
    )


@login_required
@require_POST
def tournament_start_view(request: HttpRequest, tournament_id: int) -> HttpResponse:
    return _organiser_action(
        request,
        tournament_id,
        lambda t, me: tournament_start(tournament_id=t.pk, by=me),
        _("The tournament has started."),
    )


@login_required
@require_POST
def tournament_cancel_view(request: HttpRequest, tournament_id: int) -> HttpResponse:
    return _organiser_action(
        request,
        tournament_id,
        lambda t, me: tournament_cancel(tournament_id=t.pk, by=me),
        _("The tournament was called off."),
    )


def _organiser_action(request: HttpRequest, tournament_id: int, action: Any, done: str) -> HttpResponse:
    """Run one service on the tournament for the signed-in player (an organiser's or their own); its
    refusal becomes a message."""
    tournament = _tournament_or_404(tournament_id)
    try:
        action(tournament, signed_in_player(request))
    except ApplicationError as exc:
        messages.error(request, error_text(exc))
    else:
        messages.success(request, done)
    return redirect("web:tournament", tournament_id=tournament.pk)


@login_required
@require_POST
def tournament_bots(request: HttpRequest, tournament_id: int) -> HttpResponse:
    return _form_action(
        request,
        _tournament_or_404(tournament_id),
        BotFillForm(request.POST),
        "bots_form",
        lambda t, me, data: entrant_bot_fill(
            tournament_id=t.pk, by=me, level=data["level"], count=data["count"]
        ),
        _("House bots added."),
    )


def _form_action(
    request: HttpRequest, tournament: Tournament, form: Any, form_name: str, action: Any, done: str
) -> HttpResponse:
    """Run one service with a valid form's data for the signed-in player; a form that is not valid, or
    the service's refusal, goes back to the tournament's page as ``form_name`` with its errors."""
    if form.is_valid():
        try:
            action(tournament, signed_in_player(request), form.cleaned_data)
        except ApplicationError as exc:
            form.add_error(None, error_text(exc))
        else:
            messages.success(request, done)
            return redirect("web:tournament", tournament_id=tournament.pk)
    return _render_tournament(request, tournament, **{form_name: form})


@login_required
@require_http_methods(["GET", "POST"])
def tournament_new(request: HttpRequest) -> HttpResponse:
    me = signed_in_player(request)
    clubs = selectors.organiser_clubs(player=me)
    form = TournamentForm(request.POST or None, clubs=clubs)
    if request.method == "POST" and form.is_valid():
        try:
            tournament = tournament_create(club=form.cleaned_data["club"], by=me, settings=form.settings())
        except ApplicationError as exc:
            form.add_error(None, error_text(exc))
        else:
            return redirect("web:tournament", tournament_id=tournament.pk)
    return render(request, "web/tournament_form.html", {"form": form, "clubs": clubs})


# -- clubs ------------------------------------------------------------------------------------------------


def club_list(request: HttpRequest) -> HttpResponse:
    return render(request, "web/clubs.html", {"clubs": list(clubs_list())})


def club_page(request: HttpRequest, slug: str) -> HttpResponse:
    return _render_club(request, slug)


def _render_club(request: HttpRequest, slug: str, member_form: MemberAddForm | None = None) -> HttpResponse:
    club = club_by_slug(slug=slug)
    if club is None:
        raise Http404
    me = request_player(request)
    return render(
        request,
        "web/club.html",
        {
            "club": club,
            "members": list(club_members(club=club)),
            "tournaments": selectors.club_tournaments(club=club),
            "organiser": selectors.organises(club_id=club.pk, player=me),
            "member_form": member_form or MemberAddForm(),
        },
        status=400 if member_form is not None else 200,
    )


@login_required
@require_POST
def club_member_add(request: HttpRequest, slug: str) -> HttpResponse:
    club = club_by_slug(slug=slug)
    if club is None:
        raise Http404
    form = MemberAddForm(request.POST)
    if form.is_valid():
        try:
            membership_add(
                club=club,
                by=signed_in_player(request),
                handle=form.cleaned_data["handle"],
                role=form.cleaned_data["role"],
            )
        except ApplicationError as exc:
            form.add_error(None, error_text(exc))
        else:
            messages.success(request, _("Member added."))
            return redirect("web:club", slug=club.slug)
    return _render_club(request, slug, member_form=form)


@login_required
@require_http_methods(["GET", "POST"])
def club_new(request: HttpRequest) -> HttpResponse:
    form = ClubForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            club = club_create(
                name=form.cleaned_data["name"], slug=form.cleaned_data["slug"], by=signed_in_player(request)
            )
        except ClubSlugTaken:
            form.add_error(
                "slug",
                _("Another club has the short name “%(slug)s”: choose another.")
                % {"slug": form.cleaned_data["slug"]},
            )
        except ApplicationError as exc:
            form.add_error(None, error_text(exc))  # not about the short name (a bot account, say)
        else:
            return redirect("web:club", slug=club.slug)
    return render(request, "web/club_form.html", {"form": form})
