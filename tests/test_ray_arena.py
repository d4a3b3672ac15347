"""The arena on a Ray cluster: a local Ray instance with two workers, the same results as a local run."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
import ray

from dizhu.arena import run_arena


@pytest.fixture(scope="session")
def ray_cluster():
    # one instance for the whole session: starting Ray takes seconds
    context = ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield context
    ray.shutdown()


def _without_time(summary):
    return {k: v for k, v in summary.items() if k != "elapsed_s"}


@pytest.mark.parametrize(("a", "b", "variant", "bidding"),
                         [("normal", "random", "classic", False), ("intermediate", "normal", "duel", True)])
def test_ray_arena_gives_the_local_results(ray_cluster, a, b, variant, bidding):
    seen = []
    on_ray = run_arena(a, b, variant, deals=10, seed="ray", bidding=bidding, ray="auto",
                       progress=lambda done, total: seen.append((done, total)))
    local = run_arena(a, b, variant, deals=10, seed="ray", bidding=bidding, workers=1)
    assert on_ray.records == local.records and len(local.records) == 20
    assert _without_time(on_ray.summary()) == _without_time(local.summary())
    assert seen[-1] == (10, 10) and len(seen) == 10
    other_seed = run_arena(a, b, variant, deals=10, seed="other", bidding=bidding, workers=1)
    assert other_seed.records != local.records


def test_cli_connects_to_a_cluster_by_address(ray_cluster, tmp_path):
    address = ray_cluster.address_info["address"]
    out = tmp_path / "ray.json"
    env = {**os.environ, "RAY_USAGE_STATS_ENABLED": "0"}
    done = subprocess.run(
        [sys.executable, "-m", "dizhu.cli", "arena", "--a", "normal", "--b", "random", "--deals", "6",
         "--seed", "7", "--quiet", "--ray", address, "--json", str(out)],
        capture_output=True, text=True, env=env, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "normal (A) vs random (B)" in done.stdout
    local = run_arena("normal", "random", deals=6, seed="7", workers=1)
    assert _without_time(json.loads(out.read_text())) == _without_time(local.summary())
