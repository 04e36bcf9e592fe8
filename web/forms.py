"""The website's forms: they check what a person typed; the services decide what is allowed."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from django import forms
from django.contrib.auth.forms import UserCreationForm, UsernameField
from django.contrib.auth.models import User
from django.core.validators import RegexValidator, slug_re
from django.utils.formats import date_format
from django.utils.functional import lazy
from django.utils.html import format_html, format_html_join
from django.utils.text import slugify
from django.utils.timezone import localtime
from django.utils.translation import gettext_lazy as _

from games.bots import BOT_LEVELS
from games.models import Match
from tournaments.models import Club, Membership, Tournament
from tournaments.services import Settings
from web.names import bot_level_choice, bot_level_description, bot_level_name

GAME_CHOICES = [
    (Match.GameName.TUTE2.value, _("Tute (2 players)")),
    (Match.GameName.TUTE4.value, _("Tute (4 players in pairs)")),
    (Match.GameName.POCHA.value, _("Pocha")),
]


#: A game's short name beside a level's rating.
GAME_NAMES = {"tute2": _("Tute 2"), "tute4": _("Tute 4"), "pocha": _("Pocha")}


class SignupForm(UserCreationForm):
    """Django's sign-up form: a username, an e-mail address (to reset a forgotten password) and a
    password typed twice, checked by the validators."""

    email = forms.EmailField(
        label=_("E-mail"),
        help_text=_("Only to send you a link if you forget your password."),
    )

    class Meta:
        model = User
        fields = ("username", "email")
        field_classes = {"username": UsernameField}


#: House-bot levels as people read them, the strongest (and the default) first.
LEVEL_CHOICES = [
    (level, lazy(bot_level_choice, str)(level)) for level in sorted(BOT_LEVELS, key=lambda v: v != "rule")
]


def level_label(level: str, info: Mapping[str, Any] | None) -> str:
    """A house level as a choice: its name, what it plays like and its measured rating in each game (the
    page shows the chosen game's) with the date it was measured."""
    measured = (info or {}).get("measured") or {}
    ratings = format_html_join(
        " ",
        '<span class="level-rating" data-game="{}">{}: {}</span>',
        ((pool, GAME_NAMES.get(pool, pool), f"{row['rating']:.0f}") for pool, row in measured.items()),
    )
    if measured:
        when = max(row["measured_at"] for row in measured.values())
        rated = format_html(
            '{} <span class="level-date">{}</span>',
            ratings,
            _("(measured %(date)s)") % {"date": date_format(localtime(when), "DATE_FORMAT")},
        )
    else:
        rated = format_html('<span class="level-date">{}</span>', _("not measured yet"))
    return format_html(
        '<span class="level-name">{}</span> <span class="level-description">{}</span> '
        '<span class="level-ratings">{}</span>',
        bot_level_name(level),
        bot_level_description(level),
        rated,
    )


class BotChallengeForm(forms.Form):
    """The game an owner challenges their own bot to."""

    game = forms.ChoiceField(label=_("Game"), choices=GAME_CHOICES)


class PlayForm(forms.Form):
    """A match against the house bots: the person at seat 0, a house bot at every other seat."""

    game = forms.ChoiceField(label=_("Game"), choices=GAME_CHOICES)
    bot = forms.ChoiceField(
        label=_("House bot"),
        choices=[(level, lazy(bot_level_name, str)(level)) for level in BOT_LEVELS],
        initial="rule",
        widget=forms.RadioSelect,
    )
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
    client_seed = forms.CharField(
        label=_("Your seed (optional)"),
        required=False,
        strip=False,
        help_text=_(
            "Any text you choose, mixed into every deal with the server's committed seed, so that nobody "
            "can choose the cards alone (1 to 64 plain ASCII characters, no colon)."
        ),
    )

    def __init__(self, *args: Any, levels: Sequence[Mapping[str, Any]] = (), **kwargs: Any) -> None:
        """``levels``: the house levels with their ratings (``ratings.selectors.house_levels``), so that each
        choice shows what the level plays like and its measured rating per game with the date."""
        super().__init__(*args, **kwargs)
        known = {item["level"]: item for item in levels}
        bot = self.fields["bot"]
        assert isinstance(bot, forms.ChoiceField)
        bot.choices = [(level, level_label(level, known.get(level))) for level in BOT_LEVELS]

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


# -- clubs and tournaments -----------------------------------------------------------------------------


class ClubForm(forms.Form):
    """A new club: its name, and the short name of its address, made from the name when left empty (a
    person should not have to know what a slug is)."""

    name = forms.CharField(label=_("Name"), max_length=80)
    slug = forms.CharField(
        label=_("Short name"),
        max_length=40,
        required=False,
        help_text=_("Used in the club's address. Empty: made from the name."),
    )

    def clean(self) -> dict[str, Any]:
        """The short name as given (letters, digits, hyphens, underscores) or slugified from the name; each
        objection on the field it is about, in the reader's language."""
        data = super().clean() or {}
        given = (data.get("slug") or "").strip()
        if given:
            if not slug_re.fullmatch(given):
                self.add_error(
                    "slug",
                    _(
                        "Use only letters, digits, hyphens and underscores, without spaces (for example: %(example)s)."
                    )
                    % {"example": slugify(given) or "casino-madrid"},
                )
                return data
            data["slug"] = given
        elif data.get("name"):
            made = slugify(data["name"])[:40].strip("-_")
            if not made:
                self.add_error(
                    "slug", _("The name has no letters or digits to make a short name from: type one.")
                )
                return data
            data["slug"] = made
        return data


class MemberAddForm(forms.Form):
    handle = forms.SlugField(label=_("Player's handle"), max_length=32)
    role = forms.ChoiceField(
        label=_("Role"),
        choices=[
            (Membership.Role.MEMBER.value, _("member")),
            (Membership.Role.ORGANISER.value, _("organiser")),
        ],
        initial=Membership.Role.MEMBER,
    )


class TournamentForm(forms.Form):
    """An organiser's tournament settings; ``tournaments.services`` checks how they fit together."""

    club = forms.ModelChoiceField(label=_("Club"), queryset=Club.objects.none(), empty_label=None)
    name = forms.CharField(label=_("Name"), max_length=120)
    game = forms.ChoiceField(label=_("Game"), choices=GAME_CHOICES)
    format = forms.ChoiceField(
        label=_("Format"),
        choices=[
            (Tournament.Format.SINGLE_ELIM, _("Single elimination")),
            (Tournament.Format.DOUBLE_ELIM, _("Double elimination")),
            (Tournament.Format.ROUND_ROBIN, _("Round robin")),
            (Tournament.Format.SWISS, _("Swiss")),
            (Tournament.Format.POCHA_TABLES, _("Pocha tables")),
        ],
    )
    play = forms.ChoiceField(
        label=_("Where the games are played"),
        choices=[
            (Tournament.Play.ONLINE, _("Online, on this site")),
            (Tournament.Play.TABLE, _("Over the board, at real tables: results entered here")),
        ],
        initial=Tournament.Play.ONLINE,
        required=False,  # online when left out
    )
    self_report = forms.BooleanField(
        label=_("Over the board: the players report their results, the other side confirms"),
        required=False,
    )
    match_format = forms.ChoiceField(
        label=_("Each match"),
        choices=[
            (Match.Format.SINGLE, _("One game")),
            (Match.Format.BEST_OF, _("Best of N games")),
            (Match.Format.FIRST_TO, _("First to N games won")),
            (Match.Format.DUPLICATE, _("Duplicate: every table plays the same N boards")),
        ],
    )
    match_target = forms.IntegerField(label=_("N"), min_value=1, max_value=99, initial=1)
    duplicate_scoring = forms.ChoiceField(
        label=_("Scoring (duplicate)"),
        choices=[
            (Tournament.DuplicateScoring.MATCHPOINTS, _("Matchpoints: 2 per table beaten on the same cards")),
            (Tournament.DuplicateScoring.TOTAL_POINTS, _("Total points on the same cards")),
        ],
        initial=Tournament.DuplicateScoring.MATCHPOINTS,
        required=False,
        # only a duplicate match is scored on the same cards (site.js shows it for that match format only)
        widget=forms.Select(attrs={"data-match-formats": Match.Format.DUPLICATE}),
    )
    third_place = forms.BooleanField(
        label=_("Third-place match (single elimination)"),
        required=False,
        widget=forms.CheckboxInput(attrs={"data-formats": "single_elim"}),
    )
    no_grand_final_reset = forms.BooleanField(
        label=_("No second grand final (double elimination)"),
        required=False,
        widget=forms.CheckboxInput(attrs={"data-formats": "double_elim"}),
    )
    double_round_robin = forms.BooleanField(
        label=_("Everyone meets twice (round robin)"),
        required=False,
        widget=forms.CheckboxInput(attrs={"data-formats": "round_robin"}),
    )
    swiss_rounds = forms.IntegerField(
        label=_("Rounds (Swiss)"),
        min_value=1,
        max_value=30,
        required=False,
        widget=forms.NumberInput(attrs={"data-formats": "swiss"}),
    )
    table_size = forms.IntegerField(
        label=_("Table size (Pocha)"),
        min_value=3,
        max_value=6,
        required=False,
        widget=forms.NumberInput(attrs={"data-formats": "pocha_tables"}),
    )
    pocha_rounds = forms.IntegerField(
        label=_("Rounds (Pocha)"),
        min_value=1,
        max_value=30,
        required=False,
        widget=forms.NumberInput(attrs={"data-formats": "pocha_tables"}),
    )
    registration = forms.ChoiceField(
        label=_("Entries"),
        choices=[
            (Tournament.Registration.OPEN, _("Open to anyone")),
            (Tournament.Registration.INVITE, _("By invitation")),
            (Tournament.Registration.PASSCODE, _("With a passcode")),
        ],
    )
    passcode = forms.CharField(
        label=_("Passcode"),
        max_length=64,
        required=False,
        widget=forms.TextInput(attrs={"data-registration": "passcode"}),
    )
    max_entrants = forms.IntegerField(label=_("Most entrants"), min_value=2, required=False)
    seeding = forms.ChoiceField(
        label=_("Seeding"),
        choices=[
            (Tournament.Seeding.RATING, _("By rating")),
            (Tournament.Seeding.RANDOM, _("At random")),
            (Tournament.Seeding.MANUAL, _("In order of entry")),
        ],
    )
    starts_at = forms.DateTimeField(
        label=_("Starts at (your time)"),
        required=False,
        help_text=_("Empty: the organiser starts it by hand."),
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}),
    )
    check_in_opens_at = forms.DateTimeField(
        label=_("Check-in opens (your time)"),
        required=False,
        help_text=_("Empty: no check-in. With one, whoever has not checked in by the start does not play."),
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}),
    )
    check_in_closes_at = forms.DateTimeField(
        label=_("Check-in closes (your time)"),
        required=False,
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}),
    )
    tie_breaks = forms.MultipleChoiceField(
        label=_("Tie-breaks, in this order"),
        choices=[
            ("buchholz", _("Buchholz")),
            ("sonneborn_berger", _("Sonneborn-Berger")),
            ("head_to_head", _("Head to head")),
            ("games_won", _("Games won")),
            ("card_point_difference", _("Card points +/-")),
        ],
        required=False,
        # An elimination's standings are its placements: tie-breaks order the formats that rank by points.
        widget=forms.CheckboxSelectMultiple(attrs={"data-formats": "round_robin swiss pocha_tables"}),
    )
    rated = forms.BooleanField(label=_("Rated"), required=False, initial=True)
    time_zone = forms.CharField(
        required=False,
        max_length=64,
        widget=forms.HiddenInput(attrs={"data-time-zone": "1"}),
        help_text=_("The organiser's time zone (set by the page): the times above are read in it."),
    )

    def __init__(self, *args: Any, clubs: list[Club], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        field = self.fields["club"]
        assert isinstance(field, forms.ModelChoiceField)
        field.queryset = Club.objects.filter(pk__in=[c.pk for c in clubs])

    def clean(self) -> dict[str, Any]:
        """Read the times as the organiser's wall-clock times (their browser's zone; UTC without it)."""
        data = super().clean() or {}
        name = (data.get("time_zone") or "UTC").strip()
        try:
            zone = ZoneInfo(name)
        except (ZoneInfoNotFoundError, ValueError):
            self.add_error("time_zone", _("Unknown time zone."))
            return data
        for field in ("starts_at", "check_in_opens_at", "check_in_closes_at"):
            value = data.get(field)
            if value is not None:
                data[field] = value.replace(tzinfo=None).replace(tzinfo=zone)
        scoring = data.get("duplicate_scoring") or Tournament.DuplicateScoring.MATCHPOINTS
        if (
            scoring != Tournament.DuplicateScoring.MATCHPOINTS
            and data.get("match_format") != Match.Format.DUPLICATE
        ):
            # the service refuses it too, in English: here on the field, in the reader's language
            self.add_error(
                "duplicate_scoring",
                _(
                    "Scoring on the same cards is for duplicate matches only: choose “Duplicate” under “Each match”."
                ),
            )
        return data

    def settings(self) -> Settings:
        data = self.cleaned_data
        return Settings(
            name=data["name"],
            game=data["game"],
            format=data["format"],
            play=data.get("play") or Tournament.Play.ONLINE,
            self_report=data.get("self_report") or False,
            match_format=data["match_format"],
            match_target=data["match_target"],
            duplicate_scoring=data.get("duplicate_scoring") or Tournament.DuplicateScoring.MATCHPOINTS,
            third_place=data["third_place"],
            grand_final_reset=not data["no_grand_final_reset"],
            double_round_robin=data["double_round_robin"],
            swiss_rounds=data["swiss_rounds"],
            table_size=data["table_size"],
            pocha_rounds=data["pocha_rounds"],
            rated=data["rated"],
            registration=data["registration"],
            passcode=data["passcode"] or None,
            max_entrants=data["max_entrants"],
            starts_at=data["starts_at"],
            check_in_opens_at=data["check_in_opens_at"],
            check_in_closes_at=data["check_in_closes_at"],
            seeding=data["seeding"],
            tie_breaks=tuple(data["tie_breaks"]),
        )


class RegisterForm(forms.Form):
    passcode = forms.CharField(label=_("Passcode"), max_length=64, required=False)
    partner = forms.SlugField(label=_("Partner's handle (Tute 4)"), max_length=32, required=False)
    partner_bot = forms.ChoiceField(
        label=_("Or a house bot as partner (Tute 4)"),
        choices=[("", "—"), *LEVEL_CHOICES],
        required=False,
    )


class CorrectionForm(forms.Form):
    """An organiser's new result for a match of two: the winner's entrant id, or empty for a draw."""

    winner = forms.IntegerField(label=_("Winner"), required=False, min_value=1)
    reason = forms.CharField(label=_("Why"), max_length=200, required=False)


class NoShowForm(forms.Form):
    """The entrant (id) who did not turn up for a match of two in play."""

    entrant = forms.IntegerField(label=_("Did not turn up"), min_value=1)


class InviteForm(forms.Form):
    handle = forms.SlugField(label=_("Player's handle"), max_length=32)


class BotFillForm(forms.Form):
    level = forms.ChoiceField(label=_("House bot"), choices=LEVEL_CHOICES, initial="rule")
    count = forms.IntegerField(label=_("How many"), min_value=0, max_value=64, initial=4)
