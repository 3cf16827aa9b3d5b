"""scripts/bench keeps working: its shortest run (every section but the soak, a few seconds on
127.0.0.1) prints one JSON object with every section's figures. No timing is asserted."""

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_bench_smoke_run_prints_every_section():
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.run(
        [sys.executable, "-m", "scripts.benchmarks", "--smoke", "--json"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=60,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    data = json.loads(proc.stdout)
    assert data["profile"] == "smoke"
    assert {r["variant"] for r in data["engine"]} == {"verish", "veryu", "lozh", "hoyle", "hoyle-three", "cheat", "cheat-free"}
    assert data["floor"]["latency"]["n"] > 0
    assert data["neveryu"]["latency"]["n"] > 0
    assert data["neveryu"]["latency"]["errors"] == {}
    assert data["latency_ratio"] > 0
    step = data["capacity"]["steps"][0]
    assert step["seated"] == step["clients"] == 8
    assert step["dropped"] == 0
