"""The arena's figures as people read them: a terminal table per variant, a bar chart of the
ratings drawn in text (``mu`` as a mark, ``mu ± 2·sigma`` as the bar), and a Markdown report."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from ._arena_stats import BotFigures, VariantFigures
from ._words import plural

CHART_WIDTH = 50
"""Characters across the chart of the ratings."""


def table(f: VariantFigures) -> str:
    """One variant's table: a row per bot (best rating's low end first), with the results that
    mean something in its variant (``results``), then the pairs, then what the words say."""
    shown = results(f.variant)
    head = "".join(f" {name:>6}" for name, _ in shown)
    lines = [
        f"{f.variant}: {plural(f.deals, 'deal')}"
        + (f", {f.unfinished} unfinished" if f.unfinished else "")
        + (f", {plural(f.bot_errors, 'bot error')}" if f.bot_errors else ""),
        f"  {'bot':<10} {'seats':>6} {'place':>6}{head}  rating (mu ± 2σ)",
    ]
    for b in f.bots:
        cells = "".join(f" {value(b):>6}" for _, value in shown)
        lines.append(f"  {b.name:<10} {b.seats:>6} {b.place:>6.3f}{cells}  {b.mu:6.2f} ± {2 * b.sigma:.2f}")
    for p in f.pairs:
        lines.append(
            f"  {p.a} − {p.b}: mean place {p.diff:+.3f}, 95 % CI [{p.low:+.3f}, {p.high:+.3f}]"
            f" over {plural(p.groups, 'group')}: {verdict(p.apart)}"
        )
    lines.append("  " + legend(bool(f.pairs)))
    return "\n".join(lines)


def results(variant: str) -> list[tuple[str, Callable[[BotFigures], str]]]:
    """The result columns that mean something in ``variant`` (docs/RULES.md, "Scoring"): the
    deals lost where the last player loses, the deals won where the first out wins, and the
    chips (won less paid, signed) where a deal pays chips. Deals lost are the score of a
    ``losses`` variant: it is not shown twice."""
    from neveryu import engine

    rules = engine.VARIANTS.get(variant)
    if rules is None:  # (not one of ours: every figure)
        return [
            ("wins", lambda b: str(b.wins)),
            ("losses", lambda b: str(b.losses)),
            ("score", lambda b: f"{b.score:+}"),
        ]
    shown: list[tuple[str, Callable[[BotFigures], str]]] = []
    if rules.result == "last_loses":
        shown.append(("losses", lambda b: str(b.losses)))
    else:
        shown.append(("wins", lambda b: str(b.wins)))
    if rules.scoring.startswith("chips"):
        shown.append(("chips", lambda b: f"{b.score:+}"))
    return shown


def verdict(apart: bool) -> str:
    """A pair's difference in plain words: its 95 % interval leaves out 0, or holds it."""
    return "apart" if apart else "no clear difference"


def legend(pairs: bool) -> str:
    """The line under a table that says what its words mean (under 100 columns)."""
    if not pairs:
        return "place: the mean finishing place, 1 best."
    return "place 1 is best; apart: one bot finishes better (95 % CI without 0), else no clear difference."


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
        shown = results(f.variant)
        out += [
            "| bot | seats | mean place |"
            + "".join(f" {name} |" for name, _ in shown)
            + " rating (mu ± 2σ) |",
            "|---|---:|---:|" + "---:|" * len(shown) + "---|",
        ]
        for b in f.bots:
            cells = "".join(f" {value(b)} |" for _, value in shown)
            out.append(f"| {b.name} | {b.seats} | {b.place:.3f} |{cells} {b.mu:.2f} ± {2 * b.sigma:.2f} |")
        out += ["", "| pair | mean place difference | 95 % CI | groups | |", "|---|---:|---|---:|---|"]
        for p in f.pairs:
            out.append(
                f"| {p.a} − {p.b} | {p.diff:+.3f} | [{p.low:+.3f}, {p.high:+.3f}] | {p.groups} |"
                f" {verdict(p.apart)} |"
            )
        out += ["", legend(bool(f.pairs))]
        out += ["", "```", chart(f), "```"]
    return "\n".join(out) + "\n"
