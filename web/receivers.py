"""The website's receivers: thin, each hands its signal to one call."""

from __future__ import annotations

from typing import Any

from axes.utils import reset
from django.contrib.auth.models import AbstractBaseUser
from django.http import HttpRequest


def sign_in_failures_clear(sender: Any, request: HttpRequest, user: AbstractBaseUser, **kwargs: Any) -> None:
    """A successful sign-in clears the failed attempts at this account only, from any address; the
    address's failures at other accounts still count towards its own limit (issue 30)."""
    reset(username=user.get_username())
