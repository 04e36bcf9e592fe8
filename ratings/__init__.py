"""Ratings of players and bots per game, updated when a match finishes. Listens to games.signals."""
