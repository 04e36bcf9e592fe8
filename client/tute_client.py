"""A small client for Tute Arena's API, for bot authors: one file, standard library only.

Copy this file next to your bot (or use it from the repository as ``client.tute_client``)::

    import random
    from client.tute_client import TuteClient, run_bot

    client = TuteClient("http://127.0.0.1:8000", token="<the bot's token>")
    run_bot(client, lambda event: random.choice(event["legal"]))

Two kinds of failure, both exceptions of this module:

- :class:`ApiError`: the server answered with an error (``{"code", "message", "detail"}``, an HTTP
  status, and for 429 the seconds of ``Retry-After``).
- :class:`TransportError`: no usable answer: the server could not be reached, the connection dropped,
  a read timed out, or a stream line was cut off.

The protocol itself (events, actions, errors, clocks) is described in ``docs/BOTS.md``.
"""

from __future__ import annotations

import contextlib
import http.client
import json
import logging
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
import uuid
from collections.abc import Callable, Generator, Mapping, Sequence
from email.message import Message
from typing import Any

__all__ = [
    "ApiError",
    "Event",
    "TransportError",
    "TuteClient",
    "run_bot",
    "run_forever",
]

__version__ = "0.1.0"

log = logging.getLogger(__name__)

#: One decoded JSON object: an API answer or one event of the stream.
Event = dict[str, Any]

#: Codes of an action that came too late: the match moved on, and the stream tells what happens next.
STALE_ACTION_CODES = frozenset({"stale_ply", "not_your_turn", "match_not_in_progress"})
#: Codes of a challenge that is no longer there to accept or decline.
GONE_CHALLENGE_CODES = frozenset({"not_invited", "match_not_open", "not_seated", "match_not_found"})


class ApiError(Exception):
    """The API answered with an error status.

    ``code`` is the API's stable machine code (``"stale_ply"``, ``"illegal_action"``, ...), ``message``
    its human text and ``detail`` its extra data (for ``illegal_action``: ``{"reason", "legal", ...}``;
    for ``stale_ply``: ``{"ply": current}``). ``retry_after`` is set from a 429's ``Retry-After``.
    """

    def __init__(
        self,
        status: int,
        code: str,
        message: str,
        detail: Any = None,
        *,
        retry_after: float | None = None,
        method: str = "",
        url: str = "",
    ) -> None:
        self.status = status
        self.code = code
        self.message = message
        self.detail = detail
        self.retry_after = retry_after
        self.method = method
        self.url = url
        super().__init__(f"{status} {code}: {message}")

    @classmethod
    def from_response(
        cls, status: int, headers: Message | None, body: bytes, *, method: str = "", url: str = ""
    ) -> ApiError:
        """Build the error from an HTTP answer; a body that is not the API's error shape still gives one."""
        retry_after = _seconds(headers.get("Retry-After") if headers is not None else None)
        try:
            payload = json.loads(body) if body else None
        except ValueError:
            payload = None
        if isinstance(payload, dict) and isinstance(payload.get("code"), str):
            return cls(
                status,
                payload["code"],
                str(payload.get("message") or ""),
                payload.get("detail"),
                retry_after=retry_after,
                method=method,
                url=url,
            )
        text = body.decode("utf-8", "replace").strip()
        if not text or text.startswith("<"):  # an HTML error page (a proxy's, or Django's 500) says no more
            text = http.client.responses.get(status, "error")
        return cls(
            status, f"http_{status}", text[:200], None, retry_after=retry_after, method=method, url=url
        )


class TransportError(ConnectionError):
    """No usable answer: the server was not reached, the connection dropped or timed out."""


class TuteClient:
    """Tute Arena's API (``/api/v1/``) for a bot, an app or a script.

    ``base_url`` is the site's root (``http://127.0.0.1:8000``); ``token`` a bot's token or a person's
    personal token, sent as ``Authorization: Token <token>`` (None: anonymous reads only).
    ``timeout`` bounds each request; ``stream_timeout`` is how long the event stream may stay silent
    before it counts as dropped (the server sends a keep-alive line every 15 s). ``retries`` is how many
    times :meth:`act` sends an action again, with the same idempotency key, after a connection error.
    """

    def __init__(
        self,
        base_url: str,
        token: str | None = None,
        *,
        timeout: float = 30.0,
        stream_timeout: float = 45.0,
        retries: int = 3,
        retry_delay: float = 0.5,
        user_agent: str = f"tute-client/{__version__}",
    ) -> None:
        root = base_url.rstrip("/")
        self.api_url = root if root.endswith("/api/v1") else root + "/api/v1"
        self.token = token
        self.timeout = timeout
        self.stream_timeout = stream_timeout
        self.retries = retries
        self.retry_delay = retry_delay
        self.user_agent = user_agent
        self._opener = urllib.request.build_opener(_NoRedirects())
        self._handle: str | None = None

    def __repr__(self) -> str:
        return f"TuteClient({self.api_url!r})"

    # -- accounts ----------------------------------------------------------------------------------------

    def me(self) -> Event:
        """The caller's player: ``{"handle", "display_name", "is_bot"}``."""
        return self._json("GET", "/me/")

    def create_bot(self, handle: str, display_name: str = "") -> Event:
        """A bot account owned by the caller (a person): ``{"bot": {...}, "token": "..."}``.

        The token is shown this once; keep it.
        """
        body: Event = {"handle": handle}
        if display_name:
            body["display_name"] = display_name
        return self._json("POST", "/bots/", body)

    def set_auto_accept(self, handle: str, auto_accept: bool = True) -> Event:
        """Whether the caller's bot ``handle`` takes every challenge at once (called by its owner)."""
        return self._json("PATCH", f"/bots/{_quote(handle)}/", {"auto_accept": auto_accept})

    def set_ladder_games(self, handle: str, games: Sequence[str]) -> Event:
        """The games the caller's bot ``handle`` plays on the ladder (called by its owner; ``[]`` leaves
        it). Validation starts for each game it has not passed; the answer's ``validation`` shows it."""
        return self._json("PATCH", f"/bots/{_quote(handle)}/", {"games": list(games)})

    def request_validation(self, handle: str, game: str) -> Event:
        """Ask again for the validation of the caller's bot ``handle`` for ``game`` (after a failure)."""
        return self._json("POST", f"/bots/{_quote(handle)}/validation/", {"game": game})

    def bot_status(self, handle: str) -> Event:
        """The bot's status page: online, validation, current matches, recent errors, rating history."""
        return self._json("GET", f"/bots/{_quote(handle)}/status/")

    # -- matches -----------------------------------------------------------------------------------------

    def create_match(
        self, game: str, seats: Sequence[Mapping[str, str | None]] | None = None, **options: Any
    ) -> Event:
        """Create a match: ``game`` is ``"tute2"``, ``"tute4"`` or ``"pocha"``.

        ``seats`` lists each seat as ``{"player": handle}`` (a challenge, unless it is the caller),
        ``{"bot": "random"|"rule"|"search"}`` (a house bot) or ``{}`` (empty). Without seats the caller sits at
        seat 0. ``options`` are the other fields of ``POST /api/v1/matches/``: ``players``, ``options``
        (rules flags), ``format``, ``games``, ``rated``, ``human_move_seconds``, ``bot_move_seconds``,
        ``max_timeouts``.
        """
        body: Event = {"game": game, **options}
        if seats is not None:
            body["seats"] = [dict(seat) for seat in seats]
        return self._json("POST", "/matches/", body)

    def match(self, match_id: int) -> Event:
        """The match's public state: status, ply, seats, result, clocks."""
        return self._json("GET", f"/matches/{int(match_id)}/")

    def view(self, match_id: int) -> Event:
        """The caller's seat view: ``{"match", "status", "ply", "seat", "to_act", "legal", "view"}``."""
        return self._json("GET", f"/matches/{int(match_id)}/view/")

    def record(self, match_id: int) -> Event:
        """A finished match's games: each one's record (with its seed, server seed, commitment and client
        seeds: check them with ``python -m games.engine verify``), result and luck figure."""
        return self._json("GET", f"/matches/{int(match_id)}/record/")

    def act(self, match_id: int, action: str, ply: int, idempotency_key: str | None = None) -> Event:
        """Play ``action`` (``"play:1C"``, ``"sing:O"``, ...) at ``ply``; the answer is the new view.

        The request carries an ``Idempotency-Key`` (a new random one unless given). After a connection
        error it is sent again with the same key, up to ``retries`` times: if the first attempt was
        applied, the server answers the retry with the first answer and applies nothing.
        """
        key = idempotency_key or uuid.uuid4().hex
        return self._json(
            "POST",
            f"/matches/{int(match_id)}/actions/",
            {"action": action, "ply": int(ply)},
            headers={"Idempotency-Key": key},
            retries=self.retries,
        )

    def accept(self, match_id: int, client_seed: str | None = None) -> Event:
        """Accept a challenge: take the seat offered in that match (with ``client_seed``, mixed into every
        deal of the match: docs/FAIRNESS.md)."""
        body = {"client_seed": client_seed} if client_seed is not None else None
        return self._json("POST", f"/matches/{int(match_id)}/accept/", body)

    def join(self, match_id: int, seat: int | None = None, client_seed: str | None = None) -> Event:
        """Take ``seat`` (or the first empty one) of an open match, with an optional ``client_seed``."""
        body: Event = {}
        if seat is not None:
            body["seat"] = int(seat)
        if client_seed is not None:
            body["client_seed"] = client_seed
        return self._json("POST", f"/matches/{int(match_id)}/join/", body)

    def set_client_seed(self, match_id: int, client_seed: str) -> Event:
        """Give (or change) the caller's client seed before the current game's first action (1 to 64
        printable ASCII characters, no ``:``): that game is dealt again from it, and the later ones too.
        After the first action the server answers 409 ``game_started``."""
        return self._json("POST", f"/matches/{int(match_id)}/client-seed/", {"client_seed": client_seed})

    def decline(self, match_id: int, reason: str = "") -> Event:
        """Decline a challenge; the seat is empty again and the creator sees ``reason``."""
        return self._json("POST", f"/matches/{int(match_id)}/decline/", {"reason": reason})

    def resign(self, match_id: int) -> Event:
        """Concede the match: every other side wins it."""
        return self._json("POST", f"/matches/{int(match_id)}/resign/")

    def notices(self, after: int | None = None) -> Event:
        """Polling: ``{"results": [...], "last": id}``, the ``action_refused``, ``timeout`` and
        ``forfeit_warning`` notices after the notice id ``after`` (without it, the last five minutes)."""
        query = None if after is None else {"after": after}
        answer = self._request("GET", self._url("/bots/me/notices/", query))
        if not isinstance(answer, dict):
            raise TransportError("GET /bots/me/notices/: expected a JSON object")
        return answer

    def my_turns(self) -> list[Event]:
        """Polling: the matches where it is the caller's turn, ``{"match", "ply", "seat", "game", "deadline"}``."""
        turns: list[Event] = []
        url: str | None = self._url("/bots/me/turns/", {"page_size": 100})
        while url is not None:
            page = self._request("GET", url)
            turns.extend(page["results"])
            url = page.get("next")
        return turns

    def my_matches(self, status: str = "in_progress") -> list[Event]:
        """The caller's matches with that ``status`` (``open`` or ``in_progress``), every page, newest
        first: each as ``GET /api/v1/matches/{id}/`` gives it."""
        matches: list[Event] = []
        query = {"player": self.caller_handle(), "status": status, "page_size": 100}
        url: str | None = self._url("/matches/", query)
        while url is not None:
            page = self._request("GET", url)
            matches.extend(page["results"])
            url = page.get("next")
        return matches

    def challenges(self) -> list[Event]:
        """Polling: the challenges waiting for the caller's answer, as the stream's ``challenge`` events
        (``{"type", "match", "game", "seat", "ply"}``): its seats not yet accepted in open matches."""
        handle = self.caller_handle()
        return [
            {
                "type": "challenge",
                "match": match["id"],
                "game": match["game"],
                "seat": seat["index"],
                "ply": 0,
            }
            for match in self.my_matches("open")
            for seat in match["seats"]
            if (seat.get("player") or {}).get("handle") == handle and not seat["accepted"]
        ]

    def caller_handle(self) -> str:
        """The caller's handle (``me()``, asked once and remembered)."""
        if self._handle is None:
            self._handle = str(self.me()["handle"])
        return self._handle

    # -- events ------------------------------------------------------------------------------------------

    def events(self, max_seconds: float | None = None) -> Generator[Event, None, None]:
        """The caller's event stream, one dict per NDJSON line, until the server ends it.

        The request is made when iteration starts. ``max_seconds`` (1 to 3600) asks the server to end
        the stream with a ``{"type": "bye"}`` line after that long. An error status raises
        :class:`ApiError`; a connection that fails, stays silent past ``stream_timeout`` or is cut in
        the middle of a line raises :class:`TransportError`. Closing the generator closes the connection.
        """
        query = {"max_seconds": max_seconds} if max_seconds is not None else None
        url = self._url("/stream/events/", query)
        request = self._build("GET", url, None, {"Accept": "application/x-ndjson, application/json"})
        try:
            response = self._opener.open(request, timeout=self.stream_timeout)
        except urllib.error.HTTPError as exc:
            raise _api_error(exc, "GET", url) from None
        except (OSError, http.client.HTTPException) as exc:
            raise TransportError(f"GET {url}: {exc!r}") from exc
        with response:
            while True:
                try:
                    line = response.readline()
                except (OSError, http.client.HTTPException) as exc:
                    raise TransportError(f"the event stream dropped: {exc!r}") from exc
                if not line:
                    return
                if not line.endswith(b"\n"):
                    raise TransportError("the event stream was cut in the middle of a line")
                line = line.strip()
                if not line:
                    continue
                try:
                    event = json.loads(line)
                except ValueError as exc:
                    raise TransportError(
                        f"the event stream sent a line that is not JSON: {line[:80]!r}"
                    ) from exc
                if isinstance(event, dict):
                    yield event

    # -- plumbing ----------------------------------------------------------------------------------------

    def _url(self, path: str, query: Mapping[str, Any] | None = None) -> str:
        url = self.api_url + path
        if query:
            url += "?" + urllib.parse.urlencode(query)
        return url

    def _build(
        self, method: str, url: str, body: Any, headers: Mapping[str, str] | None
    ) -> urllib.request.Request:
        all_headers = {"Accept": "application/json", "User-Agent": self.user_agent}
        if self.token:
            all_headers["Authorization"] = f"Token {self.token}"
        data = None
        if body is not None:
            data = json.dumps(body).encode()
            all_headers["Content-Type"] = "application/json"
        all_headers.update(headers or {})
        return urllib.request.Request(url, data=data, headers=all_headers, method=method)

    def _json(
        self,
        method: str,
        path: str,
        body: Any = None,
        *,
        headers: Mapping[str, str] | None = None,
        retries: int = 0,
    ) -> Event:
        answer = self._request(method, self._url(path), body, headers=headers, retries=retries)
        if not isinstance(answer, dict):
            raise TransportError(f"{method} {path}: expected a JSON object, got {type(answer).__name__}")
        return answer

    def _request(
        self,
        method: str,
        url: str,
        body: Any = None,
        *,
        headers: Mapping[str, str] | None = None,
        retries: int = 0,
    ) -> Any:
        """One request, sent again up to ``retries`` times after a connection error (never after an answer)."""
        attempt = 0
        while True:
            request = self._build(method, url, body, headers)
            try:
                with self._opener.open(request, timeout=self.timeout) as response:
                    raw = response.read()
            except urllib.error.HTTPError as exc:
                raise _api_error(exc, method, url) from None
            except (OSError, http.client.HTTPException) as exc:
                if attempt >= retries:
                    raise TransportError(f"{method} {url}: {exc!r}") from exc
                attempt += 1
                pause = self.retry_delay * 2 ** (attempt - 1)
                log.info("%s %s failed (%r); attempt %d in %.1f s", method, url, exc, attempt + 1, pause)
                time.sleep(pause)
                continue
            try:
                return json.loads(raw) if raw else None
            except ValueError as exc:
                raise TransportError(f"{method} {url}: the answer is not JSON: {raw[:80]!r}") from exc


class _NoRedirects(urllib.request.HTTPRedirectHandler):
    """Redirects are not followed: they would resend the token elsewhere and turn a POST into a GET."""

    def redirect_request(self, *args: Any, **kwargs: Any) -> None:
        return None


def _api_error(exc: urllib.error.HTTPError, method: str, url: str) -> ApiError:
    try:
        body = exc.read()
    except (OSError, http.client.HTTPException):
        body = b""
    finally:
        exc.close()
    if 300 <= exc.code < 400:
        location = exc.headers.get("Location", "") if exc.headers is not None else ""
        message = f"redirected to {location or 'another address'}: give the client the site's final address"
        return ApiError(exc.code, "redirected", message, {"location": location}, method=method, url=url)
    return ApiError.from_response(exc.code, exc.headers, body, method=method, url=url)


def _seconds(value: str | None) -> float | None:
    try:
        return float(value) if value is not None else None
    except ValueError:
        return None


def _quote(segment: str) -> str:
    return urllib.parse.quote(segment, safe="")


# -- a bot's main loop -------------------------------------------------------------------------------------


def run_bot(
    client: TuteClient,
    choose: Callable[[Event], str],
    *,
    accept_challenges: bool | Callable[[Event], bool] = True,
    reconnect_delay: float = 0.5,
    max_reconnect_delay: float = 5.0,
    stream_seconds: float | None = None,
    stop: threading.Event | None = None,
    on_event: Callable[[Event], None] | None = None,
    poll: bool = False,
    poll_interval: float = 1.0,
) -> None:
    """Play as the client's bot: follow its event stream and act on every turn, until ``stop`` is set.

    - ``challenge``: accepted when ``accept_challenges`` is true; when it is a function, accepted if it
      returns true for the event and declined otherwise. With ``False`` challenges are left alone.
    - ``your_turn``: ``choose(event)`` returns an action code from ``event["legal"]``; it is sent with
      the event's ``ply``. A 409 (``stale_ply``, ``not_your_turn``) means the match moved on: a new event
      will come. A refused action (422) is logged once (the ``action_refused`` notice that follows it is
      not logged again); the server's clock plays for the seat if no other action follows.
    - ``match_started`` and ``match_finished`` are logged in one line each, once per match.
    - ``action_refused``, ``timeout`` and ``forfeit_warning`` (what happened to the bot's seat that it
      did not choose) are logged as one-line warnings.
    - The stream is opened again when it ends: after ``bye`` at once; after a drop, a server error or
      an end without ``bye`` in ``reconnect_delay`` seconds (0.5), doubling with each failure in a row
      up to ``max_reconnect_delay`` (5: a bot's clock is 15 s a move, so a longer pause would cost it
      turns once the server is back; a connection that stayed up that long starts the count afresh).
      On each connection the server sends again every challenge and turn still waiting. While it
      waits to reconnect (a drop, or a refusal such as 503 ``streams_busy`` or 429 ``too_many_streams``,
      whose ``Retry-After`` it respects) the bot polls every ``poll_interval`` seconds, as
      ``poll=True`` does, so it is never left without a source of turns.
    - ``poll=True`` plays without a stream: every ``poll_interval`` seconds it lists the bot's notices
      (``GET /api/v1/bots/me/notices/``), its challenges and matches (``GET /api/v1/matches/``) and its
      turns (``GET /api/v1/bots/me/turns/``), and handles what it finds as the same events the stream
      sends, in the same code: challenges are answered, starts and finishes logged, turns played. A
      turn whose action got a server error or lost its connection is played again at the next poll.
    - ``stream_seconds`` asks the server to end each connection after that long (the default is its
      maximum, an hour). ``on_event`` sees every event first (logging, bookkeeping).

    Returns when ``stop`` is set (checked after each event and while waiting to reconnect). Raises
    :class:`ApiError` for answers that retrying cannot fix: a bad token (401), a bad request (4xx),
    after logging it in one line (``run_forever`` turns it into a one-line exit).
    """
    bot = _Bot(client, choose, accept_challenges=accept_challenges, on_event=on_event)
    poller = _Poller(bot, stop=stop)
    if poll:
        _run_polling(poller, poll_interval=poll_interval, stop=stop)
        return
    delay = reconnect_delay
    while not _is_set(stop):
        said_bye = False
        opened_at: float | None = None
        try:
            with contextlib.closing(client.events(max_seconds=stream_seconds)) as events:
                for event in events:
                    kind = event.get("type")
                    if kind == "hello":
                        opened_at = time.monotonic()
                        log.info("event stream open for %s", event.get("player"))
                    bot.handle(event)
                    if _is_set(stop):
                        return
                    if kind == "bye":
                        said_bye = True
                        break
        except ApiError as exc:
            if 400 <= exc.status < 500 and exc.status not in (408, 429):
                log.error("stopping: the server answered %s", exc)
                raise
            problem, retry_after = f"answered {exc}", exc.retry_after or 0.0
        except TransportError as exc:
            problem, retry_after = f"dropped: {exc}", 0.0
        else:
            if said_bye:
                delay = reconnect_delay
                continue
            problem, retry_after = "ended without a bye", 0.0
        if opened_at is not None and time.monotonic() - opened_at >= max_reconnect_delay:
            delay = reconnect_delay  # up for a good while: this drop is news, not the same trouble again
        pause = max(delay, retry_after)
        log.warning("event stream %s; polling, and reconnecting in %.1f s", problem, pause)
        _poll_while_waiting(poller, pause, poll_interval, stop)
        delay = min(delay * 2, max_reconnect_delay)


#: Events about the bot's seat that it did not choose: logged, nothing to answer.
NOTICE_TYPES = frozenset({"action_refused", "timeout", "forfeit_warning"})

#: How many matches (and refused plies) a running bot remembers before it starts afresh.
_MEMORY = 10_000


class _Bot:
    """What the bot does with each event, whether the stream sent it or polling found it: one code path,
    so that both ways answer, play and log alike. It remembers what it logged, so that a match's start
    (told again on each connection) and finish are logged once, and a refused action once: from the 422
    answer, not again from the ``action_refused`` notice that echoes it."""

    def __init__(
        self,
        client: TuteClient,
        choose: Callable[[Event], str],
        *,
        accept_challenges: bool | Callable[[Event], bool],
        on_event: Callable[[Event], None] | None,
    ) -> None:
        self.client = client
        self.choose = choose
        self.accept_challenges = accept_challenges
        self.on_event = on_event
        self.started: set[int] = set()
        self.finished: set[int] = set()
        self.refused: set[tuple[int, int]] = set()

    def handle(self, event: Event) -> None:
        if self.on_event is not None:
            self.on_event(event)
        kind = event.get("type")
        if kind == "challenge":
            _answer_challenge(self.client, event, self.accept_challenges)
        elif kind == "your_turn":
            if _play_turn(self.client, self.choose, event):
                self.refused.add((event["match"], event["ply"]))
        elif kind == "match_started":
            if _first(self.started, event["match"]):
                log.info(
                    "match %s started (%s, seat %s of %s)",
                    event["match"],
                    event.get("game"),
                    event.get("seat"),
                    event.get("players"),
                )
        elif kind == "match_finished":
            if _first(self.finished, event["match"]):
                log.info(
                    "match %s finished (%s): %s", event["match"], event.get("reason"), event.get("result")
                )
        elif kind in NOTICE_TYPES:
            if kind == "action_refused" and (event.get("match"), event.get("ply")) in self.refused:
                return  # logged from the answer already
            _log_notice(event)
        for memory in (self.started, self.finished, self.refused):
            if len(memory) > _MEMORY:
                memory.clear()


def _first(seen: set[int], match_id: int) -> bool:
    """Whether ``match_id`` is new to ``seen`` (and remember it)."""
    if match_id in seen:
        return False
    seen.add(match_id)
    return True


def _log_notice(event: Event) -> None:
    kind = event.get("type")
    if kind == "action_refused":
        log.warning(
            "match %s ply %s: %s refused: %s",
            event["match"],
            event["ply"],
            event.get("action"),
            event.get("reason"),
        )
    elif kind == "timeout":
        log.warning(
            "match %s ply %s: time ran out, the server played %s (%s of %s timeouts)",
            event["match"],
            event["ply"],
            event.get("action"),
            event.get("timeouts"),
            event.get("max_timeouts"),
        )
    else:
        log.warning("match %s: %s", event["match"], event.get("message"))


class _Poller:
    """The polling path: one round per ``poll`` finds the bot's notices, challenges, matches and turns
    and hands them to the bot as the stream's events. Between rounds it remembers the challenges it
    handed over, the matches it saw in progress (one that is no longer is told as finished), the turns
    it played and the last notice it saw."""

    def __init__(self, bot: _Bot, *, stop: threading.Event | None) -> None:
        self.bot = bot
        self.client = bot.client
        self.stop = stop
        self.played: set[tuple[int, int]] = set()
        self.challenged: set[int] = set()
        self.running: set[int] = set()
        self.last_notice: int | None = None

    def poll(self) -> float | None:
        """One round; ``None`` when it went through, else the seconds the server asked to wait (0 if it
        did not say). Raises :class:`ApiError` for answers that retrying cannot fix (401, a 4xx other
        than 408 and 429)."""
        try:
            self._round()
        except ApiError as exc:
            if 400 <= exc.status < 500 and exc.status not in (408, 429):
                log.error("stopping: the server answered %s", exc)
                raise
            log.warning("polling: the server answered %s; trying again", exc)
            return exc.retry_after or 0.0
        except TransportError as exc:
            log.warning("polling: %s; trying again", exc)
            return 0.0
        finally:
            for memory in (self.played, self.challenged):
                if len(memory) > _MEMORY:
                    memory.clear()
        return None

    def _round(self) -> None:
        answer = self.client.notices(self.last_notice)
        for notice in answer.get("results", []):
            self.bot.handle(notice)
        if answer.get("last") is not None:
            self.last_notice = answer["last"]
        for challenge in self.client.challenges():
            if challenge["match"] not in self.challenged:
                self.bot.handle(challenge)
                # Only once handled: a server error leaves it to the next round.
                self.challenged.add(challenge["match"])
        self._matches()
        for turn in self.client.my_turns():
            if (turn["match"], turn["ply"]) in self.played:
                continue
            view = self.client.view(turn["match"])
            if not view.get("legal") or view.get("ply") != turn["ply"]:
                continue
            self.bot.handle(
                {
                    "type": "your_turn",
                    "match": turn["match"],
                    "ply": turn["ply"],
                    "deadline": turn.get("deadline"),
                    "legal": view["legal"],
                    "view": view["view"],
                }
            )
            # Only once the action got an answer: after a server error or a lost connection the
            # turn is still listed at the next poll, and is played then (its clock still runs).
            self.played.add((turn["match"], turn["ply"]))
            if _is_set(self.stop):
                return

    def _matches(self) -> None:
        """``match_started`` for a match newly in progress, ``match_finished`` for one no longer."""
        running = {match["id"]: match for match in self.client.my_matches("in_progress")}
        for match_id, match in running.items():
            if match_id not in self.running:
                handle = self.client.caller_handle()
                seat = next(
                    (s["index"] for s in match["seats"] if (s.get("player") or {}).get("handle") == handle),
                    None,
                )
                self.bot.handle(
                    {
                        "type": "match_started",
                        "match": match_id,
                        "game": match["game"],
                        "players": match["players"],
                        "seat": seat,
                        "options": match["options"],
                        "seed_sha256": match.get("seed_sha256"),
                    }
                )
                self.running.add(match_id)
        for match_id in sorted(self.running - running.keys()):
            match = self.client.match(match_id)
            if match["status"] not in ("open", "in_progress"):
                self.bot.handle(
                    {
                        "type": "match_finished",
                        "match": match_id,
                        "status": match["status"],
                        "reason": match.get("finish_reason"),
                        "result": match.get("result"),
                    }
                )
            self.running.discard(match_id)


def _run_polling(poller: _Poller, *, poll_interval: float, stop: threading.Event | None) -> None:
    """``run_bot`` without a stream: a round of polling every ``poll_interval`` seconds."""
    failures = 0
    while not _is_set(stop):
        wait = poller.poll()
        if _is_set(stop):
            return
        failures = 0 if wait is None else failures + 1
        if wait:
            _sleep(wait, stop)
        _sleep(poll_interval if failures == 0 else min(poll_interval * 2**failures, 5.0), stop)


def _poll_while_waiting(
    poller: _Poller, seconds: float, poll_interval: float, stop: threading.Event | None
) -> None:
    """Wait ``seconds`` before the stream is opened again, polling the bot's turns every ``poll_interval``
    meanwhile: a bot whose stream is refused or dropped is never left without a source of turns."""
    waited = 0.0
    while waited < seconds and not _is_set(stop):
        wait = poller.poll()
        if _is_set(stop):
            return
        step = min(max(poll_interval, wait or 0.0), seconds - waited)
        _sleep(step, stop)
        waited += step


def run_forever(choose: Callable[[Event], str], **run_options: Any) -> None:
    """A bot's main: TUTE_URL and TUTE_TOKEN from the environment, ``run_bot`` until Ctrl-C, and a
    one-line message instead of a traceback when the token is refused or the server cannot be reached."""
    import os
    import sys

    token = os.environ.get("TUTE_TOKEN")
    if not token:
        raise SystemExit("Set TUTE_TOKEN to the bot's token (and TUTE_URL to the site, if not local).")
    if not logging.getLogger().handlers:
        logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(message)s")
    client = TuteClient(os.environ.get("TUTE_URL", "http://127.0.0.1:8000"), token)
    try:
        print(f"playing as {client.me()['handle']} on {client.api_url}", flush=True)
        run_bot(client, choose, **run_options)
    except KeyboardInterrupt:
        return
    except ApiError as exc:
        hint = " (is TUTE_TOKEN the bot's current token?)" if exc.status == 401 else ""
        print(f"error: the server answered {exc}{hint}", file=sys.stderr)
        raise SystemExit(1) from None
    except TransportError as exc:
        print(f"error: cannot reach {client.api_url}: {exc}", file=sys.stderr)
        raise SystemExit(1) from None


def _answer_challenge(
    client: TuteClient, event: Event, accept_challenges: bool | Callable[[Event], bool]
) -> None:
    if accept_challenges is False:
        return
    wanted = accept_challenges(event) if callable(accept_challenges) else True
    try:
        if wanted:
            client.accept(event["match"])
            log.info("accepted the challenge to match %s (%s)", event["match"], event.get("game"))
        else:
            client.decline(event["match"], "the bot declined")
            log.info("declined the challenge to match %s", event["match"])
    except ApiError as exc:
        if exc.status >= 500:
            raise  # a server error: reconnect, and the challenge comes again
        level = logging.INFO if exc.code in GONE_CHALLENGE_CODES else logging.WARNING
        log.log(level, "challenge to match %s: %s", event["match"], exc)


def _play_turn(client: TuteClient, choose: Callable[[Event], str], event: Event) -> bool:
    """Choose and send the turn's action; True when the server refused it (and this logged it)."""
    try:
        action = choose(event)
    except Exception:
        log.exception("choose() failed in match %s at ply %s", event["match"], event["ply"])
        return False
    key = uuid.uuid4().hex  # one key for this turn's every attempt
    for _ in range(5):
        try:
            client.act(event["match"], action, event["ply"], idempotency_key=key)
            return False
        except ApiError as exc:
            if exc.code in STALE_ACTION_CODES:
                log.info("match %s ply %s: %s", event["match"], event["ply"], exc.code)
                return False
            if exc.status == 429:
                time.sleep(exc.retry_after or 1.0)
                continue
            if exc.status >= 500:
                raise  # reconnect: the turn is sent again if it is still ours
            log.warning(
                "match %s ply %s: %s refused: %s %s", event["match"], event["ply"], action, exc, exc.detail
            )
            return True
    log.warning("match %s ply %s: still throttled, giving up this turn", event["match"], event["ply"])
    return False


def _is_set(stop: threading.Event | None) -> bool:
    return stop is not None and stop.is_set()


def _sleep(seconds: float, stop: threading.Event | None) -> None:
    if stop is None:
        time.sleep(seconds)
    else:
        stop.wait(seconds)
