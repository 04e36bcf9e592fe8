"""Clubs and their members."""

from __future__ import annotations

from django.db import IntegrityError, transaction

from games.errors import PeopleOnly
from games.models import Player
from tournaments.errors import ClubSlugTaken, InvalidEntry, PlayerNotFound
from tournaments.models import Club, Membership
from tournaments.services.common import require_organiser


@transaction.atomic
def club_create(*, name: str, slug: str, by: Player) -> Club:
    """A new club; its creator (a person: bots own nothing) is its first organiser."""
    if by.is_bot:
        raise PeopleOnly()
    if Club.objects.filter(slug=slug).exists():
        raise ClubSlugTaken()
    try:
        with transaction.atomic():
            club = Club.objects.create(name=name, slug=slug)
    except IntegrityError:
        raise ClubSlugTaken() from None
    Membership.objects.create(club=club, player=by, role=Membership.Role.ORGANISER)
    return club


@transaction.atomic
def membership_add(*, club: Club, by: Player, handle: str, role: str = Membership.Role.MEMBER) -> Membership:
    """An organiser adds a player to the club, or changes their role (organisers are people)."""
    require_organiser(club, by)
    if role not in Membership.Role.values:
        raise InvalidEntry(f"role must be one of {', '.join(Membership.Role.values)}")
    player = Player.objects.filter(handle=handle).first()
    if player is None:
        raise PlayerNotFound()
    if player.is_bot and role == Membership.Role.ORGANISER:
        raise PeopleOnly("A bot account may be a member of a club, never one of its organisers.")
    membership, _ = Membership.objects.update_or_create(club=club, player=player, defaults={"role": role})
    return membership
