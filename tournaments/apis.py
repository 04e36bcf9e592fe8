"""The tournaments API under /api/v1/: one thin view per operation; services do the work.

Reads are open to anyone; entering, checking in and withdrawing need a signed-in player; creating and
running tournaments (invitations, house bots, start, corrections) need an organiser of the club, which
the services check (``not_organiser``, 403).
"""

from __future__ import annotations

import math
import re
from fractions import Fraction
from typing import Any

from drf_spectacular.utils import OpenApiResponse, extend_schema, extend_schema_field
from rest_framework import serializers, status
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games.bots import BOT_LEVELS
from games.callers import signed_in
from games.models import Match
from tournaments.errors import (
    ClubNotFound,
    EntrantNotFound,
    NoBracket,
    TournamentMatchNotFound,
    TournamentNotFound,
)
from tournaments.models import Club, Membership, Tournament
from tournaments.pairing import TieBreak
from tournaments.selectors import (
    bracket_view,
    club_by_slug,
    club_members,
    clubs_list,
    corrections_of,
    entrants_of,
    matches_of,
    rounds_with_matches,
    standings_table,
    tournament_board_sheet,
    tournament_boards,
    tournament_detail,
    tournament_match,
    tournaments_list,
)
from tournaments.services import (
    Settings,
    check_in,
    club_create,
    entrant_bot_fill,
    entrant_rename,
    invite,
    membership_add,
    no_show,
    partner_set,
    register,
    result_correct,
    tournament_cancel,
    tournament_create,
    tournament_start,
    tournament_update,
    withdraw,
)
from tute_site.api import ErrorOutput, Input, PagedList, QueryIntegerField, query_input


def club_found(slug: str) -> Club:
    club = club_by_slug(slug=slug)
    if club is None:
        raise ClubNotFound()
    return club


def found(tournament_id: int) -> Tournament:
    tournament = tournament_detail(tournament_id=tournament_id)
    if tournament is None:
        raise TournamentNotFound()
    return tournament


# -- output shapes ----------------------------------------------------------------------------------------


class ClubOutput(serializers.Serializer):
    name = serializers.CharField()
    slug = serializers.SlugField()
    members = serializers.IntegerField(required=False)
    created_at = serializers.DateTimeField()


class MembershipOutput(serializers.Serializer):
    player = serializers.CharField(source="player.handle")
    role = serializers.CharField()
    joined_at = serializers.DateTimeField()


class TournamentOutput(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    club = serializers.CharField(source="club.slug")
    created_by = serializers.CharField(source="created_by.handle")
    game = serializers.CharField()
    options = serializers.JSONField()
    match_format = serializers.CharField()
    match_target = serializers.IntegerField()
    duplicate_scoring = serializers.CharField(
        help_text="Duplicate tournaments: matchpoints or total_points (docs/TOURNAMENTS.md)."
    )
    format = serializers.CharField()
    third_place = serializers.BooleanField()
    grand_final_reset = serializers.BooleanField()
    double_round_robin = serializers.BooleanField()
    swiss_rounds = serializers.IntegerField(allow_null=True)
    avoid_same_club = serializers.BooleanField()
    table_size = serializers.IntegerField(allow_null=True)
    pocha_rounds = serializers.IntegerField(allow_null=True)
    rated = serializers.BooleanField()
    registration = serializers.CharField()
    max_entrants = serializers.IntegerField(allow_null=True)
    entrants = serializers.IntegerField(source="entrant_count", required=False)
    check_in_opens_at = serializers.DateTimeField(allow_null=True)
    check_in_closes_at = serializers.DateTimeField(allow_null=True)
    starts_at = serializers.DateTimeField(allow_null=True)
    round_interval_minutes = serializers.IntegerField()
    seeding = serializers.CharField()
    tie_breaks = serializers.ListField(child=serializers.CharField())
    status = serializers.CharField()
    current_round = serializers.IntegerField()
    created_at = serializers.DateTimeField()
    started_at = serializers.DateTimeField(allow_null=True)
    finished_at = serializers.DateTimeField(allow_null=True)


class EntrantOutput(serializers.Serializer):
    id = serializers.IntegerField()
    seed = serializers.IntegerField(allow_null=True)
    name = serializers.CharField()
    players = serializers.ListField(child=serializers.CharField(), help_text="Handles; a pair's first first.")
    house_bots = serializers.ListField(child=serializers.CharField(), help_text="Levels of house bots.")
    club = serializers.CharField(allow_null=True, help_text="The club the entrant represents.")
    status = serializers.CharField()


class MatchRowOutput(serializers.Serializer):
    id = serializers.IntegerField()
    round = QueryIntegerField()
    code = serializers.CharField(
        help_text="Bracket code (W1.3, L2.1, GF1, 3P) or R<round>.B<board> / T<table>."
    )
    board = serializers.IntegerField()
    kind = serializers.CharField(help_text="match, bye or walkover")
    status = serializers.CharField(help_text="playing or done")
    match_id = serializers.IntegerField(allow_null=True, help_text="The games match (/api/v1/matches/<id>/).")
    entrants = EntrantOutput(many=True, help_text="In seat order; Tute 4: pair i sits at seats i and i+2.")
    winner = serializers.IntegerField(allow_null=True)
    points = serializers.ListField(
        child=serializers.FloatField(),
        allow_null=True,
        help_text="Tournament points by position (a number; `points_exact` has the exact fractions).",
    )
    points_exact = serializers.SerializerMethodField(
        help_text='The same points exactly, as fractions in text: "1/3", "1", "0".'
    )
    games_won = serializers.ListField(child=serializers.IntegerField(), allow_null=True)
    card_points = serializers.ListField(child=serializers.IntegerField(), allow_null=True)
    forfeit = serializers.BooleanField()

    def get_points_exact(self, row: Any) -> list[str] | None:
        return [str(p) for p in row.points] if row.points is not None else None


class RoundOutput(serializers.Serializer):
    number = serializers.IntegerField()
    status = serializers.CharField()
    started_at = serializers.DateTimeField()
    completed_at = serializers.DateTimeField(allow_null=True)
    matches = MatchRowOutput(many=True)


class StandingOutput(serializers.Serializer):
    rank = serializers.IntegerField()
    entrant = EntrantOutput()
    points = serializers.FloatField(help_text="Tournament points (`points_exact` has the exact fraction).")
    points_exact = serializers.SerializerMethodField(help_text='Points as an exact fraction: "13/6", "2".')
    played = serializers.IntegerField()
    tie_breaks = serializers.DictField(
        child=serializers.FloatField(), help_text="By name, in the tournament's order (docs/TOURNAMENTS.md)."
    )

    withdrawn = serializers.BooleanField(
        help_text="Withdrew after the start: ranked after everyone still in."
    )

    def get_points_exact(self, row: Any) -> str:
        return str(row.points)


class BracketSlotOutput(serializers.Serializer):
    code = serializers.CharField()
    round = QueryIntegerField()
    entrants = EntrantOutput(many=True, allow_null=True)
    status = serializers.CharField(help_text="waiting, ready, played, walkover or skipped")
    winner = serializers.IntegerField(allow_null=True)
    tournament_match = serializers.IntegerField(allow_null=True)

    def to_representation(self, instance: Any) -> dict[str, Any]:
        out = {
            "code": instance.code,
            "round": instance.round,
            "entrants": [EntrantOutput(e).data if e is not None else None for e in instance.entrants],
            "status": instance.status,
            "winner": instance.winner,
            "tournament_match": instance.tournament_match,
        }
        return out


class BracketSectionOutput(serializers.Serializer):
    section = serializers.CharField(help_text="W, L, GF or 3P")
    rounds = serializers.ListField(child=BracketSlotOutput(many=True))


class BracketOutput(serializers.Serializer):
    kind = serializers.CharField()
    size = serializers.IntegerField()
    byes = EntrantOutput(many=True)
    sections = BracketSectionOutput(many=True)
    champion = EntrantOutput(allow_null=True)


class CorrectionOutput(serializers.Serializer):
    id = serializers.IntegerField()
    tournament_match = serializers.IntegerField(source="tournament_match_id")
    code = serializers.CharField(source="tournament_match.code")
    by = serializers.CharField(source="by.handle")
    before = serializers.JSONField()
    after = serializers.JSONField()
    reason = serializers.CharField()
    created_at = serializers.DateTimeField()


#: Points in text: a decimal (an exponent of at most three digits: no 10**huge to compute) or a fraction.
POINTS_TEXT = r"^[-+]?([0-9]+(\.[0-9]*)?|\.[0-9]+)([eE][-+]?[0-9]{1,3})?$|^[-+]?[0-9]+/0*[1-9][0-9]*$"


@extend_schema_field(
    {
        "oneOf": [
            {"type": "number"},
            {"type": "string", "pattern": POINTS_TEXT, "maxLength": 24, "example": "1/3"},
        ]
    }
)
class PointInput(serializers.Field):
    """Tournament points as a number (0.5) or an exact fraction in text ("1/3")."""

    default_error_messages = {"invalid": 'A number or a fraction such as "1/3" is required.'}

    def to_internal_value(self, data: Any) -> Fraction:
        if isinstance(data, bool) or not isinstance(data, int | float | str) or len(str(data)) > 24:
            self.fail("invalid")
        if isinstance(data, str) and not re.fullmatch(POINTS_TEXT, data):
            self.fail("invalid")
        if isinstance(data, float) and not math.isfinite(data):
            self.fail("invalid")
        try:
            return Fraction(str(data))
        except (ValueError, ZeroDivisionError):
            self.fail("invalid")

    def to_representation(self, value: Any) -> str:
        return str(value)


# -- clubs ----------------------------------------------------------------------------------------------------


class ClubListCreateApi(PagedList, APIView):
    class InputSerializer(Input):
        class Meta:
            ref_name = "ClubCreateInput"

        name = serializers.CharField(max_length=80)
        slug = serializers.SlugField(max_length=40)

    def get_permissions(self) -> list[Any]:
        return [AllowAny()] if self.request.method == "GET" else [IsAuthenticated()]

    @extend_schema(responses=ClubOutput(many=True))
    def get(self, request: Request) -> Response:
        return self.page_response(request, clubs_list(), ClubOutput)

    @extend_schema(request=InputSerializer, responses={201: ClubOutput})
    def post(self, request: Request) -> Response:
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        club = club_create(by=signed_in(request), **data.validated_data)
        return Response(ClubOutput(club).data, status=status.HTTP_201_CREATED)


class ClubDetailApi(APIView):
    permission_classes = [AllowAny]

    @extend_schema(responses=ClubOutput)
    def get(self, request: Request, slug: str) -> Response:
        return Response(ClubOutput(club_found(slug)).data)


class ClubMembersApi(PagedList, APIView):
    class InputSerializer(Input):
        class Meta:
            ref_name = "ClubMemberInput"

        player = serializers.SlugField(max_length=32)
        role = serializers.ChoiceField(choices=Membership.Role.choices, default=Membership.Role.MEMBER)

    def get_permissions(self) -> list[Any]:
        return [AllowAny()] if self.request.method == "GET" else [IsAuthenticated()]

    @extend_schema(responses=MembershipOutput(many=True))
    def get(self, request: Request, slug: str) -> Response:
        return self.page_response(request, club_members(club=club_found(slug)), MembershipOutput)

    @extend_schema(request=InputSerializer, responses={201: MembershipOutput})
    def post(self, request: Request, slug: str) -> Response:
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        membership = membership_add(
            club=club_found(slug),
            by=signed_in(request),
            handle=data.validated_data["player"],
            role=data.validated_data["role"],
        )
        return Response(MembershipOutput(membership).data, status=status.HTTP_201_CREATED)


# -- tournaments -------------------------------------------------------------------------------------------------


class TournamentInput(Input):
    class Meta:
        ref_name = "TournamentInput"

    club = serializers.SlugField(max_length=40, help_text="The club's slug (create only).")
    name = serializers.CharField(max_length=120)
    game = serializers.ChoiceField(choices=Match.GameName.choices)
    format = serializers.ChoiceField(choices=Tournament.Format.choices)
    options = serializers.DictField(required=False, help_text="Rules flags of docs/RULES.md.")
    match_format = serializers.ChoiceField(choices=Match.Format.choices, default=Match.Format.SINGLE)
    match_target = serializers.IntegerField(
        default=1,
        min_value=1,
        max_value=99,
        help_text="N of best of N / first to N; duplicate: the boards every table plays each round.",
    )
    duplicate_scoring = serializers.ChoiceField(
        choices=Tournament.DuplicateScoring.choices,
        default=Tournament.DuplicateScoring.MATCHPOINTS,
        help_text="match_format duplicate: how tables on the same boards are compared.",
    )
    third_place = serializers.BooleanField(default=False)
    grand_final_reset = serializers.BooleanField(
        default=True,
        help_text="Double elimination: replay the grand final when the losers'-bracket champion wins it.",
    )
    double_round_robin = serializers.BooleanField(default=False)
    swiss_rounds = serializers.IntegerField(required=False, allow_null=True, min_value=1, max_value=30)
    avoid_same_club = serializers.BooleanField(default=False)
    table_size = serializers.IntegerField(required=False, allow_null=True, min_value=3, max_value=6)
    pocha_rounds = serializers.IntegerField(required=False, allow_null=True, min_value=1, max_value=30)
    rated = serializers.BooleanField(default=True)
    registration = serializers.ChoiceField(
        choices=Tournament.Registration.choices, default=Tournament.Registration.OPEN
    )
    passcode = serializers.CharField(required=False, allow_null=True, max_length=64, write_only=True)
    max_entrants = serializers.IntegerField(required=False, allow_null=True, min_value=2, max_value=4096)
    check_in_opens_at = serializers.DateTimeField(required=False, allow_null=True)
    check_in_closes_at = serializers.DateTimeField(required=False, allow_null=True)
    starts_at = serializers.DateTimeField(required=False, allow_null=True)
    round_interval_minutes = serializers.IntegerField(default=0, min_value=0, max_value=7 * 24 * 60)
    seeding = serializers.ChoiceField(choices=Tournament.Seeding.choices, default=Tournament.Seeding.RATING)
    tie_breaks = serializers.ListField(
        child=serializers.ChoiceField(choices=[t.value for t in TieBreak]), default=list, max_length=5
    )


def settings_of(v: dict[str, Any]) -> Settings:
    fields = {k: val for k, val in v.items() if k != "club"}
    fields["tie_breaks"] = tuple(fields.get("tie_breaks", ()))
    return Settings(**fields)


class TournamentListCreateApi(PagedList, APIView):
    class FilterSerializer(serializers.Serializer):
        club = serializers.SlugField(required=False)
        status = serializers.ChoiceField(choices=Tournament.Status.choices, required=False)
        game = serializers.ChoiceField(choices=Match.GameName.choices, required=False)
        format = serializers.ChoiceField(choices=Tournament.Format.choices, required=False)

    def get_permissions(self) -> list[Any]:
        return [AllowAny()] if self.request.method == "GET" else [IsAuthenticated()]

    @extend_schema(parameters=[FilterSerializer], responses=TournamentOutput(many=True))
    def get(self, request: Request) -> Response:
        filters = self.FilterSerializer(data=query_input(request))
        filters.is_valid(raise_exception=True)
        return self.page_response(request, tournaments_list(**filters.validated_data), TournamentOutput)

    @extend_schema(request=TournamentInput, responses={201: TournamentOutput})
    def post(self, request: Request) -> Response:
        data = TournamentInput(data=request.data)
        data.is_valid(raise_exception=True)
        club = club_found(data.validated_data["club"])
        tournament = tournament_create(
            club=club, by=signed_in(request), settings=settings_of(data.validated_data)
        )
        return Response(TournamentOutput(found(tournament.pk)).data, status=status.HTTP_201_CREATED)


class TournamentDetailApi(APIView):
    def get_permissions(self) -> list[Any]:
        return [AllowAny()] if self.request.method == "GET" else [IsAuthenticated()]

    @extend_schema(responses=TournamentOutput)
    def get(self, request: Request, tournament_id: int) -> Response:
        return Response(TournamentOutput(found(tournament_id)).data)

    @extend_schema(request=TournamentInput, responses=TournamentOutput)
    def put(self, request: Request, tournament_id: int) -> Response:
        """Replace the settings (before the start); ``club`` is ignored. A passcode only when given."""
        tournament = found(tournament_id)
        data = TournamentInput(data={**request.data, "club": tournament.club.slug})
        data.is_valid(raise_exception=True)
        tournament_update(
            tournament_id=tournament_id, by=signed_in(request), settings=settings_of(data.validated_data)
        )
        return Response(TournamentOutput(found(tournament_id)).data)


class EntrantListApi(PagedList, APIView):
    permission_classes = [AllowAny]

    @extend_schema(responses=EntrantOutput(many=True))
    def get(self, request: Request, tournament_id: int) -> Response:
        return self.page_response(request, entrants_of(tournament=found(tournament_id)), EntrantOutput)


def entrant_out(tournament: Tournament, entrant_id: int) -> dict[str, Any]:
    ref = next((e for e in entrants_of(tournament=tournament) if e.id == entrant_id), None)
    if ref is None:
        raise EntrantNotFound()
    return EntrantOutput(ref).data


class EntrantRenameApi(APIView):
    """The organiser names an entrant before the start (house bots come named "Rule bot 3")."""

    permission_classes = [IsAuthenticated]

    class InputSerializer(Input):
        class Meta:
            ref_name = "TournamentEntrantInput"

        name = serializers.CharField(
            max_length=64,
            required=False,
            help_text="Distinct within the tournament (any case). Without it nothing changes (a PATCH).",
        )

    @extend_schema(request=InputSerializer, responses=EntrantOutput)
    def patch(self, request: Request, tournament_id: int, entrant_id: int) -> Response:
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        if "name" not in data.validated_data:
            return Response(entrant_out(found(tournament_id), entrant_id))
        entrant_rename(
            tournament_id=tournament_id,
            by=signed_in(request),
            entrant_id=entrant_id,
            name=data.validated_data["name"],
        )
        return Response(entrant_out(found(tournament_id), entrant_id))


class RegisterApi(APIView):
    permission_classes = [IsAuthenticated]

    class InputSerializer(Input):
        class Meta:
            ref_name = "TournamentRegisterInput"

        passcode = serializers.CharField(required=False, allow_null=True, max_length=64)
        partner = serializers.SlugField(required=False, allow_null=True, max_length=32, help_text="Tute 4.")
        partner_bot = serializers.ChoiceField(choices=BOT_LEVELS, required=False, allow_null=True)
        club = serializers.SlugField(required=False, allow_null=True, help_text="The club you represent.")

    @extend_schema(request=InputSerializer, responses={201: EntrantOutput})
    def post(self, request: Request, tournament_id: int) -> Response:
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        entrant = register(tournament_id=tournament_id, player=signed_in(request), **data.validated_data)
        return Response(entrant_out(found(tournament_id), entrant.pk), status=status.HTTP_201_CREATED)


class PartnerApi(APIView):
    permission_classes = [IsAuthenticated]

    class InputSerializer(Input):
        class Meta:
            ref_name = "TournamentPartnerInput"

        partner = serializers.SlugField(required=False, allow_null=True, max_length=32)
        partner_bot = serializers.ChoiceField(choices=BOT_LEVELS, required=False, allow_null=True)

    @extend_schema(request=InputSerializer, responses=EntrantOutput)
    def post(self, request: Request, tournament_id: int, entrant_id: int) -> Response:
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        partner_set(
            tournament_id=tournament_id,
            by=signed_in(request),
            entrant_id=entrant_id,
            partner=data.validated_data.get("partner"),
            partner_bot=data.validated_data.get("partner_bot"),
        )
        return Response(entrant_out(found(tournament_id), entrant_id))


class InviteApi(APIView):
    permission_classes = [IsAuthenticated]

    class InputSerializer(Input):
        class Meta:
            ref_name = "TournamentInviteInput"

        player = serializers.SlugField(max_length=32)

    @extend_schema(request=InputSerializer, responses={201: EntrantOutput})
    def post(self, request: Request, tournament_id: int) -> Response:
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        entrant = invite(
            tournament_id=tournament_id, by=signed_in(request), handle=data.validated_data["player"]
        )
        return Response(entrant_out(found(tournament_id), entrant.pk), status=status.HTTP_201_CREATED)


class CheckInApi(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(request=None, responses=EntrantOutput)
    def post(self, request: Request, tournament_id: int) -> Response:
        entrant = check_in(tournament_id=tournament_id, player=signed_in(request))
        return Response(entrant_out(found(tournament_id), entrant.pk))


class WithdrawApi(APIView):
    permission_classes = [IsAuthenticated]

    class InputSerializer(Input):
        class Meta:
            ref_name = "TournamentWithdrawInput"

        entrant = serializers.IntegerField(
            required=False, allow_null=True, help_text="Organisers: the entrant to withdraw (default: yours)."
        )

    @extend_schema(request=InputSerializer, responses=EntrantOutput)
    def post(self, request: Request, tournament_id: int) -> Response:
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        entrant = withdraw(
            tournament_id=tournament_id, by=signed_in(request), entrant_id=data.validated_data.get("entrant")
        )
        return Response(entrant_out(found(tournament_id), entrant.pk))


class BotFillApi(APIView):
    permission_classes = [IsAuthenticated]

    class InputSerializer(Input):
        class Meta:
            ref_name = "TournamentBotFillInput"

        level = serializers.ChoiceField(choices=BOT_LEVELS)
        count = serializers.IntegerField(
            default=0, min_value=0, max_value=256, help_text="House-bot entrants."
        )
        partners = serializers.BooleanField(default=True, help_text="Tute 4: fill missing partners too.")

    @extend_schema(request=InputSerializer, responses={201: EntrantOutput(many=True)})
    def post(self, request: Request, tournament_id: int) -> Response:
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        changed = {
            e.pk
            for e in entrant_bot_fill(
                tournament_id=tournament_id, by=signed_in(request), **data.validated_data
            )
        }
        refs = [e for e in entrants_of(tournament=found(tournament_id)) if e.id in changed]
        return Response(EntrantOutput(refs, many=True).data, status=status.HTTP_201_CREATED)


class StartApi(APIView):
    permission_classes = [IsAuthenticated]

    class InputSerializer(Input):
        class Meta:
            ref_name = "TournamentStartInput"

        order = serializers.ListField(
            child=serializers.IntegerField(),
            required=False,
            allow_null=True,
            max_length=4096,
            help_text="Manual seeding: every entrant id, best first.",
        )

    @extend_schema(request=InputSerializer, responses=TournamentOutput)
    def post(self, request: Request, tournament_id: int) -> Response:
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        tournament_start(
            tournament_id=tournament_id, by=signed_in(request), order=data.validated_data.get("order")
        )
        return Response(TournamentOutput(found(tournament_id)).data)


class CancelApi(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(request=None, responses=TournamentOutput)
    def post(self, request: Request, tournament_id: int) -> Response:
        tournament_cancel(tournament_id=tournament_id, by=signed_in(request))
        return Response(TournamentOutput(found(tournament_id)).data)


class RoundListApi(PagedList, APIView):
    permission_classes = [AllowAny]

    @extend_schema(responses=RoundOutput(many=True))
    def get(self, request: Request, tournament_id: int) -> Response:
        return self.page_response(request, rounds_with_matches(tournament=found(tournament_id)), RoundOutput)


class MatchListApi(PagedList, APIView):
    permission_classes = [AllowAny]

    class FilterSerializer(serializers.Serializer):
        round = QueryIntegerField(required=False, min_value=1)

    @extend_schema(parameters=[FilterSerializer], responses=MatchRowOutput(many=True))
    def get(self, request: Request, tournament_id: int) -> Response:
        filters = self.FilterSerializer(data=query_input(request))
        filters.is_valid(raise_exception=True)
        rows = matches_of(tournament=found(tournament_id), round=filters.validated_data.get("round"))
        return self.page_response(request, rows, MatchRowOutput)


class MatchDetailApi(APIView):
    permission_classes = [AllowAny]

    @extend_schema(responses=MatchRowOutput)
    def get(self, request: Request, tournament_id: int, tournament_match_id: int) -> Response:
        row = tournament_match(tournament=found(tournament_id), tournament_match_id=tournament_match_id)
        if row is None:
            raise TournamentMatchNotFound()
        return Response(MatchRowOutput(row).data)


class NoShowApi(APIView):
    permission_classes = [IsAuthenticated]

    class InputSerializer(Input):
        class Meta:
            ref_name = "TournamentNoShowInput"

        entrant = serializers.IntegerField(help_text="The entrant who did not turn up.")

    @extend_schema(request=InputSerializer, responses=MatchRowOutput)
    def post(self, request: Request, tournament_id: int, tournament_match_id: int) -> Response:
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        tm = no_show(
            tournament_id=tournament_id,
            tournament_match_id=tournament_match_id,
            by=signed_in(request),
            entrant_id=data.validated_data["entrant"],
        )
        return Response(
            MatchRowOutput(tournament_match(tournament=found(tournament_id), tournament_match_id=tm.pk)).data
        )


class StandingsApi(APIView):
    permission_classes = [AllowAny]

    @extend_schema(responses=StandingOutput(many=True))
    def get(self, request: Request, tournament_id: int) -> Response:
        return Response(StandingOutput(standings_table(tournament=found(tournament_id)), many=True).data)


class TournamentBoardOutput(serializers.Serializer):
    number = serializers.IntegerField(help_text="The board's number in the tournament (from 1).")
    round = serializers.IntegerField(source="round.number")
    players = serializers.IntegerField(help_text="The tables it is dealt for have this many seats.")
    board = serializers.IntegerField(
        source="board_id", help_text="The games board: GET /api/v1/boards/{id}/."
    )
    seed_sha256 = serializers.CharField(source="board.seed_sha256")
    revealed = serializers.BooleanField(source="board.is_revealed")
    plays_done = serializers.IntegerField(help_text="Plays of the board finished so far, at every table.")


class HoldingOutput(serializers.Serializer):
    hand = serializers.IntegerField(
        help_text="The game side (Tute) or game seat (Pocha) whose cards were held."
    )
    entrant = serializers.IntegerField()
    name = serializers.CharField()
    score = serializers.IntegerField(
        help_text="Tute: the side's score minus the other side's; Pocha: the seat's score."
    )
    matchpoints = serializers.IntegerField(
        help_text="2 per holder of the same hand at another table outscored, 1 per tie."
    )


class SheetLineOutput(serializers.Serializer):
    table = serializers.CharField(help_text="The tournament match's code (R1.B2, R1.T1).")
    tournament_match = serializers.IntegerField()
    match = serializers.IntegerField()
    game_number = serializers.IntegerField()
    seat_map = serializers.ListField(child=serializers.IntegerField())
    holdings = HoldingOutput(many=True)


class ScoreSheetOutput(serializers.Serializer):
    number = serializers.IntegerField()
    round = serializers.IntegerField()
    players = serializers.IntegerField()
    board = serializers.IntegerField()
    seed_sha256 = serializers.CharField()
    revealed = serializers.BooleanField()
    dealer = serializers.IntegerField()
    plays_done = serializers.IntegerField()
    lines = SheetLineOutput(many=True, help_text="Every table's plays: empty until the board is revealed.")


class BoardListApi(PagedList, APIView):
    permission_classes = [AllowAny]

    @extend_schema(
        description="A duplicate tournament's boards (every table of a round plays the round's boards), in "
        "number order; empty for other tournaments.",
        responses=TournamentBoardOutput(many=True),
    )
    def get(self, request: Request, tournament_id: int) -> Response:
        boards = tournament_boards(tournament=found(tournament_id))
        return self.page_response(request, boards, TournamentBoardOutput)


class BoardSheetApi(APIView):
    permission_classes = [AllowAny]

    @extend_schema(
        description="Board n's travelling score sheet: every table's result on it, each hand's holder, score "
        "and matchpoints (docs/TOURNAMENTS.md). The lines are shown once every table has played the board.",
        responses={
            200: ScoreSheetOutput,
            404: OpenApiResponse(ErrorOutput, description="tournament_not_found, tournament_board_not_found"),
        },
    )
    def get(self, request: Request, tournament_id: int, number: int) -> Response:
        sheet = tournament_board_sheet(tournament=found(tournament_id), number=number)
        return Response(ScoreSheetOutput(sheet).data)


class BracketApi(APIView):
    permission_classes = [AllowAny]

    @extend_schema(responses=BracketOutput)
    def get(self, request: Request, tournament_id: int) -> Response:
        view = bracket_view(tournament=found(tournament_id))
        if view is None:
            raise NoBracket()
        return Response(BracketOutput(view).data)


class CorrectionListCreateApi(PagedList, APIView):
    class InputSerializer(Input):
        class Meta:
            ref_name = "TournamentCorrectionInput"

        match = serializers.IntegerField(help_text="The tournament match's id.")
        winner = serializers.IntegerField(
            required=False, allow_null=True, help_text="An entrant id; null: a draw."
        )
        points = serializers.ListField(
            child=PointInput(),
            required=False,
            allow_null=True,
            max_length=6,
            help_text='Pocha tables: each player\'s points (0 to 1), in seat order: exact ("1/3") or decimal.',
        )
        games_won = serializers.ListField(
            child=serializers.IntegerField(min_value=0, max_value=99),
            required=False,
            allow_null=True,
            max_length=6,
            help_text="Games won by position; without it the corrected match counts no games won.",
        )
        card_points = serializers.ListField(
            child=serializers.IntegerField(min_value=0, max_value=100_000),
            required=False,
            allow_null=True,
            max_length=6,
            help_text="Card points by position; without them the corrected match counts none.",
        )
        reason = serializers.CharField(required=False, allow_blank=True, max_length=200, default="")

    def get_permissions(self) -> list[Any]:
        return [AllowAny()] if self.request.method == "GET" else [IsAuthenticated()]

    @extend_schema(responses=CorrectionOutput(many=True))
    def get(self, request: Request, tournament_id: int) -> Response:
        return self.page_response(request, corrections_of(tournament=found(tournament_id)), CorrectionOutput)

    @extend_schema(request=InputSerializer, responses={201: MatchRowOutput})
    def post(self, request: Request, tournament_id: int) -> Response:
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        v = data.validated_data
        tm = result_correct(
            tournament_id=tournament_id,
            tournament_match_id=v["match"],
            by=signed_in(request),
            winner=v.get("winner"),
            points=v.get("points"),
            games_won=v.get("games_won"),
            card_points=v.get("card_points"),
            reason=v["reason"],
        )
        row = tournament_match(tournament=found(tournament_id), tournament_match_id=tm.pk)
        return Response(MatchRowOutput(row).data, status=status.HTTP_201_CREATED)
