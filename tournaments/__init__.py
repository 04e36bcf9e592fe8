"""Tournaments: schedules of matches between players and bots. Listens to games.signals."""
