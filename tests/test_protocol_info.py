"""``neveryu protocol-info`` prints the version and the JSON Schema."""

from __future__ import annotations

import json
import subprocess
import sys

from neveryu import protocol
from neveryu.client.cli import main


def test_protocol_info_prints_version_and_schema(capsys):
    assert main(["protocol-info"]) == 0
    out = capsys.readouterr().out
    head, _, rest = out.partition("\n\n")
    assert head.splitlines()[0] == "neveryu protocol v1.2"
    assert json.loads(rest) == protocol.build_schema()


def test_protocol_info_schema_only(capsys):
    assert main(["protocol-info", "--schema"]) == 0
    assert json.loads(capsys.readouterr().out) == protocol.build_schema()


def test_a_reader_that_goes_away_ends_the_command_quietly():
    """``neveryu protocol-info | head -1``: the schema meets a closed pipe; no traceback, no
    message, exit status 1 (the Python docs' note on SIGPIPE). The schema is larger than a pipe's
    buffer, so the write meets the closed pipe."""
    command = [sys.executable, "-m", "neveryu.client.cli", "protocol-info"]
    with subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE) as proc:
        assert proc.stdout is not None and proc.stderr is not None
        assert proc.stdout.readline() == b"neveryu protocol v1.2\n"
        proc.stdout.close()
        errors = proc.stderr.read()
        assert proc.wait(timeout=60) == 1
    assert errors == b""
