"""Tute Arena's Python client for bot authors: see ``client/tute_client.py`` and ``docs/BOTS.md``."""
