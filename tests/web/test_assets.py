"""The UI's files: versioned by content, immutable under the version, compressed (dizhu.web.assets)."""

from __future__ import annotations

import gzip
import re

import brotli
import pytest
from fastapi.testclient import TestClient

from dizhu.web import Settings, create_app
from dizhu.web.assets import IMMUTABLE

PAGE = ('<!doctype html><html><head><link rel="stylesheet" href="css/a.css">'
        '<script type="module" src="js/main.js"></script></head>'
        '<body><a href="#top">x</a><a href="https://example.org/">y</a></body></html>')
SCRIPT = "import { x } from './more.js';\n" + "export const y = x + 1; // a comment long enough\n" * 20
SERVED = "import { x } from './more.js';\n" + "export const y = x + 1;\n" * 20  # its comments left out


@pytest.fixture
def site(tmp_path):
    static = tmp_path / "static"
    (static / "js").mkdir(parents=True)
    (static / "css").mkdir()
    (static / "i18n").mkdir()
    (static / "index.html").write_text(PAGE)
    (static / "js" / "main.js").write_text(SCRIPT)
    (static / "js" / "more.js").write_text("export const x = 1;")
    (static / "css" / "a.css").write_text("body { color: red; }\n" * 40)
    (static / "i18n" / "en.json").write_text('{"app.title": "Dou Dizhu"}')
    settings = Settings(data_dir=tmp_path / "data", workers=0, static_dir=static)
    with TestClient(create_app(settings)) as client:
        yield client, static


def version_of(page: str) -> str:
    return re.search(r'src="/v/([0-9a-f]+)/js/main.js"', page).group(1)


def test_the_page_names_versioned_files_and_asks_for_its_imports_at_once(site):
    client, static = site
    page = client.get("/")
    assert page.headers["cache-control"] == "no-cache"
    version = version_of(page.text)
    assert f'href="/v/{version}/css/a.css"' in page.text
    # What the page's script imports is asked for up front, with the script itself.
    assert f'<link rel="modulepreload" href="/v/{version}/js/more.js">' in page.text
    assert page.text.count("modulepreload") == 1
    # Fragments and other sites are left alone.
    assert 'href="#top"' in page.text and 'href="https://example.org/"' in page.text


def test_versioned_files_are_immutable_and_a_changed_file_changes_the_version(site):
    client, static = site
    version = version_of(client.get("/").text)
    script = client.get(f"/v/{version}/js/more.js")
    assert script.status_code == 200 and script.text == "export const x = 1;"
    assert script.headers["cache-control"] == IMMUTABLE
    assert script.headers["content-type"].startswith("text/javascript")
    # A new module imported by another is preloaded by itself, under a new version; one loaded
    # only on demand (import()) is not, yet served all the same; the old address revalidates.
    (static / "js" / "review.js").write_text("export const z = 2;")
    (static / "js" / "puzzles.js").write_text("export const p = 3;")
    (static / "js" / "more.js").write_text("export { z } from './review.js';\nexport const x = 1;\n"
                                           "export const later = () => import('./puzzles.js');")
    page = client.get("/").text
    new = version_of(page)
    assert new != version and f'href="/v/{new}/js/review.js"' in page and "puzzles.js" not in page
    assert client.get(f"/v/{new}/js/review.js").headers["cache-control"] == IMMUTABLE
    assert client.get(f"/v/{new}/js/puzzles.js").headers["cache-control"] == IMMUTABLE
    old = client.get(f"/v/{version}/js/more.js")
    assert old.status_code == 200 and old.headers["cache-control"] == "no-cache"


def test_the_smallest_accepted_encoding_is_sent(site):
    client, _ = site
    version = version_of(client.get("/").text)
    path = f"/v/{version}/js/main.js"
    br = client.get(path, headers={"Accept-Encoding": "gzip, br"})
    assert br.headers["content-encoding"] == "br" and br.headers["vary"] == "Accept-Encoding"
    raw = client.stream("GET", path, headers={"Accept-Encoding": "gzip"})
    with raw as answer:
        assert answer.headers["content-encoding"] == "gzip"
        body = b"".join(answer.iter_raw())
    assert gzip.decompress(body).decode() == SERVED
    with client.stream("GET", path, headers={"Accept-Encoding": "br"}) as answer:
        assert brotli.decompress(b"".join(answer.iter_raw())).decode() == SERVED
    plain = client.get(path, headers={"Accept-Encoding": "identity, br;q=0"})
    assert "content-encoding" not in plain.headers and plain.text == SERVED
    # Small files are not worth it.
    assert "content-encoding" not in client.get(f"/v/{version}/js/more.js", headers={"Accept-Encoding": "br"}).headers


def test_revalidation_head_and_missing_files(site):
    client, _ = site
    version = version_of(client.get("/").text)
    path = f"/v/{version}/css/a.css"
    first = client.get(path)
    again = client.get(path, headers={"If-None-Match": first.headers["etag"]})
    assert again.status_code == 304 and again.content == b""
    head = client.head(path, headers={"Accept-Encoding": "gzip"})
    assert head.status_code == 200 and head.content == b"" and int(head.headers["content-length"]) > 0
    assert client.get(f"/v/{version}/js/absent.js").status_code == 404
    assert client.get("/v/x/%2e%2e/%2e%2e/etc/passwd").status_code == 404


def test_scripts_go_without_the_headers_only_a_page_heeds(site):
    client, _ = site
    page = client.get("/")
    assert "default-src 'self'" in page.headers["content-security-policy"]
    assert page.headers["x-frame-options"] == "DENY"
    script = client.get(f"/v/{version_of(page.text)}/js/main.js")
    assert "content-security-policy" not in script.headers and "x-frame-options" not in script.headers
    assert script.headers["x-content-type-options"] == "nosniff"  # scripts need this one
    assert script.headers["cross-origin-resource-policy"] == "same-origin"
    api = client.get("/api/health")
    assert "content-security-policy" in api.headers


def test_the_page_s_style_sheets_come_as_one_and_the_first_script_s_imports_first(site):
    client, static = site
    (static / "css" / "b.css").write_text("/* why blue */\n.b { color: blue; }\n.b::after { content: '/* kept */'; }\n")
    (static / "js" / "first.js").write_text("import { z } from './zed.js';\n")
    (static / "js" / "zed.js").write_text("export const z = 0;")
    (static / "index.html").write_text(
        '<!doctype html><html><head>\n<link rel="stylesheet" href="css/a.css">\n'
        '<link rel="stylesheet" href="css/b.css">\n<script type="module" src="js/first.js" async></script>\n'
        '<script type="module" src="js/main.js"></script>\n</head><body></body></html>')
    page = client.get("/").text
    version = version_of(page)
    # One request for both sheets, in the page's order, immutable like the rest.
    assert page.count('rel="stylesheet"') == 1 and f'href="/v/{version}/css/bundle.css"' in page
    bundle = client.get(f"/v/{version}/css/bundle.css")
    assert bundle.headers["cache-control"] == IMMUTABLE and bundle.headers["content-type"].startswith("text/css")
    assert bundle.text.index("color: red") < bundle.text.index("color: blue")
    # Without the sheets' comments (a string that looks like one stays), each sheet's name kept.
    assert "why blue" not in bundle.text and "'/* kept */'" in bundle.text and "/* css/b.css */" in bundle.text
    # The sheets themselves are still there (an old page, a direct link), without their comments too.
    alone = client.get(f"/v/{version}/css/b.css")
    assert alone.status_code == 200 and "why blue" not in alone.text and "'/* kept */'" in alone.text
    # The first script's import is asked for before the second script's.
    hints = re.findall(r'rel="modulepreload" href="/v/[0-9a-f]+/([^"]+)"', page)
    assert hints == ["js/zed.js", "js/more.js"], hints
    # Edited: the bundle follows.
    (static / "css" / "b.css").write_text(".b { color: green; }\n")
    version = version_of(client.get("/").text)
    assert "color: green" in client.get(f"/v/{version}/css/bundle.css").text


def test_modules_for_later_come_after_the_first_screen_s_at_low_priority_with_their_imports(site):
    client, static = site
    (static / "js" / "later.js").write_text("import { x } from './more.js';\nimport { d } from './deep.js';\n")
    (static / "js" / "deep.js").write_text("export const d = 4;")
    (static / "index.html").write_text(
        '<!doctype html><html><head>\n<link rel="modulepreload" href="js/later.js" fetchpriority="low">\n'
        '<script type="module" src="js/main.js"></script>\n</head><body></body></html>')
    page = client.get("/").text
    hints = re.findall(r'rel="modulepreload" href="/v/[0-9a-f]+/([^"]+)"( fetchpriority="low")?', page)
    # main.js's import first and at the usual priority; then the later module and what it alone
    # imports, low; more.js, already asked for, not twice.
    assert hints == [("js/more.js", ""), ("js/later.js", ' fetchpriority="low"'), ("js/deep.js", ' fetchpriority="low"')]
    assert page.index("js/main.js") < page.index("js/later.js")


def test_scripts_are_served_without_their_comments_line_for_line(site):
    client, static = site
    source = ("/**\n * What it is for.\n */\nexport const url = 'http://example.org/'; // an address, not a comment\n"
              "export const re = /\\/\\//g;  /* two slashes */ export const half = (1) / 2;\n"
              "export const text = `// kept ${'/* kept */'}`;\n")
    (static / "js" / "more.js").write_text(source)
    served = client.get(f"/v/{version_of(client.get('/').text)}/js/more.js").text
    assert "What it is for" not in served and "an address" not in served and "two slashes" not in served
    assert served.count("\n") == source.count("\n")  # a line in the console is the source's line
    assert "'http://example.org/';\n" in served and "/\\/\\//g;" in served and "(1) / 2;" in served
    assert "`// kept ${'/* kept */'}`" in served
    # The version is that of what is served: a comment edited alone keeps it (the cached copies
    # are still right), a change to the code moves it.
    version = version_of(client.get("/").text)
    (static / "js" / "more.js").write_text(source.replace("What it is for", "What it is for, said at more length"))
    assert version_of(client.get("/").text) == version
    (static / "js" / "more.js").write_text(source.replace("(1) / 2", "(1) / 3"))
    assert version_of(client.get("/").text) != version
