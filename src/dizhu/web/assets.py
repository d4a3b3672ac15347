"""The UI's files: compressed once, versioned by their contents, cached for good.

``index.html`` is the only address that changes: it is served ``no-cache`` and
names every other file under ``/v/<version>/``, where ``<version>`` is a hash of
the whole static tree. Files under that prefix never change, so browsers keep
them a year without asking again (``immutable``). The scripts import each other
by relative paths, so they load from the same prefix without being rewritten,
and a new module needs no list kept by hand. The page also asks for every
script it imports, directly or not, at once (``modulepreload``: the static
``import … from './x.js'`` lines, followed from the page's module scripts)
instead of one import wave after another; a module loaded with ``import()``
when it is needed stays out of the first load. A module the page itself preloads
at low priority (``<link rel="modulepreload" href="…" fetchpriority="low">``: code
the first screen does not need but the next one will) has its imports preloaded
the same way, after the first screen's.

The page's style sheets are served as one (``<folder>/bundle.css``, made of them in
the page's order, under the same versioned prefix): on HTTP/1.1 a browser opens at
most six connections to a host, and each request past them waits a round trip.

The comments of the scripts and style sheets, written for the people who read them, are left
out of what is served (``comments.py``); the version is the hash of the files as served.

Each file is compressed once (Brotli when the package is installed, gzip always)
and the smallest encoding the browser accepts is sent. A file changed on disk is
picked up on the next load of the page (the tree is stat'ed then).
"""

from __future__ import annotations

import gzip
import hashlib
import mimetypes
import os
import re
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

from starlette.exceptions import HTTPException
from starlette.responses import Response

from .comments import css_without_comments, js_without_comments
from .conditional import matches

try:  # Brotli is a little smaller than gzip; without the package, gzip alone
    import brotli
except ImportError:  # pragma: no cover - the web extra installs it
    brotli = None

__all__ = ["UIAssets", "VERSION_PREFIX", "IMMUTABLE", "REVALIDATE"]

VERSION_PREFIX = "v"
IMMUTABLE = "public, max-age=31536000, immutable"
REVALIDATE = "no-cache"
# Too small to gain from compression (the header costs about as much).
_MIN_COMPRESS = 256
_COMPRESSIBLE = ("text/", "application/json", "image/svg+xml", "application/manifest+json")
# A reference in index.html to a file of ours: relative, not a fragment, scheme or absolute path.
_REFERENCE = re.compile(r'\b(href|src)="(?![a-z]+:|/|#)([^"]+)"')
_MODULE_SCRIPT = re.compile(r'<script type="module" src="([^"]+)"')
_LATER_MODULE = re.compile(r'[ \t]*<link rel="modulepreload" href="(?![a-z]+:|/|#)([^"]+)" fetchpriority="low">[ \t]*\n?')
# A style sheet of ours, one per line (the page's own markup): these are served as one file.
_STYLESHEET = re.compile(r'^[ \t]*<link rel="stylesheet" href="(?![a-z]+:|/|#)([^"]+\.css)">[ \t]*\n?', re.MULTILINE)
BUNDLE = "bundle.css"
# A static import or re-export of a relative module (not a dynamic import()).
_STATIC_IMPORT = re.compile(r'^\s*(?:import|export)\b[^;()]*?\bfrom\s*[\'"](\.{1,2}/[^\'"]+)[\'"]'
                            r'|^\s*import\s*[\'"](\.{1,2}/[^\'"]+)[\'"]', re.MULTILINE)


def static_imports(entries: list[str], sources: dict[str, bytes]) -> list[str]:
    """Every module the ``entries`` import statically, directly or not (themselves included),
    nearest first: the entries in order, then what they import, and so on (the order the page
    asks for them in, so that the first entry's imports come first).

    >>> files = {"js/main.js": b"import { a } from './a.js';\\nconst c = () => import('./c.js');",
    ...          "js/a.js": b"export { b } from './b.js';", "js/b.js": b"", "js/c.js": b""}
    >>> static_imports(["js/main.js"], files)
    ['js/main.js', 'js/a.js', 'js/b.js']
    """
    seen: dict[str, None] = {}  # in the order found
    todo = list(entries)
    while todo:
        name = todo.pop(0)
        if name in seen or name not in sources:
            continue
        seen[name] = None
        folder = PurePosixPath(name).parent
        for match in _STATIC_IMPORT.finditer(sources[name].decode("utf-8", "replace")):
            target = os.path.normpath(str(folder / (match.group(1) or match.group(2))))
            todo.append(PurePosixPath(target).as_posix())
    return list(seen)


def bundle_styles(html: str, sources: dict[str, bytes]) -> tuple[str, str | None, bytes]:
    """The page with its style sheets (two or more, of one folder) replaced by their bundle:
    (page, the bundle's name or None, its contents in the page's order). ``sources`` are the
    sheets as served (already without their comments).

    >>> page = '<head>\\n<link rel="stylesheet" href="css/a.css">\\n<link rel="stylesheet" href="css/b.css">\\n</head>'
    >>> html, name, data = bundle_styles(page, {"css/a.css": b"a{}", "css/b.css": b"b{}"})
    >>> name, html.count("stylesheet"), data.count(b"{}")
    ('css/bundle.css', 1, 2)
    """
    sheets = _STYLESHEET.findall(html)
    folders = {PurePosixPath(sheet).parent for sheet in sheets}
    # One folder, so that a url() in any of them still means the same file from the bundle.
    if len(sheets) < 2 or len(folders) != 1 or not all(sheet in sources for sheet in sheets):
        return html, None, b""
    name = (folders.pop() / BUNDLE).as_posix()
    if name in sources:  # a file of that name would be hidden
        return html, None, b""
    data = b"\n".join(b"/* " + sheet.encode() + b" */\n" + sources[sheet] for sheet in sheets)
    first = True

    def one_link(match: re.Match) -> str:
        nonlocal first
        if not first:
            return ""
        first = False
        return match.group(0).replace(match.group(1), name)

    return _STYLESHEET.sub(one_link, html), name, data


@dataclass(frozen=True)
class _File:
    media_type: str
    etag: str
    encodings: dict[str, bytes] = field(default_factory=dict)  # "identity", "br", "gzip"


def _served(name: str, data: bytes) -> bytes:
    """A file as it is served: a script or a style sheet without its comments."""
    if name.endswith(".js"):
        return js_without_comments(data.decode("utf-8")).encode("utf-8")
    if name.endswith(".css"):
        return css_without_comments(data)
    return data


def _compressed(data: bytes, media_type: str) -> dict[str, bytes]:
    encodings = {"identity": data}
    if len(data) >= _MIN_COMPRESS and media_type.startswith(_COMPRESSIBLE):
        encodings["gzip"] = gzip.compress(data, compresslevel=9, mtime=0)
        if brotli is not None:
            encodings["br"] = brotli.compress(data, quality=11)
    return encodings


def _accepted(header: str) -> set[str]:
    """The content codings an Accept-Encoding header allows (q=0 refuses one)."""
    accepted = set()
    for item in header.split(","):
        name, _, params = item.strip().partition(";")
        q = params.strip()
        if q.startswith("q="):
            try:
                if float(q[2:]) == 0:
                    continue
            except ValueError:
                continue
        accepted.add(name.strip().lower())
    return accepted


class UIAssets:
    """Serves ``directory``: see the module's docstring.

    >>> import tempfile, pathlib
    >>> d = pathlib.Path(tempfile.mkdtemp())
    >>> _ = (d / "index.html").write_text('<link href="a.css"><script src="js/m.js"></script>')
    >>> (d / "js").mkdir(); _ = (d / "js" / "m.js").write_text("export {};"); _ = (d / "a.css").write_text("")
    >>> ui = UIAssets(d)
    >>> page = ui.page().decode()
    >>> f'href="/v/{ui.version}/a.css"' in page, f'src="/v/{ui.version}/js/m.js"' in page
    (True, True)
    """

    def __init__(self, directory: Path) -> None:
        self.directory = Path(directory)
        self._signature: tuple = ()
        self._files: dict[str, _File] = {}
        self.version = ""

    # ---- the tree

    def _scan(self) -> tuple:
        """A cheap fingerprint of the tree (names, sizes, modification times)."""
        entries = []
        for root, dirs, files in os.walk(self.directory):
            dirs.sort()
            for name in sorted(files):
                st = os.stat(os.path.join(root, name))
                entries.append((os.path.relpath(os.path.join(root, name), self.directory), st.st_size, st.st_mtime_ns))
        return tuple(entries)

    def _refresh(self) -> None:
        if not self.directory.is_dir():
            raise HTTPException(status_code=404)
        signature = self._scan()
        if signature == self._signature and self._files:
            return
        contents: dict[str, bytes] = {}
        for rel, _, _ in signature:
            name = PurePosixPath(Path(rel).as_posix()).as_posix()
            contents[name] = _served(name, (self.directory / rel).read_bytes())
        # The version is that of what is served: a comment edited alone leaves the cached files good.
        tree = hashlib.sha256()
        for name in sorted(contents):
            tree.update(name.encode() + b"\0" + hashlib.sha256(contents[name]).digest())
        version = tree.hexdigest()[:16]
        files = {}
        page, bundle, styles = bundle_styles(contents["index.html"].decode("utf-8"), contents) \
            if "index.html" in contents else ("", None, b"")
        if bundle:
            contents = {**contents, "index.html": page.encode("utf-8"), bundle: styles}
        for name, data in contents.items():
            media_type = mimetypes.guess_type(name)[0] or "application/octet-stream"
            if name == "index.html":
                data = self._rewrite(data.decode("utf-8"), version, contents).encode("utf-8")
            if media_type.startswith("text/") or media_type in ("application/json", "image/svg+xml"):
                media_type += "; charset=utf-8" if media_type.startswith("text/") else ""
            etag = '"' + hashlib.sha256(data).hexdigest()[:20] + '"'
            files[name] = _File(media_type, etag, _compressed(data, media_type))
        self._files, self.version, self._signature = files, version, signature

    @staticmethod
    def _rewrite(html: str, version: str, sources: dict[str, bytes]) -> str:
        """Point the page's references at the versioned prefix; ask for every module the
        page's scripts import up front (they would otherwise come one import wave at a time),
        and for those its low-priority module hints import, at low priority, after them."""
        prefix = f"/{VERSION_PREFIX}/{version}/"
        entries = _MODULE_SCRIPT.findall(html)
        later = _LATER_MODULE.findall(html)
        first = static_imports(entries, sources)
        html = _LATER_MODULE.sub("", html)  # asked for again below, after the first screen's modules
        html = _REFERENCE.sub(lambda m: f'{m.group(1)}="{prefix}{m.group(2)}"', html)
        hints = [f'<link rel="modulepreload" href="{prefix}{name}">' for name in first if name not in entries]
        hints += [f'<link rel="modulepreload" href="{prefix}{name}" fetchpriority="low">'
                  for name in static_imports(later, sources) if name not in first]
        return html.replace("</head>", "  " + "\n  ".join(hints) + "\n</head>", 1)

    def page(self) -> bytes:
        """The rewritten index.html (uncompressed)."""
        self._refresh()
        return self._files["index.html"].encodings["identity"]

    # ---- answers

    def response(self, path: str, accept_encoding: str = "", if_none_match: str | None = None,
                 head: bool = False) -> Response:
        """The answer for the UI address ``path`` (without the leading slash)."""
        path = path.strip("/")
        parts = path.split("/")
        cache = REVALIDATE
        if len(parts) >= 3 and parts[0] == VERSION_PREFIX:
            if not self._files:
                self._refresh()
            # An old version's address (a page loaded before an update) gets today's file, revalidated.
            cache = IMMUTABLE if parts[1] == self.version else REVALIDATE
            path = "/".join(parts[2:])
        elif path in ("", "index.html"):
            self._refresh()  # the page's load is when a changed tree is noticed
            path = "index.html"
        else:
            self._refresh()
        if path == "index.html":
            cache = REVALIDATE
        entry = self._files.get(path)
        if entry is None or ".." in parts:
            raise HTTPException(status_code=404)
        headers = {"Cache-Control": cache, "ETag": entry.etag, "Vary": "Accept-Encoding"}
        if matches(entry.etag, if_none_match):
            return Response(status_code=304, headers=headers)
        accepted = _accepted(accept_encoding)
        choices = [name for name in ("br", "gzip") if name in entry.encodings and name in accepted]
        encoding = min(choices, key=lambda name: len(entry.encodings[name])) if choices else "identity"
        body = entry.encodings[encoding]
        if encoding != "identity":
            headers["Content-Encoding"] = encoding
        if head:
            headers["Content-Length"] = str(len(body))
            return Response(b"", headers=headers, media_type=entry.media_type)
        return Response(body, headers=headers, media_type=entry.media_type)
