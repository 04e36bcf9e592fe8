"""`manage.py api_token USERNAME`: a new personal API token for a person, printed once.

The shortest way from a username and a shell on the server to an API token: with it the person creates
bots (`POST /api/v1/bots/`), matches and everything else the API offers (docs/BOTS.md). Only the token
goes to stdout, so `TOKEN=$(python manage.py api_token demo)` works.
"""

from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.services import player_for_user, token_create


class Command(BaseCommand):
    help = "Create a personal API token for USERNAME and print it (shown only this once)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("username", help="An existing, active user's username.")

    def handle(self, *args: Any, **options: Any) -> None:
        username: str = options["username"]
        user = get_user_model()._default_manager.filter(username=username).first()
        if not isinstance(user, User):
            raise CommandError(f"No user is called {username!r}; create one first (e.g. createsuperuser).")
        if not user.is_active:
            raise CommandError(f"The user {username!r} is not active.")
        player = player_for_user(user=user)
        token = token_create(user=user)
        self.stderr.write(f"A new API token for {username!r} (player {player.handle!r}); it is shown once:")
        self.stdout.write(token)
