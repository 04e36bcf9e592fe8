"""``manage.py tournament_import FILE --club SLUG --by HANDLE``: read a tournament's JSON export back
(docs/TOURNAMENTS.md, "Exports") into a club of this installation."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.models import Player
from tournaments.models import Club
from tournaments.services.transfer import tournament_import
from tute_site.exceptions import ApplicationError


class Command(BaseCommand):
    help = "Import a tournament from its JSON export into a club."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", type=Path)
        parser.add_argument("--club", required=True, help="The club's short name (slug).")
        parser.add_argument("--by", required=True, help="The handle of an organiser of the club.")

    def handle(self, *args: Any, **options: Any) -> None:
        club = Club.objects.filter(slug=options["club"]).first()
        by = Player.objects.filter(handle=options["by"]).first()
        if club is None or by is None:
            raise CommandError("No such club, or no such player.")
        try:
            document = json.loads(options["file"].read_text(encoding="utf-8"))
            tournament = tournament_import(club=club, by=by, document=document)
        except (OSError, json.JSONDecodeError, ApplicationError) as exc:
            raise CommandError(str(exc)) from None
        self.stdout.write(f"tournament {tournament.pk}: {tournament.name} ({tournament.status})")
