"""Clubs: list, create, one club, its members."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games.callers import signed_in
from tournaments.apis.common import club_found
from tournaments.apis.outputs import ClubOutput, MembershipOutput
from tournaments.models import Membership
from tournaments.selectors import club_members, clubs_list
from tournaments.services import club_create, membership_add
from tute_site.api import Input, PagedList


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
