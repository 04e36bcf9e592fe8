"""Fair deals (docs/RULES.md section 11): the commitment to a server seed, client seeds, the deal seed.

Pure functions: the server draws ``server_seed`` from ``secrets`` (the engine has no random source of its
own) and keeps it secret until the game is over; these functions are all anyone needs to check it.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Sequence
from typing import Any

#: A server seed: 32 bytes written as 64 lowercase hexadecimal characters.
SERVER_SEED_RE = re.compile(r"^[0-9a-f]{64}$")
CLIENT_SEED_MAX = 64


def sha256_hex(text: str) -> str:
    """Lowercase hexadecimal SHA-256 of the UTF-8 text."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def commitment(server_seed: str) -> str:
    """``seed_sha256``: what every seat and spectator reads before the game's first action."""
    return sha256_hex(server_seed)


def client_seed_problem(value: object) -> str | None:
    """Why ``value`` is not a client seed (1 to 64 printable ASCII characters, no ``:``); None if it is."""
    if not isinstance(value, str):
        return "a client seed is a text"
    if not 1 <= len(value) <= CLIENT_SEED_MAX:
        return f"a client seed has 1 to {CLIENT_SEED_MAX} characters, not {len(value)}"
    if not all(" " <= ch <= "~" for ch in value):
        return "a client seed holds only printable ASCII characters (space to ~)"
    if ":" in value:
        return 'a client seed may not contain ":"'
    return None


def deal_seed(server_seed: str, client_seeds: Sequence[str]) -> str:
    """The deal seed of section 7: SHA-256 of ``"{server_seed}:{client seed of seat 0}:..."``, every seat
    in seat order, ``""`` for a seat that gave none."""
    return sha256_hex(":".join([server_seed, *client_seeds]))


def fair_fields(server_seed: str, client_seeds: Sequence[str]) -> dict[str, Any]:
    """What a finished game's record adds (section 11): the deal seed, the server seed, its commitment
    and the client seeds by seat."""
    return {
        "seed": deal_seed(server_seed, client_seeds),
        "server_seed": server_seed,
        "seed_sha256": commitment(server_seed),
        "client_seeds": list(client_seeds),
    }
