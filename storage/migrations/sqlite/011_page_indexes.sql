-- A leaderboard of the last 7 or 30 days (on /leaderboard and the pages of record) counts a
-- server's rated results in the period: both indexes cover that count (a busy server's month,
-- 9,400 matches, counted in 20 ms rather than 126 ms; tests/bench/bench_pages.py).
CREATE INDEX results_board_period ON results (guild_id, game, finished_at, rated);
CREATE INDEX result_players_board ON result_players (session_id, user_id, rank, name);
