"""The website's forms: they check what a person typed; the services decide what is allowed."""

from __future__ import annotations

from django import forms
from django.contrib.auth.forms import UserCreationForm
from django.core.validators import RegexValidator
from django.utils.translation import gettext_lazy as _

from games.bots import BOT_LEVELS
from games.models import Match


class SignupForm(UserCreationForm):
    """Django's sign-up form: a username and a password typed twice, checked by the validators."""


class PlayForm(forms.Form):
    """A match against the house bots: the person at seat 0, a house bot at every other seat."""

    game = forms.ChoiceField(
        label=_("Game"),
        choices=[
            (Match.GameName.TUTE2, _("Tute (2 players)")),
            (Match.GameName.TUTE4, _("Tute (4 players in pairs)")),
            (Match.GameName.POCHA, _("Pocha")),
        ],
    )
    bot = forms.ChoiceField(label=_("House bot"), choices=[(level, level) for level in BOT_LEVELS])
    players = forms.IntegerField(
        label=_("Players (Pocha only)"),
        min_value=2,
        max_value=6,
        required=False,
        help_text=_("Pocha is played by 2 to 6; leave empty for 4."),
    )
    pocha_sequence = forms.ChoiceField(
        label=_("Hand sizes (Pocha only)"),
        choices=[
            ("spanish", _("Spanish: ones, up, the most, down, ones")),
            ("up_down", _("Up and down once")),
        ],
        required=False,
    )
    pocha_max_cards = forms.IntegerField(
        label=_("Most cards a hand (Pocha only)"),
        min_value=1,
        max_value=20,
        required=False,
        help_text=_("Leave empty for as many as the deck allows; fewer make a shorter game."),
    )

    def options(self) -> dict[str, object]:
        """The rules flags the form sets (Pocha's hand sizes); the engine checks them."""
        if self.cleaned_data["game"] != Match.GameName.POCHA:
            return {}
        options: dict[str, object] = {}
        if self.cleaned_data.get("pocha_sequence"):
            options["pocha_sequence"] = self.cleaned_data["pocha_sequence"]
        if self.cleaned_data.get("pocha_max_cards"):
            options["pocha_max_cards"] = self.cleaned_data["pocha_max_cards"]
        return options

    def seat_count(self) -> int | None:
        """How many seats: Tute games have a fixed number; Pocha takes the form's (None: the default)."""
        if self.cleaned_data["game"] == Match.GameName.POCHA:
            return self.cleaned_data.get("players")
        return None


class BotCreateForm(forms.Form):
    handle = forms.CharField(
        label=_("Handle"),
        max_length=32,
        validators=[
            RegexValidator(r"^[a-z0-9][a-z0-9-]*$", _("Lower-case letters, digits and hyphens only."))
        ],
        help_text=_("Lower-case letters, digits and hyphens; the bot's name in the API."),
    )
    display_name = forms.CharField(label=_("Display name"), max_length=64, required=False)
