"""Slash commands, one cog per area. Cogs only parse and call their flows (one module of ``bot/discord/`` per feature)."""
