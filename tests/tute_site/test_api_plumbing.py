"""API plumbing: throttling per account and per address (429 + Retry-After), the body limit, pagination
limits, the OpenAPI schema and its docs pages, the JSON renderer.

DRF reads throttle rates when the throttle classes are defined, so the tests patch the rates on the class
rather than in settings; the counters live in the cache, cleared around each test.
"""

from __future__ import annotations

import json
import re
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.core.cache import cache
from django.core.management import call_command
from rest_framework.test import APIClient
from rest_framework.throttling import SimpleRateThrottle

from games.bots import BOT_LEVELS
from games.models import Match, Player
from games.services import token_create
from tests.factories import PlayerFactory
from tute_site.api import AccountAndAddressThrottle
from tute_site.schema import NOT_BLANK

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
    """The throttle rates in force for this test; edit the dict to lower them. The windows are fixed, so
    the clock stands still half way through a minute: a test's requests must not straddle a window's end
    (one that did on a busy machine saw its third request counted in a new minute)."""
    current = {"user": "1000/min", "address": "1000/min"}
    monkeypatch.setattr(SimpleRateThrottle, "THROTTLE_RATES", current)
    monkeypatch.setattr(AccountAndAddressThrottle, "timer", lambda self: 1_000_000 * 60 + 30.0)
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
    # then: Swagger UI and Redoc come from our own files, under a policy that runs no inline script
    ours = (
        "/static/drf_spectacular_sidecar/" if path == "/api/v1/docs/" else "/api/v1/redoc/redoc.standalone.js"
    )
    assert ours in page and "cdn.jsdelivr.net" not in page
    policy = response["Content-Security-Policy"]
    assert "script-src 'self'" in policy and "unsafe-eval" not in policy
    if path == "/api/v1/docs/":
        assert "<script>" not in page  # Swagger UI's set-up script is a file of its own


def test_redoc_asks_no_other_site_for_fonts_scripts_or_images(anon_client: APIClient, settings: Any) -> None:
    settings.STORAGES = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
    }
    # given: the Redoc page and the script it loads
    page = anon_client.get("/api/v1/redoc/")
    html = page.content.decode()
    src = re.search(r'<script src="([^"]+)"', html)
    assert src is not None and src.group(1).startswith("/")
    script = anon_client.get(src.group(1))

    # then: neither names Google Fonts nor cdn.redoc.ly (the CSP would refuse them), and nothing runs inline
    assert script.status_code == 200 and script["Content-Type"].startswith("text/javascript")
    body = script.content.decode()
    assert "Redoc" in body
    for outside in ("fonts.googleapis.com", "fonts.gstatic.com", "cdn.redoc.ly"):
        assert outside not in html and outside not in body, outside
    assert "<script>" not in html and 'spec-url="/api/v1/schema/"' in html
    policy = page["Content-Security-Policy"]
    assert "font-src 'self'" in policy and "img-src 'self' data:" in policy
    # and: the script is cached and compressed for browsers that take gzip
    again = anon_client.get(src.group(1), HTTP_IF_NONE_MATCH=script["ETag"])
    zipped = anon_client.get(src.group(1), HTTP_ACCEPT_ENCODING="gzip")
    assert again.status_code == 304 and zipped["Content-Encoding"] == "gzip"
    assert len(zipped.content) < len(script.content) / 2


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


def test_with_a_shared_cache_on_redis_the_throttle_counts_there(
    rates: dict[str, str], settings: Any, redis_url: str
) -> None:
    # given: Django's Redis cache, as with CACHE_URL
    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": redis_url,
            "KEY_PREFIX": f"test-throttle-{uuid.uuid4().hex}",
        }
    }
    rates.update(user="2/min", address="1000/min")
    client = token_client(PlayerFactory(), "10.0.0.34")

    # when: three requests from one account
    statuses = [client.get("/api/v1/me/").status_code for _ in range(3)]

    # then: the account's limit holds
    assert statuses == [200, 200, 429]


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


@pytest.mark.parametrize("accept", ["*/*", "application/json", "application/json; indent=2", "text/*, */*"])
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


# -- request handling (issue 15) -------------------------------------------------------------------------


def test_the_event_stream_answers_a_request_for_its_own_type(rates: dict[str, str]) -> None:
    # given: a bot's client that accepts only NDJSON, the type the stream serves
    client = token_client(PlayerFactory(), "10.0.0.40")

    # when: it opens the stream for a second
    response = client.get("/api/v1/stream/events/?max_seconds=1", HTTP_ACCEPT="application/x-ndjson")

    # then: 200 and NDJSON lines, the first a hello
    assert response.status_code == 200, response.content
    assert response["Content-Type"].startswith("application/x-ndjson")
    first = json.loads(b"".join(response.streaming_content).splitlines()[0])
    assert first["type"] == "hello"


def test_an_ndjson_client_gets_its_errors_as_one_json_line(anon_client: APIClient) -> None:
    response = anon_client.get("/api/v1/stream/events/", HTTP_ACCEPT="application/x-ndjson")
    assert response.status_code == 401
    assert set(json.loads(response.content)) == {"code", "message", "detail"}


@pytest.mark.parametrize("depth", [1_025, 5_000])
def test_json_nested_too_deeply_is_a_400_invalid(rates: dict[str, str], depth: int) -> None:
    # given: a body under the size limit, nested deeper than Python's parser goes
    body = "[" * depth + "]" * depth
    assert len(body) < settings.API_MAX_BODY_BYTES
    client = token_client(PlayerFactory(), "10.0.0.41")

    response = client.generic("POST", "/api/v1/matches/", body, content_type="application/json")

    assert response.status_code == 400, response.content
    assert response.json()["code"] == "invalid"


@pytest.mark.parametrize("size", [2_700_000, 6_000_000])
def test_a_body_past_djangos_own_limit_is_the_json_413_too(rates: dict[str, str], size: int) -> None:
    # past DATA_UPLOAD_MAX_MEMORY_SIZE (2.5 MB), where Django itself refuses the body
    client = token_client(PlayerFactory(), "10.0.0.42")
    body = json.dumps({"game": "tute2", "padding": "x" * size})

    response = client.generic("POST", "/api/v1/matches/", body, content_type="application/json")

    assert response.status_code == 413, response.content[:200]
    assert response.json()["code"] == "request_too_large"
    assert not Match.objects.exists()


def test_a_body_django_read_first_is_the_json_413_when_too_large(rates: dict[str, str]) -> None:
    # what Django refuses while reading request.body (RequestDataTooBig) is the API's 413 too
    from django.core.exceptions import RequestDataTooBig

    from tute_site.errors import bad_request
    from tute_site.exceptions import exception_handler

    handled = exception_handler(RequestDataTooBig("too big"), {})
    assert handled is not None and handled.status_code == 413
    assert handled.data["code"] == "request_too_large"
    request = APIClient().get("/api/v1/matches/").wsgi_request
    response = bad_request(request, RequestDataTooBig("too big"))
    assert response.status_code == 413 and json.loads(response.content)["code"] == "request_too_large"


def test_a_chunked_body_is_refused_with_411(rates: dict[str, str]) -> None:
    # given: a body sent chunked, without Content-Length (WSGI would read it as empty)
    client = token_client(PlayerFactory(), "10.0.0.43")

    response = client.generic(
        "POST",
        "/api/v1/matches/",
        b'{"game": "tute2"}',
        content_type="application/json",
        HTTP_TRANSFER_ENCODING="chunked",
        CONTENT_LENGTH="",
    )

    assert response.status_code == 411
    assert response.json()["code"] == "length_required"
    assert not Match.objects.exists()


def test_x_forwarded_for_is_ignored_without_proxies_in_front(rates: dict[str, str], settings: Any) -> None:
    # given: 2 requests a minute per address and no proxy in front (TUTE_PROXY_COUNT=0, the default)
    rates["address"] = "2/min"
    client = APIClient(REMOTE_ADDR="10.0.0.44")

    # when: each request claims another address
    statuses = [
        client.get("/api/v1/matches/", HTTP_X_FORWARDED_FOR=f"192.0.2.{i}").status_code for i in range(3)
    ]

    # then: the connection's address is the one counted
    assert statuses == [200, 200, 429]


# -- parsing --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("body", [b'{"ply": 1', b'{"ply": NaN}', b'{"ply": Infinity}', b'\xff{"a": 1}'])
def test_a_body_that_is_not_json_gets_drfs_parse_error(body: bytes) -> None:
    import io

    from rest_framework.exceptions import ParseError

    from tute_site.api import JSONParser

    with pytest.raises(ParseError) as refused:
        JSONParser().parse(io.BytesIO(body), "application/json", {"encoding": "utf-8"})
    assert str(refused.value.detail).startswith("JSON parse error")


def test_a_body_in_a_declared_charset_other_than_utf8_is_read_in_it() -> None:
    import io

    from tute_site.api import JSONParser

    body = '{"name": "Caña"}'.encode("latin-1")  # not UTF-8
    parsed = JSONParser().parse(io.BytesIO(body), "application/json", {"encoding": "latin-1"})
    assert parsed == {"name": "Caña"}


@pytest.mark.parametrize(
    "query",
    [
        "page_size=true",  # DRF's own paginator served the default page
        "page_size=0",
        "page_size=-3",
        "page=1&page=2",  # the last one was taken quietly
        "page_size=5&page_size=6",
        "status=finished&status=open",
        "ordering=",  # a blank value was taken for an absent one, and its default
        "game=",
    ],
)
def test_a_malformed_or_repeated_query_parameter_is_a_400(anon_client: APIClient, query: str) -> None:
    response = anon_client.get(f"/api/v1/matches/?{query}")
    assert response.status_code == 400, response.content
    assert set(response.json()) == {"code", "message", "detail"}


def test_a_page_size_past_the_largest_gets_the_largest_page(anon_client: APIClient) -> None:
    assert anon_client.get("/api/v1/matches/?page_size=1000").status_code == 200
    schema = anon_client.get("/api/v1/schema/?format=json").json()
    params = {p["name"]: p["schema"] for p in schema["paths"]["/api/v1/matches/"]["get"]["parameters"]}
    assert params["page"]["minimum"] == 1 and params["page_size"]["minimum"] == 1


def test_the_ladder_leaderboard_documents_its_games_and_its_pages(anon_client: APIClient) -> None:
    schema = anon_client.get("/api/v1/schema/?format=json").json()
    operation = schema["paths"]["/api/v1/ladder/{game}/leaderboard/"]["get"]
    [game] = [p for p in operation["parameters"] if p["name"] == "game"]
    assert sorted(game["schema"]["enum"]) == ["pocha", "tute2", "tute4"]
    page = operation["responses"]["200"]["content"]["application/json"]["schema"]
    assert "results" in json.dumps(page) or "$ref" in page
    rows = anon_client.get("/api/v1/ladder/tute2/leaderboard/").json()["results"]
    assert [row["handle"] for row in rows] == [None] * len(BOT_LEVELS)  # no bots yet: the house levels alone


def test_a_text_field_takes_a_string_only() -> None:
    # DRF's CharField took the number for its text ("-3874"): the schema says type string
    client = token_client(PlayerFactory())
    made = client.post("/api/v1/clubs/", {"name": "Peña", "slug": 2636797}, format="json")
    assert made.status_code == 400 and made.json()["detail"] == {"slug": ["Not a valid string."]}
    bot = client.post("/api/v1/bots/", {"handle": "b1", "display_name": -3874}, format="json")
    assert bot.status_code == 400 and "display_name" in bot.json()["detail"]
    assert not Player.objects.filter(handle="b1").exists()


def test_the_schema_describes_text_seeds_flags_and_points(anon_client: APIClient) -> None:
    schemas = anon_client.get("/api/v1/schema/?format=json").json()["components"]["schemas"]
    # text refuses NUL; a client seed is printable ASCII without ':'; the rules flags are named and typed
    # (and a name may not be blank: a character other than the whitespace DRF trims, "\x1f" included)
    name_pattern = schemas["ClubCreateInputRequest"]["properties"]["name"]["pattern"]
    assert name_pattern == NOT_BLANK and "\\u001c-\\u001f" in name_pattern
    assert re.search(name_pattern.encode().decode("unicode_escape"), "\x1f") is None
    seed = schemas["MatchJoinInputRequest"]["properties"]["client_seed"]
    assert seed["pattern"] == "^[ -9;-~]{1,64}$" and seed["nullable"] is True
    options = schemas["MatchCreateInputRequest"]["properties"]["options"]
    assert options["additionalProperties"] is False and options["properties"]["deck48"] == {"type": "boolean"}
    assert options["properties"]["stock_duty"]["enum"] == ["full", "trump_lead_only", "free"]


@pytest.mark.parametrize("points", ["1e99999", "1/0", "x", "nan"])
def test_correction_points_in_text_are_a_number_or_a_fraction(points: str) -> None:
    from tournaments.apis import PointInput

    field = PointInput()
    with pytest.raises(Exception, match="A number or a fraction"):
        field.run_validation(points)
    assert str(field.run_validation("1/3")) == "1/3" and str(field.run_validation("-0.5")) == "-1/2"
