"""Matches of Tute 2, Tute 4 and Pocha: models, services, API and Celery tasks.

The rules themselves live in games.engine (pure Python, no Django) and the bots in games.bots. This app
never imports ratings or tournaments: they listen to games.signals."""
