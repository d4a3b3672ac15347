"""The UI's comments left out of what is served: they are written for the people who read
the files, and a phone on a slow line pays for every byte of the first screen.

Both functions keep every line where it was (a comment over several lines leaves its line
breaks), so a line number in the browser's console is the source's. Neither minifies: the
code is served as written, less its comments and the blanks before them.

JavaScript is scanned, not matched with one pattern: a ``//`` may sit inside a string, a
template literal (and the code inside its ``${…}``), or a regular expression, and those are
kept whole. A ``/`` starts a regular expression where a value is expected (after an operator,
an opening bracket, a comma, a keyword such as ``return``) and is a division after a value
(a name, a number, a closing bracket, ``++`` or ``--``). After ``)`` or ``}`` the language itself
needs the parse to tell (``if (x) /re/.test(s)`` starts a regular expression): the scanner takes a
division there, so such a statement should start otherwise (it does nowhere in the UI's scripts; a
wrong guess leaves a string unterminated, a syntax error every browser test reports).
"""

from __future__ import annotations

import re

__all__ = ["css_without_comments", "js_without_comments"]

# In a style sheet: a string (kept whole, whatever it holds) or a comment (dropped).
_CSS_STRING_OR_COMMENT = re.compile(rb'"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'|/\*.*?\*/', re.DOTALL)

_JS_TOKEN = re.compile(r"""
    (?P<line>//[^\n\r\u2028\u2029]*)
  | (?P<block>/\*.*?\*/)
  | (?P<string>"(?:\\.|[^"\\\n\r])*"|'(?:\\.|[^'\\\n\r])*')
  | (?P<slash>/)
  | (?P<open>\{)
  | (?P<close>\})
  | (?P<step>\+\+|--)
  | (?P<word>(?:[^\W\d]|\$)[\w$]*)
  | (?P<number>\d[\w$]*(?:\.[\w$]*)?|\.\d[\w$]*)
  | (?P<blank>\s+)
  | (?P<other>.)
""", re.DOTALL | re.VERBOSE)
_NOT_A_LINE_BREAK = re.compile(r"[^\n\r\u2028\u2029]")
# A template literal's text, up to its end or its next ${.
_TEMPLATE_TEXT = re.compile(r"(?:\\.|[^`\\$]|\$(?!\{))*", re.DOTALL)
_REGEX = re.compile(r"/(?:\\.|\[(?:\\.|[^\]\\\n])*\]|[^/\\\n\[])+/[a-z]*")
# Words after which a value comes (so a / there starts a regular expression).
_BEFORE_VALUE = frozenset("return typeof instanceof in of new delete void throw case do else yield await default".split())
_AFTER_VALUE = frozenset(")]}")


def css_without_comments(css: bytes) -> bytes:
    """A style sheet without its comments; a string that looks like one is left alone.

    >>> css_without_comments(b'/* why */ a { content: "/* not one */"; } /* a\\nb */ b {}')
    b' a { content: "/* not one */"; } \\n b {}'
    """
    return _CSS_STRING_OR_COMMENT.sub(lambda m: m.group(0) if m.group(0)[:1] in b"\"'" else _breaks(m.group(0)), css)


def _breaks(comment: bytes) -> bytes:
    return b"\n" * comment.count(b"\n")


def js_without_comments(source: str) -> str:
    r"""A script without its comments (and the blanks before them on their line).

    >>> js_without_comments("const a = 1; // one\n/** two\n * lines */\nexport { a };")
    'const a = 1;\n\n\nexport { a };'
    >>> js_without_comments("s = '// kept'; re = /\\/\\/[/*]/g; x = a / b / c; // gone")
    "s = '// kept'; re = /\\/\\/[/*]/g; x = a / b / c;"
    >>> js_without_comments("t = `a ${ {b: 1}.b /* gone */ } // kept ${`${c}`}`;")
    't = `a ${ {b: 1}.b  } // kept ${`${c}`}`;'
    >>> js_without_comments("if (x) return /y/.test(s); z = (a)/2; w = a++ / 2; v = o.in / 2; s = '//';")
    "if (x) return /y/.test(s); z = (a)/2; w = a++ / 2; v = o.in / 2; s = '//';"
    """
    out: list[str] = []
    # One entry per open brace: True for a template literal's ${ (its } goes back to the text).
    braces: list[bool] = []
    value_before = False  # whether the last token was a value (a / after it divides)
    last = ""  # the last token but blanks and comments
    i, n = 0, len(source)
    while i < n:
        if source[i] == "`" or (source[i] == "}" and braces and braces[-1]):
            # A template literal's text, from its start or from the } of a ${…}.
            if source[i] == "}":
                braces.pop()
            end = _TEMPLATE_TEXT.match(source, i + 1).end()
            if source.startswith("${", end):
                braces.append(True)
                out.append(source[i:end + 2])
                i, value_before, last = end + 2, False, "${"
                continue
            out.append(source[i:end + 1])  # up to its closing backtick
            i, value_before, last = end + 1, True, "`"
            continue
        match = _JS_TOKEN.match(source, i)
        kind, text = match.lastgroup, match.group(0)
        if kind in ("line", "block"):
            while out and out[-1][-1:] in (" ", "\t"):
                out[-1] = out[-1].rstrip(" \t")
                if not out[-1]:
                    out.pop()
            # its line breaks kept (they count where a semicolon goes without one), else a space
            out.append(_NOT_A_LINE_BREAK.sub("", text) or (" " if kind == "block" else ""))
            i = match.end()
            continue
        if kind == "slash" and not value_before and (regex := _REGEX.match(source, i)):
            out.append(regex.group(0))
            i, value_before, last = regex.end(), True, "/"
            continue
        out.append(text)
        if kind == "open":
            braces.append(False)
        elif kind == "close" and braces:
            braces.pop()
        if kind == "word":  # a keyword, unless it names a property (o.in)
            value_before = text not in _BEFORE_VALUE or last == "."
        elif kind != "blank":
            value_before = kind in ("string", "number", "step") or text in _AFTER_VALUE
        if kind != "blank":
            last = text
        i = match.end()
    return "".join(out)
