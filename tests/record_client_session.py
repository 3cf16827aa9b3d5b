"""Record what one seat receives from a real server during one deal, for the client's model tests
(tests/data/client_session_<variant>.json). Run: .venv/bin/python tests/record_client_session.py

The seat's turn time is tiny, so the server plays it (the timed-out seat is away: a bot plays it);
the recording is every message the client got, replies and events, in order."""

from __future__ import annotations

import asyncio
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from neveryu.client.ui.net import Net
from neveryu.client.ui.session import hello_fields
from neveryu.server import ServerConfig, start_in_thread

DATA = Path(__file__).resolve().parent / "data"


def record(variant: str, seats: int, seed: int) -> list[dict]:
    config = ServerConfig(host="127.0.0.1", port=0, name="recorder", seed=seed).evolve(
        table={"bot_delay_ms": 5, "deal_pause_ms": 60_000}
    )
    running = start_in_thread(config)
    received: list[dict] = []

    async def main():
        net = Net("127.0.0.1", running.port, hello_fields("Ann", None), received.append, retry=False)
        net.start()
        net.send(
            {
                "t": "create_table",
                "variant": variant,
                "seats": seats,
                "bots": ["honest"] * (seats - 1),
                "turn_ms": 1,
                "deals": 1,
                "challenge_window_ms": 30,
                "tie_window_ms": 5,
            }
        )
        deadline = time.monotonic() + 60
        try:
            while not any(m.get("t") == "table_joined" for m in received):
                await asyncio.sleep(0.01)
            net.send({"t": "ready", "ready": True})
            net.send({"t": "start"})
            while not any(m.get("t") == "deal_ended" for m in received):
                assert time.monotonic() < deadline, "the deal did not end"
                await asyncio.sleep(0.05)
            await asyncio.sleep(0.3)
        finally:
            await net.aclose()

    try:
        asyncio.run(main())
    finally:
        running.stop()
    for m in received:
        m.pop("ts", None)
    return received


if __name__ == "__main__":
    DATA.mkdir(exist_ok=True)
    for variant, seats, seed in (("verish", 3, 4), ("cheat", 4, 4), ("veryu", 4, 4)):
        msgs = record(variant, seats, seed)
        path = DATA / f"client_session_{variant}.json"
        path.write_text(json.dumps(msgs, ensure_ascii=False, indent=None).replace("}, {", "},\n{") + "\n")
        print(path, len(msgs), "messages")
