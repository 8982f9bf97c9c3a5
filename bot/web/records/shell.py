"""The frame every page of record uses: one complete, accessible HTML5 document with Open Graph
tags, our own stylesheet and no script."""

from __future__ import annotations

from html import escape

STYLESHEET = "/static/records.css"
SITE = "Parlour"


def page(
    *,
    title: str,
    description: str,
    body: str,
    url: str,
    image: str | None = None,
    home: str | None = None,
    home_label: str = "This server's pages",
) -> str:
    """A whole document. ``title``, ``description``, ``url`` and ``image`` are text (escaped here);
    ``body`` is HTML the caller built, every piece of text in it already escaped (see :func:`text`).
    ``url`` and ``image`` are absolute (Open Graph wants them so); ``home`` is the server's index,
    linked from the navigation."""
    t, d, u = escape(title), escape(description), escape(url)
    meta = [
        f'<meta property="og:title" content="{t}">',
        f'<meta property="og:description" content="{d}">',
        f'<meta property="og:url" content="{u}">',
        '<meta property="og:type" content="website">',
        f'<meta property="og:site_name" content="{SITE}">',
        f'<meta name="twitter:title" content="{t}">',
        f'<meta name="twitter:description" content="{d}">',
    ]
    if image:
        i = escape(image)
        meta += [
            f'<meta property="og:image" content="{i}">',
            f'<meta property="og:image:alt" content="{t}">',
            '<meta name="twitter:card" content="summary_large_image">',
            f'<meta name="twitter:image" content="{i}">',
        ]
    else:
        meta.append('<meta name="twitter:card" content="summary">')
    nav = f'<a href="{escape(home)}">{escape(home_label)}</a>' if home else ""
    return (
        "<!doctype html>\n"
        '<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f"<title>{t} - {SITE}</title>\n"
        f'<meta name="description" content="{d}">\n'
        + "\n".join(meta)
        + f'\n<link rel="stylesheet" href="{STYLESHEET}">\n</head>\n<body>\n'
        '<a class="skip" href="#main">Skip to the content</a>\n'
        f'<header class="site"><nav aria-label="Pages of record"><span class="brand">{SITE}</span>{nav}</nav></header>\n'
        f'<main id="main">\n{body}\n</main>\n'
        '<footer class="site"><p>Results as recorded by Parlour. Matches still in play are not shown.</p></footer>\n'
        "</body>\n</html>\n"
    )


def text(value: object) -> str:
    """Any value as HTML text (a player's name, a game's title...)."""
    return escape(str(value))
