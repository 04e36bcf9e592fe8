"""games/models.py and its migrations: how the match row is stored."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.core.management import call_command
from django.db import connection, transaction

from games.models import Match

pytestmark = pytest.mark.django_db


def match_updates_in_this_transaction() -> tuple[int, int]:
    """(updates, of which heap-only) of games_match rows by the current transaction."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT pg_stat_get_xact_tuples_updated('games_match'::regclass), "
            "pg_stat_get_xact_tuples_hot_updated('games_match'::regclass)"
        )
        updated, hot = cursor.fetchone()
    return int(updated), int(hot)


@pytest.mark.django_db(transaction=True)
def test_a_move_updates_its_match_row_in_place(
    postgres_required: None, started_match: Callable[..., Match], play_moves: Callable[..., Any]
) -> None:
    # given: empty tables, with no dead row versions on their pages (the suite's rolled-back tests leave
    # theirs until a vacuum: a new row could land on an almost full page; a flush truncates), then a match
    # in progress, in one transaction that holds everything it writes
    call_command("flush", interactive=False, verbosity=0)
    with transaction.atomic():
        match = started_match("tute2")
        before = match_updates_in_this_transaction()

        # when: moves are played, each rewriting the match's ply, turn seat and deadline (three: every
        # version a transaction writes stays on the page until it ends, and the row is wide since the
        # seeds of issue 20; more versions can fill a page whatever the table's fillfactor, as production
        # never does)
        play_moves(match, 3)

        # then: every one of those updates was heap-only, adding no entry to any index of the table
        updated, hot = match_updates_in_this_transaction()
    assert updated - before[0] >= 3
    assert hot - before[1] == updated - before[0]


def test_the_match_table_keeps_room_on_its_pages_for_those_updates(postgres_required: None) -> None:
    with connection.cursor() as cursor:
        cursor.execute("SELECT reloptions FROM pg_class WHERE relname = 'games_match'")
        (options,) = cursor.fetchone()
    assert "fillfactor=80" in (options or [])


def test_the_turn_deadline_is_not_indexed() -> None:
    # an index on it would make every move's update touch every index of the table
    with connection.cursor() as cursor:
        constraints = connection.introspection.get_constraints(cursor, Match._meta.db_table)
    indexed = {column for c in constraints.values() if c["index"] for column in c["columns"]}
    assert "turn_deadline" not in indexed
    assert "status" in indexed  # what the overdue-turn sweep reads the matches in progress by
