"""The pages of record: a server's leaderboards, players and (served elsewhere) finished matches on
the web, for servers whose admins turned them on. Plain HTML, no JavaScript, nothing of a match
in play."""
