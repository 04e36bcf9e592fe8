"""API plumbing: throttling per account and per address (429 + Retry-After), the body limit, pagination
limits, the OpenAPI schema and its docs pages, the JSON renderer.

DRF reads throttle rates when the throttle classes are defined, so the tests patch the rates on the class
rather than in settings; the counters live in the cache, cleared around each test.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Iterator
from datetime import UTC, date, datetime, time, timedelta, timezone
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.core.cache import cache
from django.core.management import call_command
from django.utils.translation import gettext_lazy
from rest_framework.renderers import JSONRenderer
from rest_framework.test import APIClient
from rest_framework.throttling import SimpleRateThrottle

from games.models import Match, Player
from games.services import token_create
from tests.factories import PlayerFactory
from tute_site.api import AccountAndAddressThrottle, OrjsonRenderer, window_counts

pytestmark = pytest.mark.django_db

API_PATHS = [
    "/api/v1/matches/",
    "/api/v1/matches/{match_id}/",
    "/api/v1/matches/{match_id}/join/",
    "/api/v1/matches/{match_id}/leave/",
    "/api/v1/matches/{match_id}/resign/",
    "/api/v1/matches/{match_id}/abort/",
    "/api/v1/matches/{match_id}/view/",
    "/api/v1/matches/{match_id}/actions/",
    "/api/v1/matches/{match_id}/record/",
    "/api/v1/bots/",
    "/api/v1/bots/{handle}/token/",
    "/api/v1/me/",
    "/api/v1/me/tokens/",
]


@pytest.fixture(autouse=True)
def empty_cache() -> Iterator[None]:
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def rates(monkeypatch: pytest.MonkeyPatch) -> Iterator[dict[str, str]]:
    """The throttle rates in force for this test; edit the dict to lower them."""
    current = {"user": "1000/min", "address": "1000/min"}
    monkeypatch.setattr(SimpleRateThrottle, "THROTTLE_RATES", current)
    yield current


def token_client(player: Player, address: str = "10.0.0.1") -> APIClient:
    client = APIClient(REMOTE_ADDR=address)
    client.credentials(HTTP_AUTHORIZATION=f"Token {token_create(user=player.user)}")
    return client


def test_an_account_over_its_rate_gets_429_with_retry_after(rates: dict[str, str]) -> None:
    # given: 3 requests a minute per account
    rates["user"] = "3/min"
    alice, bob = PlayerFactory(), PlayerFactory()
    client = token_client(alice)

    # when: alice makes 4
    statuses = [client.get("/api/v1/me/").status_code for _ in range(4)]

    # then: the 4th is refused with 429, the error shape and a Retry-After in seconds
    assert statuses == [200, 200, 200, 429]
    refused = client.get("/api/v1/me/")
    assert refused.status_code == 429
    assert refused.json()["code"] == "throttled" and set(refused.json()) == {"code", "message", "detail"}
    assert 0 < int(refused["Retry-After"]) <= 60
    # and: another account from the same address is not held back by alice's count
    assert token_client(bob).get("/api/v1/me/").status_code == 200


def test_two_tokens_of_one_account_share_its_rate(rates: dict[str, str]) -> None:
    rates["user"] = "2/min"
    player = PlayerFactory()
    first, second = token_client(player, "10.0.0.1"), token_client(player, "10.0.0.2")

    assert [first.get("/api/v1/me/").status_code, second.get("/api/v1/me/").status_code] == [200, 200]
    assert second.get("/api/v1/me/").status_code == 429


def test_an_address_over_its_rate_gets_429_signed_in_or_not(rates: dict[str, str]) -> None:
    # given: 3 requests a minute per address
    rates["address"] = "3/min"
    anonymous = APIClient(REMOTE_ADDR="10.0.0.9")
    signed_in = token_client(PlayerFactory(), "10.0.0.9")
    elsewhere = APIClient(REMOTE_ADDR="10.0.0.10")

    # when: two clients at one address make 4 requests between them
    statuses = [
        anonymous.get("/api/v1/matches/").status_code,
        signed_in.get("/api/v1/me/").status_code,
        anonymous.get("/api/v1/matches/").status_code,
        signed_in.get("/api/v1/me/").status_code,
    ]

    # then: the 4th is refused; another address is not
    assert statuses == [200, 200, 200, 429]
    refused = anonymous.get("/api/v1/matches/")
    assert refused.status_code == 429 and int(refused["Retry-After"]) > 0
    assert elsewhere.get("/api/v1/matches/").status_code == 200


def test_a_throttled_write_changes_nothing(rates: dict[str, str]) -> None:
    rates["user"] = "1/min"
    client = token_client(PlayerFactory())
    assert client.post("/api/v1/matches/", {"game": "tute2"}, format="json").status_code == 201

    refused = client.post("/api/v1/matches/", {"game": "tute2"}, format="json")

    assert refused.status_code == 429
    assert Match.objects.count() == 1


def test_the_default_rates_are_the_documented_ones() -> None:
    assert settings.REST_FRAMEWORK["DEFAULT_THROTTLE_CLASSES"] == ["tute_site.api.AccountAndAddressThrottle"]
    assert set(settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]) == {"user", "address"}


@pytest.mark.parametrize("size", [16 * 1024 + 1, 100_000])
def test_a_body_over_the_limit_is_a_413(size: int, rates: dict[str, str]) -> None:
    client = token_client(PlayerFactory())
    body = json.dumps({"game": "tute2", "pad": "x" * size})

    response = client.generic("POST", "/api/v1/matches/", body, content_type="application/json")

    assert response.status_code == 413
    assert response.json()["code"] == "request_too_large"


def test_a_body_just_under_the_limit_is_parsed(rates: dict[str, str]) -> None:
    client = token_client(PlayerFactory())
    body = json.dumps({"game": "tute2", "rated": False})
    body = body[:-1] + ", " + '"pad": "' + "x" * (16 * 1024 - len(body) - 12) + '"}'
    assert len(body.encode()) <= 16 * 1024

    response = client.generic("POST", "/api/v1/matches/", body, content_type="application/json")

    assert response.status_code == 201, response.content


def test_an_empty_body_is_an_empty_object(rates: dict[str, str]) -> None:
    client = token_client(PlayerFactory())

    response = client.generic("POST", "/api/v1/matches/", b"", content_type="application/json")

    assert response.status_code == 400
    assert "game" in response.json()["detail"]


def test_the_openapi_schema_lists_every_endpoint_and_the_token_scheme(anon_client: APIClient) -> None:
    response = anon_client.get("/api/v1/schema/?format=json")

    assert response.status_code == 200
    schema = json.loads(response.content)
    assert schema["openapi"].startswith("3.")
    assert set(API_PATHS) <= set(schema["paths"])
    assert schema["components"]["securitySchemes"]["tokenAuth"]["in"] == "header"
    actions = schema["paths"]["/api/v1/matches/{match_id}/actions/"]["post"]
    assert any(p["name"] == "Idempotency-Key" for p in actions["parameters"])


def test_the_schema_validates_and_games_has_no_schema_warnings(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    call_command("spectacular", "--validate", "--file", str(tmp_path / "schema.yml"))

    warnings = capsys.readouterr().err
    assert "games/" not in warnings, warnings
    assert (tmp_path / "schema.yml").stat().st_size > 1000


@pytest.mark.parametrize("path", ["/api/v1/docs/", "/api/v1/redoc/"])
def test_the_docs_pages_render(anon_client: APIClient, path: str, settings: Any) -> None:
    settings.STORAGES = {  # static URLs without collectstatic's manifest
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
    }
    response = anon_client.get(path)

    page = response.content.decode()
    assert response.status_code == 200
    if path == "/api/v1/docs/":  # Swagger UI's set-up script names the schema
        assert "/api/v1/schema/" in anon_client.get(path + "?script=").content.decode()
    else:
        assert "/api/v1/schema/" in page
    # then: Swagger UI and Redoc come from our own static files, under a policy that runs no inline script
    assert "/static/drf_spectacular_sidecar/" in page and "cdn.jsdelivr.net" not in page
    policy = response["Content-Security-Policy"]
    assert "script-src 'self'" in policy and "unsafe-eval" not in policy
    if path == "/api/v1/docs/":
        assert "<script>" not in page  # Swagger UI's set-up script is a file of its own


@pytest.fixture
def anon_client() -> APIClient:
    return APIClient()


def test_the_count_starts_again_in_the_next_window(
    rates: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # given: 2 requests a minute per account, and a clock the test moves
    rates["user"] = "2/min"
    now = [1_000_000 * 60 + 30.0]  # half way through a minute's window
    monkeypatch.setattr(AccountAndAddressThrottle, "timer", lambda self: now[0])
    client = token_client(PlayerFactory())
    assert [client.get("/api/v1/me/").status_code for _ in range(3)] == [200, 200, 429]

    # when: the refusal says how long to wait, and that much time passes
    wait = int(client.get("/api/v1/me/")["Retry-After"])
    now[0] += wait

    # then: the wait was the rest of the window, and the account may call again
    assert wait == 30
    assert client.get("/api/v1/me/").status_code == 200


def test_the_counter_costs_the_same_at_any_rate(rates: dict[str, str]) -> None:
    # given: a high rate, as for many bots behind one address
    rates["address"] = "100000/min"
    client = APIClient(REMOTE_ADDR="10.0.0.77")
    for _ in range(50):
        assert client.get("/api/v1/matches/").status_code == 200

    # then: the cache holds one small counter for the window, not a list of every request's time
    stored = [key for key in cache._cache if "10.0.0.77" in key]  # type: ignore[attr-defined]
    assert len(stored) == 1
    assert cache.get(stored[0].split(":", 2)[-1]) == 50


def test_a_window_counter_on_redis_counts_on_and_expires_with_its_window(redis_url: str) -> None:
    # given: Django's Redis cache on the test's Redis server, with a key of this test's own
    from django.core.cache.backends.redis import RedisCache

    redis_cache = RedisCache(redis_url, {"KEY_PREFIX": f"test-window-{uuid.uuid4().hex}"})
    key = "throttle_user_7:123"

    # when: three requests are counted
    counts = [window_counts(redis_cache, [(key, 61)])[0] for _ in range(3)]

    # then: the counts follow on, the cache reads the same number, and the window's key expires
    assert counts == [1, 2, 3]
    assert redis_cache.get(key) == 3
    full_key = redis_cache.make_and_validate_key(key)
    client = redis_cache._cache.get_client(full_key)  # type: ignore[attr-defined]
    assert 0 < client.ttl(full_key) <= 61
    redis_cache.delete(key)


def test_a_window_counter_in_the_local_cache_starts_at_one_and_counts_on() -> None:
    key = f"throttle_address_{uuid.uuid4().hex}:1"
    assert [window_counts(cache, [(key, 61)]) for _ in range(3)] == [[1], [2], [3]]
    assert cache.get(key) == 3


@pytest.fixture
def pipelines(monkeypatch: pytest.MonkeyPatch) -> list[list[str]]:
    """The Redis pipelines sent during the test, each as its commands' names."""
    import redis.client

    sent: list[list[str]] = []
    execute = redis.client.Pipeline.execute

    def recorded(pipe: Any, *args: Any, **kwargs: Any) -> Any:
        sent.append([str(command[0][0]) for command in pipe.command_stack])
        return execute(pipe, *args, **kwargs)

    monkeypatch.setattr(redis.client.Pipeline, "execute", recorded)
    return sent


ONE_ROUND_TRIP_FOR_BOTH = ["INCRBY", "EXPIRE", "INCRBY", "EXPIRE"]


def test_window_counts_on_redis_count_every_key_in_one_round_trip(
    redis_url: str, pipelines: list[list[str]]
) -> None:
    # given: Django's Redis cache on the test's Redis server
    from django.core.cache.backends.redis import RedisCache

    redis_cache = RedisCache(redis_url, {"KEY_PREFIX": f"test-windows-{uuid.uuid4().hex}"})

    # when: two requests are counted under an account's key and an address's key
    counters = [("throttle_user_7:1", 61), ("throttle_address_10.0.0.1:1", 3601)]
    counts = [window_counts(redis_cache, counters) for _ in range(2)]

    # then: the counts follow on per key, each request took one pipeline of INCR and EXPIRE per key
    assert counts == [[1, 1], [2, 2]]
    assert pipelines == [ONE_ROUND_TRIP_FOR_BOTH] * 2
    for key, ttl in counters:
        full_key = redis_cache.make_and_validate_key(key)
        client = redis_cache._cache.get_client(full_key)  # type: ignore[attr-defined]
        assert 0 < client.ttl(full_key) <= ttl
        redis_cache.delete(key)


def test_with_a_shared_cache_the_throttle_counts_both_limits_in_one_round_trip(
    rates: dict[str, str], settings: Any, redis_url: str, pipelines: list[list[str]]
) -> None:
    # given: the cache on Redis, as with CACHE_URL (the throttles reach it through Django's proxy)
    settings.CACHES = {
        "default": {
            "BACKEND": "tute_site.cache.RedisCache",
            "LOCATION": redis_url,
            "KEY_PREFIX": f"test-throttle-{uuid.uuid4().hex}",
        }
    }
    rates.update(user="2/min", address="1000/min")
    client = token_client(PlayerFactory(), "10.0.0.34")

    # when: three requests from one account
    statuses = [client.get("/api/v1/me/").status_code for _ in range(3)]

    # then: the account's limit holds, and each request counted both limits in one pipeline
    assert statuses == [200, 200, 429]
    assert pipelines == [ONE_ROUND_TRIP_FOR_BOTH] * 3


def test_each_limit_counts_in_its_own_window_and_the_wait_is_the_longest(
    rates: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # given: 1 request an hour per account, 2 a minute per address, and a clock the test sets
    rates.update(user="1/hour", address="2/min")
    now = [1_000 * 3600 + 600.0]  # ten minutes into an hour, so no minute's window ends with it
    monkeypatch.setattr(AccountAndAddressThrottle, "timer", lambda self: now[0])
    client = token_client(PlayerFactory(), "10.0.0.31")

    # when: a second request, then a third past the address's limit too
    assert client.get("/api/v1/me/").status_code == 200
    second = client.get("/api/v1/me/")
    third = client.get("/api/v1/me/")

    # then: the account waits for its hour's window to end, whichever limit is also over
    assert (second.status_code, int(second["Retry-After"])) == (429, 3000)
    assert (third.status_code, int(third["Retry-After"])) == (429, 3000)


def test_a_refused_request_still_counts_against_both_limits(rates: dict[str, str]) -> None:
    # as DRF's own throttles do: each limit counts every request it sees
    rates.update(user="1/min", address="1000/min")
    player = PlayerFactory()
    client = token_client(player, "10.0.0.32")

    statuses = [client.get("/api/v1/me/").status_code for _ in range(3)]

    assert statuses == [200, 429, 429]
    assert window_counters() == {f"throttle_user_{player.user.pk}": 3, "throttle_address_10.0.0.32": 3}


def window_counters() -> dict[str, int]:
    """The throttle counters in the local cache, by key without their window's number."""
    keys = [full_key.split(":", 2)[-1] for full_key in cache._cache]  # type: ignore[attr-defined]
    return {key.rsplit(":", 1)[0]: cache.get(key) for key in keys if key.startswith("throttle_")}


def test_an_anonymous_request_counts_only_against_its_address(rates: dict[str, str]) -> None:
    rates.update(user="1/min", address="1000/min")
    client = APIClient(REMOTE_ADDR="10.0.0.33")

    assert [client.get("/api/v1/matches/").status_code for _ in range(3)] == [200, 200, 200]
    assert window_counters() == {"throttle_address_10.0.0.33": 3}


@pytest.mark.parametrize(
    "accept", ["", "*/*", "application/json", "application/json; indent=2", "text/*, */*"]
)
def test_a_request_that_accepts_json_gets_json(anon_client: APIClient, accept: str) -> None:
    response = anon_client.get("/api/v1/matches/", HTTP_ACCEPT=accept)
    assert response.status_code == 200
    assert response["Content-Type"].startswith("application/json")


def test_a_request_that_accepts_no_json_gets_406_in_the_error_shape(anon_client: APIClient) -> None:
    response = anon_client.get("/api/v1/matches/", HTTP_ACCEPT="text/html")
    assert response.status_code == 406
    assert set(response.json()) == {"code", "message", "detail"}


def test_format_in_the_query_string_is_no_renderer_override(anon_client: APIClient) -> None:
    # ?format= is a filter where a list has one (tournaments), never DRF's renderer override: a list
    # without such a filter ignores it and answers JSON
    for value in ("json", "api", "swiss"):
        response = anon_client.get("/api/v1/matches/", {"format": value})
        assert response.status_code == 200 and response["Content-Type"].startswith("application/json")


def test_the_schema_still_reads_format_json_or_yaml(anon_client: APIClient) -> None:
    assert anon_client.get("/api/v1/schema/?format=json")["Content-Type"].startswith("application/")
    assert json.loads(anon_client.get("/api/v1/schema/?format=json").content)["openapi"].startswith("3.")
    assert anon_client.get("/api/v1/schema/?format=yaml").content.startswith(b"openapi:")


# -- rendering ------------------------------------------------------------------------------------------

RENDERED_DATA = [
    {"match": 7, "status": "in_progress", "legal": ["play:4E", "sing:O"], "view": {"hand": ["1O", "12C"]}},
    {"nested": [(1, 2), {"x": None, "y": True, "z": 1.5}], "empty": {}, "list": []},
    {3: "int keys become strings", "ñandú": "accents, ∑ and 🂡 as UTF-8"},
    {"separators": "\u2028 and \u2029 are escaped for JavaScript"},
    {
        "aware": datetime(2026, 12, 3, 7, 5, 53, 123456, tzinfo=UTC),
        "naive": datetime(2026, 12, 3, 7, 5, 53),
        "day": date(2026, 12, 3),
        "time": time(7, 5, 53),
        "offset": datetime(2026, 12, 3, 7, 5, tzinfo=timezone(timedelta(hours=1))),
    },
    {"decimal": Decimal("1.25"), "uuid": uuid.UUID(int=7), "lazy": gettext_lazy("Open"), "bytes": b"ab"},
    {"big": 2**70, "list of big": [2**64]},
    [1, "two", None],
    "just a string",
]


@pytest.mark.parametrize("data", RENDERED_DATA)
@pytest.mark.parametrize("accepted", ["application/json", "application/json; indent=4", None])
def test_the_api_renderer_writes_the_same_bytes_as_drfs(data: Any, accepted: str | None) -> None:
    assert OrjsonRenderer().render(data, accepted, {}) == JSONRenderer().render(data, accepted, {})


def test_the_api_renderer_renders_no_data_as_an_empty_body() -> None:
    assert OrjsonRenderer().render(None, "application/json", {}) == b""


def test_what_neither_renderer_can_encode_fails_as_drfs_does() -> None:
    with pytest.raises(TypeError):
        JSONRenderer().render({"x": object()}, "application/json", {})
    with pytest.raises(TypeError):
        OrjsonRenderer().render({"x": object()}, "application/json", {})


def test_api_answers_are_rendered_by_the_orjson_renderer(anon_client: APIClient) -> None:
    response = anon_client.get("/api/v1/matches/")
    assert response.status_code == 200
    assert isinstance(response.accepted_renderer, OrjsonRenderer)
    assert json.loads(response.content) == response.data


@pytest.mark.parametrize(
    "body",
    [
        b'{"action": "play:1o", "ply": 3}',
        '{"name": "Caña \u2028 ñ", "list": [1.5, null, true, {"a": []}]}'.encode(),
        b'{"ply": 1180591620717411303424}',  # past 64 bits: orjson refuses, DRF's parser reads it
        b'{"a": 1, "a": 2}',
        b"[]",
    ],
    ids=["action", "unicode-and-nesting", "big-integer", "repeated-key", "a-list"],
)
def test_a_json_body_parses_as_drfs_parser_parses_it(body: bytes) -> None:
    import io

    from rest_framework.parsers import JSONParser

    from tute_site.api import LimitedJSONParser

    context = {"encoding": "utf-8"}
    parsed = LimitedJSONParser().parse(io.BytesIO(body), "application/json", context)
    assert parsed == JSONParser().parse(io.BytesIO(body), "application/json", context)


@pytest.mark.parametrize("body", [b'{"ply": 1', b'{"ply": NaN}', b'{"ply": Infinity}', b'\xff{"a": 1}'])
def test_a_body_that_is_not_json_gets_drfs_parse_error(body: bytes) -> None:
    import io

    from rest_framework.exceptions import ParseError

    from tute_site.api import LimitedJSONParser

    with pytest.raises(ParseError) as refused:
        LimitedJSONParser().parse(io.BytesIO(body), "application/json", {"encoding": "utf-8"})
    assert str(refused.value.detail).startswith("JSON parse error")


def test_a_body_in_a_declared_charset_other_than_utf8_is_read_in_it() -> None:
    import io

    from tute_site.api import LimitedJSONParser

    body = '{"name": "Caña"}'.encode("latin-1")  # not UTF-8
    parsed = LimitedJSONParser().parse(io.BytesIO(body), "application/json", {"encoding": "latin-1"})
    assert parsed == {"name": "Caña"}
