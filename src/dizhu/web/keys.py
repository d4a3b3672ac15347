"""Who may open a game: its id, its bearer token and the hash of it that is stored.

A game id is 128 random bits and its token 256 (both from ``secrets``); only
the token's SHA-256 is stored, and it is compared in constant time.
"""

from __future__ import annotations

import hashlib
import hmac
import re
from dataclasses import dataclass

from .errors import ApiError
from .store import GameRecord

__all__ = ["GAME_ID_PATTERN", "GameKey", "authorized", "check_key", "hash_token", "unknown_game"]

#: Game ids are ``secrets.token_urlsafe(16)``: 22 URL-safe characters, 128 bits.
GAME_ID_PATTERN = re.compile(r"[A-Za-z0-9_-]{22}")


def hash_token(token: str) -> str:
    """What is stored instead of the token.  Tokens carry 256 random bits, so
    a plain SHA-256 cannot be searched backwards."""
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass(frozen=True)
class GameKey:
    """The game a request names and the bearer token it shows (None: no token sent).

    The routes build it once (an ``Annotated`` dependency, deps.py); the
    service checks it: 401 without a token, 404 for an unknown or malformed
    id, 403 for a token that does not open the game.
    """

    game_id: str
    token: str | None


def check_key(game: GameKey) -> str:
    """What is checked before the storage is read: 401 without a token, 404 for a malformed id.
    Returns the token.  (The app checks it before it reads the body too.)"""
    token = game.token
    if not token:
        raise ApiError(401, "missing_token", "send the game's token as 'Authorization: Bearer <token>'",
                       headers={"WWW-Authenticate": "Bearer"})
    if not GAME_ID_PATTERN.fullmatch(game.game_id):
        raise unknown_game()
    return token


def authorized(record: GameRecord | None, token: str) -> GameRecord:
    """The stored game if ``token`` opens it: 404 when there is none, 403 for another token."""
    if record is None:
        raise unknown_game()
    if not hmac.compare_digest(hash_token(token), record.token_hash):
        raise ApiError(403, "wrong_token", "this token does not open this game")
    return record


def unknown_game() -> ApiError:
    return ApiError(404, "unknown_game", "there is no such game (it may have been deleted after a long pause)")
