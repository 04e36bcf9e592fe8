"""The tournaments API's output shapes, shared by its views."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from tute_site.api import QueryIntegerField


class ClubOutput(serializers.Serializer):
    name = serializers.CharField()
    slug = serializers.SlugField()
    members = serializers.IntegerField(required=False)
    created_at = serializers.DateTimeField()


class MembershipOutput(serializers.Serializer):
    player = serializers.CharField(source="player.handle")
    role = serializers.CharField()
    joined_at = serializers.DateTimeField()


class TournamentOutput(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    club = serializers.CharField(source="club.slug")
    created_by = serializers.CharField(source="created_by.handle")
    game = serializers.CharField()
    options = serializers.JSONField()
    match_format = serializers.CharField()
    match_target = serializers.IntegerField()
    duplicate_scoring = serializers.CharField(
        help_text="Duplicate tournaments: matchpoints or total_points (docs/TOURNAMENTS.md)."
    )
    format = serializers.CharField()
    play = serializers.CharField(help_text="online, or table (over the board: results entered).")
    self_report = serializers.BooleanField(
        help_text="Over the board: players report results, the other side confirms."
    )
    third_place = serializers.BooleanField()
    grand_final_reset = serializers.BooleanField()
    double_round_robin = serializers.BooleanField()
    swiss_rounds = serializers.IntegerField(allow_null=True)
    avoid_same_club = serializers.BooleanField()
    table_size = serializers.IntegerField(allow_null=True)
    pocha_rounds = serializers.IntegerField(allow_null=True)
    rated = serializers.BooleanField()
    registration = serializers.CharField()
    max_entrants = serializers.IntegerField(allow_null=True)
    entrants = serializers.IntegerField(source="entrant_count", required=False)
    check_in_opens_at = serializers.DateTimeField(allow_null=True)
    check_in_closes_at = serializers.DateTimeField(allow_null=True)
    starts_at = serializers.DateTimeField(allow_null=True)
    round_interval_minutes = serializers.IntegerField()
    seeding = serializers.CharField()
    tie_breaks = serializers.ListField(child=serializers.CharField())
    status = serializers.CharField()
    current_round = serializers.IntegerField()
    created_at = serializers.DateTimeField()
    started_at = serializers.DateTimeField(allow_null=True)
    finished_at = serializers.DateTimeField(allow_null=True)


class EntrantOutput(serializers.Serializer):
    id = serializers.IntegerField()
    seed = serializers.IntegerField(allow_null=True)
    name = serializers.CharField()
    players = serializers.ListField(child=serializers.CharField(), help_text="Handles; a pair's first first.")
    house_bots = serializers.ListField(child=serializers.CharField(), help_text="Levels of house bots.")
    club = serializers.CharField(allow_null=True, help_text="The club the entrant represents.")
    status = serializers.CharField()


class MatchRowOutput(serializers.Serializer):
    id = serializers.IntegerField()
    round = QueryIntegerField()
    code = serializers.CharField(
        help_text="Bracket code (W1.3, L2.1, GF1, 3P) or R<round>.B<board> / T<table>."
    )
    board = serializers.IntegerField(
        help_text="The table's number in its round (over the board: where it sits)."
    )
    kind = serializers.CharField(help_text="match, bye or walkover")
    status = serializers.CharField(help_text="playing or done")
    match_id = serializers.IntegerField(allow_null=True, help_text="The games match (/api/v1/matches/<id>/).")
    entrants = EntrantOutput(many=True, help_text="In seat order; Tute 4: pair i sits at seats i and i+2.")
    winner = serializers.IntegerField(allow_null=True)
    points = serializers.ListField(
        child=serializers.FloatField(),
        allow_null=True,
        help_text="Tournament points by position (a number; `points_exact` has the exact fractions).",
    )
    points_exact = serializers.SerializerMethodField(
        help_text='The same points exactly, as fractions in text: "1/3", "1", "0".'
    )
    games_won = serializers.ListField(child=serializers.IntegerField(), allow_null=True)
    card_points = serializers.ListField(child=serializers.IntegerField(), allow_null=True)
    forfeit = serializers.BooleanField()

    def get_points_exact(self, row: Any) -> list[str] | None:
        return [str(p) for p in row.points] if row.points is not None else None


class RoundOutput(serializers.Serializer):
    number = serializers.IntegerField()
    status = serializers.CharField()
    started_at = serializers.DateTimeField()
    completed_at = serializers.DateTimeField(allow_null=True)
    matches = MatchRowOutput(many=True)


class StandingOutput(serializers.Serializer):
    rank = serializers.IntegerField()
    entrant = EntrantOutput()
    points = serializers.FloatField(help_text="Tournament points (`points_exact` has the exact fraction).")
    points_exact = serializers.SerializerMethodField(help_text='Points as an exact fraction: "13/6", "2".')
    played = serializers.IntegerField()
    tie_breaks = serializers.DictField(
        child=serializers.FloatField(), help_text="By name, in the tournament's order (docs/TOURNAMENTS.md)."
    )

    withdrawn = serializers.BooleanField(
        help_text="Withdrew after the start: ranked after everyone still in."
    )

    def get_points_exact(self, row: Any) -> str:
        return str(row.points)


class BracketSlotOutput(serializers.Serializer):
    code = serializers.CharField()
    round = QueryIntegerField()
    entrants = EntrantOutput(many=True, allow_null=True)
    status = serializers.CharField(help_text="waiting, ready, played, walkover or skipped")
    winner = serializers.IntegerField(allow_null=True)
    tournament_match = serializers.IntegerField(allow_null=True)

    def to_representation(self, instance: Any) -> dict[str, Any]:
        out = {
            "code": instance.code,
            "round": instance.round,
            "entrants": [EntrantOutput(e).data if e is not None else None for e in instance.entrants],
            "status": instance.status,
            "winner": instance.winner,
            "tournament_match": instance.tournament_match,
        }
        return out


class BracketSectionOutput(serializers.Serializer):
    section = serializers.CharField(help_text="W, L, GF or 3P")
    rounds = serializers.ListField(child=BracketSlotOutput(many=True))


class BracketOutput(serializers.Serializer):
    kind = serializers.CharField()
    size = serializers.IntegerField()
    byes = EntrantOutput(many=True)
    sections = BracketSectionOutput(many=True)
    champion = EntrantOutput(allow_null=True)


class CorrectionOutput(serializers.Serializer):
    id = serializers.IntegerField()
    tournament_match = serializers.IntegerField(source="tournament_match_id")
    code = serializers.CharField(source="tournament_match.code")
    by = serializers.CharField(source="by.handle")
    before = serializers.JSONField()
    after = serializers.JSONField()
    reason = serializers.CharField()
    created_at = serializers.DateTimeField()
