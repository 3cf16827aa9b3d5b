"""``neveryu protocol-info`` prints the version and the JSON Schema."""

from __future__ import annotations

import json

from neveryu import protocol
from neveryu.client.cli import main


def test_protocol_info_prints_version_and_schema(capsys):
    assert main(["protocol-info"]) == 0
    out = capsys.readouterr().out
    head, _, rest = out.partition("\n\n")
    assert head.splitlines()[0] == "neveryu protocol v1.1"
    assert json.loads(rest) == protocol.build_schema()


def test_protocol_info_schema_only(capsys):
    assert main(["protocol-info", "--schema"]) == 0
    assert json.loads(capsys.readouterr().out) == protocol.build_schema()
