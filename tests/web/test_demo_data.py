"""`manage.py demo_data`: the content a fresh `make run` shows (issue 14), added once, DEBUG only."""

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command
from pytest_django import Settings

from games.models import Match, Player
from ratings.models import RatingChange
from tournaments.models import Club, Tournament


@pytest.mark.django_db
def test_demo_data_creates_a_site_that_looks_alive_once(
    settings: Settings, capsys: pytest.CaptureFixture[str]
) -> None:
    # given: DEBUG on
    settings.DEBUG = True

    # when: demo_data runs
    call_command("demo_data")
    first = capsys.readouterr().out

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

    # and: finished matches of all three games, each replayable from its record
    finished = Match.objects.filter(status=Match.Status.FINISHED, tournament_match__isnull=True)
    assert finished.count() == 22
    assert set(finished.values_list("game", flat=True)) == {"tute2", "tute4", "pocha"}
    for match in finished:
        assert match.actions.exists()

    # and: the club, with a finished single elimination and a running Swiss of house bots
    club = Club.objects.get(slug="demo")
    cup = Tournament.objects.get(club=club, format="single_elim")
    assert cup.status == Tournament.Status.FINISHED
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


@pytest.mark.django_db
def test_demo_data_stopped_halfway_goes_on_where_it_stopped(
    settings: Settings, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """`make run` loads it behind the running site, so a Ctrl-C can stop it anywhere (issue 30)."""
    from web.management.commands import demo_data

    # given: a run stopped by a Ctrl-C in the middle of its sixth match
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
    assert "demo content: 5/29 matches played" in capsys.readouterr().out
    assert Match.objects.filter(tournament_match__isnull=True).count() == 6
    monkeypatch.setattr(demo_data.Command, "_play_out", play_out)

    # when: it runs again
    call_command("demo_data", "--progress")
    out = capsys.readouterr().out

    # then: the same content as an uninterrupted run, none of it twice, with a line per match
    finished = Match.objects.filter(status=Match.Status.FINISHED, tournament_match__isnull=True)
    assert Match.objects.filter(tournament_match__isnull=True).count() == finished.count() == 22
    assert [line for line in out.splitlines() if line.startswith("demo content:")] == [
        f"demo content: {n}/29 matches played" for n in range(1, 30)
    ]
    cup = Tournament.objects.get(club__slug="demo", format="single_elim")
    assert cup.status == Tournament.Status.FINISHED and cup.entrants.count() == 8
    assert cup.matches.filter(match__status=Match.Status.FINISHED).count() == 7
    for match in finished:
        assert RatingChange.objects.filter(match=match).exists()
