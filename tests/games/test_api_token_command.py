import pytest
from django.contrib.auth.models import User
from django.core.management import CommandError, call_command

from games.models import ApiToken, Player
from games.tokens import token_digest


@pytest.mark.django_db
def test_api_token_prints_a_new_token_for_the_user(capsys: pytest.CaptureFixture[str]) -> None:
    # given: a person without a player yet
    user = User.objects.create_user(username="demo")

    # when: two tokens are asked for
    call_command("api_token", "demo")
    first = capsys.readouterr()
    call_command("api_token", "demo")
    second = capsys.readouterr().out.strip()

    # then: only the token goes to stdout, each works for the user, and the user has a player
    token = first.out.strip()
    assert token and token != second and "\n" not in token
    assert "shown once" in first.err
    for printed in (token, second):
        assert ApiToken.objects.get(digest=token_digest(printed)).user == user
    assert Player.objects.get(user=user).handle == "demo"


@pytest.mark.django_db
def test_api_token_refuses_an_unknown_or_inactive_user() -> None:
    User.objects.create_user(username="gone", is_active=False)

    with pytest.raises(CommandError, match="No user is called 'nobody'"):
        call_command("api_token", "nobody")
    with pytest.raises(CommandError, match="not active"):
        call_command("api_token", "gone")

    assert not ApiToken.objects.exists()
