"""``Authorization: Token <token>`` for bots and apps, against tokens stored as SHA-256 digests."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.utils import timezone
from drf_spectacular.extensions import OpenApiAuthenticationExtension
from rest_framework import authentication, exceptions
from rest_framework.request import Request

from games.models import ApiToken
from games.tokens import token_digest

LAST_USED_RESOLUTION = timedelta(minutes=5)


class TokenAuthentication(authentication.BaseAuthentication):
    keyword = "Token"

    def authenticate(self, request: Request) -> tuple[Any, ApiToken] | None:
        header = authentication.get_authorization_header(request).split()
        if not header or header[0].lower() != self.keyword.lower().encode():
            return None
        if len(header) != 2:
            raise exceptions.AuthenticationFailed("Invalid token header: use 'Authorization: Token <token>'.")
        try:
            token = header[1].decode()
        except UnicodeError:
            raise exceptions.AuthenticationFailed("Invalid token header: the token is not text.") from None
        found = (
            ApiToken.objects.select_related("user", "user__player").filter(digest=token_digest(token)).first()
        )
        if found is None or not found.user.is_active:
            raise exceptions.AuthenticationFailed("Invalid or revoked token.")
        now = timezone.now()
        if found.last_used_at is None or now - found.last_used_at > LAST_USED_RESOLUTION:
            ApiToken.objects.filter(pk=found.pk).update(last_used_at=now)  # at most one write per few minutes
        return found.user, found

    def authenticate_header(self, request: Request) -> str:
        return self.keyword


class TokenAuthenticationScheme(OpenApiAuthenticationExtension):
    """Documents the token scheme in the OpenAPI schema."""

    target_class = "games.authentication.TokenAuthentication"
    name = "tokenAuth"

    def get_security_definition(self, auto_schema: Any) -> dict[str, str]:
        return {
            "type": "apiKey",
            "in": "header",
            "name": "Authorization",
            "description": "`Token <token>`: a bot's token (POST /api/v1/bots/) or a personal one.",
        }
