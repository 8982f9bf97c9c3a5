"""Open the table: the live table inside Discord (the Activity), or its page in a browser.

The button answers the click by launching the application's Activity in the channel; Discord
refuses that when the application has no Activity enabled (or the client cannot run one), and the
player then gets the page's address instead, which works in any browser after "Log in with
Discord". Discord's answer to a launch names the new instance: it is kept with the table
(:meth:`TableService.keep_activity`), so the page of that instance finds its table, even one that
has ended, after a restart too."""

from __future__ import annotations

import logging

import discord

from bot.discord.context import guarded, place_of
from bot.discord.safe import safe_reply
from bot.service.model import TableError

log = logging.getLogger(__name__)


async def keep_instance(
    interaction: discord.Interaction, guild_id: str, channel_id: str, session: int, instance_id: str | None
) -> None:
    """Tie the launched instance to the table whose message was clicked (the answer is sent: a
    table that closed meanwhile, or a database that does not answer, is only logged)."""
    service = getattr(interaction.client, "service", None)
    if instance_id is None or service is None:
        return
    try:
        await service.keep_activity(guild_id, channel_id, instance_id, session=session)
    except TableError as exc:
        log.info("the Activity launched for table %s is not kept with it: %s", session, exc)


def page_address(public_url: str, guild_id: str, channel_id: str) -> str:
    return f"{public_url.rstrip('/')}/t/{guild_id}/{channel_id}"


@guarded
async def open_live(interaction: discord.Interaction, session: int) -> None:
    public_url = getattr(getattr(interaction.client, "settings", None), "public_url", None)
    if public_url is None:
        await safe_reply(interaction, "The live table is not turned on for this bot.", ephemeral=True)
        return
    guild_id, channel_id = place_of(interaction)
    try:
        launched = await interaction.response.launch_activity()
    except discord.HTTPException as exc:  # no Activity for this application, or not here
        log.info("could not launch the Activity (%s): sending the page's address instead", exc.status)
    else:
        await keep_instance(interaction, guild_id, channel_id, session, launched.activity_id)
        return
    address = page_address(public_url, guild_id, channel_id)
    await safe_reply(interaction, f"Open the live table in your browser: {address}", ephemeral=True)
