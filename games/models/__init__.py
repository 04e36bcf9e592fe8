"""Players, bot accounts and their tokens, and server-authoritative matches.

A match holds seats and one or more games; every action is a row, unique per (match, ply), so a game is
always its seed plus its actions and replays exactly. Services in ``games.services`` are the only
writers.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q

from .review import Review as Review  # a module of its own: reviews are read apart from play


class Player(models.Model):
    """Someone who takes a seat: a person, or a bot account owned by a person."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="player")
    handle = models.SlugField(max_length=32, unique=True)
    display_name = models.CharField(max_length=64)
    is_bot = models.BooleanField(default=False)
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="bots",
        help_text="The person who runs this bot account (bots only).",
    )
    auto_accept = models.BooleanField(
        default=False, help_text="Accept every challenge at once (for bots that play anyone)."
    )
    created_at = models.DateTimeField(auto_now_add=True)
    last_seen_at = models.DateTimeField(
        null=True, blank=True, help_text="When the person last showed up (a page, a poll, a stream)."
    )

    class Meta:
        ordering = ["handle"]
        constraints = [
            models.CheckConstraint(
                condition=Q(is_bot=False, owner__isnull=True) | Q(is_bot=True, owner__isnull=False),
                name="player_bot_has_owner",
            )
        ]

    def __str__(self) -> str:
        return f"{self.handle} (bot)" if self.is_bot else self.handle


class ApiToken(models.Model):
    """An API token, stored as its SHA-256 digest: the token itself is shown once, at creation."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="api_tokens")
    digest = models.CharField(max_length=64, unique=True)
    prefix = models.CharField(max_length=12, help_text="The token's first characters, to tell tokens apart.")
    created_at = models.DateTimeField(auto_now_add=True)
    last_used_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"{self.prefix}… ({self.user})"


class Match(models.Model):
    class GameName(models.TextChoices):
        TUTE2 = "tute2", "Tute (2 players)"
        TUTE4 = "tute4", "Tute (4 players in pairs)"
        POCHA = "pocha", "Pocha"

    class Format(models.TextChoices):
        SINGLE = "single", "One game"
        BEST_OF = "best_of", "Best of N games"
        FIRST_TO = "first_to", "First to N games won"
        DUPLICATE = "duplicate", "Duplicate: N boards, each played with the seats swapped"

    class Status(models.TextChoices):
        OPEN = "open", "Open"
        IN_PROGRESS = "in_progress", "In progress"
        FINISHED = "finished", "Finished"
        ABORTED = "aborted", "Aborted"

    game = models.CharField(max_length=8, choices=GameName.choices)
    num_players = models.PositiveSmallIntegerField()
    options = models.JSONField(default=dict, blank=True, help_text="Rules flags (RULES.md), as validated.")
    rules_version = models.CharField(max_length=16)
    format = models.CharField(max_length=12, choices=Format.choices, default=Format.SINGLE)
    format_target = models.PositiveSmallIntegerField(
        default=1, help_text="N of best of N / first to N; the number of boards of a duplicate match."
    )
    status = models.CharField(max_length=12, choices=Status.choices, default=Status.OPEN, db_index=True)
    rated = models.BooleanField(default=True)
    managed = models.BooleanField(
        default=False,
        help_text="Made by another service (a tournament's pairing), which alone ends it: never aborted "
        "through the games API.",
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    # Tables for people: a private table is not listed and is joined with its invite code (unguessable,
    # shown to its creator only); an open table that nobody completes is called off at ``expires_at``.
    private = models.BooleanField(default=False)
    invite_code = models.CharField(max_length=32, null=True, blank=True, unique=True)
    expires_at = models.DateTimeField(
        null=True, blank=True, help_text="An open table not yet started is called off then (expired)."
    )
    rematch_of = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.SET_NULL, related_name="rematches"
    )
    hints_used = models.BooleanField(
        default=False, help_text="A person asked for a hint (a practice game against house bots)."
    )
    over_the_board = models.BooleanField(
        default=False,
        help_text="Played with real cards at a club's table: its result was entered; no deals, no actions.",
    )
    ply = models.PositiveIntegerField(default=0, help_text="Actions applied in the whole match so far.")
    result = models.JSONField(null=True, blank=True, help_text="Games won per side and the winning sides.")
    finish_reason = models.CharField(max_length=16, blank=True)
    # Clocks: a seat to act past its deadline gets the rule bot's move, recorded as a timeout; after
    # max_timeouts of them it forfeits. The sweeper (celery beat) finds overdue turns among the matches
    # in progress. turn_deadline has no index on purpose: every move sets it, and an indexed column
    # would make each move's update add an entry to the table's indexes (migration 0004).
    human_move_seconds = models.PositiveIntegerField(default=120)
    bot_move_seconds = models.PositiveIntegerField(default=15)
    max_timeouts = models.PositiveSmallIntegerField(default=3)
    turn_seat = models.PositiveSmallIntegerField(null=True, blank=True, help_text="The seat to act now.")
    turn_deadline = models.DateTimeField(null=True, blank=True)
    # Fair deals (RULES.md section 11). The server seed of the next game to be dealt is drawn ahead, and
    # its commitment shown, so that client seeds are chosen after the server is bound to its seed.
    seed_sha256 = models.CharField(
        max_length=64, blank=True, help_text="Commitment to the current game's server seed (public)."
    )
    next_server_seed = models.CharField(
        max_length=64, blank=True, help_text="The next game's server seed: secret until that game is over."
    )
    next_seed_sha256 = models.CharField(
        max_length=64, blank=True, help_text="Commitment to the next game's server seed (public)."
    )
    # The game being played (or the last one played): a match's context loads it with the match row
    # (select_related) instead of looking for the highest-numbered game.
    current_game = models.ForeignKey(
        "Game", null=True, blank=True, on_delete=models.SET_NULL, related_name="+", editable=False
    )

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name_plural = "matches"
        indexes = [
            models.Index(fields=["game", "status"]),
            # Finished rated matches in finishing order, for the rating task's backlog query (a short
            # range just before one match); the other matches stay out of it.
            models.Index(
                fields=["finished_at", "id"],
                name="match_rateable_finished",
                condition=Q(status="finished", rated=True),
            ),
        ]
        constraints = [
            models.CheckConstraint(condition=Q(format_target__gte=1), name="match_format_target_positive"),
            models.CheckConstraint(
                condition=Q(private=False) | Q(invite_code__isnull=False), name="match_private_has_invite"
            ),
        ]

    def __str__(self) -> str:
        return f"Match {self.pk} ({self.game}, {self.status})"


class Seat(models.Model):
    """A place at the table: a player, a house bot of some level, or empty until someone joins."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="seats")
    index = models.PositiveSmallIntegerField()
    player = models.ForeignKey(Player, null=True, blank=True, on_delete=models.PROTECT, related_name="seats")
    bot_level = models.CharField(max_length=16, blank=True, help_text="A house bot plays this seat.")
    accepted = models.BooleanField(
        default=True, help_text="False while a challenged player has not yet accepted the seat."
    )
    decline_reason = models.CharField(max_length=200, blank=True)
    declined_by = models.ForeignKey(
        Player,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        help_text="Who declined this seat's challenge last (its creator waits before challenging again).",
    )
    declined_at = models.DateTimeField(null=True, blank=True)
    timeouts = models.PositiveSmallIntegerField(default=0)
    client_seed = models.CharField(
        max_length=64, blank=True, help_text="Mixed into each game's deal seed (RULES.md section 11)."
    )

    class Meta:
        ordering = ["match", "index"]
        constraints = [
            models.UniqueConstraint(fields=["match", "index"], name="seat_unique_index"),
            models.UniqueConstraint(
                fields=["match", "player"], condition=Q(player__isnull=False), name="seat_one_per_player"
            ),
            models.CheckConstraint(
                condition=Q(player__isnull=True) | Q(bot_level=""), name="seat_player_or_house_bot"
            ),
        ]

    def __str__(self) -> str:
        return f"seat {self.index} of match {self.match_id}"

    @property
    def is_empty(self) -> bool:
        return self.player_id is None and not self.bot_level

    @property
    def is_ready(self) -> bool:
        return bool(self.bot_level) or (self.player_id is not None and self.accepted)


class Board(models.Model):
    """A fixed deal with its own seeds and commitment (RULES.md section 11), played by one match or many.

    Every play of a duplicate match's board is dealt from it (the seats rotated), and a duplicate
    tournament's round deals every table from the same boards. Its ``seed_sha256`` is public from its
    creation, before any play; ``server_seed``, ``seed`` and ``decks`` stay secret until every match
    that plays it is over (``revealed_at``), so a table that finished first can tell no other table
    what the cards are.
    """

    game = models.CharField(max_length=8, choices=Match.GameName.choices)
    num_players = models.PositiveSmallIntegerField()
    options = models.JSONField(default=dict, blank=True, help_text="Rules flags (RULES.md), as validated.")
    dealer = models.PositiveSmallIntegerField(help_text="The game seat that deals every play.")
    server_seed = models.CharField(max_length=64, help_text="Secret until the board is revealed.")
    seed_sha256 = models.CharField(max_length=64, help_text="Commitment to the server seed (public).")
    client_seeds = models.JSONField(
        default=list, blank=True, help_text="By game seat, '' where none (a shared board has none)."
    )
    seed = models.CharField(max_length=64, help_text="The deal seed: secret until the board is revealed.")
    decks = models.JSONField(help_text="The decks dealt from the seed, top card first, one per hand.")
    created_at = models.DateTimeField(auto_now_add=True)
    revealed_at = models.DateTimeField(
        null=True, blank=True, help_text="When every match playing the board was over: its seeds are public."
    )

    class Meta:
        ordering = ["id"]
        constraints = [
            models.CheckConstraint(
                condition=Q(dealer__lt=models.F("num_players")), name="board_dealer_seated"
            ),
            models.CheckConstraint(
                condition=Q(seed_sha256__regex=r"^[0-9a-f]{64}$"), name="board_seed_sha256_hex"
            ),
        ]

    def __str__(self) -> str:
        return f"board {self.pk} ({self.game}, {self.num_players} players)"

    @property
    def is_revealed(self) -> bool:
        return self.revealed_at is not None


class MatchBoard(models.Model):
    """Board ``number`` (from 0) of a duplicate match: the deal its plays of that board are dealt from."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="match_boards")
    number = models.PositiveSmallIntegerField()
    board = models.ForeignKey(Board, on_delete=models.PROTECT, related_name="match_boards")

    class Meta:
        ordering = ["match", "number"]
        constraints = [
            models.UniqueConstraint(fields=["match", "number"], name="match_board_unique_number"),
            models.UniqueConstraint(fields=["match", "board"], name="match_board_once_per_match"),
        ]

    def __str__(self) -> str:
        return f"board {self.number} of match {self.match_id}"


class Game(models.Model):
    """One game of a match (a Tute hand, or a whole Pocha sequence), dealt from its own secret seed."""

    class Status(models.TextChoices):
        IN_PROGRESS = "in_progress", "In progress"
        FINISHED = "finished", "Finished"
        ABANDONED = "abandoned", "Abandoned"

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="games")
    number = models.PositiveSmallIntegerField()
    seed = models.CharField(max_length=64, help_text="The deal seed: secret until the game is over.")
    server_seed = models.CharField(
        max_length=64,
        blank=True,
        help_text="Secret until the game is over; empty for games before fair deals.",
    )
    client_seeds = models.JSONField(default=list, blank=True, help_text="By game seat, '' where none.")
    # Duplicate matches: the board (a deal played once per rotation of the seats) and, for each game
    # seat, the match seat that holds it. Null for other formats (game seat = match seat).
    board = models.PositiveSmallIntegerField(null=True, blank=True)
    seat_map = models.JSONField(null=True, blank=True)
    dealt_from = models.ForeignKey(
        Board,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="plays",
        help_text="The board this duplicate play was dealt from.",
    )
    luck = models.JSONField(
        null=True,
        blank=True,
        help_text="What these cards score on average (house bots playing the deal from every seat), by "
        "side of the game; computed by a worker after the game.",
    )
    decks = models.JSONField(help_text="The decks dealt from the seed, top card first, one per hand.")
    dealer = models.PositiveSmallIntegerField()
    first_ply = models.PositiveIntegerField(help_text="The match ply at which this game began.")
    status = models.CharField(max_length=12, choices=Status.choices, default=Status.IN_PROGRESS)
    result = models.JSONField(null=True, blank=True)
    started_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["match", "number"]
        constraints = [models.UniqueConstraint(fields=["match", "number"], name="game_unique_number")]

    def __str__(self) -> str:
        return f"game {self.number} of match {self.match_id}"

    def game_seat(self, match_seat: int) -> int:
        """The seat of this game held by ``match_seat`` (they differ only in duplicate matches)."""
        return self.seat_map.index(match_seat) if self.seat_map else match_seat

    def match_seat(self, game_seat: int) -> int:
        """The match seat holding ``game_seat`` of this game."""
        return int(self.seat_map[game_seat]) if self.seat_map else game_seat


class Action(models.Model):
    """One applied action: the log a match replays from. Exactly one row per (match, ply)."""

    class Kind(models.TextChoices):
        MOVE = "move", "Played by the seat"
        HOUSE_BOT = "house_bot", "Played by a house bot"
        TIMEOUT = "timeout", "Played for the seat when its time ran out"

    # No index of its own: the unique (match, ply) index leads with it, and each index costs every move.
    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="actions", db_index=False)
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="actions")
    ply = models.PositiveIntegerField()
    seat = models.PositiveSmallIntegerField()
    code = models.CharField(max_length=16)
    kind = models.CharField(max_length=10, choices=Kind.choices, default=Kind.MOVE)
    player = models.ForeignKey(Player, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    idempotency_key = models.CharField(max_length=64, null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["match", "ply"]
        constraints = [
            models.UniqueConstraint(fields=["match", "ply"], name="action_unique_ply"),
            models.UniqueConstraint(
                fields=["match", "player", "idempotency_key"],
                condition=Q(idempotency_key__isnull=False),
                name="action_unique_idempotency_key",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.match_id}#{self.ply} seat {self.seat}: {self.code}"
