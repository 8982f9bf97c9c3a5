"""The live table on the web: the table service's third transport, beside Discord and the console.

One web server in the bot's process (aiohttp, which discord.py already brings) serves the live
table as an Activity inside Discord and as a page in a browser. A browser is bound to a Discord
user by our server only: it exchanges an OAuth2 code with Discord, asks Discord who the token
belongs to, and issues its own session (:mod:`bot.web.sessions`); an Activity's channel and
participants come from Discord's own record of the instance, asked with the bot's token
(:mod:`bot.web.identity`). Each viewer gets frames built from their own view
(:mod:`bot.web.frames`) over a websocket (:mod:`bot.web.live`, :mod:`bot.web.server`).
"""
