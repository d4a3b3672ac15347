"""``GET /api/health``: the server is up."""

from __future__ import annotations

from fastapi import APIRouter

from ..schemas import Health

__all__ = ["router"]

router = APIRouter(tags=["server"])


@router.get("/api/health", response_model=Health)
async def health() -> dict[str, str]:
    """The server is up."""
    return {"status": "ok"}
