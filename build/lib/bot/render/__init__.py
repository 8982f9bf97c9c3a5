"""Turning tables and views into text, embeds and menus. Generic over every game in the registry."""
