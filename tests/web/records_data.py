"""A server with a record, for the pages' tests: finished matches of two games among four members
(one named like an attack), a guest, an abandoned match and a match still in play."""

from __future__ import annotations

from bot.admin import SettingsChange, change_settings
from bot.tables import TableService
from storage.sessions import ResultPlayer, SeatRecord, Store

HOSTILE = "<script>alert(1)</script>"
MEMBERS = {"101": "Ann", "102": "Bob", "103": "Cat", "104": HOSTILE}
GUILD_NAME = "The Back Room"


async def _match(store: Store, guild: str, game: str, players: list[tuple[str | None, str, int, int]], status: str = "finished") -> int:
    sid = await store.create_session(
        guild_id=guild, channel_id="20", game=game, options={}, host_id=players[0][0] or "101",
        seats=[SeatRecord(name=name, user_id=uid) for uid, name, _, _ in players], seed=7,
    )
    await store.set_status(sid, "playing")
    if status == "playing":
        return sid
    await store.record_result(
        sid, guild_id=guild, game=game, rated=status == "finished", outcome={}, status=status,
        players=[ResultPlayer(seat, name, uid, score, rank) for seat, (uid, name, score, rank) in enumerate(players)],
    )
    return sid


async def fill(store: Store, guild: str, matches: int = 12) -> dict[str, int]:
    """Parity matches among the members (Ann wins most), two of Spec, one with a guest, one
    abandoned and one in play. Returns the ids of the notable ones."""
    ann, bob, cat, eve = (("101", "Ann"), ("102", "Bob"), ("103", "Cat"), ("104", HOSTILE))
    for i in range(matches):
        first, second = (ann, bob) if i % 3 else (bob, cat)
        third = eve if i % 2 else cat if first != cat and second != cat else ann
        await _match(store, guild, "parity", [(*first, 120, 1), (*second, 80, 2), (*third, 40, 3)])
    await _match(store, guild, "spec", [(*ann, 10, 2), (*eve, 30, 1)])
    await _match(store, guild, "spec", [(*eve, 30, 1), (*bob, 10, 2)])
    guest = await _match(store, guild, "parity", [(*ann, 50, 1), (None, "Guest Gus", 20, 2)])
    abandoned = await _match(store, guild, "parity", [(*ann, 50, 1), (*bob, 20, 2)], status="abandoned")
    live = await _match(store, guild, "parity", [(*cat, 0, 1), (*bob, 0, 2)], status="playing")
    return {"guest": guest, "abandoned": abandoned, "live": live}


async def pages_on(service: TableService, guild: str, *, names: bool) -> None:
    await change_settings(service, guild, "101", SettingsChange(pages=True, page_names=names, guild_name=GUILD_NAME))
