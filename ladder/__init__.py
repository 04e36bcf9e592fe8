"""The bot ladder: validation of new bots, continuous rated matchmaking, the bot leaderboard, authors'
status pages and push bots.

A package of the games app (its models are the games app's, its migrations in games/migrations): the
match services consult it (a bot not validated for a game plays no rated match of it) and the event
stream reads its records of what happened to a bot, and games never imports the apps built on it.
"""
