"""A deliberately broken client for tests/test_conformance.py: scripts/example_client.py with
three faults put back, each a kind of breakage the kit must find.

- it pings only when nothing arrives for heartbeat_ms (cut by ``bye idle`` while receiving);
- it lays one card more than it holds when it may lay several (a card not in its hand);
- it stops at an event type it does not know (no forward compatibility).
"""

import importlib.util
import pathlib
import sys

SCRIPT = pathlib.Path(__file__).resolve().parents[3] / "scripts" / "example_client.py"
spec = importlib.util.spec_from_file_location("example_client", SCRIPT)
example = importlib.util.module_from_spec(spec)
spec.loader.exec_module(example)


def keep_alive(self, heartbeat_s):
    """Fault 1: a ping only after heartbeat_s with nothing received."""
    self.sock.settimeout(heartbeat_s)


def receive(self, _receive=example.Client.receive):
    msg = _receive(self)
    if msg.get("t", "").startswith("x_"):  # fault 3
        raise ConnectionError(f"unknown message type {msg['t']}")
    return msg


def choose(self, plain=False, _choose=example.Player.choose):
    action = _choose(self, plain)
    if action and action[0] == "lay" and self.legal["lay"]["max"] > 1:  # fault 2
        action[1]["cards"] = [*action[1]["cards"], "2C"][: self.legal["lay"]["max"]]
    return action


example.Client.keep_alive = keep_alive
example.Client.receive = receive
example.Player.choose = choose
sys.exit(example.main())
