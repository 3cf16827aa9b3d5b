"""``neveryu arena --scheduler``: the duplicate groups played on a Dask ``distributed`` cluster (a
local one in this process, on 127.0.0.1) give the figures of the same run on one machine."""

from __future__ import annotations

import json

import distributed  # (a test dependency: scripts/test installs it)

from neveryu.client.cli import main

ARGV = ["arena", "--variant", "lozh", "--lineup", "sharp,honest,random", "--deals", "18", "--seed", "4"]


def test_a_cluster_run_gives_the_figures_of_a_local_run(capsys):
    assert main([*ARGV, "--jobs", "1", "--json", "--quiet"]) == 0
    local = json.loads(capsys.readouterr().out)
    with distributed.LocalCluster(
        processes=False, n_workers=1, threads_per_worker=2, host="127.0.0.1", protocol="tcp",
        dashboard_address=None,
    ) as cluster:  # fmt: skip
        assert cluster.scheduler_address.startswith("tcp://127.0.0.1:")
        assert main([*ARGV, "--scheduler", cluster.scheduler_address, "--json", "--quiet"]) == 0
    remote = json.loads(capsys.readouterr().out)
    assert remote["variants"] == local["variants"]
    assert remote["deals"] == 18 and remote["variants"]["lozh"]["deals"] == 18


def test_an_unreachable_scheduler_is_a_clear_error(capsys):
    import socket

    with socket.socket() as s:  # a port of 127.0.0.1 nobody listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    assert main([*ARGV, "--scheduler", f"tcp://127.0.0.1:{port}", "--quiet"]) == 2
    assert "cannot reach the scheduler at tcp://127.0.0.1:" in capsys.readouterr().err
    assert main(["arena", "--lineup", "sharp,cmd:true", "--scheduler", "tcp://127.0.0.1:1"]) == 2
    assert "--scheduler is for lineups of built-in bots only" in capsys.readouterr().err
