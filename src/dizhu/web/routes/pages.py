"""The UI's files: anything that is no API address (assets.py serves them)."""

from __future__ import annotations

from fastapi import APIRouter, Request
from starlette.exceptions import HTTPException
from starlette.responses import Response

from ..deps import UIFiles
from ..errors import UI_ROUTE, allowed_methods

__all__ = ["router"]

router = APIRouter()


# Included last: it takes every path.  A route, not a mount, so that a wrong method on an API
# address is a 405 of that address.
@router.api_route("/{path:path}", methods=["GET", "HEAD"], include_in_schema=False, name=UI_ROUTE)
async def ui(request: Request, path: str, ui_files: UIFiles) -> Response:
    if path.startswith("api/"):  # an API address, not a file: 405 if it exists, else 404
        raise HTTPException(status_code=405 if allowed_methods(request) else 404)
    try:
        return ui_files.response(path, request.headers.get("accept-encoding", ""),
                                 request.headers.get("if-none-match"), head=request.method == "HEAD")
    except OSError:  # a name the file system refuses is no file of ours
        raise HTTPException(status_code=404) from None
