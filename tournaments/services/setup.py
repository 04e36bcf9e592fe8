"""Before the start: creating and editing tournaments, entries, check-in, house bots."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.contrib.auth.hashers import check_password, make_password
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from games.bots import BOT_LEVELS
from games.engine import Rules, RulesError
from games.models import Match, Player
from tournaments.errors import (
    AlreadyRegistered,
    CheckInClosed,
    EntrantNameTaken,
    EntrantNotFound,
    InvalidEntry,
    InvalidTournament,
    NotEntered,
    NotInvited,
    NotMember,
    PlayerNotFound,
    RegistrationClosed,
    TournamentFull,
    WrongPasscode,
    WrongStatus,
)
from tournaments.models import Club, Entrant, Membership, Tournament
from tournaments.pairing import TieBreak
from tournaments.services.common import lock_tournament, require_organiser

#: Entrants that count towards capacity and will play (the others were invited, left or never came).
ENTERED = (Entrant.Status.REGISTERED, Entrant.Status.CHECKED_IN, Entrant.Status.ACTIVE)
MAX_SWISS_ROUNDS = 30
MAX_POCHA_ROUNDS = 30


# -- tournaments ---------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Settings:
    """What an organiser chooses for a tournament (``tournament_create``/``tournament_update``)."""

    name: str
    game: str
    format: str
    options: dict[str, Any] | None = None
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


def _checked(s: Settings, *, had_passcode: bool) -> dict[str, Any]:
    """The model fields for ``s``, refusing settings that do not fit together (one message each)."""
    F = Tournament.Format
    problems: list[str] = []
    if s.game not in Match.GameName.values:
        problems.append(f"game must be one of {', '.join(Match.GameName.values)}")
    if s.format not in F.values:
        problems.append(f"format must be one of {', '.join(F.values)}")
    if s.match_format not in Match.Format.values:
        problems.append(f"match_format must be one of {', '.join(Match.Format.values)}")
    elif s.match_format == Match.Format.DUPLICATE and s.format in (F.SINGLE_ELIM, F.DOUBLE_ELIM):
        problems.append(
            "duplicate tournaments are round robin, Swiss or Pocha tables: every table of a round plays the "
            "same boards and is scored against the others"
        )
    if s.duplicate_scoring not in Tournament.DuplicateScoring.values:
        problems.append(f"duplicate_scoring must be one of {', '.join(Tournament.DuplicateScoring.values)}")
    elif (
        s.duplicate_scoring != Tournament.DuplicateScoring.MATCHPOINTS
        and s.match_format != Match.Format.DUPLICATE
    ):
        problems.append("duplicate_scoring is for duplicate tournaments (match_format duplicate)")
    target = 1 if s.match_format == Match.Format.SINGLE else s.match_target
    if not 1 <= target <= 99:
        problems.append("match_target must be from 1 to 99")
    if (s.game == Match.GameName.POCHA) != (s.format == F.POCHA_TABLES):
        problems.append("Pocha is played in the pocha_tables format, and only Pocha is")
    if s.format == F.SWISS and not (s.swiss_rounds and 1 <= s.swiss_rounds <= MAX_SWISS_ROUNDS):
        problems.append(f"a Swiss tournament needs swiss_rounds from 1 to {MAX_SWISS_ROUNDS}")
    if s.format == F.POCHA_TABLES:
        if not (s.table_size and 3 <= s.table_size <= 6):
            problems.append("a Pocha tournament needs table_size from 3 to 6")
        if not (s.pocha_rounds and 1 <= s.pocha_rounds <= MAX_POCHA_ROUNDS):
            problems.append(f"a Pocha tournament needs pocha_rounds from 1 to {MAX_POCHA_ROUNDS}")
    if s.third_place and s.format != F.SINGLE_ELIM:
        problems.append("third_place is for single elimination")
    if not s.grand_final_reset and s.format != F.DOUBLE_ELIM:
        problems.append("grand_final_reset is for double elimination")
    if s.double_round_robin and s.format != F.ROUND_ROBIN:
        problems.append("double_round_robin is for round robin")
    if s.avoid_same_club and s.format != F.SWISS:
        problems.append("avoid_same_club is for Swiss")
    if s.registration not in Tournament.Registration.values:
        problems.append(f"registration must be one of {', '.join(Tournament.Registration.values)}")
    if s.registration == Tournament.Registration.PASSCODE and not (s.passcode or had_passcode):
        problems.append("passcode registration needs a passcode")
    if s.max_entrants is not None and s.max_entrants < 2:
        problems.append("max_entrants must be at least 2")
    if (s.check_in_opens_at is None) != (s.check_in_closes_at is None):
        problems.append("check-in needs both check_in_opens_at and check_in_closes_at")
    elif s.check_in_opens_at and s.check_in_closes_at and s.check_in_closes_at <= s.check_in_opens_at:
        problems.append("check-in must close after it opens")
    if s.seeding not in Tournament.Seeding.values:
        problems.append(f"seeding must be one of {', '.join(Tournament.Seeding.values)}")
    breaks = list(s.tie_breaks)
    names = {t.value for t in TieBreak}
    unknown = [t for t in breaks if t not in names]
    if unknown:
        problems.append(f"unknown tie-breaks {unknown}: choose from {', '.join(t.value for t in TieBreak)}")
    if len(set(breaks)) != len(breaks):
        problems.append("a tie-break is listed twice")
    options: dict[str, Any] = {}
    if not problems:
        try:
            players = 4 if s.game == Match.GameName.POCHA else None
            options = Rules.build(s.game, players, s.options or {}).to_options()
        except RulesError as exc:
            problems.append(f"options: {exc}")
    if problems:
        raise InvalidTournament("; ".join(problems), detail={"problems": problems})
    fields = {name: getattr(s, name) for name in FIELDS}
    fields.update(options=options, match_target=target, tie_breaks=breaks)
    if s.format != F.SWISS:
        fields["swiss_rounds"] = None
    if s.format != F.POCHA_TABLES:
        fields.update(table_size=None, pocha_rounds=None)
    return fields


@transaction.atomic
def tournament_create(*, club: Club, by: Player, settings: Settings) -> Tournament:
    """A new tournament of the club, open for entries; only the club's organisers make them."""
    require_organiser(club, by)
    fields = _checked(settings, had_passcode=False)
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
    fields = _checked(settings, had_passcode=had)
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


# -- entries ----------------------------------------------------------------------------------------------------


def _open_for_entries(tournament: Tournament) -> None:
    if tournament.status != Tournament.Status.REGISTRATION:
        raise RegistrationClosed()


def _check_room(tournament: Tournament, adding: int = 1) -> None:
    if tournament.max_entrants is None:
        return
    entered = Entrant.objects.filter(tournament=tournament, status__in=ENTERED).count()
    if entered + adding > tournament.max_entrants:
        raise TournamentFull(detail={"max_entrants": tournament.max_entrants, "entered": entered})


def _check_free(tournament: Tournament, players: list[Player], *, except_entrant: int | None = None) -> None:
    """Each player is in at most one entry, as its player or its partner (withdrawn entries kept)."""
    ids = [p.pk for p in players]
    taken = Entrant.objects.filter(tournament=tournament).filter(Q(player_id__in=ids) | Q(partner_id__in=ids))
    if except_entrant is not None:
        taken = taken.exclude(pk=except_entrant)
    if taken.exists():
        raise AlreadyRegistered()


def _club_for(tournament: Tournament, player: Player, club_slug: str | None) -> Club | None:
    """The club an entrant represents: the one named (they must be a member), else the host club if
    they are a member of it, else none."""
    if club_slug:
        club = Club.objects.filter(slug=club_slug).first()
        if club is None or not Membership.objects.filter(club=club, player=player).exists():
            raise NotMember()
        return club
    if Membership.objects.filter(club=tournament.club, player=player).exists():
        return tournament.club
    return None


@transaction.atomic
def register(
    *,
    tournament_id: int,
    player: Player,
    passcode: str | None = None,
    partner: str | None = None,
    partner_bot: str | None = None,
    club: str | None = None,
) -> Entrant:
    """Enter ``player`` (with a partner by handle, or a house bot partner, in Tute 4).

    Open: anyone; passcode: with the right passcode; invite: only a player the organiser invited (the
    invitation becomes the entry). Refused when registration is closed, the player (or the partner) is
    already entered, or the tournament is full.
    """
    tournament = lock_tournament(tournament_id)
    _open_for_entries(tournament)
    # An invitation, or the player's own entry withdrawn before the start, becomes the entry again.
    earlier = Entrant.objects.filter(
        tournament=tournament, player=player, status__in=(Entrant.Status.INVITED, Entrant.Status.WITHDRAWN)
    ).first()
    if tournament.registration == Tournament.Registration.INVITE and earlier is None:
        if Entrant.objects.filter(tournament=tournament, player=player).exists():
            raise AlreadyRegistered()
        raise NotInvited()
    if tournament.registration == Tournament.Registration.PASSCODE and not (
        passcode and check_password(passcode, tournament.passcode_hash)
    ):
        raise WrongPasscode()
    partner_player = _partner_for(tournament, player, partner, partner_bot)
    _check_free(
        tournament,
        [player, *([partner_player] if partner_player else [])],
        except_entrant=earlier.pk if earlier else None,
    )
    _check_room(tournament)
    represented = _club_for(tournament, player, club)
    if earlier is not None:
        earlier.status = Entrant.Status.REGISTERED
        earlier.partner = partner_player
        earlier.partner_bot = partner_bot or ""
        earlier.club = represented
        earlier.withdrawn_at = None
        earlier.save(update_fields=["status", "partner", "partner_bot", "club", "withdrawn_at"])
        return earlier
    return Entrant.objects.create(
        tournament=tournament,
        player=player,
        partner=partner_player,
        partner_bot=partner_bot or "",
        club=represented,
    )


def _partner_for(
    tournament: Tournament, player: Player, partner: str | None, partner_bot: str | None
) -> Player | None:
    if tournament.game != Match.GameName.TUTE4:
        if partner or partner_bot:
            raise InvalidEntry("Only Tute 4 entries have partners.")
        return None
    if partner and partner_bot:
        raise InvalidEntry("A partner is a player or a house bot, not both.")
    if partner_bot and partner_bot not in BOT_LEVELS:
        raise InvalidEntry(f"Unknown house bot level {partner_bot!r}: choose from {', '.join(BOT_LEVELS)}.")
    if not partner:
        return None
    found = Player.objects.filter(handle=partner).first()
    if found is None:
        raise PlayerNotFound()
    if found.pk == player.pk:
        raise InvalidEntry("A player cannot partner themselves.")
    return found


@transaction.atomic
def invite(*, tournament_id: int, by: Player, handle: str) -> Entrant:
    """The organiser invites a player (any registration mode); the player registers to accept."""
    tournament = lock_tournament(tournament_id)
    require_organiser(tournament.club, by)
    _open_for_entries(tournament)
    player = Player.objects.filter(handle=handle).first()
    if player is None:
        raise PlayerNotFound()
    _check_free(tournament, [player])
    return Entrant.objects.create(tournament=tournament, player=player, status=Entrant.Status.INVITED)


@transaction.atomic
def partner_set(
    *, tournament_id: int, by: Player, entrant_id: int, partner: str | None, partner_bot: str | None
) -> Entrant:
    """Tute 4: the entrant's player (or an organiser) names the partner, a player or a house bot."""
    tournament = lock_tournament(tournament_id)
    _open_for_entries(tournament)
    entrant = Entrant.objects.filter(tournament=tournament, pk=entrant_id).first()
    if entrant is None:
        raise EntrantNotFound()
    if entrant.player_id != by.pk:
        require_organiser(tournament.club, by)
    if entrant.player is None:
        raise InvalidEntry("A house bot entry has no partner to change.")
    found = _partner_for(tournament, entrant.player, partner, partner_bot)
    if found is not None:
        _check_free(tournament, [found], except_entrant=entrant.pk)
    entrant.partner = found
    entrant.partner_bot = partner_bot or ""
    entrant.save(update_fields=["partner", "partner_bot"])
    return entrant


def entrant_of(tournament: Tournament, player: Player) -> Entrant | None:
    """The player's entry (as its player or as a partner), if any."""
    return (
        Entrant.objects.filter(tournament=tournament)
        .filter(Q(player=player) | Q(partner=player))
        .exclude(status=Entrant.Status.INVITED)
        .first()
    )


@transaction.atomic
def check_in(*, tournament_id: int, player: Player, now: datetime | None = None) -> Entrant:
    """The player confirms they will play, while the check-in window is open."""
    tournament = lock_tournament(tournament_id)
    if tournament.status != Tournament.Status.REGISTRATION:
        raise CheckInClosed("The tournament has started.")
    entrant = entrant_of(tournament, player)
    if entrant is None or entrant.status not in ENTERED:
        raise NotEntered()
    opens, closes = tournament.check_in_opens_at, tournament.check_in_closes_at
    at = now or timezone.now()
    if opens is None or closes is None:
        raise CheckInClosed("This tournament has no check-in.")
    if not opens <= at < closes:
        raise CheckInClosed(detail={"opens_at": opens.isoformat(), "closes_at": closes.isoformat()})
    if entrant.status != Entrant.Status.CHECKED_IN:
        entrant.status = Entrant.Status.CHECKED_IN
        entrant.checked_in_at = at
        entrant.save(update_fields=["status", "checked_in_at"])
    return entrant


@transaction.atomic
def entrant_bot_fill(
    *, tournament_id: int, by: Player, level: str, count: int = 0, partners: bool = True
) -> list[Entrant]:
    """The organiser adds ``count`` house-bot entrants of ``level`` (in Tute 4, pairs of two house bots)
    and, with ``partners``, gives every Tute 4 pair without a partner a house bot of that level."""
    tournament = lock_tournament(tournament_id)
    require_organiser(tournament.club, by)
    _open_for_entries(tournament)
    if level not in BOT_LEVELS:
        raise InvalidEntry(f"Unknown house bot level {level!r}: choose from {', '.join(BOT_LEVELS)}.")
    if not 0 <= count <= 256:
        raise InvalidEntry("count must be from 0 to 256")
    changed: list[Entrant] = []
    if partners and tournament.game == Match.GameName.TUTE4:
        missing = Entrant.objects.filter(
            tournament=tournament, status__in=ENTERED, partner__isnull=True, partner_bot=""
        )
        for entrant in missing.select_for_update() if _locks() else missing:
            entrant.partner_bot = level
            entrant.save(update_fields=["partner_bot"])
            changed.append(entrant)
    if count:
        _check_room(tournament, count)
        pair_bot = level if tournament.game == Match.GameName.TUTE4 else ""
        status = Entrant.Status.CHECKED_IN if tournament.check_in_opens_at else Entrant.Status.REGISTERED
        now = timezone.now()
        names = _bot_names(tournament, level, count, pair=bool(pair_bot))
        for name in names:
            changed.append(
                Entrant.objects.create(
                    tournament=tournament,
                    house_bot=level,
                    partner_bot=pair_bot,
                    display_name=name,
                    status=status,
                    checked_in_at=now if tournament.check_in_opens_at else None,
                )
            )
    return changed


def _bot_names(tournament: Tournament, level: str, count: int, *, pair: bool) -> list[str]:
    """``count`` new names for house-bot entrants of ``level``, numbered on from those the tournament
    has ("Rule bot 1", "Rule bot 2"...; Tute 4 pairs: "Rule pair 1"), none equal to a name in use."""
    taken = {name.casefold() for name in _names_in_use(tournament)}
    stem = f"{level.capitalize()} {'pair' if pair else 'bot'}"
    number = Entrant.objects.filter(tournament=tournament, house_bot=level).count()
    out: list[str] = []
    while len(out) < count:
        number += 1
        name = f"{stem} {number}"
        if name.casefold() not in taken:
            out.append(name)
    return out


def _names_in_use(tournament: Tournament, *, except_entrant: int | None = None) -> list[str]:
    entrants = Entrant.objects.filter(tournament=tournament).select_related("player", "partner")
    return [e.name for e in entrants if e.pk != except_entrant]


@transaction.atomic
def entrant_rename(*, tournament_id: int, by: Player, entrant_id: int, name: str) -> Entrant:
    """The organiser names an entrant (a house bot, a pair...) before the start; names are distinct
    within the tournament, whatever their case."""
    tournament = lock_tournament(tournament_id)
    require_organiser(tournament.club, by)
    if tournament.status != Tournament.Status.REGISTRATION:
        raise WrongStatus("Entrants can only be renamed before the tournament starts.")
    entrant = Entrant.objects.filter(tournament=tournament, pk=entrant_id).first()
    if entrant is None:
        raise EntrantNotFound()
    clean = " ".join(name.split())
    if not 1 <= len(clean) <= 64:
        raise InvalidEntry("A name has 1 to 64 characters.")
    if clean.casefold() in {n.casefold() for n in _names_in_use(tournament, except_entrant=entrant.pk)}:
        raise EntrantNameTaken(detail={"name": clean})
    entrant.display_name = clean
    entrant.save(update_fields=["display_name"])
    return entrant


def _locks() -> bool:
    from django.db import connection

    return bool(connection.features.has_select_for_update)


def organiser_or_self(tournament: Tournament, by: Player, entrant: Entrant) -> None:
    """A player may act on their own entry (as player or partner); an organiser on any."""
    if by.pk not in (entrant.player_id, entrant.partner_id):
        require_organiser(tournament.club, by)
