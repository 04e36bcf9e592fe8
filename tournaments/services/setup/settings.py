"""A tournament's settings: creating it and editing them before the start, refusing those that do not fit."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.contrib.auth.hashers import make_password
from django.db import transaction

from games.engine import Rules, RulesError
from games.models import Match, Player
from tournaments.errors import InvalidTournament, WrongStatus
from tournaments.models import Club, Entrant, Tournament
from tournaments.pairing import TieBreak
from tournaments.services.common import lock_tournament, require_organiser
from tournaments.services.setup.entries import ENTERED

MAX_SWISS_ROUNDS = 30
MAX_POCHA_ROUNDS = 30


@dataclass(frozen=True, slots=True)
class Settings:
    """What an organiser chooses for a tournament (``tournament_create``/``tournament_update``)."""

    name: str
    game: str
    format: str
    options: dict[str, Any] | None = None
    play: str = Tournament.Play.ONLINE
    self_report: bool = False
    match_format: str = Match.Format.SINGLE
    match_target: int = 1
    duplicate_scoring: str = Tournament.DuplicateScoring.MATCHPOINTS
    third_place: bool = False
    grand_final_reset: bool = True
    double_round_robin: bool = False
    swiss_rounds: int | None = None
    avoid_same_club: bool = False
    table_size: int | None = None
    pocha_rounds: int | None = None
    rated: bool = True
    registration: str = Tournament.Registration.OPEN
    passcode: str | None = None
    max_entrants: int | None = None
    check_in_opens_at: datetime | None = None
    check_in_closes_at: datetime | None = None
    starts_at: datetime | None = None
    round_interval_minutes: int = 0
    seeding: str = Tournament.Seeding.RATING
    tie_breaks: tuple[str, ...] = ()


FIELDS = (
    "name",
    "game",
    "format",
    "play",
    "self_report",
    "match_format",
    "match_target",
    "duplicate_scoring",
    "third_place",
    "grand_final_reset",
    "double_round_robin",
    "swiss_rounds",
    "avoid_same_club",
    "table_size",
    "pocha_rounds",
    "rated",
    "registration",
    "max_entrants",
    "check_in_opens_at",
    "check_in_closes_at",
    "starts_at",
    "round_interval_minutes",
    "seeding",
)


def _one_of(name: str, value: str, choices: list[str]) -> list[str]:
    return [] if value in choices else [f"{name} must be one of {', '.join(choices)}"]


def _target(s: Settings) -> int:
    """The match target as stored: a single game is a target of 1, whatever was sent."""
    return 1 if s.match_format == Match.Format.SINGLE else s.match_target


def _choice_problems(s: Settings) -> list[str]:
    """The game and the format are among those the site runs."""
    problems = [
        *_one_of("game", s.game, Match.GameName.values),
        *_one_of("format", s.format, Tournament.Format.values),
        *_one_of("play", s.play, Tournament.Play.values),
    ]
    if s.self_report and s.play != Tournament.Play.TABLE:
        problems.append("self_report is for tournaments over the board (play table)")
    if s.play == Tournament.Play.TABLE and s.match_format == Match.Format.DUPLICATE:
        problems.append(
            "duplicate boards are dealt by the site: a tournament over the board is not duplicate"
        )
    return problems


def _match_problems(s: Settings) -> list[str]:
    """How matches are played: the match format, duplicate scoring and the target fit together."""
    F = Tournament.Format
    problems = _one_of("match_format", s.match_format, Match.Format.values)
    if (
        not problems
        and s.match_format == Match.Format.DUPLICATE
        and s.format in (F.SINGLE_ELIM, F.DOUBLE_ELIM)
    ):
        problems.append(
            "duplicate tournaments are round robin, Swiss or Pocha tables: every table of a round plays the "
            "same boards and is scored against the others"
        )
    scoring = _one_of("duplicate_scoring", s.duplicate_scoring, Tournament.DuplicateScoring.values)
    if (
        not scoring
        and s.duplicate_scoring != Tournament.DuplicateScoring.MATCHPOINTS
        and s.match_format != Match.Format.DUPLICATE
    ):
        scoring.append("duplicate_scoring is for duplicate tournaments (match_format duplicate)")
    problems += scoring
    if not 1 <= _target(s) <= 99:
        problems.append("match_target must be from 1 to 99")
    return problems


def _format_problems(s: Settings) -> list[str]:
    """What the format needs: Pocha only in Pocha tables, Swiss rounds, Pocha table size and rounds."""
    F = Tournament.Format
    problems: list[str] = []
    if (s.game == Match.GameName.POCHA) != (s.format == F.POCHA_TABLES):
        problems.append("Pocha is played in the pocha_tables format, and only Pocha is")
    if s.format == F.SWISS and not (s.swiss_rounds and 1 <= s.swiss_rounds <= MAX_SWISS_ROUNDS):
        problems.append(f"a Swiss tournament needs swiss_rounds from 1 to {MAX_SWISS_ROUNDS}")
    if s.format == F.POCHA_TABLES:
        if not (s.table_size and 3 <= s.table_size <= 6):
            problems.append("a Pocha tournament needs table_size from 3 to 6")
        if not (s.pocha_rounds and 1 <= s.pocha_rounds <= MAX_POCHA_ROUNDS):
            problems.append(f"a Pocha tournament needs pocha_rounds from 1 to {MAX_POCHA_ROUNDS}")
    return problems


def _one_format_problems(s: Settings) -> list[str]:
    """The settings that only one format takes are left alone by the others."""
    F = Tournament.Format
    problems: list[str] = []
    if s.third_place and s.format != F.SINGLE_ELIM:
        problems.append("third_place is for single elimination")
    if not s.grand_final_reset and s.format != F.DOUBLE_ELIM:
        problems.append("grand_final_reset is for double elimination")
    if s.double_round_robin and s.format != F.ROUND_ROBIN:
        problems.append("double_round_robin is for round robin")
    if s.avoid_same_club and s.format != F.SWISS:
        problems.append("avoid_same_club is for Swiss")
    return problems


def _entry_problems(s: Settings, *, had_passcode: bool) -> list[str]:
    """Registration, capacity and the check-in window."""
    problems = _one_of("registration", s.registration, Tournament.Registration.values)
    if s.registration == Tournament.Registration.PASSCODE and not (s.passcode or had_passcode):
        problems.append("passcode registration needs a passcode")
    if s.max_entrants is not None and s.max_entrants < 2:
        problems.append("max_entrants must be at least 2")
    if (s.check_in_opens_at is None) != (s.check_in_closes_at is None):
        problems.append("check-in needs both check_in_opens_at and check_in_closes_at")
    elif s.check_in_opens_at and s.check_in_closes_at and s.check_in_closes_at <= s.check_in_opens_at:
        problems.append("check-in must close after it opens")
    return problems


def _ranking_problems(s: Settings) -> list[str]:
    """Seeding and tie-breaks are known ones, no tie-break twice."""
    problems = _one_of("seeding", s.seeding, Tournament.Seeding.values)
    breaks = list(s.tie_breaks)
    names = {t.value for t in TieBreak}
    unknown = [t for t in breaks if t not in names]
    if unknown:
        problems.append(f"unknown tie-breaks {unknown}: choose from {', '.join(t.value for t in TieBreak)}")
    if len(set(breaks)) != len(breaks):
        problems.append("a tie-break is listed twice")
    return problems


def _rules_options(s: Settings, problems: list[str]) -> dict[str, Any]:
    """The game's rules flags, normalised by the engine; asked only of otherwise valid settings (the
    engine needs a known game), its refusal added to ``problems``."""
    if problems:
        return {}
    try:
        players = 4 if s.game == Match.GameName.POCHA else None
        return Rules.build(s.game, players, s.options or {}).to_options()
    except RulesError as exc:
        problems.append(f"options: {exc}")
        return {}


def checked_fields(s: Settings, *, had_passcode: bool) -> dict[str, Any]:
    """The model fields for ``s``, refusing settings that do not fit together (one message each)."""
    problems = [
        *_choice_problems(s),
        *_match_problems(s),
        *_format_problems(s),
        *_one_format_problems(s),
        *_entry_problems(s, had_passcode=had_passcode),
        *_ranking_problems(s),
    ]
    options = _rules_options(s, problems)
    if problems:
        raise InvalidTournament("; ".join(problems), detail={"problems": problems})
    fields = {name: getattr(s, name) for name in FIELDS}
    fields.update(options=options, match_target=_target(s), tie_breaks=list(s.tie_breaks))
    if s.format != Tournament.Format.SWISS:
        fields["swiss_rounds"] = None
    if s.format != Tournament.Format.POCHA_TABLES:
        fields.update(table_size=None, pocha_rounds=None)
    return fields


@transaction.atomic
def tournament_create(*, club: Club, by: Player, settings: Settings) -> Tournament:
    """A new tournament of the club, open for entries; only the club's organisers make them."""
    require_organiser(club, by)
    fields = checked_fields(settings, had_passcode=False)
    passcode_hash = ""
    if settings.registration == Tournament.Registration.PASSCODE:
        assert settings.passcode
        passcode_hash = make_password(settings.passcode)
    return Tournament.objects.create(club=club, created_by=by, passcode_hash=passcode_hash, **fields)


@transaction.atomic
def tournament_update(*, tournament_id: int, by: Player, settings: Settings) -> Tournament:
    """Change a tournament's settings while it is still taking entries (a passcode only if given)."""
    tournament = lock_tournament(tournament_id)
    require_organiser(tournament.club, by)
    if tournament.status != Tournament.Status.REGISTRATION:
        raise WrongStatus("Settings can only change before the tournament starts.")
    entered = Entrant.objects.filter(tournament=tournament, status__in=ENTERED).count()
    if settings.game != tournament.game and entered:
        raise InvalidTournament("The game cannot change once entrants have registered.")
    had = tournament.registration == Tournament.Registration.PASSCODE and bool(tournament.passcode_hash)
    fields = checked_fields(settings, had_passcode=had)
    if settings.max_entrants is not None and entered > settings.max_entrants:
        raise InvalidTournament(f"{entered} entrants are already registered.")
    for name, value in fields.items():
        setattr(tournament, name, value)
    if settings.registration != Tournament.Registration.PASSCODE:
        tournament.passcode_hash = ""
    elif settings.passcode:
        tournament.passcode_hash = make_password(settings.passcode)
    tournament.save()
    return tournament
