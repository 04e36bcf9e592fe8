"""Push bots: the server POSTs each ``your_turn`` to the bot's HTTPS endpoint and plays the action of
the answer. Standard library only, and careful about where it connects:

- only ``https://`` URLs, on their host's public addresses: every address the name resolves to must be
  global (no private, loopback, link-local, multicast, reserved or unspecified one), checked after DNS
  resolution, and the connection goes to the address checked (no second lookup to rebind);
- redirects are not followed (any answer but 2xx is a failure), bodies are capped, a timeout bounds
  the whole exchange;
- the body is signed: ``X-Tute-Signature: sha256=<hex HMAC-SHA256 of "<timestamp>.<body>">`` with the
  bot's push secret, and ``X-Tute-Timestamp`` (Unix seconds), so the endpoint can check it is us.

``TUTE_PUSH_ALLOW_LOCAL`` (tests only) also allows plain ``http://`` to loopback addresses.
"""

from __future__ import annotations

import hashlib
import hmac
import http.client
import ipaddress
import json
import socket
import ssl
import time
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

MAX_ANSWER_BYTES = 16 * 1024


class PushError(Exception):
    """The endpoint could not be called, or did not answer with an action: the turn counts as missed."""


@dataclass(frozen=True, slots=True)
class Target:
    scheme: str
    host: str
    port: int
    path: str
    address: str


def check_url(url: str, *, allow_local: bool = False) -> Target:
    """The URL's target after DNS resolution, or ``PushError`` when it is not a public HTTPS endpoint."""
    parts = urlsplit(url)
    if parts.scheme not in ("https", "http") or not parts.hostname:
        raise PushError("the push URL must be https://host/...")
    if parts.username or parts.password:
        raise PushError("the push URL may not hold credentials")
    local_http = allow_local and parts.scheme == "http"
    if parts.scheme == "http" and not local_http:
        raise PushError("the push URL must use https")
    port = parts.port or (443 if parts.scheme == "https" else 80)
    try:
        infos = socket.getaddrinfo(parts.hostname, port, type=socket.SOCK_STREAM)
    except socket.gaierror as exc:
        raise PushError(f"cannot resolve {parts.hostname}: {exc}") from None
    addresses = sorted({str(info[4][0]) for info in infos})
    if not addresses:
        raise PushError(f"{parts.hostname} has no address")
    for address in addresses:
        ip = ipaddress.ip_address(address.split("%")[0])
        if allow_local and ip.is_loopback:
            continue
        if not ip.is_global or ip.is_multicast:
            raise PushError(f"{parts.hostname} resolves to {address}, which is not a public address")
    if local_http and not all(ipaddress.ip_address(a.split("%")[0]).is_loopback for a in addresses):
        raise PushError("plain http is allowed only to loopback addresses (tests)")
    path = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
    return Target(parts.scheme, parts.hostname, port, path, addresses[0])


class _PinnedHTTPSConnection(http.client.HTTPSConnection):
    """HTTPS to the checked address, with the certificate verified for the URL's host name."""

    def __init__(self, target: Target, timeout: float) -> None:
        super().__init__(target.host, target.port, timeout=timeout, context=ssl.create_default_context())
        self._address = target.address

    def connect(self) -> None:
        sock = socket.create_connection((self._address, self.port), self.timeout)
        self.sock = self._context.wrap_socket(sock, server_hostname=self.host)  # type: ignore[attr-defined]


class _PinnedHTTPConnection(http.client.HTTPConnection):
    def __init__(self, target: Target, timeout: float) -> None:
        super().__init__(target.host, target.port, timeout=timeout)
        self._address = target.address

    def connect(self) -> None:
        self.sock = socket.create_connection((self._address, self.port), self.timeout)


def sign(secret: str, timestamp: str, body: bytes) -> str:
    return "sha256=" + hmac.new(secret.encode(), timestamp.encode() + b"." + body, hashlib.sha256).hexdigest()


def push(url: str, secret: str, event: dict[str, Any], *, timeout: float, allow_local: bool = False) -> str:
    """POST ``event`` to the bot's endpoint; the action code of its answer ``{"action": "..."}``."""
    target = check_url(url, allow_local=allow_local)
    body = json.dumps(event, separators=(",", ":")).encode()
    timestamp = str(int(time.time()))
    headers = {
        "Content-Type": "application/json",
        "User-Agent": "TuteArena-push/1",
        "X-Tute-Event": str(event.get("type", "")),
        "X-Tute-Timestamp": timestamp,
        "X-Tute-Signature": sign(secret, timestamp, body),
    }
    connection: http.client.HTTPConnection
    if target.scheme == "https":
        connection = _PinnedHTTPSConnection(target, timeout)
    else:
        connection = _PinnedHTTPConnection(target, timeout)
    deadline = time.monotonic() + timeout
    try:
        connection.request("POST", target.path, body=body, headers=headers)
        response = connection.getresponse()
        data = response.read(MAX_ANSWER_BYTES + 1)
    except (OSError, http.client.HTTPException) as exc:
        raise PushError(f"calling the endpoint failed: {exc}") from None
    finally:
        connection.close()
    if time.monotonic() > deadline:
        raise PushError("the endpoint answered too late")
    if not 200 <= response.status < 300:
        raise PushError(f"the endpoint answered {response.status} (redirects are not followed)")
    if len(data) > MAX_ANSWER_BYTES:
        raise PushError("the endpoint's answer is too large")
    try:
        answer = json.loads(data)
    except ValueError:
        raise PushError("the endpoint's answer is not JSON") from None
    action = answer.get("action") if isinstance(answer, dict) else None
    if not isinstance(action, str) or not action or len(action) > 16:
        raise PushError('the endpoint\'s answer has no "action"')
    return action
