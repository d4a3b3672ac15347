"""``python -m dizhu``: the ``dizhu`` command."""

import sys

from .cli import main

if __name__ == "__main__":  # not when a tool imports every module (the API reference)
    sys.exit(main())
