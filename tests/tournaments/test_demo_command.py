"""`manage.py tournament_demo`: a running all-bot tournament for a local run, added once."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from tests.factories import UserFactory
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db


def test_the_demo_starts_a_bot_tournament_once() -> None:
    UserFactory(username="demo")
    out = StringIO()
    call_command("tournament_demo", stdout=out)
    t = Tournament.objects.get()
    assert (t.club.slug, t.status, t.entrants.count(), t.current_round) == ("demo", "running", 8, 1)
    assert t.matches.filter(kind="match").count() == 4
    call_command("tournament_demo", stdout=out)
    assert Tournament.objects.count() == 1 and "still running" in out.getvalue()


def test_the_demo_needs_its_organiser() -> None:
    with pytest.raises(CommandError, match="demo_data"):
        call_command("tournament_demo", organiser="nobody")
