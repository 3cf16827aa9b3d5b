"""The arena's figures as people read them: a terminal table per variant, a bar chart of the
ratings drawn in text (``mu`` as a mark, ``mu ± 2·sigma`` as the bar), and a Markdown report."""

from __future__ import annotations

from collections.abc import Sequence

from ._arena_stats import VariantFigures
from ._words import plural

CHART_WIDTH = 50
"""Characters across the chart of the ratings."""


def table(f: VariantFigures) -> str:
    """One variant's table: a row per bot (best rating's low end first), then the pairs."""
    lines = [
        f"{f.variant}: {plural(f.deals, 'deal')}"
        + (f", {f.unfinished} unfinished" if f.unfinished else "")
        + (f", {plural(f.bot_errors, 'bot error')}" if f.bot_errors else ""),
        f"  {'bot':<10} {'seats':>6} {'place':>6} {'wins':>6} {'losses':>6} {'score':>7}  rating (mu ± 2σ)",
    ]
    for b in f.bots:
        lines.append(
            f"  {b.name:<10} {b.seats:>6} {b.place:>6.3f} {b.wins:>6} {b.losses:>6} {b.score:>+7}"
            f"  {b.mu:6.2f} ± {2 * b.sigma:.2f}"
        )
    for p in f.pairs:
        mark = "apart" if p.apart else "overlap"
        lines.append(
            f"  {p.a} − {p.b}: mean place {p.diff:+.3f}, 95 % CI [{p.low:+.3f}, {p.high:+.3f}]"
            f" over {plural(p.groups, 'group')} ({mark})"
        )
    return "\n".join(lines)


def chart(f: VariantFigures, width: int = CHART_WIDTH) -> str:
    """The ratings of one variant in text: ``[---|---]`` spans ``mu ± 2·sigma``, ``|`` is ``mu``,
    on a scale common to the variant's bots."""
    lows = [b.mu - 2 * b.sigma for b in f.bots]
    highs = [b.mu + 2 * b.sigma for b in f.bots]
    lo, hi = min(lows, default=0.0), max(highs, default=1.0)
    span = (hi - lo) or 1.0

    def at(x: float) -> int:
        return round((x - lo) / span * (width - 1))

    lines = [f"{f.variant}: ratings from {lo:.1f} to {hi:.1f}"]
    for b in f.bots:
        row = [" "] * width
        a, z, m = at(b.mu - 2 * b.sigma), at(b.mu + 2 * b.sigma), at(b.mu)
        for i in range(a, z + 1):
            row[i] = "-"
        row[a], row[z], row[m] = "[", "]", "|"
        lines.append(f"  {b.name:<10} {''.join(row)}")
    return "\n".join(lines)


def markdown(figures: Sequence[VariantFigures], command: str, header: dict[str, str]) -> str:
    """The Markdown report: how it was made (``command`` and ``header``'s lines), then per
    variant the table of bots, the pairs and the chart of the ratings."""
    out = ["# neveryu arena", "", f"    {command}", ""]
    out += [f"- {k}: {v}" for k, v in header.items()]
    for f in figures:
        out += [
            "",
            f"## {f.variant}",
            "",
            plural(f.deals, "deal") + (f", {f.unfinished} unfinished" if f.unfinished else ""),
            "",
        ]
        out += [
            "| bot | seats | mean place | wins | losses | score | rating (mu ± 2σ) |",
            "|---|---:|---:|---:|---:|---:|---|",
        ]
        for b in f.bots:
            out.append(
                f"| {b.name} | {b.seats} | {b.place:.3f} | {b.wins} | {b.losses} | {b.score:+} |"
                f" {b.mu:.2f} ± {2 * b.sigma:.2f} |"
            )
        out += ["", "| pair | mean place difference | 95 % CI | groups | |", "|---|---:|---|---:|---|"]
        for p in f.pairs:
            out.append(
                f"| {p.a} − {p.b} | {p.diff:+.3f} | [{p.low:+.3f}, {p.high:+.3f}] | {p.groups} |"
                f" {'apart' if p.apart else 'overlap'} |"
            )
        out += ["", "```", chart(f), "```"]
    return "\n".join(out) + "\n"
