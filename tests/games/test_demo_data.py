import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command
from pytest_django import Settings


@pytest.mark.django_db
def test_demo_data_creates_the_demo_superuser_once(
    settings: Settings, capsys: pytest.CaptureFixture[str]
) -> None:
    # given: DEBUG on
    settings.DEBUG = True

    # when: demo_data runs twice
    call_command("demo_data")
    first = capsys.readouterr().out
    call_command("demo_data")
    second = capsys.readouterr().out

    # then: one superuser demo/demo, and each run says what it did
    users = get_user_model()._default_manager.filter(username="demo")
    assert users.count() == 1
    user = users.get()
    assert user.is_superuser and user.is_staff and user.check_password("demo")
    assert "Created superuser 'demo'" in first
    assert "already exists" in second


@pytest.mark.django_db
def test_demo_data_refuses_when_debug_is_off(settings: Settings) -> None:
    settings.DEBUG = False

    with pytest.raises(CommandError, match="only with DEBUG on"):
        call_command("demo_data")

    assert not get_user_model()._default_manager.filter(username="demo").exists()
