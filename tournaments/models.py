"""Clubs, their members and their tournaments: entrants, rounds, the matches of each round, corrections.

``tournaments.services`` are the only writers. A tournament's pairings come from ``tournaments.pairing``
(pure, no Django); each pairing (or Pocha table) becomes one ``games.Match``, linked one to one from a
``TournamentMatch``. Byes and walkovers are ``TournamentMatch`` rows without a games match.
"""

from __future__ import annotations

from django.db import models
from django.db.models import Q
from django.db.models.functions import Lower

from games.models import Board, Match, Player


class Club(models.Model):
    name = models.CharField(max_length=80)
    slug = models.SlugField(max_length=40, unique=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name", "id"]

    def __str__(self) -> str:
        return self.name


class Membership(models.Model):
    class Role(models.TextChoices):
        ORGANISER = "organiser", "Organiser"
        MEMBER = "member", "Member"

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="memberships")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="club_memberships")
    role = models.CharField(max_length=10, choices=Role.choices, default=Role.MEMBER)
    joined_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["club", "player__handle"]
        constraints = [
            models.UniqueConstraint(fields=["club", "player"], name="membership_once_per_club"),
            models.CheckConstraint(
                condition=Q(role__in=["organiser", "member"]), name="membership_role_valid"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.player_id} in {self.club_id} ({self.role})"


class Tournament(models.Model):
    class Format(models.TextChoices):
        SINGLE_ELIM = "single_elim", "Single elimination"
        DOUBLE_ELIM = "double_elim", "Double elimination"
        ROUND_ROBIN = "round_robin", "Round robin"
        SWISS = "swiss", "Swiss"
        POCHA_TABLES = "pocha_tables", "Pocha tables"

    class Registration(models.TextChoices):
        OPEN = "open", "Open to anyone"
        INVITE = "invite", "By invitation"
        PASSCODE = "passcode", "With a passcode"

    class Seeding(models.TextChoices):
        RATING = "rating", "By rating"
        RANDOM = "random", "At random"
        MANUAL = "manual", "By hand"

    class DuplicateScoring(models.TextChoices):
        MATCHPOINTS = "matchpoints", "Matchpoints: 2 per other table beaten on the same cards, 1 per tie"
        TOTAL_POINTS = "total_points", "Total points: the sum of the scores made on the same cards"

    class Play(models.TextChoices):
        ONLINE = "online", "Online: every match is played on the site"
        TABLE = "table", "Over the board: played at real tables, results entered here"

    class Status(models.TextChoices):
        REGISTRATION = "registration", "Registration"
        RUNNING = "running", "Running"
        FINISHED = "finished", "Finished"
        CANCELLED = "cancelled", "Cancelled"

    club = models.ForeignKey(Club, on_delete=models.PROTECT, related_name="tournaments")
    name = models.CharField(max_length=120)
    created_by = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    game = models.CharField(max_length=8, choices=Match.GameName.choices)
    options = models.JSONField(
        default=dict, blank=True, help_text="Rules flags (docs/RULES.md), as validated."
    )
    match_format = models.CharField(max_length=12, choices=Match.Format.choices, default=Match.Format.SINGLE)
    match_target = models.PositiveSmallIntegerField(
        default=1,
        help_text="N of best of N / first to N; the boards of each round of a duplicate tournament.",
    )
    duplicate_scoring = models.CharField(
        max_length=12,
        choices=DuplicateScoring.choices,
        default=DuplicateScoring.MATCHPOINTS,
        help_text="Duplicate tournaments (match_format duplicate): how tables on the same boards are compared.",
    )
    format = models.CharField(max_length=12, choices=Format.choices)
    play = models.CharField(
        max_length=8,
        choices=Play.choices,
        default=Play.ONLINE,
        help_text="Over the board, a round's pairings get table numbers and wait for their entered results.",
    )
    self_report = models.BooleanField(
        default=False,
        help_text="Over the board: the players of a table report its result, the other side confirms it "
        "(a disputed one waits for the organiser).",
    )
    third_place = models.BooleanField(default=False, help_text="Single elimination: a third-place match.")
    grand_final_reset = models.BooleanField(
        default=True,
        help_text="Double elimination: a second grand final when the losers'-bracket champion wins the first.",
    )
    double_round_robin = models.BooleanField(default=False, help_text="Round robin: everyone meets twice.")
    swiss_rounds = models.PositiveSmallIntegerField(null=True, blank=True)
    avoid_same_club = models.BooleanField(default=False, help_text="Swiss: avoid pairing club mates.")
    table_size = models.PositiveSmallIntegerField(null=True, blank=True, help_text="Pocha: preferred size.")
    pocha_rounds = models.PositiveSmallIntegerField(null=True, blank=True)
    rated = models.BooleanField(default=True)
    registration = models.CharField(max_length=8, choices=Registration.choices, default=Registration.OPEN)
    passcode_hash = models.CharField(max_length=128, blank=True, help_text="Django password hash.")
    max_entrants = models.PositiveIntegerField(null=True, blank=True)
    check_in_opens_at = models.DateTimeField(null=True, blank=True, help_text="None: no check-in needed.")
    check_in_closes_at = models.DateTimeField(null=True, blank=True)
    starts_at = models.DateTimeField(null=True, blank=True, help_text="The sweeper starts it then.")
    round_interval_minutes = models.PositiveIntegerField(
        default=0, help_text="A round starts no sooner than this after the previous one started."
    )
    seeding = models.CharField(max_length=8, choices=Seeding.choices, default=Seeding.RATING)
    tie_breaks = models.JSONField(default=list, blank=True, help_text="Tie-break names, in order.")
    status = models.CharField(
        max_length=12, choices=Status.choices, default=Status.REGISTRATION, db_index=True
    )
    current_round = models.PositiveSmallIntegerField(default=0)
    #: The entrants' ids in seed order (best first), fixed at the start.
    seeds = models.JSONField(default=list, blank=True)
    final_standings = models.JSONField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [models.Index(fields=["club", "status"])]
        constraints = [
            models.CheckConstraint(condition=Q(match_target__gte=1), name="tournament_match_target_positive"),
            models.CheckConstraint(
                condition=~Q(match_format="duplicate")
                | Q(format__in=["round_robin", "swiss", "pocha_tables"]),
                name="tournament_duplicate_not_elimination",
            ),
            models.CheckConstraint(
                condition=Q(duplicate_scoring__in=["matchpoints", "total_points"]),
                name="tournament_duplicate_scoring_valid",
            ),
            models.CheckConstraint(condition=Q(play__in=["online", "table"]), name="tournament_play_valid"),
            # Duplicate boards are dealt by the server: over the board there is nobody to deal them.
            models.CheckConstraint(
                condition=Q(play="online") | ~Q(match_format="duplicate"),
                name="tournament_table_not_duplicate",
            ),
            models.CheckConstraint(
                condition=~Q(format="swiss") | Q(swiss_rounds__isnull=False, swiss_rounds__gte=1),
                name="tournament_swiss_has_rounds",
            ),
            models.CheckConstraint(
                condition=~Q(format="pocha_tables")
                | Q(
                    game="pocha",
                    table_size__isnull=False,
                    table_size__gte=3,
                    table_size__lte=6,
                    pocha_rounds__isnull=False,
                    pocha_rounds__gte=1,
                ),
                name="tournament_pocha_tables_valid",
            ),
            models.CheckConstraint(
                condition=Q(format="pocha_tables") | ~Q(game="pocha"), name="tournament_pocha_plays_tables"
            ),
            models.CheckConstraint(
                condition=Q(registration="passcode", passcode_hash__gt="")
                | (~Q(registration="passcode") & Q(passcode_hash="")),
                name="tournament_passcode_iff_passcode_registration",
            ),
            models.CheckConstraint(
                condition=Q(check_in_opens_at__isnull=True)
                | Q(check_in_closes_at__isnull=False, check_in_closes_at__gt=models.F("check_in_opens_at")),
                name="tournament_check_in_window",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def is_elimination(self) -> bool:
        return self.format in (self.Format.SINGLE_ELIM, self.Format.DOUBLE_ELIM)


class Entrant(models.Model):
    """A player, a fixed pair (Tute 4) or a house bot. A pair's partner may be a house bot too."""

    class Status(models.TextChoices):
        INVITED = "invited", "Invited"
        REGISTERED = "registered", "Registered"
        CHECKED_IN = "checked_in", "Checked in"
        ACTIVE = "active", "Playing"
        WITHDRAWN = "withdrawn", "Withdrawn"
        ABSENT = "absent", "Absent (did not check in)"

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="entrants")
    player = models.ForeignKey(
        Player, null=True, blank=True, on_delete=models.PROTECT, related_name="tournament_entries"
    )
    house_bot = models.CharField(max_length=16, blank=True, help_text="A house bot of this level.")
    partner = models.ForeignKey(
        Player, null=True, blank=True, on_delete=models.PROTECT, related_name="tournament_partnerships"
    )
    partner_bot = models.CharField(max_length=16, blank=True, help_text="Tute 4: a house bot partner.")
    display_name = models.CharField(
        max_length=64,
        blank=True,
        help_text="The entrant's name in this tournament (house bots get 'Rule bot 3'); blank: the handles.",
    )
    club = models.ForeignKey(
        Club, null=True, blank=True, on_delete=models.SET_NULL, related_name="+", help_text="Represented."
    )
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.REGISTERED)
    seed = models.PositiveIntegerField(null=True, blank=True, help_text="1 = top seed, set at the start.")
    registered_at = models.DateTimeField(auto_now_add=True)
    checked_in_at = models.DateTimeField(null=True, blank=True)
    withdrawn_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["tournament", "seed", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "player"], condition=Q(player__isnull=False), name="entrant_player_once"
            ),
            models.UniqueConstraint(
                fields=["tournament", "partner"],
                condition=Q(partner__isnull=False),
                name="entrant_partner_once",
            ),
            models.UniqueConstraint(
                fields=["tournament", "seed"], condition=Q(seed__isnull=False), name="entrant_seed_once"
            ),
            models.CheckConstraint(
                condition=Q(player__isnull=False, house_bot="") | Q(player__isnull=True) & ~Q(house_bot=""),
                name="entrant_player_or_house_bot",
            ),
            models.CheckConstraint(
                condition=Q(partner__isnull=True) | Q(partner_bot=""), name="entrant_partner_player_or_bot"
            ),
            models.CheckConstraint(
                condition=Q(partner__isnull=True) | ~Q(partner=models.F("player")),
                name="entrant_partner_not_self",
            ),
            models.UniqueConstraint(
                Lower("display_name"),
                "tournament",
                condition=~Q(display_name=""),
                name="entrant_display_name_once",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def name(self) -> str:
        if self.display_name:
            return self.display_name
        first = self.player.handle if self.player is not None else f"house bot ({self.house_bot})"
        if self.partner is not None:
            return f"{first} & {self.partner.handle}"
        if self.partner_bot:
            return f"{first} & {house_bot_label(self.partner_bot)}"
        return first

    @property
    def is_pair_complete(self) -> bool:
        return self.partner_id is not None or bool(self.partner_bot)


def house_bot_label(level: str) -> str:
    """A house bot level as people read it: "Rule bot"."""
    return f"{level.capitalize()} bot"


class Round(models.Model):
    class Status(models.TextChoices):
        PLAYING = "playing", "Playing"
        COMPLETE = "complete", "Complete"

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="rounds")
    number = models.PositiveSmallIntegerField()
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.PLAYING)
    started_at = models.DateTimeField(auto_now_add=True)
    completed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["tournament", "number"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="round_unique_number"),
            models.CheckConstraint(condition=Q(number__gte=1), name="round_number_positive"),
        ]

    def __str__(self) -> str:
        return f"round {self.number} of tournament {self.tournament_id}"


class TournamentMatch(models.Model):
    """One pairing (or Pocha table, bye, walkover) of a round, and its result once recorded.

    ``entrants`` are in position order (``Slot.position``): for a pairing, position 0 takes seat 0 (and
    seat 2 in Tute 4); for a table, position i is seat i. ``points`` and the other result lists follow
    that order.
    """

    class Kind(models.TextChoices):
        MATCH = "match", "Match"
        BYE = "bye", "Bye"
        WALKOVER = "walkover", "Walkover"

    class Status(models.TextChoices):
        PLAYING = "playing", "Playing"
        DONE = "done", "Done"

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="matches")
    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="matches")
    code = models.CharField(max_length=16, help_text="Bracket code (W1.3, L2.1, GF1, 3P) or R2.B4 / R2.T1.")
    board = models.PositiveSmallIntegerField()
    kind = models.CharField(max_length=8, choices=Kind.choices, default=Kind.MATCH)
    match = models.OneToOneField(
        Match, null=True, blank=True, on_delete=models.PROTECT, related_name="tournament_match"
    )
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.PLAYING, db_index=True)
    winner = models.ForeignKey(Entrant, null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    points = models.JSONField(null=True, blank=True, help_text="Tournament points per position.")
    games_won = models.JSONField(null=True, blank=True)
    card_points = models.JSONField(null=True, blank=True)
    forfeit = models.BooleanField(default=False, help_text="Decided by a withdrawal or a no-show.")
    recorded_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["tournament", "round__number", "board"]
        verbose_name_plural = "tournament matches"
        constraints = [
            models.UniqueConstraint(fields=["tournament", "code"], name="tournament_match_unique_code"),
            models.UniqueConstraint(fields=["round", "board"], name="tournament_match_unique_board"),
            models.CheckConstraint(
                condition=Q(kind="match") | Q(match__isnull=True), name="tournament_match_only_matches_play"
            ),
            models.CheckConstraint(
                condition=Q(status="playing") | Q(points__isnull=False),
                name="tournament_match_done_has_points",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.code} of tournament {self.tournament_id}"


class Slot(models.Model):
    """An entrant's place in a tournament match."""

    tournament_match = models.ForeignKey(TournamentMatch, on_delete=models.CASCADE, related_name="slots")
    position = models.PositiveSmallIntegerField()
    entrant = models.ForeignKey(Entrant, on_delete=models.PROTECT, related_name="slots")

    class Meta:
        ordering = ["tournament_match", "position"]
        constraints = [
            models.UniqueConstraint(fields=["tournament_match", "position"], name="slot_unique_position"),
            models.UniqueConstraint(fields=["tournament_match", "entrant"], name="slot_unique_entrant"),
        ]

    def __str__(self) -> str:
        return f"{self.entrant_id} at {self.position} of {self.tournament_match_id}"


class TournamentBoard(models.Model):
    """Board ``number`` of a duplicate tournament (numbered from 1 across its rounds): a ``games.Board``
    that every table of its round with ``players`` seats plays, so that their results can be compared."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="boards")
    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="boards")
    number = models.PositiveSmallIntegerField()
    players = models.PositiveSmallIntegerField(
        help_text="The tables this board is dealt for have this many seats."
    )
    board = models.OneToOneField(Board, on_delete=models.PROTECT, related_name="tournament_board")

    class Meta:
        ordering = ["tournament", "number"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="tournament_board_unique_number"),
            models.CheckConstraint(condition=Q(number__gte=1), name="tournament_board_number_positive"),
        ]

    def __str__(self) -> str:
        return f"board {self.number} of tournament {self.tournament_id}"


class Correction(models.Model):
    """An organiser's change to a recorded result: what it was, what it became, and why."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="corrections")
    tournament_match = models.ForeignKey(
        TournamentMatch, on_delete=models.CASCADE, related_name="corrections"
    )
    by = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    before = models.JSONField()
    after = models.JSONField()
    reason = models.CharField(max_length=200, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["tournament", "created_at", "id"]

    def __str__(self) -> str:
        return f"correction of {self.tournament_match_id}"


class ResultEntry(models.Model):
    """One entry of an over-the-board table's result (or of its change): what was entered, by whom and
    when, and the result it made. The log of a table's results; the table's own fields hold the last."""

    tournament_match = models.ForeignKey(TournamentMatch, on_delete=models.CASCADE, related_name="entries")
    by = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    entered = models.JSONField(help_text="The result as entered (games, hands, or a plain result).")
    points = models.JSONField(help_text="Tournament points per position it gave.")
    games_won = models.JSONField()
    card_points = models.JSONField()
    replaced = models.BooleanField(default=False, help_text="It changed a result entered before.")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["tournament_match", "created_at", "id"]
        verbose_name_plural = "result entries"

    def __str__(self) -> str:
        return f"result of {self.tournament_match_id} by {self.by_id}"


class ResultReport(models.Model):
    """A table's result reported by one of its players (over the board, ``self_report``): it counts once
    a player of another position confirms it; a disputed one waits for the organiser's entry."""

    class Status(models.TextChoices):
        PENDING = "pending", "Waiting for the other side"
        CONFIRMED = "confirmed", "Confirmed"
        DISPUTED = "disputed", "Disputed: the organiser decides"
        SUPERSEDED = "superseded", "Replaced by a later report or the organiser's entry"

    tournament_match = models.ForeignKey(TournamentMatch, on_delete=models.CASCADE, related_name="reports")
    by = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    position = models.PositiveSmallIntegerField(help_text="The reporter's position at the table.")
    entered = models.JSONField()
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING)
    answered_by = models.ForeignKey(Player, null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    answered_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["tournament_match", "created_at", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["tournament_match"], condition=Q(status="pending"), name="result_report_one_pending"
            ),
        ]

    def __str__(self) -> str:
        return f"report of {self.tournament_match_id} by {self.by_id} ({self.status})"
