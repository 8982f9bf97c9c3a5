"""A statement is written once with named parameters and rendered for each database when it is
defined: numbered parameters in each one's spelling, the time stamp in each one's words, quoted
text and PostgreSQL's casts left alone; and both databases run the rendering alike."""

from __future__ import annotations

import re

import pytest

from storage.open import connect
from storage.query import POSTGRES, SQLITE, Query, cached, marks, numbered


def test_parameters_are_numbered_by_first_appearance_in_each_spelling() -> None:
    query = Query("SELECT ':x', a FROM t WHERE b = :b AND c IN (:c, :b) AND d = 'it''s :d ?' AND e = :long_name2")
    assert query.names == ("b", "c", "long_name2")
    assert query.text(SQLITE) == "SELECT ':x', a FROM t WHERE b = ?1 AND c IN (?2, ?1) AND d = 'it''s :d ?' AND e = ?3"
    assert query.text(POSTGRES) == "SELECT ':x', a FROM t WHERE b = $1 AND c IN ($2, $1) AND d = 'it''s :d ?' AND e = $3"
    assert query.args({"long_name2": 3, "b": 1, "c": 2}) == (1, 2, 3)
    assert query.returns_rows


def test_a_cast_and_the_time_stamp_are_rendered_for_each() -> None:
    query = Query("UPDATE t SET at = {now} WHERE id = ANY(:ids::int[]) RETURNING id")
    assert query.text(POSTGRES).startswith("UPDATE t SET at = to_char(clock_timestamp()")
    assert query.text(POSTGRES).endswith("WHERE id = ANY($1::int[]) RETURNING id")
    assert query.text(SQLITE) == "UPDATE t SET at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now') WHERE id = ANY(?1::int[]) RETURNING id"
    assert query.returns_rows and not Query("DELETE FROM t").returns_rows


def test_a_statement_that_is_not_written_once_is_refused() -> None:
    for mixed in ("SELECT * FROM t WHERE a = ?", "SELECT * FROM t WHERE a = $1", "SELECT 'open"):
        with pytest.raises(ValueError):
            Query(mixed)
    query = Query("SELECT a FROM t WHERE a = :a")
    with pytest.raises(TypeError, match=r"missing \['a'\], unknown \['b'\]"):
        query.args({"b": 1})


def test_a_built_statement_is_made_once() -> None:
    source = f"SELECT a FROM t WHERE a IN ({marks('u', 3)})"
    assert cached(source) is cached(source)
    assert cached(source).args(numbered("u", ["x", "y", "z"])) == ("x", "y", "z")


async def test_both_databases_run_the_same_statement(database: str) -> None:
    db = await connect(database)
    try:
        log = Query(
            "INSERT INTO admin_log (guild_id, user_id, action, detail) VALUES (:guild, :user, :action, :guild)"
            " RETURNING id"
        )
        first = await db.insert(log, guild="g", user="u", action="season new")
        assert await db.insert(log, guild="g", user="v", action="rating reset") == first + 1
        rows = await db.execute_fetchall(
            Query("SELECT user_id, detail, {now} AS now FROM admin_log WHERE guild_id = :guild AND detail = :guild ORDER BY id"),
            guild="g",
        )
        assert [(r["user_id"], r["detail"]) for r in rows] == [("u", "g"), ("v", "g")]
        assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z", rows[0]["now"])
        async with db.execute(Query("DELETE FROM admin_log WHERE user_id = :user"), user="u") as cur:
            assert cur.rowcount == 1
        await db.commit()
    finally:
        await db.close()
