"""The records and admin commands: leaderboards, stats, history, replays, exports, and the
server's administration, with their persistent buttons (page turners and the reset
confirmation). Like every flow (see :mod:`bot.discord.context`), each answers, refusals included.

The buttons are DynamicItems, as the table's components are: their custom id says everything
needed to answer a click, so they work after a restart. A page is recomputed from the database on
each click, so a leaderboard page is always current.

``/leaderboard``, ``/stats`` and ``/history`` answer in the channel, for everyone to see: they are
the server's shared record, so asking the same question gives the same kind of answer (a refusal,
as everywhere, goes to the asker alone).
"""

from __future__ import annotations

import asyncio
import io
import json
import math
import re
from typing import Any

import discord

from bot.admin import SettingsChange, change_settings, settings_lines
from bot.discord.components import PREFIX
from bot.discord.context import guarded, place_of, service_of
from bot.discord.limits import clip_lines, fit_embed
from bot.discord.plain import plain, plain_lines
from bot.discord.record_links import pages_url, player_address, server_address, with_link
from bot.discord.safe import safe_defer, safe_reply, safe_update
from bot.render import records
from bot.render.charts import rating_chart
from bot.render.text import clean_name
from bot.service.model import TableError
from bot.service.records import finished_match, record_from_json
from games.registry import get_game
from storage import stats
from storage.ratings import display_rating

BOARD_PAGE = 10
RECORDS_COLOUR = discord.Colour.gold()
NOT_ADMIN = "Only members who may manage this server can use the admin commands."
RECORDS_EPHEMERAL = False
"""/leaderboard, /stats and /history: all public (see the module's note)."""


def _guild(interaction: discord.Interaction) -> str:
    return place_of(interaction)[0]


def _conn(interaction: discord.Interaction) -> Any:
    return service_of(interaction).store.conn


def _embed(title: str, lines: list[str], footer: str | None = None) -> discord.Embed:
    """A records embed: its lines hold names, shown literally."""
    embed = discord.Embed(
        title=plain(title), description=clip_lines(plain_lines(lines, mentions=True), 4000, keep="start"),
        colour=RECORDS_COLOUR,
    )
    if footer:
        embed.set_footer(text=footer)
    return fit_embed(embed)


async def _pages_url(interaction: discord.Interaction) -> str | None:
    """The public address when this server shows its pages of record (for link buttons)."""
    return pages_url(interaction.client, await service_of(interaction).settings(_guild(interaction)))


def require_admin(interaction: discord.Interaction) -> None:
    """Admin commands are hidden from other members by default, but a server can change that:
    check again at every use."""
    if not interaction.permissions.manage_guild:
        raise TableError(NOT_ADMIN)


# -- leaderboards --------------------------------------------------------------------------------------


async def _board_page(interaction: discord.Interaction, game: str, period: stats.Period, page: int) -> dict[str, Any]:
    board = await stats.leaderboard(
        _conn(interaction), _guild(interaction), game, period, offset=page * BOARD_PAGE, limit=BOARD_PAGE
    )
    pages = max(1, math.ceil(board.total / BOARD_PAGE))
    if page >= pages and board.total:
        return await _board_page(interaction, game, period, pages - 1)
    lines = records.leaderboard_lines(board)
    footer = f"Page {page + 1} of {pages}. Provisional players are listed apart; /help says why."
    view = pager("board", f"{game}.{period}", page, pages)
    public_url = await _pages_url(interaction)
    if public_url is not None:
        query = "" if period == "all" else f"?period={period}"
        view = with_link(view, "Leaderboard page", server_address(public_url, _guild(interaction), f"games/{game}{query}"))
    return {"embed": _embed(lines[0], lines[1:], footer), "view": view}


@guarded
async def leaderboard(interaction: discord.Interaction, game: str | None, period: str | None) -> None:
    guild = _guild(interaction)
    chosen = records.period_of(period)
    if game:
        game_id = get_game(game).id
    else:
        found = await stats.most_played_game(_conn(interaction), guild)
        if found is None:
            raise TableError("No rated matches on this server yet: play one, and the leaderboard starts.")
        game_id = found
    await safe_defer(interaction, ephemeral=RECORDS_EPHEMERAL, thinking=True)
    page = await _board_page(interaction, game_id, chosen, 0)
    await safe_reply(interaction, ephemeral=RECORDS_EPHEMERAL, **page)


@guarded
async def turn_page(interaction: discord.Interaction, kind: str, key: str, page: int) -> None:
    if kind == "board":
        game, _, period = key.rpartition(".")
        await safe_update(interaction, **await _board_page(interaction, game, records.period_of(period), page))
    else:
        pages = await _replay_pages(interaction, int(key))
        page = min(page, len(pages) - 1)
        await safe_update(interaction, **_replay_message(int(key), pages, page))


# -- stats and history ---------------------------------------------------------------------------------


@guarded
async def player_stats(
    interaction: discord.Interaction,
    member: discord.Member | discord.User | None,
    game: str | None,
    versus: discord.Member | discord.User | None,
) -> None:
    who = member or interaction.user
    game_id = get_game(game).id if game else None
    conn, guild = _conn(interaction), _guild(interaction)
    await safe_defer(interaction, ephemeral=RECORDS_EPHEMERAL, thinking=True)
    found = await stats.player_stats(conn, guild, str(who.id), game_id)
    h2h = None
    if versus is not None and versus.id != who.id:
        together, ahead, behind = await stats.head_to_head(conn, guild, str(who.id), str(versus.id), game_id)
        h2h = (clean_name(versus.display_name), together, ahead, behind)
    lines = records.stats_lines(clean_name(who.display_name), found, game_id, h2h)
    embed = _embed(lines[0], lines[1:])
    file = None
    if len(found.history) >= 2:
        title = f"{clean_name(who.display_name)} - rating" + (f" in {records.game_title(game_id)}" if game_id else "")
        shown = [(at, float(display_rating(ordinal))) for at, ordinal in found.history]
        png = await asyncio.to_thread(rating_chart, title, shown)
        file = discord.File(io.BytesIO(png), filename="rating.png")
        embed.set_image(url="attachment://rating.png")
    view = None
    public_url = await _pages_url(interaction)
    if public_url is not None:
        view = with_link(None, "Player page", await player_address(conn, public_url, guild, str(who.id)))
    await safe_reply(interaction, ephemeral=RECORDS_EPHEMERAL, embed=embed, file=file, view=view)


@guarded
async def history(
    interaction: discord.Interaction,
    member: discord.Member | discord.User | None,
    channel: discord.abc.GuildChannel | discord.Thread | None,
) -> None:
    await safe_defer(interaction, ephemeral=RECORDS_EPHEMERAL, thinking=True)
    matches = await stats.history(
        _conn(interaction),
        _guild(interaction),
        user_id=str(member.id) if member else None,
        channel_id=str(channel.id) if channel else None,
        limit=15,
    )
    about = clean_name(member.display_name) if member else (f"#{channel.name}" if channel else "this server")
    footer = "/replay with a match's number shows its deals." if matches else None
    public_url = await _pages_url(interaction)
    view = with_link(None, "Server's pages", server_address(public_url, _guild(interaction))) if public_url else None
    await safe_reply(
        interaction,
        ephemeral=RECORDS_EPHEMERAL,
        embed=_embed(f"Recent matches - {about}", records.history_lines(matches), footer),
        view=view,
    )


# -- replays and exports -------------------------------------------------------------------------------


async def _match(interaction: discord.Interaction, match_id: int) -> dict[str, Any]:
    """A match of this server that is over: a live one is refused (its record would show hands)."""
    return finished_match(await stats.match_json(_conn(interaction), _guild(interaction), match_id), match_id)


async def _replay_pages(interaction: discord.Interaction, match_id: int) -> list[str]:
    data = await _match(interaction, match_id)
    if data["status"] == "cancelled" or not data["actions"]:
        raise TableError(f"Match #{match_id} never got going: there is nothing to replay.")
    record = record_from_json(data)
    return await asyncio.to_thread(records.replay_pages, record, data["mode"])


def _replay_message(match_id: int, pages: list[str], page: int) -> dict[str, Any]:
    title = f"Replay of match #{match_id}"
    footer = f"Page {page + 1} of {len(pages)}" if len(pages) > 1 else None
    return {"embed": _embed(title, pages[page].split("\n"), footer), "view": pager("replay", str(match_id), page, len(pages))}


@guarded
async def replay(interaction: discord.Interaction, match_id: int) -> None:
    pages = await _replay_pages(interaction, match_id)
    await safe_reply(interaction, **_replay_message(match_id, pages, 0))


@guarded
async def export(interaction: discord.Interaction, match_id: int | None) -> None:
    if match_id is None:
        text = await stats.export_csv(_conn(interaction), _guild(interaction))
        file = discord.File(io.BytesIO(text.encode()), filename="parlour-results.csv")
        note = "Every result on this server, one row per player."
    else:
        data = await _match(interaction, match_id)
        file = discord.File(io.BytesIO(json.dumps(data, indent=1).encode()), filename=f"parlour-match-{match_id}.json")
        note = f"Match #{match_id}: its setup, every action and the result; enough to replay it exactly."
    await safe_reply(interaction, note, file=file)


# -- admin ---------------------------------------------------------------------------------------------


@guarded
async def season_new(interaction: discord.Interaction) -> None:
    require_admin(interaction)
    number = await stats.new_season(_conn(interaction), _guild(interaction), str(interaction.user.id))
    await safe_reply(
        interaction,
        f"Season {number} has begun: season leaderboards start afresh. All-time ratings and every result stay.",
        ephemeral=False,
    )


@guarded
async def rating_reset(interaction: discord.Interaction, member: discord.Member | discord.User) -> None:
    require_admin(interaction)
    await safe_reply(
        interaction,
        f"Reset every rating of {member.mention} on this server (all games, all seasons)? "
        "Their results stay in the history. This cannot be undone.",
        view=reset_view(str(member.id)),
    )


@guarded
async def reset_decided(interaction: discord.Interaction, user_id: str, confirmed: bool) -> None:
    require_admin(interaction)
    if not confirmed:
        await safe_update(interaction, content="Nothing was reset.", view=None)
        return
    removed = await stats.reset_rating(_conn(interaction), _guild(interaction), str(interaction.user.id), user_id)
    what = f"{removed} rating{'' if removed == 1 else 's'}" if removed else "no ratings (there were none)"
    await safe_update(interaction, content=f"Reset <@{user_id}>: {what} removed. Their results stay.", view=None)


@guarded
async def admin_settings(interaction: discord.Interaction, change: SettingsChange) -> None:
    require_admin(interaction)
    service, guild = service_of(interaction), _guild(interaction)
    if change.is_empty():
        settings = await service.settings(guild)
        title = "Server settings"
    else:
        if interaction.guild is not None:
            change.guild_name = interaction.guild.name
        settings = await change_settings(service, guild, str(interaction.user.id), change)
        title = "Server settings - saved"
    await safe_reply(interaction, embed=_embed(title, settings_lines(settings)))


@guarded
async def admin_log(interaction: discord.Interaction) -> None:
    require_admin(interaction)
    entries = await stats.admin_log(_conn(interaction), _guild(interaction), limit=20)
    lines = [f"{e['at'][:16].replace('T', ' ')} <@{e['user_id']}> {e['action']}: {e['detail']}" for e in entries]
    await safe_reply(interaction, embed=_embed("Admin log", lines or ["Nothing yet."]))


# -- the buttons ---------------------------------------------------------------------------------------


class PageButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=rf"{PREFIX}:page:(?P<kind>board|replay):(?P<key>[a-z0-9_.]+):(?P<page>\d+)",
):
    """Go to page ``page`` of a leaderboard (key ``game.period``) or a replay (key: match id)."""

    def __init__(self, kind: str, key: str, page: int, label: str, *, disabled: bool = False) -> None:
        super().__init__(
            discord.ui.Button(
                label=label,
                style=discord.ButtonStyle.secondary,
                disabled=disabled,
                custom_id=f"{PREFIX}:page:{kind}:{key}:{page}",
            )
        )
        self.kind, self.key, self.page = kind, key, page

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> PageButton:
        return cls(match["kind"], match["key"], int(match["page"]), "")

    async def callback(self, interaction: discord.Interaction) -> None:
        await turn_page(interaction, self.kind, self.key, self.page)


def pager(kind: str, key: str, page: int, pages: int) -> discord.ui.View | None:
    """Previous / page n of m / Next buttons, or nothing for a single page."""
    if pages <= 1:
        return None
    view = discord.ui.View(timeout=None)
    view.add_item(PageButton(kind, key, max(page - 1, 0), "Previous", disabled=page == 0))
    view.add_item(PageButton(kind, key, page + 1, "Next", disabled=page >= pages - 1))
    return view


RESET_VERBS = {"confirm": ("Reset the rating", discord.ButtonStyle.danger), "cancel": ("Keep it", discord.ButtonStyle.secondary)}


class ResetRatingButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=rf"{PREFIX}:reset:(?P<user>\d+):(?P<verb>confirm|cancel)",
):
    """The confirmation asked by ``/admin rating reset``."""

    def __init__(self, user_id: str, verb: str) -> None:
        label, style = RESET_VERBS[verb]
        super().__init__(discord.ui.Button(label=label, style=style, custom_id=f"{PREFIX}:reset:{user_id}:{verb}"))
        self.user_id, self.verb = user_id, verb

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> ResetRatingButton:
        return cls(match["user"], match["verb"])

    async def callback(self, interaction: discord.Interaction) -> None:
        await reset_decided(interaction, self.user_id, self.verb == "confirm")


def reset_view(user_id: str) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(ResetRatingButton(user_id, "confirm"))
    view.add_item(ResetRatingButton(user_id, "cancel"))
    return view


RECORD_ITEMS: tuple[type[discord.ui.DynamicItem[Any]], ...] = (PageButton, ResetRatingButton)
