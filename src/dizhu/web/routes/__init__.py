"""The addresses of docs/API.md, a router by concern; app.py includes them in this order:

``health`` (the server is up), ``games`` (a game's own addresses: create, view, settings, play,
new rounds, finished rounds), ``puzzles`` (puzzle mode), ``reviews`` (post-round reviews) and
``pages`` (the UI's files, last: it takes every other path).
"""

__all__: list[str] = []  # nothing of its own: app.py takes each module's ``router``
