"""Markdown tables of a ``scripts/bench --json`` result, for docs/BENCHMARKS.md.

``python -m scripts.benchmarks.markdown RESULT.json [MORE.json ...]`` prints the sections each
file has (machine, engine, latency, capacity, soak) and the targets of docs/BENCHMARKS.md with a verdict
each, from the figures alone.
"""

from __future__ import annotations

import json
import sys

RATIO_TARGET = 1.5
CLIENTS_TARGET = 1_000
P99_TARGET_MS = 50.0
KIB_TARGET = 100.0
SOAK_NOISE_MIB = 1.0  # RSS movement over the second half of the soak counted as noise


def n(x, digits: int = 0) -> str:
    """A figure with thousands separators (``-`` for None)."""
    if x is None:
        return "-"
    return f"{x:,.{digits}f}"


def machine(d: dict) -> list[str]:
    m = d["machine"]
    return [
        f"Machine: {m['nproc']} × {m['cpu']}, Python {m['python']}, Linux {m['kernel']};"
        f" load average {m['loadavg_1min']:.2f} at the start, {d.get('loadavg_1min_end', 0):.2f} at the end;"
        f" profile `{d['profile']}`, {d['seconds']} s.",
    ]


def engine(d: dict) -> list[str]:
    out = [
        "| variant | `sharp` bots: deals/s | actions/s | rules alone: deals/s | actions/s |",
        "| --- | ---: | ---: | ---: | ---: |",
    ]
    for r in d["engine"]:
        b, c = r.get("bots") or {}, r.get("core") or {}
        out.append(
            f"| {r['variant']} | {n(b.get('deals_per_s'), 1)} | {n(b.get('actions_per_s'))}"
            f" | {n(c.get('deals_per_s'), 1)} | {n(c.get('actions_per_s'))} |"
        )
    return out


def latency(d: dict) -> list[str]:
    out = [
        "| server | p50 | p99 | server CPU per sample | the 4 clients' CPU per sample"
        " | frames per sample | ping/pong, 200 clients |",
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    for name in ("floor", "neveryu"):
        if name not in d:
            continue
        lat, tp = d[name]["latency"], d[name]["throughput"]
        out.append(
            f"| {name} | {n(lat['p50_us'])} µs | {n(lat['p99_us'])} µs"
            f" | {n(lat['server_cpu_us_per_sample'])} µs"
            f" | {n(lat['client_cpu_us_per_sample'])} µs | {lat['frames_per_sample']}"
            f" | {n(tp['requests_per_s'])} requests/s |"
        )
    out.append("")
    out.append(
        f"`latency_ratio` (neveryu p50 / floor p50): **{d.get('latency_ratio')}**"
        f" ({d['floor']['latency']['n']:,} and {d['neveryu']['latency']['n']:,} samples)."
        if "floor" in d and "neveryu" in d
        else ""
    )
    return out


def capacity(d: dict) -> list[str]:
    c = d["capacity"]
    out = [
        "| N | actions/s | p50 | p99 | server CPU | per action | RSS | per client"
        " | load generator CPU | per action | late | errors, dropped | p99 < 50 ms |",
        "| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- | --- |",
    ]
    for r in sorted(c["steps"], key=lambda r: r["clients"]):
        out.append(
            f"| {n(r['clients'])} | {n(r['actions_per_s'], 1)} | {r['p50_ms']} ms | {r['p99_ms']} ms"
            f" | {r['server_cpu']:.0%}"
            f" | {n(r['server_cpu_us_per_action'])} µs | {r['server_rss_mib']} MiB"
            f" | {r['kib_per_client']} KiB"
            f" | {r['loadgen_cpu']:.0%} | {n(r['loadgen_cpu_us_per_action'])} µs | {r['late']}"
            f" | {sum((r['errors'] or {}).values())}, {r['dropped']} | {'yes' if r['ok'] else '**no**'} |"
        )
    out.append("")
    out.append(
        f"Largest N with p99 under {c['p99_limit_ms']:.0f} ms: **{c['max_ok']}**"
        f" (idle server RSS {c['steps'][0]['server_idle_rss_mib']} MiB)."
    )
    return out


def soak(d: dict) -> list[str]:
    s = d["soak"]
    half = s["rss_samples_mib"][len(s["rss_samples_mib"]) // 2]
    return [
        f"{s['clients']} clients for {s['minutes']} min:"
        f" server RSS {s['rss_start_mib']} → {s['rss_end_mib']} MiB"
        f" (samples: {', '.join(str(x) for x in s['rss_samples_mib'])});"
        f" over the second half {half} → {s['rss_end_mib']} MiB;"
        f" {s['kib_per_client_end']} KiB per client at the end (idle server {s['idle_rss_mib']} MiB);"
        f" {s['load']['actions_per_s']} actions/s, p99 {s['load']['p99_ms']} ms,"
        f" server CPU {s['server_cpu']:.0%},"
        f" load generator CPU {s['load']['cpu']:.0%},"
        f" errors {sum((s['load']['errors'] or {}).values())}, dropped {s['load']['dropped']}.",
    ]


def targets(d: dict) -> list[str]:
    out = ["| target | result | verdict |", "| --- | --- | --- |"]
    ratio = d.get("latency_ratio")
    if ratio is not None:
        out.append(
            f"| neveryu p50 ≤ {RATIO_TARGET} × floor p50, same run | {ratio} ×"
            f" | {'met' if ratio <= RATIO_TARGET else '**missed**'} |"
        )
    t = (d.get("capacity") or {}).get("target")
    if t:
        ok = t["ok"]
        out.append(
            f"| {CLIENTS_TARGET:,} clients, p99 < {P99_TARGET_MS:.0f} ms"
            f" | p99 {t['p99_ms']} ms at {t['seated']:,} clients"
            f" ({t['actions_per_s']} actions/s);"
            f" largest N under {P99_TARGET_MS:.0f} ms: {d['capacity']['max_ok']}"
            f" | {'met' if ok else '**missed**'} |"
        )
        out.append(
            f"| ≤ {KIB_TARGET:.0f} KiB server memory per client"
            f" | {t['kib_per_client']} KiB at {t['seated']:,} clients"
            f" | {'met' if t['kib_per_client'] <= KIB_TARGET else '**missed**'} |"
        )
    s = d.get("soak")
    if s:
        half = s["rss_samples_mib"][len(s["rss_samples_mib"]) // 2]
        growth = s["rss_end_mib"] - half
        out.append(
            f"| ≤ {KIB_TARGET:.0f} KiB per client with full replay buffers (soak)"
            f" | {s['kib_per_client_end']} KiB at {s['clients']} clients"
            f" | {'met' if s['kib_per_client_end'] <= KIB_TARGET else '**missed**'} |"
        )
        out.append(
            f"| no memory growth in the soak | {growth:+.1f} MiB over its second half"
            f" | {'met' if growth <= SOAK_NOISE_MIB else '**missed**'} |"
        )
    return out


def main(paths: list[str]) -> None:
    for path in paths:
        with open(path) as f:
            d = json.load(f)
        print(f"<!-- {path} -->")
        for title, section, key in (
            ("Machine", machine, "machine"),
            ("Engine", engine, "engine"),
            ("Fan-out latency", latency, "neveryu"),
            ("Capacity", capacity, "capacity"),
            ("Soak", soak, "soak"),
            ("Targets", targets, "machine"),
        ):
            if key in d:
                print(f"\n### {title}\n")
                print("\n".join(section(d)))


if __name__ == "__main__":
    main(sys.argv[1:])
