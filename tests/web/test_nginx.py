"""Debian's nginx in front of two `dizhu serve` hosts on one PostgreSQL database.

The test writes its own nginx configuration (the one of docs/DEPLOY.md, on
loopback ports, everything in a temporary directory): games are spread over
both hosts, each game's requests go to one host; a whole round is played
through nginx, then that game's host is killed and another round is played
through nginx, which now sends the game to the other host (the games are in
PostgreSQL; the request ids make passing a write on safe).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

from .pg_support import missing
from .support import Server, free_port

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="runs Debian's nginx")

NGINX = "/usr/sbin/nginx"

# The configuration of docs/DEPLOY.md, with this test's paths and ports.
CONFIG = """
worker_processes 1;
{user}
pid {base}/nginx.pid;
error_log {base}/error.log warn;
events {{ worker_connections 256; }}
http {{
    client_body_temp_path {base}/body;
    proxy_temp_path {base}/proxy;
    fastcgi_temp_path {base}/fastcgi;
    uwsgi_temp_path {base}/uwsgi;
    scgi_temp_path {base}/scgi;
    log_format upstream '$request_method $uri $status $upstream_addr';
    access_log {base}/access.log upstream;

    upstream dizhu {{
        hash $dizhu_game consistent;
        server 127.0.0.1:{first} max_fails=1 fail_timeout=10s;
        server 127.0.0.1:{second} max_fails=1 fail_timeout=10s;
        keepalive 32;
        keepalive_timeout 4s;
    }}
    map $uri $dizhu_game {{
        "~^/api/games/(?<game>[A-Za-z0-9_-]{{22}})"  $game;
        default                                    $remote_addr;
    }}
    server {{
        listen 127.0.0.1:{port};
        server_tokens off;
        client_max_body_size 16k;
        large_client_header_buffers 4 16k;
        error_page 413 =413 @body_too_large;
        error_page 494 =431 @headers_too_large;
        location @body_too_large {{
            default_type application/json;
            return 413 '{{"error": {{"code": "body_too_large", "message": "the request body is over 16384 bytes", "params": {{}}}}}}';
        }}
        location @headers_too_large {{
            default_type application/json;
            return 431 '{{"error": {{"code": "headers_too_large", "message": "the request headers are over 16384 bytes", "params": {{}}}}}}';
        }}
        location / {{
            proxy_pass http://dizhu;
            proxy_http_version 1.1;
            proxy_set_header Connection "";
            proxy_set_header Host $host;
            proxy_set_header X-Forwarded-For $remote_addr;
            proxy_set_header X-Forwarded-Proto $scheme;
            proxy_read_timeout 60s;
            proxy_next_upstream error timeout http_502 non_idempotent;
        }}
    }}
}}
"""


@pytest.fixture
def nginx_in_front(tmp_path, pg_url):
    if not Path(NGINX).exists():
        missing("Debian's nginx is not installed (scripts/setup.sh installs it)")  # fails in CI
    hosts = [Server(tmp_path / f"data{n}", tmp_path / f"host{n}.log", ["--database", pg_url]) for n in range(2)]
    base = tmp_path / "nginx"
    process = client = None
    try:  # the hosts stop even when nginx does not start (they outlived a failed start before)
        base.mkdir()
        port = free_port()
        config = base / "nginx.conf"
        config.write_text(CONFIG.format(base=base, port=port, first=hosts[0].port, second=hosts[1].port,
                                        user="user root;" if os.geteuid() == 0 else ""))
        process = subprocess.Popen([NGINX, "-p", str(base), "-e", str(base / "error.log"), "-c", str(config),
                                    "-g", "daemon off;"], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        client = httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=30)
        deadline = time.monotonic() + 15
        while True:
            assert process.poll() is None, process.stderr.read().decode() if process.stderr else ""
            try:
                if client.get("/api/health").status_code == 200:
                    break
            except httpx.TransportError:
                pass
            assert time.monotonic() < deadline, "nginx did not start"
            time.sleep(0.05)
        yield client, hosts, base / "access.log"
    finally:
        if client is not None:
            client.close()
        if process is not None and process.poll() is None:
            process.terminate()
            process.wait(10)
        for host in hosts:
            host.stop()
        shutil.rmtree(base, ignore_errors=True)


def play_round(client: httpx.Client, game: dict, view: dict, tag: str) -> dict:
    headers = {"Authorization": f"Bearer {game['token']}"}
    path = f"/api/games/{game['game_id']}/act"
    for n in range(200):
        obs = view["observation"]
        if obs["phase"] == "over":
            return view
        body = {"action": obs["legal_actions"][-1 if obs["phase"] == "bidding" else 0],
                "version": view["version"], "request_id": f"{tag}-{n}"}
        response = client.post(path, headers=headers, json=body)
        assert response.status_code == 200, response.text
        view = response.json()
        # a reload between moves, as the browser does after a wake-up
        reloaded = client.get(f"/api/games/{game['game_id']}", headers=headers)
        assert reloaded.status_code == 200 and reloaded.json()["version"] == view["version"]
    raise AssertionError("the round did not end")


def upstreams(access_log: Path, game_id: str, until=bool) -> set[str]:
    """The hosts nginx sent this game's requests to, once ``until`` holds of them (nginx writes
    a request's log line after its answer, so on a busy machine the line may come a little later)."""
    give_up = time.monotonic() + 5.0
    while True:
        hosts = {line.split()[-1] for line in access_log.read_text().splitlines() if f"/api/games/{game_id}" in line}
        if until(hosts) or time.monotonic() > give_up:
            return hosts
        time.sleep(0.05)


def test_rounds_through_nginx_each_game_on_one_host_and_on_when_that_host_dies(nginx_in_front):
    client, hosts, access_log = nginx_in_front
    addresses = {f"127.0.0.1:{h.port}": h for h in hosts}
    games: dict[str, dict] = {}  # host address -> a game nginx keeps there
    for _ in range(40):
        created = client.post("/api/games", json={"variant": "classic", "level": "normal"})
        assert created.status_code == 201, created.text
        game = created.json()
        assert client.get(f"/api/games/{game['game_id']}",
                          headers={"Authorization": f"Bearer {game['token']}"}).status_code == 200
        (where,) = upstreams(access_log, game["game_id"])
        games.setdefault(where, game)
        if len(games) == 2:
            break
    assert set(games) == set(addresses)  # the games are spread over both hosts

    where, game = next(iter(games.items()))
    headers = {"Authorization": f"Bearer {game['token']}"}
    view = play_round(client, game, game["view"], "first")
    assert view["observation"]["phase"] == "over"
    # one game, one host: its caches stay warm
    assert upstreams(access_log, game["game_id"]) == {where}, (access_log.parent / "error.log").read_text()

    addresses[where].kill()  # that host dies between two requests: nginx sends the game to the other
    response = client.post(f"/api/games/{game['game_id']}/another-round", headers=headers,
                           json={"version": view["version"], "request_id": "next"})
    assert response.status_code == 200, response.text
    view = play_round(client, game, response.json(), "second")
    assert view["observation"]["phase"] == "over"
    rounds = client.get(f"/api/games/{game['game_id']}/rounds", headers=headers).json()
    assert rounds["total"] == 2 and rounds["rounds"][-1]["totals"] == view["totals"]
    other = next(a for a in addresses if a != where)
    assert other in upstreams(access_log, game["game_id"], until=lambda hosts: other in hosts)
    assert client.get("/").status_code == 200  # the UI too


def test_what_nginx_refuses_itself_it_refuses_as_the_api_does(nginx_in_front):
    # API.md: every refusal is JSON with a code; nginx's own pages were HTML, and a 12 KB header
    # the hosts accept was refused by nginx's 8 KB default
    client, _, _ = nginx_in_front
    big_body = client.post("/api/games", content=b'{"variant": "classic", "x": "' + b"a" * 17_000 + b'"}',
                           headers={"Content-Type": "application/json"})
    assert big_body.status_code == 413
    assert big_body.json()["error"]["code"] == "body_too_large"
    assert client.get("/api/health", headers={"X-Note": "a" * 12_000}).status_code == 200
    big_head = client.get("/api/health", headers={"X-Note": "a" * 17_000})
    assert big_head.status_code == 431 and big_head.json()["error"]["code"] == "headers_too_large"
    assert "nginx/" not in big_head.headers.get("server", "")
