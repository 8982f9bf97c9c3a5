"""The one funnel for calls to Discord.

Every call the bot makes goes through a ``safe_*`` wrapper here: it catches what Discord throws
(Forbidden, NotFound, other HTTP errors including 429s that outlived discord.py's retries),
logs it, and returns a value the caller can act on. A failed edit or a lost interaction must
never break a game: the table service has already recorded the action.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable
from enum import Enum
from typing import Any, TypeVar

import discord
from discord.http import handle_message_parameters
from discord.utils import MISSING
from discord.webhook.async_ import async_context, interaction_message_response_params

from bot.discord.limits import CONTENT, clip

log = logging.getLogger(__name__)

T = TypeVar("T")


class Outcome(Enum):
    OK = "ok"
    GONE = "gone"
    """The target no longer exists (NotFound): a deleted message, an expired interaction."""
    FAILED = "failed"


def detached(view: discord.ui.View | None) -> discord.ui.View | None:
    """A view discord.py will not track: every component of ours is a dynamic item, found by
    its custom id, so a stored copy would only cost a 15-minute timer per ephemeral message."""
    if view is not None and not view.is_finished():
        view.stop()
    return view


def _detach_view(kwargs: dict[str, Any]) -> dict[str, Any]:
    if isinstance(kwargs.get("view"), discord.ui.View):
        detached(kwargs["view"])
    return kwargs


async def safe_call(what: str, call: Awaitable[T]) -> T | None:
    """Await ``call``; on a Discord error log it and return ``None``."""
    try:
        return await call
    except discord.Forbidden as exc:
        log.info("%s: forbidden (%s)", what, exc.text)
    except discord.NotFound as exc:
        log.info("%s: not found (%s)", what, exc.text)
    except discord.HTTPException as exc:
        log.warning("%s: HTTP %s (%s)", what, exc.status, exc.text)
    except discord.InteractionResponded:
        log.info("%s: interaction already answered", what)
    return None


async def safe_outcome(what: str, call: Awaitable[Any]) -> Outcome:
    """Like :func:`safe_call`, telling apart a vanished target from another failure."""
    try:
        await call
    except discord.NotFound as exc:
        log.info("%s: not found (%s)", what, exc.text)
        return Outcome.GONE
    except discord.Forbidden as exc:
        log.info("%s: forbidden (%s)", what, exc.text)
        return Outcome.FAILED
    except discord.HTTPException as exc:
        log.warning("%s: HTTP %s (%s)", what, exc.status, exc.text)
        return Outcome.FAILED
    return Outcome.OK


# -- channel messages ------------------------------------------------------------------------------


async def safe_send(channel: discord.abc.Messageable, **kwargs: Any) -> discord.Message | None:
    if isinstance(kwargs.get("content"), str):
        kwargs["content"] = clip(kwargs["content"], CONTENT)
    return await safe_call("send message", channel.send(**_detach_view(kwargs)))


async def safe_edit_message(message: discord.PartialMessage, **kwargs: Any) -> Outcome:
    return await safe_outcome(f"edit message {message.id}", edit_message(message, **_detach_view(kwargs)))


# -- edits whose answer is not read ----------------------------------------------------------------
# discord.py's edits read Discord's answer back into a Message (or an InteractionMessage): every
# embed, component and attachment of it made into objects, a good share of an edit's CPU, for an
# object nothing here reads. These send the same request (the same parameters, the same route) and
# leave the answer as JSON. Our views are never stored by discord.py (see ``detached``), so there
# is no view to store from the answer either.


async def edit_message(message: discord.PartialMessage, **fields: Any) -> None:
    """:meth:`discord.PartialMessage.edit` with ``fields`` (content, embed, embeds, attachments,
    view, allowed_mentions), without reading the edited message back."""
    state = message._state
    if fields.get("view", MISSING) is not MISSING:
        state.prevent_view_updates_for(message.id)
    with handle_message_parameters(
        **_message_fields(fields),
        allowed_mentions=fields.get("allowed_mentions", MISSING),
        previous_allowed_mentions=state.allowed_mentions if fields.get("content", MISSING) is not MISSING else None,
    ) as params:
        await state.http.edit_message(message.channel.id, message.id, params=params)


async def edit_original(interaction: discord.Interaction, **fields: Any) -> None:
    """:meth:`discord.Interaction.edit_original_response` with ``fields``, without reading the
    edited message back."""
    state = interaction._state
    http = state.http
    with handle_message_parameters(
        **_message_fields(fields),
        allowed_mentions=fields.get("allowed_mentions"),
        previous_allowed_mentions=state.allowed_mentions,
    ) as params:
        await async_context.get().edit_original_interaction_response(
            interaction.application_id,
            interaction.token,
            session=interaction._session,
            proxy=http.proxy,
            proxy_auth=http.proxy_auth,
            payload=params.payload,
            multipart=params.multipart,
            files=params.files,
        )


async def update_clicked(interaction: discord.Interaction, **fields: Any) -> None:
    """:meth:`discord.InteractionResponse.edit_message` with ``fields``: the click answered by
    replacing the message it was made on, without reading the message of Discord's answer back."""
    response = interaction.response
    if response.is_done():
        raise discord.InteractionResponded(interaction)
    if interaction.type not in (discord.InteractionType.component, discord.InteractionType.modal_submit):
        return  # nothing to edit (discord.py does nothing either)
    state = interaction._state
    if fields.get("view", MISSING) is not MISSING and interaction.message is not None:
        state.prevent_view_updates_for(interaction.message.id)
    params = interaction_message_response_params(
        type=discord.InteractionResponseType.message_update.value,
        **_message_fields(fields),
        allowed_mentions=fields.get("allowed_mentions", MISSING),
        previous_allowed_mentions=state.allowed_mentions,
    )
    http = state.http
    await async_context.get().create_interaction_response(
        interaction.id,
        interaction.token,
        session=interaction._session,
        proxy=http.proxy,
        proxy_auth=http.proxy_auth,
        params=params,
    )
    response._response_type = discord.InteractionResponseType.message_update  # is_done() from now on


_FIELDS = ("content", "embed", "embeds", "attachments", "view")


def _message_fields(fields: dict[str, Any]) -> dict[str, Any]:
    unknown = set(fields) - {*_FIELDS, "allowed_mentions"}
    if unknown:
        raise TypeError(f"not a field of an edit: {', '.join(sorted(unknown))}")
    return {name: fields.get(name, MISSING) for name in _FIELDS}


async def safe_dm(client: discord.Client, user_id: int, text: str) -> bool:
    """DM a user; ``False`` only when Discord refuses (DMs closed, no shared server, blocked).

    Other failures are logged and count as delivered: they are passing troubles, and a ``False``
    makes the service remember the user as unreachable for good.
    """
    try:
        channel = await client.create_dm(discord.Object(id=user_id))
        await channel.send(clip(text, CONTENT))
    except discord.Forbidden as exc:
        log.info("DM to %s refused (%s)", user_id, exc.text)
        return False
    except discord.HTTPException as exc:
        log.warning("DM to %s failed: HTTP %s (%s)", user_id, exc.status, exc.text)
    return True


# -- interactions ----------------------------------------------------------------------------------


async def safe_defer(
    interaction: discord.Interaction, *, ephemeral: bool = False, thinking: bool = False
) -> bool:
    """Acknowledge within Discord's three seconds; ``False`` if the interaction is gone."""
    if interaction.response.is_done():
        return True
    result = await safe_call(
        "defer interaction", _as_awaitable(interaction.response.defer(ephemeral=ephemeral, thinking=thinking))
    )
    return result is not None


async def _as_awaitable(call: Awaitable[Any]) -> bool:
    await call
    return True


async def safe_reply(
    interaction: discord.Interaction,
    content: str | None = None,
    *,
    ephemeral: bool = True,
    embed: discord.Embed | None = None,
    view: discord.ui.View | None = None,
    file: discord.File | None = None,
    files: list[discord.File] | None = None,
    allowed_mentions: discord.AllowedMentions | None = None,
) -> int | None:
    """Answer an interaction: the first response, or a followup once it was answered or deferred.

    Returns the id of the message sent, when Discord tells it.
    """
    kwargs: dict[str, Any] = {"ephemeral": ephemeral}
    if content is not None:
        kwargs["content"] = clip(content, CONTENT)
    if embed is not None:
        kwargs["embed"] = embed
    if view is not None:
        kwargs["view"] = detached(view)
    if file is not None:
        kwargs["file"] = file
    if files:
        kwargs["files"] = files
    if allowed_mentions is not None:
        kwargs["allowed_mentions"] = allowed_mentions
    if not interaction.response.is_done():
        callback = await safe_call("respond to interaction", interaction.response.send_message(**kwargs))
        return callback.message_id if callback is not None else None
    message = await safe_call("send followup", interaction.followup.send(wait=True, **kwargs))
    return message.id if message is not None else None


async def safe_update(interaction: discord.Interaction, **fields: Any) -> bool:
    """Replace the message a component sits on (answering the interaction, or after a defer).

    ``fields`` are those of :meth:`discord.Message.edit` (``content``, ``embed``, ``view``); a
    field given as ``None`` is removed from the message.
    """
    if isinstance(fields.get("content"), str):
        fields["content"] = clip(fields["content"], CONTENT)
    _detach_view(fields)
    if not interaction.response.is_done():
        done = await safe_call("update message", _as_awaitable(update_clicked(interaction, **fields)))
    else:
        done = await safe_call("edit original response", _as_awaitable(edit_original(interaction, **fields)))
    return done is not None


async def safe_modal(interaction: discord.Interaction, modal: discord.ui.Modal) -> bool:
    done = await safe_call("send modal", _as_awaitable(interaction.response.send_modal(modal)))
    return done is not None


