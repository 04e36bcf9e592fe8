"""API tokens are kept as SHA-256 digests: a leaked database does not leak working tokens."""

import hashlib


def token_digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()
