"""`manage.py tournament_demo`: a club and a running all-bot tournament to watch on a local `make run`.

The demo user (`manage.py demo_data`) organises the club "demo"; eight house bots play a three-round
Swiss of Tute 2, which the worker carries to the end. Running it again adds nothing while the demo
tournament is still running.
"""

from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.services import player_for_user
from tournaments.models import Club, Tournament
from tournaments.services import Settings, club_create, entrant_bot_fill, tournament_create, tournament_start

DEMO_CLUB = "demo"
DEMO_NAME = "Demo Swiss"


class Command(BaseCommand):
    help = "Create the club 'demo' and start an all-bot Swiss tournament of Tute 2 (run demo_data first)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--organiser", default="demo", help="Username of the organiser (default demo).")
        parser.add_argument("--bots", type=int, default=8, help="House-bot entrants (default 8).")

    def handle(self, *args: Any, **options: Any) -> None:
        user = get_user_model()._default_manager.filter(username=options["organiser"]).first()
        if user is None:
            raise CommandError(f"No user {options['organiser']!r}: run `manage.py demo_data` first.")
        if not 2 <= options["bots"] <= 64:
            raise CommandError("--bots must be from 2 to 64")
        organiser = player_for_user(user=user)
        club = Club.objects.filter(slug=DEMO_CLUB).first() or club_create(
            name="Demo club", slug=DEMO_CLUB, by=organiser
        )
        running = Tournament.objects.filter(
            club=club, name=DEMO_NAME, status=Tournament.Status.RUNNING
        ).first()
        if running is not None:
            self.stdout.write(f"{DEMO_NAME!r} (id {running.pk}) is still running; left unchanged.")
            return
        settings = Settings(
            name=DEMO_NAME,
            game="tute2",
            format="swiss",
            swiss_rounds=3,
            rated=False,
            tie_breaks=("buchholz",),
        )
        tournament = tournament_create(club=club, by=organiser, settings=settings)
        half = options["bots"] // 2
        entrant_bot_fill(tournament_id=tournament.pk, by=organiser, level="rule", count=half)
        entrant_bot_fill(
            tournament_id=tournament.pk, by=organiser, level="random", count=options["bots"] - half
        )
        tournament_start(tournament_id=tournament.pk, by=organiser)
        self.stdout.write(
            self.style.SUCCESS(
                f"Started {DEMO_NAME!r} (id {tournament.pk}): /api/v1/tournaments/{tournament.pk}/standings/"
            )
        )
