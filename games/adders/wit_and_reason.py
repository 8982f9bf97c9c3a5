"""What the two Wit and Reason games share: two players racing a common total to exactly 31,
over a match of several races with the first player alternating."""

from __future__ import annotations

from pydantic import Field

from games.engine import BaseOptions


class RaceOptions(BaseOptions):
    races: int = Field(
        2,
        ge=1,
        le=21,
        description="Number of races in the match; the first player alternates, so an even number is fair.",
    )
