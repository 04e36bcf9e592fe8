"""Tute Arena's tests. The tree mirrors the source tree: tests/games/engine/ tests games/engine/, ..."""
