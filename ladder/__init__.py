"""The bot ladder: validation of new bots, continuous rated matchmaking, the bot leaderboard, authors'
status pages and push bots.

An app built on games, like ratings and tournaments: it listens to games.signals (turns, refused
actions, timeouts, presence, finished matches) and registers its rated-match policy in games.policies
(a bot not validated for a game plays no rated match of it); games never imports it.
"""
