"""scripts/bench keeps working: its shortest run (every section but the soak, short runs on
127.0.0.1) prints one JSON object with every section's figures. No timing is asserted: the
runs are bounded by a budget that grows with the machine's load (tests/budget.py)."""

import json
import os
import subprocess
import sys
from pathlib import Path

import budget

ROOT = Path(__file__).resolve().parents[1]


def run_module(*args: str) -> subprocess.CompletedProcess:
    """``python -m <args>`` from the project root, as scripts/bench runs it (within a budget that
    scales with the load: tests/budget.py)."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run(
        [sys.executable, "-m", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=budget.seconds(240),
    )


def test_bench_smoke_run_prints_every_section():
    proc = run_module("scripts.benchmarks", "--smoke", "--json")
    assert proc.returncode == 0, proc.stderr[-3000:]
    data = json.loads(proc.stdout)
    assert data["profile"] == "smoke"
    assert {r["variant"] for r in data["engine"]} == {
        "verish",
        "veryu",
        "lozh",
        "hoyle",
        "hoyle-three",
        "cheat",
        "cheat-free",
    }
    assert data["floor"]["latency"]["n"] > 0
    assert data["neveryu"]["latency"]["n"] > 0
    assert data["neveryu"]["latency"]["errors"] == {}
    assert data["latency_ratio"] > 0
    assert {mode: r["n"] > 0 for mode, r in data["dealstart"].items()} == {
        "seeded": True,
        "fair": True,
        "silent": True,
    }
    reply = data["botreply"]
    assert set(reply["reply"]) == set(reply["slow_bluff"]["reply"]) == {"honest", "sharp", "away", "timeout"}
    step = data["capacity"]["steps"][0]
    assert step["seated"] == step["clients"] == 8
    assert step["dropped"] == 0
    records = data["records"]
    assert [r["variant"] for r in records["sizes"]] == [r["variant"] for r in data["engine"]]
    assert records["history"]["deals"]["deals"] == 300 and len(records["history"]["seconds"]) == 4
    assert [len(records["overhead"]["steps"][m]) for m in ("off", "on")] == [1, 1]
    assert all(s["seated"] == 8 for m in ("off", "on") for s in records["overhead"]["steps"][m])
    players = data["players"]
    assert [r["variant"] for r in players["sanity"]] == [r["variant"] for r in data["engine"]]
    assert all(r["deals"] == 6 and r["sharp"]["rank"] in (1, 2) for r in players["sanity"])
    assert players["board"]["deals"]["deals"] == 300 and len(players["board"]["query_ms"]) == 4
    flood = data["flood"]
    assert all(flood[cond]["n"] > 0 for cond in ("without", "with", "with, no budget"))
    assert flood["flood"]["frames_decoded_per_s"] > 0 and flood["flood"]["closed"] == 0
    journal = data["journal"]
    restored = (journal["restore"]["restored"], journal["serve_start"]["restored"])
    assert journal["held"]["tables"] == 2 and restored == (2, 2)
    assert all(s["seated"] == 8 for m in ("off", "on") for s in journal["overhead"]["steps"][m])


def test_capacity_ladder_always_tries_the_target_and_bisects_near_the_limit(monkeypatch):
    """The ladder skips to TARGET_CLIENTS once the server is swamped, then halves the gap
    between the largest N that passed and the smallest that failed (tables of 4)."""
    monkeypatch.syspath_prepend(str(ROOT))
    from scripts.benchmarks import capacity

    def fake_step(n, seconds, **kw):  # p99 under 50 ms below 300 clients; swamped from 700
        p99 = n / 6 if n < 700 else 5_000.0
        r = {
            "clients": n,
            "seated": n,
            "dropped": 0,
            "p99_ms": p99,
            "p50_ms": 1,
            "actions_per_s": 2 * n,
            "errors": {},
            "server_cpu": 0.5,
            "server_cpu_us_per_action": 1,
            "server_rss_mib": 1,
            "kib_per_client": 60,
            "loadgen_cpu": 0.1,
            "loadgen_cpu_us_per_action": 1,
            "late": 0,
        }
        r["ok"] = capacity.healthy(r) and p99 < capacity.P99_LIMIT_MS
        return r

    monkeypatch.setattr(capacity, "step", fake_step)
    result = capacity.run([100, 200, 400, 800, 1000, 1200], 1.0, say=lambda s: None, bisect=3)
    tried = [r["clients"] for r in result["steps"]]
    assert tried == [100, 200, 400, 800, 1000, 300, 248, 272]  # 1200 skipped once swamped
    assert result["max_ok"] == 272
    assert result["target"]["clients"] == 1000
    # above the target, the ladder goes on only while every N passed
    result = capacity.run([100, 1000, 1200], 1.0, say=lambda s: None, bisect=0)
    assert [r["clients"] for r in result["steps"]] == [100, 1000]


def test_compare_runs_a_tree_side_by_side_with_the_floor():
    """``compare`` (docs/BENCHMARKS.md) starts a server from the given tree and measures it with
    the floor; one short round. No timing is asserted."""
    proc = run_module("scripts.benchmarks.compare", "--rounds", "1", "--samples", "5", str(ROOT))
    assert proc.returncode == 0, proc.stderr[-3000:]
    rows = [line.split()[0] for line in proc.stdout.splitlines() if " p50 " in line]
    assert rows == ["floor", str(ROOT)]
