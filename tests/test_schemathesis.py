"""The API against its own OpenAPI schema: schemathesis generates requests for every operation from the
served schema and sends them to a live server with a token (throttles raised for the run). Every answer
must be documented: no 5xx, a status the operation lists, a body of the schema given for it."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from games.models import ApiToken, Player
from games.services import SeatSpec, match_create
from games.tokens import token_digest
from tests.factories import BotPlayerFactory, PlayerFactory, token_for
from tournaments.services import Settings, club_create, entrant_bot_fill, tournament_create, tournament_start

#: Examples per operation: with about 60 operations, well over 1,000 cases a run.
EXAMPLES = 25
CHECKS = [not_a_server_error, status_code_conformance, content_type_conformance, response_schema_conformance]


@pytest.fixture
def api_world(transactional_db: None, settings: Any) -> dict[str, Any]:
    """A person with a token and something to find: a bot, matches, a club and a tournament."""
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {"user": "1000000/min", "address": "1000000/min"},
    }
    settings.TUTE_MAX_OPEN_MATCHES = 0
    settings.TUTE_STREAMS_PER_PROCESS = 0
    settings.TUTE_EVENTS_URL = ""
    person: Player = PlayerFactory(handle="fuzzer")
    BotPlayerFactory(handle="fuzz-bot", owner=person.user)
    match_create(created_by=person, game="tute2")
    match_create(created_by=person, game="tute2", seats=[SeatSpec(player="fuzzer"), SeatSpec(bot="rule")])
    club = club_create(name="Fuzz", slug="fuzz", by=person)
    tournament_create(
        club=club, by=person, settings=Settings(name="Fuzz", game="tute2", format="round_robin")
    )
    # a duplicate tournament under way: its boards and score sheets (and the games boards) to find
    duplicate = tournament_create(
        club=club,
        by=person,
        settings=Settings(
            name="Fuzz duplicate", game="tute2", format="round_robin", match_format="duplicate"
        ),
    )
    entrant_bot_fill(tournament_id=duplicate.pk, by=person, level="random", count=4)
    tournament_start(tournament_id=duplicate.pk, by=person)
    return {"person": person, "token": token_for(person)}


def test_every_answer_is_documented(api_world: dict[str, Any], live_server: Any) -> None:
    schema = schemathesis.openapi.from_url(f"{live_server.url}/api/v1/schema/?format=json")
    operations = [result.ok() for result in schema.get_all_operations()]
    failures: list[str] = []
    statuses: Counter[int] = Counter()
    calls = 0

    def call(case: Any) -> None:
        nonlocal calls
        if case.operation.path == "/api/v1/stream/events/":
            case.query = {"max_seconds": 1}  # a stream is open for as long as asked: one second here
        token = api_world["token"]
        # A generated DELETE /me/tokens/{id}/ may have revoked it: a new one, then.
        if not ApiToken.objects.filter(digest=token_digest(token)).exists():
            token = api_world["token"] = token_for(api_world["person"])
        calls += 1
        try:
            response = case.call_and_validate(
                base_url=live_server.url,
                headers={"Authorization": f"Token {token}"},
                checks=CHECKS,
                timeout=30,
            )
        except Exception as exc:  # every failure is collected; the run goes on over every operation
            failures.append(f"{case.operation.method.upper()} {case.operation.path}: {exc}")
        else:
            statuses[response.status_code] += 1

    for operation in operations:
        run = settings(
            max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True
        )(given(case=operation.as_strategy())(call))
        run()

    print(f"schemathesis: {len(operations)} operations, {calls} cases, statuses {sorted(statuses.items())}")
    # then: at least a thousand cases over every operation, and every answer documented
    assert len(operations) >= 50 and calls >= 1000, (len(operations), calls)
    assert not failures, "\n\n".join(failures[:30]) + f"\n\n{len(failures)} failures in {calls} cases"
