"""The result form of a table played over the board: the games as the club writes them down (card points,
cantes and the last trick per game in Tute; bids and tricks per hand in Pocha) or a plain result. It
only reads what was typed into the shape ``tournaments.services.result_enter`` checks and scores."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from games.engine import Rules
from games.models import Match
from tournaments.models import Tournament


#: Game rows offered for a best of N / first to N (the games a match may last).
def game_rows(tournament: Tournament) -> int:
    target = tournament.match_target
    if tournament.match_format == Match.Format.FIRST_TO:
        return 2 * target - 1
    return target


def hand_sizes(tournament: Tournament, players: int) -> tuple[int, ...]:
    """The cards of each hand of a Pocha game at a table of ``players`` (the engine's sequence)."""
    return Rules.build(tournament.game, players, tournament.options).hand_sizes()


def _cell(label: str, *, high: int) -> forms.IntegerField:
    """A number in the result grid: its column header names it on screen, ``aria-label`` for readers."""
    return forms.IntegerField(
        label=label,
        min_value=0,
        max_value=high,
        required=False,
        widget=forms.NumberInput(attrs={"aria-label": label}),
    )


class ResultForm(forms.Form):
    """``mode``: the games (``games``) or a plain result (``plain``); the other fields are made per
    table: ``g<i>_points_<side>``, ``g<i>_cantes_<side>``, ``g<i>_last`` (Tute), ``h<j>_bid_<k>`` and
    ``h<j>_tricks_<k>`` (Pocha), ``winner`` or ``total_<k>`` (plain)."""

    mode = forms.ChoiceField(
        label=_("What you enter"),
        choices=[("games", _("Every game played")), ("plain", _("Only the result"))],
        initial="games",
        widget=forms.RadioSelect,
    )

    def __init__(self, *args: Any, tournament: Tournament, positions: int, names: list[str], **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.tournament = tournament
        self.positions = positions
        self.names = names
        if tournament.game == Match.GameName.POCHA:
            for j, cards in enumerate(hand_sizes(tournament, positions)):
                for k in range(positions):
                    for what, label in (("bid", _("bid")), ("tricks", _("tricks"))):
                        self.fields[f"h{j}_{what}_{k}"] = _cell(
                            f"{_('Hand')} {j + 1}: {names[k]}, {label}", high=cards
                        )
            for k in range(positions):
                self.fields[f"total_{k}"] = forms.IntegerField(label=names[k], required=False)
        else:
            for i in range(game_rows(tournament)):
                game = f"{_('Game')} {i + 1}"
                for side in range(2):
                    self.fields[f"g{i}_points_{side}"] = _cell(
                        f"{game}: {names[side]}, {_('card points')}", high=120
                    )
                    self.fields[f"g{i}_cantes_{side}"] = _cell(
                        f"{game}: {names[side]}, {_('cantes')}", high=100
                    )
                self.fields[f"g{i}_last"] = forms.ChoiceField(
                    label=_("Last trick"),
                    choices=[("", "—"), *[(str(s), names[s]) for s in range(2)]],
                    required=False,
                    widget=forms.Select(attrs={"aria-label": f"{game}: {_('Last trick')}"}),
                )
            self.fields["winner"] = forms.ChoiceField(
                label=_("Winner"),
                choices=[
                    ("0", names[0]),
                    ("1", names[1]),
                    *([] if tournament.is_elimination else [("draw", _("a draw"))]),
                ],
                required=False,
            )

    def game_indexes(self) -> range:
        return range(game_rows(self.tournament))

    def entered(self) -> dict[str, Any]:
        """The result in the service's shape (``tournaments.services.results``); rows left empty are
        games not played."""
        data = self.cleaned_data
        pocha = self.tournament.game == Match.GameName.POCHA
        if data["mode"] == "plain":
            if pocha:
                return {"totals": [data.get(f"total_{k}") or 0 for k in range(self.positions)]}
            winner = data.get("winner") or ""
            return {"winner": None if winner == "draw" else int(winner) if winner else -1}
        if pocha:
            hands = [
                {
                    "bids": [data.get(f"h{j}_bid_{k}") or 0 for k in range(self.positions)],
                    "tricks": [data.get(f"h{j}_tricks_{k}") or 0 for k in range(self.positions)],
                }
                for j in range(len(hand_sizes(self.tournament, self.positions)))
            ]
            return {"games": [{"hands": hands}]}
        games = []
        for i in self.game_indexes():
            points = [data.get(f"g{i}_points_{s}") for s in range(2)]
            if points == [None, None]:
                continue  # a game not played
            last = data.get(f"g{i}_last") or ""
            games.append(
                {
                    "points": [p or 0 for p in points],
                    "cantes": [data.get(f"g{i}_cantes_{s}") or 0 for s in range(2)],
                    "last_trick": int(last) if last else None,
                }
            )
        return {"games": games}
