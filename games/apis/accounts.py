"""The games API, accounts: who is calling, API tokens and a bot's token rotation."""

from __future__ import annotations

from drf_spectacular.utils import (
    extend_schema,
    inline_serializer,
)
from rest_framework import serializers, status
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games.apis.outputs import PlayerOutput
from games.callers import IsPerson, signed_in, signed_in_user
from games.models import Match
from games.selectors import (
    match_detail,
    tokens_of,
)
from games.services import (
    bot_token_rotate,
    token_create,
    token_revoke,
)
from tute_site.api import (
    PagedList,
    secret,
)


def found(match_id: int) -> Match:
    return match_detail(match_id=match_id)


class BotTokenRotateApi(APIView):
    permission_classes = [IsPerson]

    @extend_schema(request=None, responses=inline_serializer("TokenOut", {"token": serializers.CharField()}))
    def post(self, request: Request, handle: str) -> Response:
        return secret(Response({"token": bot_token_rotate(owner=signed_in_user(request), handle=handle)}))


class MeApi(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(responses=PlayerOutput)
    def get(self, request: Request) -> Response:
        return Response(PlayerOutput(signed_in(request)).data)


class TokenOutput(serializers.Serializer):
    id = serializers.IntegerField()
    prefix = serializers.CharField(help_text="The token's first characters, to tell tokens apart.")
    created_at = serializers.DateTimeField()
    last_used_at = serializers.DateTimeField(allow_null=True)


class MyTokenCreateApi(PagedList, APIView):
    """The signed-in person's own API tokens (for apps acting for them): list them, or make one (shown
    once). With the website's session, a POST needs the CSRF header (``X-CSRFToken``) like any form."""

    permission_classes = [IsPerson]

    @extend_schema(responses=TokenOutput(many=True))
    def get(self, request: Request) -> Response:
        return self.page_response(request, tokens_of(user=signed_in_user(request)), TokenOutput)

    @extend_schema(
        request=None, responses={201: inline_serializer("MyToken", {"token": serializers.CharField()})}
    )
    def post(self, request: Request) -> Response:
        token = token_create(user=signed_in_user(request))
        return secret(Response({"token": token}, status=status.HTTP_201_CREATED))


class MyTokenRevokeApi(APIView):
    permission_classes = [IsPerson]

    @extend_schema(request=None, responses={204: None})
    def delete(self, request: Request, token_id: int) -> Response:
        token_revoke(user=signed_in_user(request), token_id=token_id)
        return Response(status=status.HTTP_204_NO_CONTENT)
