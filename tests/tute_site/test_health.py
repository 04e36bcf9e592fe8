from unittest import mock

import pytest
from django.db import OperationalError, connections
from django.test import Client


@pytest.mark.django_db
def test_health_is_ok_when_the_database_answers(client: Client) -> None:
    # when: the health check is asked
    response = client.get("/health/")

    # then: 200 and both parts ok
    assert response.status_code == 200
    assert response.json() == {"status": "ok", "database": "ok", "cache": "ok"}
    assert "no-cache" in response["Cache-Control"]


@pytest.mark.django_db
def test_health_is_503_when_the_database_fails(client: Client) -> None:
    # given: the database refuses every cursor
    failing = mock.patch.object(
        connections["default"], "cursor", side_effect=OperationalError("connection refused")
    )

    # when: the health check is asked
    with failing:
        response = client.get("/health/")

    # then: 503, and the reason names the failure without its message
    assert response.status_code == 503
    assert response.json() == {"status": "error", "database": "OperationalError"}


@pytest.mark.django_db
def test_health_is_ok_on_postgresql(postgres_required: None, client: Client) -> None:
    # given: the default database is a real PostgreSQL server (CI)
    # then: the same check passes against it
    response = client.get("/health/")
    assert response.status_code == 200
    assert response.json()["database"] == "ok"


def test_health_accepts_only_get(client: Client) -> None:
    assert client.post("/health/").status_code == 405
