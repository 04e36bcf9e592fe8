"""Models of the ratings app. Empty until the ratings issue fills it (a rating per player and
game, updated from games.signals.match_finished)."""
