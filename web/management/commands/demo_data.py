"""`manage.py demo_data`: what a local `make run` starts with, so the site looks alive (issue 14).

A superuser demo/demo; a dozen players (password demo) and three bot accounts owned by demo, with
rating histories from 22 finished rated matches of all three games (each replayable); the club "demo"
with a finished single elimination of Tute 2 and a running Swiss of house bots (`tournament_demo`).

Everything is played through the services, as the site would: people's moves with `action_submit`
(chosen by the rule or random bot for them), house bots' with `bot_turn_play`, each finished match
rated at once (`match_ratings_apply_pending`, which the worker's task would call; it applies once) and
each tournament result recorded and the next round generated as the worker's tasks would. The tasks
the services queue on the way find the work done and change nothing.

Safe to run again: the content is added once (its marker is the finished cup, made last), and a run
stopped halfway (a Ctrl-C while `make run` loads it behind the site) goes on where it stopped: the
matches already made are not made again, an unfinished one is played out, the cup resumes. Each match
draws its table and moves from a generator of its own, so a resumed run makes the same content (but
for the one match it stopped in). With
``--progress`` a line per match says how far it is. DEBUG only.
"""

from __future__ import annotations

import random
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from games.models import Match, Player
from games.selectors import match_context
from games.services import (
    SeatSpec,
    action_submit,
    bot_create,
    bot_turn_play,
    house_bot_action,
    match_create,
    match_spec,
    player_for_user,
)
from ratings.services import match_ratings_apply_pending
from tournaments.models import Club, Tournament
from tournaments.services import (
    Settings,
    club_create,
    match_result_record,
    membership_add,
    register,
    tournament_advance,
    tournament_create,
    tournament_start,
)

DEMO_USERNAME = "demo"
DEMO_PASSWORD = "demo"
DEMO_CLUB = "demo"
CUP_NAME = "Demo Cup"
PEOPLE = [
    ("lucia", "Lucía"),
    ("mateo", "Mateo"),
    ("carmen", "Carmen"),
    ("pablo", "Pablo"),
    ("elena", "Elena"),
    ("javier", "Javier"),
    ("sofia", "Sofía"),
    ("diego", "Diego"),
    ("marta", "Marta"),
    ("alvaro", "Álvaro"),
    ("ines", "Inés"),
    ("hugo", "Hugo"),
]
BOT_ACCOUNTS = [("as-de-oros", "As de Oros"), ("el-cantor", "El Cantor"), ("pocha-matic", "Pocha-matic")]
#: The finished matches: (game, number of seats, how many).
FINISHED = [("tute2", 2, 10), ("tute4", 4, 6), ("pocha", 4, 6)]


class Command(BaseCommand):
    help = (
        "Create demo content for local development: superuser demo/demo, players, bot accounts, finished "
        "matches with ratings, a club with a finished cup and a running Swiss. Refuses unless DEBUG is on."
    )

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--progress", action="store_true", help="A line per match played.")

    def handle(self, *args: Any, **options: Any) -> None:
        self.progress = bool(options.get("progress"))
        if not settings.DEBUG:
            raise CommandError(
                "demo_data creates a superuser with a known password, so it runs only with DEBUG on "
                "(DJANGO_DEBUG=1). It is for local development, never for a deployment."
            )
        user = self._demo_superuser()
        # Not one transaction around it all: each service commits its own, as on the site (the states it
        # caches on commit keep the thousands of moves below from replaying their games from the start).
        if Tournament.objects.filter(
            club__slug=DEMO_CLUB, name=CUP_NAME, status=Tournament.Status.FINISHED
        ).exists():
            self.stdout.write("Demo content already there; left unchanged.")
        else:
            self._content(user)
        call_command("tournament_demo", organiser=DEMO_USERNAME, stdout=self.stdout)

    @transaction.atomic
    def _demo_superuser(self) -> Any:
        user_model = get_user_model()
        user, created = user_model._default_manager.get_or_create(
            username=DEMO_USERNAME,
            defaults={"is_staff": True, "is_superuser": True, "email": "demo@example.com"},
        )
        if created:
            user.set_password(DEMO_PASSWORD)
            user.save(update_fields=["password"])
            self.stdout.write(
                self.style.SUCCESS(f"Created superuser {DEMO_USERNAME!r} with password {DEMO_PASSWORD!r}.")
            )
        else:
            self.stdout.write(f"Superuser {DEMO_USERNAME!r} already exists; left unchanged.")
        return user

    def _content(self, demo_user: Any) -> None:
        user_model = get_user_model()
        people: list[Player] = []
        for username, name in PEOPLE:
            user = user_model._default_manager.filter(username=username).first()
            if user is None:
                user = user_model._default_manager.create_user(username=username, first_name=name)
                user.set_password(DEMO_PASSWORD)
                user.save(update_fields=["password"])
            people.append(player_for_user(user=user))
        bots = [
            Player.objects.filter(handle=handle).first()
            or bot_create(owner=demo_user, handle=handle, display_name=name)[0]
            for handle, name in BOT_ACCOUNTS
        ]
        host = player_for_user(user=demo_user)
        everyone = people + bots
        made = list(self._demo_matches(demo_user, host).order_by("pk").values_list("pk", flat=True))
        entrants_cup = people[:8]
        total = sum(count for _, _, count in FINISHED) + len(entrants_cup) - 1  # the cup: a match per loser
        number = 0
        for game, seats, count in FINISHED:
            for _ in range(count):
                match_rng = random.Random(f"demo:{number}")  # the same content on every machine
                table = match_rng.sample(everyone, seats)
                if number < len(made):
                    match_id = made[number]  # made by an earlier run: played out if it stopped halfway
                else:
                    spec = match_spec(
                        created_by=host,
                        game=game,
                        seats=[SeatSpec(player=p.handle) for p in table],
                        rated=True,
                        challenge=False,
                    )
                    match_id = match_create(spec=spec).pk
                self._play_out(match_id, match_rng)
                number += 1
                self._step(f"demo content: {number}/{total} matches played")
        self.stdout.write(
            self.style.SUCCESS(
                f"Created {len(people)} players (password {DEMO_PASSWORD!r}), {len(bots)} bot accounts and "
                f"{number} finished rated matches."
            )
        )
        club = Club.objects.filter(slug=DEMO_CLUB).first() or club_create(
            name="Demo club", slug=DEMO_CLUB, by=host
        )
        for player in people[:6]:
            membership_add(club=club, by=host, handle=player.handle)
        self._cup(club, host, entrants_cup, done=number, total=total)

    @staticmethod
    def _demo_matches(demo_user: Any, host: Player) -> Any:
        """The finished-match content made so far: demo's matches outside tournaments that demo does not
        sit in and no house bot plays (demo's own games from the website are neither)."""
        return (
            Match.objects.filter(created_by=demo_user, tournament_match__isnull=True)
            .exclude(seats__player=host)
            .exclude(seats__bot_level__gt="")
        )

    def _step(self, line: str) -> None:
        if self.progress:
            self.stdout.write(line)
            self.stdout.flush()

    def _cup(self, club: Club, host: Player, entrants: list[Player], *, done: int, total: int) -> None:
        """A single elimination of Tute 2 for eight players, played to the end (resumed if it was
        started by a run that stopped halfway)."""
        cup = Tournament.objects.filter(club=club, name=CUP_NAME).first() or tournament_create(
            club=club,
            by=host,
            settings=Settings(name=CUP_NAME, game="tute2", format=Tournament.Format.SINGLE_ELIM, rated=True),
        )
        if cup.status == Tournament.Status.REGISTRATION:
            entered = set(cup.entrants.values_list("player_id", flat=True))
            for player in entrants:
                if player.pk not in entered:
                    register(tournament_id=cup.pk, player=player)
            tournament_start(tournament_id=cup.pk, by=host)
        for _ in range(10):  # three rounds; a bound, not a loop that could spin
            cup.refresh_from_db()
            if cup.status != Tournament.Status.RUNNING:
                break
            for match_id in cup.matches.filter(match__status=Match.Status.IN_PROGRESS).values_list(
                "match_id", flat=True
            ):
                assert match_id is not None
                self._play_out(match_id, random.Random(f"demo:cup:{match_id}"))
                match_result_record(match_id=match_id)
                done += 1
                self._step(f"demo content: {done}/{total} matches played")
            tournament_advance(tournament_id=cup.pk, after_round=cup.current_round, reschedule=False)
        cup.refresh_from_db()
        self.stdout.write(
            self.style.SUCCESS(f"Created {CUP_NAME!r} (id {cup.pk}): {cup.get_status_display()}.")
        )

    def _play_out(self, match_id: int, rng: random.Random) -> None:
        """Play the match to its end: each person's move chosen for them, house bots' as the worker would,
        then rate it as the ratings task would."""
        for _ in range(10_000):
            context = match_context(match_id, lock=False)
            match = context.match
            if match.status != Match.Status.IN_PROGRESS:
                break
            seat = context.seat_at(match.turn_seat)
            assert seat is not None
            if seat.bot_level:
                bot_turn_play(match_id=match_id, ply=match.ply)
                continue
            state = context.state
            assert state is not None and seat.player is not None
            level = "rule" if rng.random() < 0.7 else "random"
            code = house_bot_action(level, state, seat.index, seed=f"demo:{match_id}:{match.ply}")
            action_submit(match_id=match_id, player=seat.player, code=code, ply=match.ply)
        else:
            raise CommandError(f"demo match {match_id} did not finish")
        match_ratings_apply_pending(match_id=match_id)
