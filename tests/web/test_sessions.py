"""Sessions: signed by the server, bound to the user Discord named; nothing else passes."""

from __future__ import annotations

from bot.web.sessions import Sessions, WebUser, session_key

ANN = WebUser("101", "Ann")


def test_a_token_names_its_user_until_it_expires() -> None:
    now = [1000.0]
    sessions = Sessions(session_key("secret"), clock=lambda: now[0], lifetime=60)
    token = sessions.issue(ANN)
    assert sessions.user(token) == ANN
    assert Sessions(session_key("secret"), clock=lambda: now[0]).user(token) == ANN  # after a restart
    assert sessions.seconds_left(token) == 60
    now[0] += 45
    assert sessions.seconds_left(token) == 15  # a socket opened now is closed in 15 s
    now[0] += 16
    assert sessions.user(token) is None and sessions.seconds_left(token) is None
    assert sessions.seconds_left("forged.token") is None


def test_a_forged_or_altered_token_is_refused() -> None:
    sessions = Sessions(session_key("secret"))
    token = sessions.issue(ANN)
    payload, signature = token.split(".")
    other = Sessions(session_key("another secret")).issue(WebUser("666", "Mallory"))
    forged_payload = other.split(".")[0]
    for bad in (
        f"{forged_payload}.{signature}",  # another user's payload under Ann's signature
        other,  # signed with another key
        f"{payload}.{signature[:-1]}{'B' if signature.endswith('A') else 'A'}",  # one character changed
        "x" * 43,
        "",
        None,
        42,
        f"{payload}.{signature}." ,
        "a" * 1000,
    ):
        assert sessions.user(bad) is None, bad


def test_a_token_with_characters_outside_ascii_is_no_session() -> None:
    """Not a TypeError from ``hmac.compare_digest`` (it refuses non-ASCII strings), which closed
    the socket without a word instead of the refusal an ended session gets."""
    sessions = Sessions(session_key("secret"))
    payload, signature = sessions.issue(ANN).split(".")
    for bad in (f"{payload}.{signature[:-1]}é", f"{payload}.ß", "é.é", f"{payload}\u00a0.{signature}"):
        assert sessions.user(bad) is None, bad
