"""The forms of people playing people: a table for friends, quick pairing and a challenge. They check what
a person typed; the games and lobby services decide what is allowed."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from games.engine.rules import PLAYERS
from games.models import Match
from web.forms import GAME_CHOICES, LEVEL_CHOICES

#: Seconds a move, as people choose them.
MOVE_CHOICES = [
    (30, _("30 seconds a move")),
    (60, _("1 minute a move")),
    (120, _("2 minutes a move")),
    (300, _("5 minutes a move")),
    (86400, _("1 day a move (correspondence)")),
]
MAX_SEATS = 6


class _GameFields(forms.Form):
    """The game, Pocha's table size, rated or not and the move time: every way of starting a game asks."""

    game = forms.ChoiceField(label=_("Game"), choices=GAME_CHOICES)
    players = forms.IntegerField(
        label=_("Players (Pocha only)"),
        min_value=2,
        max_value=6,
        required=False,
        help_text=_("Pocha is played by 2 to 6; leave empty for 4."),
    )
    rated = forms.BooleanField(label=_("Rated"), required=False, initial=True)
    human_move_seconds = forms.TypedChoiceField(
        label=_("Clock"), choices=MOVE_CHOICES, coerce=int, initial=120
    )

    def table_size(self) -> int:
        game = self.cleaned_data["game"]
        default = PLAYERS[game][2]
        if game == Match.GameName.POCHA:
            return int(self.cleaned_data.get("players") or default)
        return default


class SeekForm(_GameFields):
    """Quick pairing: the game wanted, and whether house bots may fill the table after a wait."""

    bots_after_seconds = forms.TypedChoiceField(
        label=_("If nobody comes"),
        choices=[
            ("", _("keep waiting for people")),
            (30, _("play house bots after 30 seconds")),
            (60, _("play house bots after 1 minute")),
            (180, _("play house bots after 3 minutes")),
        ],
        coerce=int,
        empty_value=None,
        required=False,
    )


#: What a seat of a table for friends holds: the creator, a place for a person, or a house bot.
SEAT_ME, SEAT_PERSON = "me", "person"
SEAT_CHOICES = [
    (SEAT_ME, _("You")),
    (SEAT_PERSON, _("A person (free seat)")),
    *[(f"bot:{level}", label) for level, label in LEVEL_CHOICES],
]


class TableForm(_GameFields):
    """A table for friends: who sits where (in Tute 4, seats 1 and 3 are partners, as are 2 and 4), and
    whether it is private (joined with its invite link) or listed in the lobby."""

    private = forms.BooleanField(
        label=_("Private: only people with the invite link may sit"), required=False, initial=True
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for index in range(MAX_SEATS):
            self.fields[f"seat_{index}"] = forms.ChoiceField(
                label=_("Seat %(n)s") % {"n": index + 1},
                choices=SEAT_CHOICES,
                initial=SEAT_ME if index == 0 else SEAT_PERSON,
                required=index < 2,
                help_text=_("Tute 4: seats 1 and 3 play together, as do seats 2 and 4.")
                if index == 3
                else "",
            )

    def seat_plan(self) -> list[str]:
        """Each seat of the table, in order: ``me``, ``person`` or ``bot:<level>``."""
        return [self.cleaned_data.get(f"seat_{i}") or SEAT_PERSON for i in range(self.table_size())]

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        if self.errors or "game" not in cleaned:
            return cleaned
        plan = self.seat_plan()
        if plan.count(SEAT_ME) != 1:
            raise forms.ValidationError(_("Choose one seat for yourself."))
        if SEAT_PERSON not in plan:
            raise forms.ValidationError(
                _("Leave at least one seat for a person: to play house bots alone, use the form below.")
            )
        return cleaned


class ChallengeForm(_GameFields):
    """A challenge from a player's page: the challenged person sits opposite (in Tute 4 their partner and
    yours are house bots; in Pocha the other seats are house bots too)."""

    bot = forms.ChoiceField(label=_("House bots in the other seats"), choices=LEVEL_CHOICES, initial="rule")
