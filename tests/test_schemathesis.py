"""The API against its own OpenAPI schema: schemathesis generates requests for every operation from the
served schema and sends them to a live server with a token (throttles raised for the run). Every answer
must be documented: no 5xx, a status the operation lists, a body of the schema given for it."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from hypothesis.errors import Unsatisfiable
from schemathesis import GenerationMode
from schemathesis.checks import not_a_server_error
from schemathesis.config import SchemathesisConfig
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    negative_data_rejection,
    positive_data_acceptance,
    response_schema_conformance,
    status_code_conformance,
)

from games.models import ApiToken, Player
from games.services import SeatSpec, match_create, match_spec
from games.tokens import token_digest
from tests.factories import BotPlayerFactory, PlayerFactory, token_for
from tournaments.services import Settings, club_create, entrant_bot_fill, tournament_create, tournament_start

#: Examples per operation: with about 60 operations, well over 1,000 cases a run.
EXAMPLES = 25
CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_schema_conformance,
    # A request the schema calls valid is not refused as malformed (400/422), and one it calls invalid is.
    positive_data_acceptance,
    negative_data_rejection,
]


#: The only refusals (400, with these codes) of requests the schema calls valid: what one field allows
#: with another, or the world outside, which a JSON schema cannot say. The description of each operation
#: (and docs/API.md) says it; every other refusal of a valid request is a failure.
REFUSED_FOR_A_REASON = {
    # rules flags ruled out by the player count or by each other (a Pocha sequence's hand sizes)
    ("POST /api/v1/matches/", "invalid_rules"),
    # the seats given and `players` disagree, or the game's table has another size
    ("POST /api/v1/matches/", "invalid:seats"),
    # within the seats: one holds a player and a house bot, a player sits twice (invalid_seats)
    ("POST /api/v1/matches/", "invalid_seats"),
    # house bots asked for seats the match's table does not have (its size is the match's)
    ("POST /api/v1/matches/{match_id}/bots/", "invalid_seats"),
    # a format, a game and their rounds that do not go together (Pocha plays pocha_tables, Swiss rounds)
    ("POST /api/v1/tournaments/", "invalid_tournament"),
    ("PUT /api/v1/tournaments/{tournament_id}/", "invalid_tournament"),
    # a seek's table size that is not its game's (Tute 2: 2, Tute 4: 4), or a rating range upside down
    ("POST /api/v1/seeks/", "invalid_seek"),
    # a table's result is exactly one of games, winner or totals (a rule across fields), and its points
    # must be possible ones (invalid_result)
    (
        "POST /api/v1/tournaments/{tournament_id}/matches/{tournament_match_id}/result/",
        "invalid:non_field_errors",
    ),
    ("POST /api/v1/tournaments/{tournament_id}/matches/{tournament_match_id}/result/", "invalid_result"),
    (
        "POST /api/v1/tournaments/{tournament_id}/matches/{tournament_match_id}/report/",
        "invalid:non_field_errors",
    ),
    ("POST /api/v1/tournaments/{tournament_id}/matches/{tournament_match_id}/report/", "invalid_result"),
    # a push URL must resolve, to a public address: DNS decides, not the schema
    ("PATCH /api/v1/bots/{handle}/", "invalid_push_url"),
}


def refused_for_a_reason(case: Any, response: Any, failure: BaseException) -> bool:
    """Whether ``failure`` is only a valid request refused for one of REFUSED_FOR_A_REASON's reasons."""
    text = str(failure)
    if response is None or response.status_code != 400 or "ST202" not in text or "1 distinct" not in text:
        return False
    body = response.json()
    code = body.get("code")
    if code == "invalid" and isinstance(body.get("detail"), dict):
        code = "invalid:" + ",".join(sorted(body["detail"]))
    return (f"{case.operation.method.upper()} {case.operation.path}", code) in REFUSED_FOR_A_REASON


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
    match_create(spec=match_spec(created_by=person, game="tute2"))
    match_create(
        spec=match_spec(
            created_by=person, game="tute2", seats=[SeatSpec(player="fuzzer"), SeatSpec(bot="rule")]
        )
    )
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


#: What a request the schema calls invalid may be refused with: schemathesis's own list, and 413
#: `request_too_large` (documented on every operation), which a generated body past
#: TUTE_API_MAX_BODY_BYTES gets before it is parsed.
NEGATIVE_STATUSES = [
    "400",
    "401",
    "403",
    "404",
    "405",
    "406",
    "409",
    "413",
    "415",
    "422",
    "428",
    "429",
    "5xx",
]
CONFIG = SchemathesisConfig.from_dict(
    {"checks": {"negative_data_rejection": {"expected-statuses": NEGATIVE_STATUSES}}}
)


def test_every_answer_is_documented(api_world: dict[str, Any], live_server: Any) -> None:
    schema = schemathesis.openapi.from_url(f"{live_server.url}/api/v1/schema/?format=json", config=CONFIG)
    operations = [result.ok() for result in schema.get_all_operations()]
    failures: list[str] = []
    statuses: Counter[int] = Counter()
    calls = 0
    no_negative: list[str] = []
    refused: Counter[str] = Counter()

    def call(case: Any) -> None:
        nonlocal calls
        if case.operation.path in ("/api/v1/stream/events/", "/api/v1/lobby/stream/"):
            case.query = {"max_seconds": 1}  # a stream is open for as long as asked: one second here
        token = api_world["token"]
        # A generated DELETE /me/tokens/{id}/ may have revoked it: a new one, then.
        if not ApiToken.objects.filter(digest=token_digest(token)).exists():
            token = api_world["token"] = token_for(api_world["person"])
        calls += 1
        headers = {"Authorization": f"Token {token}"}
        response = None
        try:
            response = case.call(base_url=live_server.url, headers=headers, timeout=30)
            statuses[response.status_code] += 1
            case.validate_response(response, checks=CHECKS, headers=headers)
        except (Exception, BaseExceptionGroup) as exc:  # every failure is collected; the run goes on
            if refused_for_a_reason(case, response, exc):
                refused[f"{case.operation.method.upper()} {case.operation.path}"] += 1
            else:
                failures.append(f"{case.operation.method.upper()} {case.operation.path}: {exc}")

    for operation in operations:
        for mode in GenerationMode:
            run = settings(
                max_examples=EXAMPLES,
                deadline=None,
                suppress_health_check=list(HealthCheck),
                derandomize=True,
            )(given(case=operation.as_strategy(generation_mode=mode))(call))
            try:
                run()
            except Unsatisfiable:
                # Nothing the schema calls invalid can be sent (a path of free strings, no query or body).
                assert mode is GenerationMode.NEGATIVE, operation.label
                no_negative.append(operation.label)

    print(f"schemathesis: {len(operations)} operations, {calls} cases, statuses {sorted(statuses.items())}")
    print(f"no invalid request to make for: {no_negative}")
    print(f"valid requests refused for a reason the schema cannot say: {dict(refused)}")
    for failure in failures:  # one line each: the operation, the check, the answer and the request
        lines = [line.strip() for line in failure.splitlines() if line.strip()]
        keep = [
            x
            for x in lines
            if x.startswith(
                ("GET", "POST", "PUT", "PATCH", "DELETE", "- ST", "[", "`", "curl", "Invalid component")
            )
        ]
        print("FAILURE", " | ".join(keep)[:700])
    # then: at least a thousand cases over every operation, and every answer documented
    assert len(operations) >= 50 and calls >= 1000, (len(operations), calls)
    assert not failures, "\n\n".join(failures[:30]) + f"\n\n{len(failures)} failures in {calls} cases"
