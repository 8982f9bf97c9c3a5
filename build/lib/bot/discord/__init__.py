"""The Discord adapter: a discord.py client, thin cogs, persistent components and the notifier."""
