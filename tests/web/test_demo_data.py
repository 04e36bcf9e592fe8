"""`manage.py demo_data`: the content a fresh `make run` shows (issue 14), added once, DEBUG only."""

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command
from pytest_django import Settings

from games.models import Match, Player
from ratings.models import RatingChange
from tournaments.models import Club, Tournament


#: Committed, as `make run` commits each service's transaction: a move then starts from the state the
#: one before it cached on commit (games.states), where inside a test's transaction every move would
#: replay its game from the deal.
@pytest.mark.django_db(transaction=True)
def test_demo_data_stopped_halfway_goes_on_where_it_stopped_and_makes_a_site_that_looks_alive_once(
    settings: Settings, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """`make run` loads it behind the running site, so a Ctrl-C can stop it anywhere (issue 30). One
    build of the content serves both points (it is the slowest thing the suite makes): what a run stopped
    halfway and run again makes is what an uninterrupted run makes."""
    from web.management.commands import demo_data

    # given: DEBUG on, and a run stopped by a Ctrl-C in the middle of its sixth match
    settings.DEBUG = True
    play_out = demo_data.Command._play_out
    calls = 0

    def interrupted(self: demo_data.Command, match_id: int, rng: object) -> None:
        nonlocal calls
        calls += 1
        if calls == 6:
            raise KeyboardInterrupt
        play_out(self, match_id, rng)  # type: ignore[arg-type]

    monkeypatch.setattr(demo_data.Command, "_play_out", interrupted)
    with pytest.raises(KeyboardInterrupt):
        call_command("demo_data", "--progress")
    first = capsys.readouterr().out
    assert "demo content: 5/29 matches played" in first
    assert Match.objects.filter(tournament_match__isnull=True).count() == 6
    monkeypatch.setattr(demo_data.Command, "_play_out", play_out)

    # when: it runs again
    call_command("demo_data", "--progress")
    out = capsys.readouterr().out

    # then: the superuser demo/demo
    user = get_user_model()._default_manager.get(username="demo")
    assert user.is_superuser and user.is_staff and user.check_password("demo")
    assert "Created superuser 'demo'" in first

    # and: a dozen players and three bot accounts, each with a rating history
    people = Player.objects.filter(is_bot=False).exclude(user__username="demo")
    bots = Player.objects.filter(is_bot=True)
    assert people.count() == 12 and bots.count() == 3
    rated = set(RatingChange.objects.values_list("rating__player_id", flat=True).distinct())
    assert {p.pk for p in bots} <= rated
    assert len({p.pk for p in people} & rated) >= 10

    # and: the same content as an uninterrupted run, none of it twice, with a line per match: finished
    # matches of all three games, each replayable from its record and rated
    finished = Match.objects.filter(status=Match.Status.FINISHED, tournament_match__isnull=True)
    assert Match.objects.filter(tournament_match__isnull=True).count() == finished.count() == 22
    assert set(finished.values_list("game", flat=True)) == {"tute2", "tute4", "pocha"}
    for match in finished:
        assert match.actions.exists()
        assert RatingChange.objects.filter(match=match).exists()
    assert [line for line in out.splitlines() if line.startswith("demo content:")] == [
        f"demo content: {n}/29 matches played" for n in range(1, 30)
    ]

    # and: the club, with a finished single elimination and a running Swiss of house bots
    club = Club.objects.get(slug="demo")
    cup = Tournament.objects.get(club=club, format="single_elim")
    assert cup.status == Tournament.Status.FINISHED and cup.entrants.count() == 8
    assert cup.matches.filter(match__status=Match.Status.FINISHED).count() == 7
    swiss = Tournament.objects.get(club=club, format="swiss")
    assert swiss.status == Tournament.Status.RUNNING

    # when: it runs again; then: nothing is added
    counts = (
        Player.objects.count(),
        Match.objects.count(),
        Tournament.objects.count(),
        RatingChange.objects.count(),
    )
    call_command("demo_data")
    second = capsys.readouterr().out
    assert "already exists" in second and "already there" in second
    assert counts == (
        Player.objects.count(),
        Match.objects.count(),
        Tournament.objects.count(),
        RatingChange.objects.count(),
    )


@pytest.mark.django_db
def test_demo_data_refuses_when_debug_is_off(settings: Settings) -> None:
    settings.DEBUG = False

    with pytest.raises(CommandError, match="only with DEBUG on"):
        call_command("demo_data")

    assert not get_user_model()._default_manager.filter(username="demo").exists()
    assert not Match.objects.exists()
