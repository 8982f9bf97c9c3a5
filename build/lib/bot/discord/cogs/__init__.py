"""Slash commands, one cog per area. Cogs only parse and call :mod:`bot.discord.flows`."""
