"""Models of the games app. Empty for now: the matches issue fills it (Player, Match, Seat, Game, Action),
together with the services that are their only writers."""
