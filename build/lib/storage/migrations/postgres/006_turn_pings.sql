-- Players who asked not to be pinged when their turn starts (/pings off). Their turn still shows
-- on the table message and in their private view; the turn reminder still mentions them.
CREATE TABLE quiet_players (
    user_id TEXT PRIMARY KEY
);
