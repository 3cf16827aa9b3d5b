"""A deliberately broken client for tests/test_conformance.py: scripts/example_client.py with
three faults put back, each a kind of breakage the kit must find.

- it pings only when nothing arrives for heartbeat_ms (cut by ``bye idle`` while receiving);
- where a claim's count may differ from its cards, it lays a card it does not hold as well;
- it stops at an event type it does not know (no forward compatibility);
- it takes again the events a resume's replay repeats (their seq already seen).
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


SEEN = [0]  # the highest seq received, across connections


def receive(self, _receive=example.Client.receive):
    msg = _receive(self)
    if msg.get("t", "").startswith("x_"):  # fault 3
        raise RuntimeError(f"unknown message type {msg['t']}")
    if "seq" in msg:  # fault 4: a repeated event is numbered as a new one, and taken again
        SEEN[0] = msg["seq"] = max(msg["seq"], SEEN[0] + 1)
    return msg


def choose(self, plain=False, _choose=example.Player.choose):
    action = _choose(self, plain)
    if action and action[0] == "lay" and self.legal["lay"].get("count_min") is not None:  # fault 2
        action[1]["cards"] = [*action[1]["cards"], "2C"][: self.legal["lay"]["max"]]
    return action


example.Client.keep_alive = keep_alive
example.Client.receive = receive
example.Player.choose = choose
sys.exit(example.main())
