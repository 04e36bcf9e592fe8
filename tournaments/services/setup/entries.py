"""Entries before the start: registering, partners, invitations, check-in, house bots, names."""

from __future__ import annotations

from datetime import datetime

from django.contrib.auth.hashers import check_password
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from games.bots import BOT_LEVELS
from games.models import Match, Player
from tournaments.errors import (
    AlreadyRegistered,
    CheckInClosed,
    EntrantNameTaken,
    EntrantNotFound,
    InvalidEntry,
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
from tournaments.services.common import lock_tournament, require_organiser

#: Entrants that count towards capacity and will play (the others were invited, left or never came).
ENTERED = (Entrant.Status.REGISTERED, Entrant.Status.CHECKED_IN, Entrant.Status.ACTIVE)


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
