"""Caps on open streams (the bots' event stream, the match page's live feed): a few per account, some
more per client address, and at most ``TUTE_STREAMS_PER_PROCESS`` in one web process, so that no client
can take every request thread of the server.

A stream holds one slot per cap while it is open. The account and address slots are cache keys taken
with ``cache.add`` (atomic: Redis's SET NX with ``CACHE_URL``, shared by every web process) that expire
``LEASE_SECONDS`` after their last renewal: an open stream renews them as it writes (a line at least
every keep-alive), and gives them back when the response is closed; a process that dies holding slots
frees them when they expire. The process slots are a list in memory, as the threads they guard are.

A bot reconnecting to a process at its cap is not refused when that process holds a stream of the same
account (``replaces=True``, the bots' event stream): the new stream takes the oldest one's slot, and the
old one is told to end (``replaced`` set; it says ``bye``). That old stream is most often the one the
bot just left (it said ``bye``, or the connection dropped and the server has not noticed yet), and a
refusal would leave the bot without its stream while its clock runs.
"""

from __future__ import annotations

import secrets
import threading
import time
from collections.abc import Iterator
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.http import JsonResponse
from rest_framework import status

from tute_site.exceptions import ApplicationError, error_body

#: A slot not renewed for this long is free again (its process is presumed dead).
LEASE_SECONDS = 60
#: An open stream renews its slots at most this often.
RENEW_SECONDS = 15.0


class TooManyStreams(ApplicationError):
    code = "too_many_streams"
    http_status = status.HTTP_429_TOO_MANY_REQUESTS
    message = "Too many open streams: close one first."
    retry_after = LEASE_SECONDS


class StreamsBusy(ApplicationError):
    code = "streams_busy"
    http_status = status.HTTP_503_SERVICE_UNAVAILABLE
    message = "This server holds as many streams as it may: try again shortly, or poll."
    #: A process's cap frees up as soon as any stream on it ends: worth trying again soon.
    retry_after = 1


_process_lock = threading.Lock()
#: The streams open in this process that hold a process slot, oldest first.
_process_open: list[StreamLease] = []


class StreamLease:
    """The slots one open stream holds; ``renew`` while it writes, ``release`` once (idempotent)."""

    def __init__(self, keys: list[str], token: str, *, account: Any = None, replaces: bool = False) -> None:
        self.keys = keys
        self.token = token
        self.account = account
        self.replaces = replaces
        #: Set when a newer stream of the same account took this one's process slot: end the stream.
        self.replaced = threading.Event()
        self.renewed_at = time.monotonic()
        self.released = False

    def renew(self) -> None:
        now = time.monotonic()
        if now - self.renewed_at < RENEW_SECONDS:
            return
        self.renewed_at = now
        for key in self.keys:
            if not cache.touch(key, LEASE_SECONDS):  # expired meanwhile (a long stall): take it again
                cache.add(key, self.token, LEASE_SECONDS)

    def release(self) -> None:
        if self.released:
            return
        self.released = True
        for key in self.keys:
            if cache.get(key) == self.token:  # never another stream's slot, taken after ours expired
                cache.delete(key)
        with _process_lock:
            if self in _process_open:  # not when a newer stream took its slot already
                _process_open.remove(self)


def stream_lease(*, account: Any, address: str, replaces: bool = False) -> StreamLease:
    """Take a slot under each cap for a new stream, or raise ``TooManyStreams`` (429: this account or
    address holds its share) or ``StreamsBusy`` (503: this process holds all it may) taking none.
    ``replaces``: at the process cap, take the slot of this account's oldest stream of the same kind in
    this process (which is then told to end) rather than refuse."""
    token = secrets.token_hex(8)
    keys: list[str] = []
    caps = (
        ("account", account, settings.TUTE_STREAMS_PER_ACCOUNT),
        ("address", address, settings.TUTE_STREAMS_PER_ADDRESS),
    )
    for scope, ident, limit in caps:
        if ident is None or ident == "" or limit <= 0:
            continue
        key = next(
            (
                k
                for i in range(limit)
                if cache.add(k := f"tute:stream:{scope}:{ident}:{i}", token, LEASE_SECONDS)
            ),
            None,
        )
        if key is None:
            StreamLease(keys, token).release()
            raise TooManyStreams(
                f"This {scope} has {limit} streams open already: close one first.",
                detail={"scope": scope, "limit": limit},
            )
        keys.append(key)
    lease = StreamLease(keys, token, account=account, replaces=replaces)
    per_process = settings.TUTE_STREAMS_PER_PROCESS
    if per_process > 0:
        with _process_lock:
            full = len(_process_open) >= per_process
            older = _oldest_of(account) if full and replaces else None
            if older is not None:
                _process_open.remove(older)
                older.replaced.set()
            if not full or older is not None:
                _process_open.append(lease)
        if full and older is None:
            lease.release()
            raise StreamsBusy(detail={"limit": per_process})
    return lease


def _oldest_of(account: Any) -> StreamLease | None:
    """This process's oldest replaceable stream of ``account`` (called with ``_process_lock`` held)."""
    if account is None or account == "":
        return None
    return next((s for s in _process_open if s.replaces and s.account == account), None)


class LeasedLines:
    """A stream's lines holding its lease: renewed as lines go out, released when the response closes
    (Django calls ``close`` of a streaming response's iterator when the request ends, even one never
    read), so a client that goes away frees its slots at once."""

    def __init__(self, lines: Iterator[bytes], lease: StreamLease) -> None:
        self.lines = lines
        self.lease = lease

    def __iter__(self) -> LeasedLines:
        return self

    def __next__(self) -> bytes:
        line = next(self.lines)
        self.lease.renew()
        return line

    def close(self) -> None:
        try:
            close = getattr(self.lines, "close", None)
            if close is not None:
                close()
        finally:
            self.lease.release()


def refusal(exc: TooManyStreams | StreamsBusy) -> JsonResponse:
    """A refused stream as the API's error shape, for a plain Django view (the website's)."""
    response = JsonResponse(error_body(exc.code, exc.message, exc.detail), status=exc.http_status)
    response["Retry-After"] = str(exc.retry_after)
    return response
