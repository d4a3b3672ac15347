"""Request and response bodies of the HTTP API (docs/API.md), as pydantic models.

Requests are strict: unknown fields, wrong types (``"3"`` for ``3``, ``true``
for ``1``) and out-of-range values are refused.  Response models only
describe the answers for the OpenAPI schema; the server builds the JSON
itself.  What the engine already types is not restated: the observation is
the engine's :class:`~dizhu.game.Observation`, the round's result its
:class:`~dizhu.game.Result`, and the variants, levels and bidding styles
are read from :data:`dizhu.variants.VARIANTS` and :data:`dizhu.bots.LEVELS`.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal, Optional

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, StrictInt, StrictStr

from ..bots import LEVELS
from ..game import Observation
from ..game.events import Result
from ..variants import VARIANTS

__all__ = [
    "CreateGame", "Act", "Check", "Verdict", "Step", "HintRequest", "Settings", "ViewQuery",
    "View", "Created", "Hint", "Rounds", "ErrorBody", "Health",
]

# Literal[tuple] is Literal of its items: the lists live in the engine and the bots.
Variant = Literal[tuple(VARIANTS)]  # type: ignore[valid-type]
Level = Literal[LEVELS]  # type: ignore[valid-type]
BiddingStyle = Literal[tuple(sorted({v.bidding.name for v in VARIANTS.values()}))]  # type: ignore[valid-type]
#: The UI's languages (its translations in static/i18n).
Language = Literal["en", "ja", "zh-Hans", "zh-Hant"]

#: Deal codes as the server makes them (``classic-<hex>``) and as seeded
#: matches make them (``classic-seed.3``).
DEAL_CODE_PATTERN = rf"^({'|'.join(VARIANTS)})-[A-Za-z0-9._:-]{{1,128}}$"
#: Printable ASCII, no spaces: UUIDs, counters, random strings.
REQUEST_ID_PATTERN = r"^[!-~]{1,128}$"



def _whole(value: Any) -> Any:
    """JSON has one number type: ``3.0`` is the integer 3 (JSON Schema agrees), ``3.5`` is not."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


# Integers: ``3.0`` is accepted, ``"3"``, ``true`` and ``3.5`` are not.  (The constraints come
# before the validator so that the schema shows them as ``minimum``/``maximum``.)
#: The largest integer a browser's JavaScript holds exactly.
MAX_SAFE_INTEGER = 2**53 - 1
#: No round comes near this many events; larger values are refused rather than stored.
MAX_EVENT_INDEX = 1_000_000
#: Finished rounds per answer of GET .../rounds, by default and at most.
ROUNDS_PAGE = 50
ROUNDS_PAGE_MAX = 200
CardId = Annotated[StrictInt, Field(ge=0, le=53), BeforeValidator(_whole)]
VersionNumber = Annotated[StrictInt, Field(ge=0, le=MAX_SAFE_INTEGER,
                                           description="The game's version the client acted on."),
                          BeforeValidator(_whole)]
EventIndex = Annotated[StrictInt, Field(ge=0, le=MAX_EVENT_INDEX,
                                        description="Return the round's events from this index."),
                       BeforeValidator(_whole)]
RequestId = Annotated[StrictStr, Field(
    pattern=REQUEST_ID_PATTERN, description="Made by the client, unique per write; a repeat is applied once.")]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


# ---- requests


class CreateGame(_Strict):
    variant: Variant = "classic"
    level: Level = "normal"
    language: Language = "en"
    deal_code: Optional[StrictStr] = Field(
        default=None, pattern=DEAL_CODE_PATTERN,
        description="Replay a deal whose code was revealed at the end of a round.")


class Step(_Strict):
    """A write without an action of its own: auto-play, another round, new game, new match."""

    version: VersionNumber
    request_id: RequestId
    since: Optional[EventIndex] = None


class Check(_Strict):
    """An action to judge without applying it."""

    action: StrictStr = Field(min_length=1, max_length=80,
                              description='"play 33344455", "pass", "bid 2", "call" or "rob".')
    cards: Optional[list[CardId]] = Field(
        default=None, max_length=20,
        description="Exactly which cards to play (ids 0-53); they must match the action's ranks.")


class Act(Check, Step):
    """An action to apply: the checked action's fields plus the write's version and request id."""


class Verdict(BaseModel):
    legal: bool = Field(description="Whether the action would be accepted now.")
    error: Optional["ErrorDetail"] = Field(
        default=None, description="Why not: the same code, message and params `/act` would answer.")


class HintRequest(_Strict):
    """Optionally, the position the hint is for."""

    version: Optional[VersionNumber] = Field(
        default=None, description="The version of the view the player sees: if the game has moved on since, "
                                  "`409 stale` instead of advice for a position the page does not show.")


class Settings(_Strict):
    language: Language


def decimal_digits(value: Any) -> Any:
    """Numbers in an address (its query or its path) are plain decimal digits: ``+1``, ``1_0``,
    `` 1`` and ``1.0`` are refused (Python's ``int()`` would take the first three)."""
    if isinstance(value, str):
        if not value.isascii() or not value.isdigit() or len(value) > 16:
            raise ValueError("must be written in decimal digits only")
        return int(value)
    return value


#: A whole number in a query string.
QueryInt = Annotated[int, BeforeValidator(decimal_digits)]


class ViewQuery(BaseModel):
    """The view's query string (unknown parameters are refused, like unknown fields)."""

    model_config = ConfigDict(extra="forbid")

    since: QueryInt = Field(default=0, ge=0, le=MAX_EVENT_INDEX,
                            description="Return the round's events from this index.")


class RoundsQuery(BaseModel):
    """The finished rounds' query string: one page of them."""

    model_config = ConfigDict(extra="forbid")

    offset: QueryInt = Field(default=0, ge=0, le=MAX_EVENT_INDEX,
                             description="Start after this many rounds (oldest first; see `index`).")
    limit: QueryInt = Field(default=ROUNDS_PAGE, ge=1, le=ROUNDS_PAGE_MAX,
                            description="Return at most this many rounds (fewer if the page would pass 64 KiB).")


# ---- responses


class Seat(BaseModel):
    seat: int
    kind: Literal["human", "computer"]
    level: Optional[Level] = None


class VariantRules(BaseModel):
    """What sets the variant apart (``dizhu.Variant.describe()``), so a client need not know it by name."""

    name: Variant
    players: int
    lowest_rank: str
    bidding: BiddingStyle
    handicap: bool = Field(description="A farmer wins at the handicap (= robs) cards or fewer.")
    deck_counts: list[int] = Field(description="Cards of each rank in the deck, weakest rank first.")
    hand_size: int
    bottom_size: int
    undealt: int
    match_target: Optional[int]


class View(BaseModel):
    game_id: str
    version: int
    variant: Variant
    rules: VariantRules
    level: Level
    language: Language
    human_seat: int
    seats: list[Seat]
    round_number: int
    match_round: int = Field(description="Which round of the current match (abandoned deals and earlier matches do not count).")
    totals: list[int]
    target: Optional[int]
    match_over: bool
    winners: list[int]
    observation: Observation = Field(description="`Round.observation(0)`: what the human may know "
                                     "(dizhu.game.observation).")
    events: list[dict[str, Any]] = Field(description="The round's events from index `since`.")
    event_count: int
    known_deal: bool = Field(description="The round was dealt from a `deal_code` the client chose, so the "
                             "client can know every hand: never counted as a record of play.")


class Created(BaseModel):
    game_id: str
    token: str = Field(description="Secret: send it as `Authorization: Bearer <token>`.")
    view: View


class HintReason(BaseModel):
    key: str
    params: dict[str, Any]


class HintFigures(BaseModel):
    rate: int = Field(description="Percent of the simulated games won after this action.")
    games: int = Field(description="How many simulated games it was played out in.")


class HintChoice(BaseModel):
    action: str
    cards: list[int]
    reason: HintReason
    figures: HintFigures | None = Field(default=None, description="The search's own figures, when it weighed the action.")


class Hint(HintChoice):
    alternatives: list[HintChoice] = Field(description="Ranked suggestions, best first; the first is the hint itself.")


class ReviewFigure(BaseModel):
    action: str
    points: float = Field(description="Expected points for the human, as the settlement counts them.")
    win_chance: float
    kind: Optional[str] = Field(None, description="The play's kind (`pair`, `trio_single`, ...), "
                                "when the action is a play; absent otherwise.")


class ReviewDecision(BaseModel):
    index: int
    event: int = Field(description="Index in the round's `events` of the move made.")
    phase: Literal["bidding", "playing"]
    situation: Literal["bid", "lead", "reply"]
    made: ReviewFigure
    best: ReviewFigure
    face_up_made: ReviewFigure = Field(description="The move made, played out with every card face up.")
    face_up_best: ReviewFigure = Field(description="The best of the same moves with every card face up.")
    loss: float
    grade: Literal["good", "inaccuracy", "mistake", "blunder"]
    better: Optional[str]
    reason: HintReason
    worlds: int
    candidates: int


class RoundReview(BaseModel):
    variant: str
    seat: int
    landlord: int
    points: int
    budget: float
    seed: str
    thresholds: dict[str, float]
    counts: dict[str, int]
    total_loss: float
    decisions: list[ReviewDecision]


class ReviewProgress(BaseModel):
    done: int
    total: int


class ReviewAnswer(BaseModel):
    status: Literal["running", "done"]
    number: int
    progress: ReviewProgress
    review: Optional[RoundReview] = Field(description="Null while running.")


class FinishedRound(BaseModel):
    match: int = Field(description="Which match of this game (1 first; new-match adds one).")
    index: int = Field(description="Its place among the game's finished rounds (1 first, never reused); "
                       "`offset` counts these.")
    number: int
    deal_code: Optional[str]
    deal_hash: Optional[str]
    result: Result
    totals: list[int]
    events: list[dict[str, Any]]
    known_deal: bool = Field(default=False, description="Dealt from a code the client chose (present only then).")


class Rounds(BaseModel):
    rounds: list[FinishedRound]
    total: int = Field(description="How many rounds of this game have finished (the oldest may no longer be kept).")
    next_offset: Optional[int] = Field(description="`offset` of the next page; null on the last one.")


class ErrorDetail(BaseModel):
    code: str
    message: str
    params: dict[str, Any]


class ErrorBody(BaseModel):
    error: ErrorDetail


class Health(BaseModel):
    status: Literal["ok"]


Verdict.model_rebuild()
