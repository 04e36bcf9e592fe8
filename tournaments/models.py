"""Models of the tournaments app. Empty until the tournaments issue fills it (brackets and rounds
of matches, driven by games.signals.match_finished)."""
