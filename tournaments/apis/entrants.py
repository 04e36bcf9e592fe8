"""Entrants: the list, renaming, registering, partners, invitations, check-in, withdrawal, house bots."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games.bots import BOT_LEVELS
from games.callers import signed_in
from tournaments.apis.common import entrant_out, found
from tournaments.apis.outputs import EntrantOutput
from tournaments.selectors import entrants_of
from tournaments.services import (
    check_in,
    entrant_bot_fill,
    entrant_rename,
    invite,
    partner_set,
    register,
    withdraw,
)
from tute_site.api import Input, PagedList


class EntrantListApi(PagedList, APIView):
    permission_classes = [AllowAny]

    @extend_schema(responses=EntrantOutput(many=True))
    def get(self, request: Request, tournament_id: int) -> Response:
        return self.page_response(request, entrants_of(tournament=found(tournament_id)), EntrantOutput)


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
