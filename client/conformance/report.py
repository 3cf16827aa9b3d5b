"""The report of a run: one line per case, the totals, as text, JSON or JUnit XML
(docs/CONFORMANCE.md, "Reading the report")."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from typing import Any

import attrs

STATUSES = ("pass", "fail", "n/a")


@attrs.frozen
class Result:
    """One case's verdict: ``status`` one of ``STATUSES``; ``detail`` the rule broken or why not
    applicable; ``frame`` the frame that broke it (a dict as JSON shows it), if one did;
    ``seconds`` how long the case took; ``output`` the tail of the client's output."""

    case: str
    section: str
    status: str
    detail: str = ""
    frame: Any = None
    seconds: float = 0.0
    output: str = ""


def totals(results: list[Result]) -> dict[str, int]:
    return {status: sum(r.status == status for r in results) for status in STATUSES}


def text(results: list[Result], direction: str) -> str:
    """One line per case (a failure: the rule broken, the frame that broke it, the client's last
    lines of output), then the totals."""
    lines = []
    for r in results:
        line = f"{r.status.upper():4}  {r.case}  [{r.section}]"
        if r.detail:
            line += f"\n      {r.detail}"
        if r.frame is not None:
            line += f"\n      frame: {json.dumps(r.frame, ensure_ascii=False)[:400]}"
        if r.status == "fail" and r.output.strip():
            tail = r.output.strip().splitlines()[-3:]
            line += "\n      the client's last output: " + " | ".join(t.strip() for t in tail)[:400]
        lines.append(line)
    count = totals(results)
    lines.append(
        f"conformance {direction}: {count['pass']} passed, {count['fail']} failed,"
        f" {count['n/a']} not applicable, of {len(results)} cases"
    )
    return "\n".join(lines)


def as_json(results: list[Result], direction: str) -> str:
    return json.dumps(
        {"direction": direction, "totals": totals(results), "cases": [attrs.asdict(r) for r in results]},
        ensure_ascii=False,
        indent=1,
    )


def junit(results: list[Result], direction: str) -> str:
    """JUnit XML: one testsuite, one testcase per case; a failure holds the rule and the frame,
    a case not applicable is skipped."""
    count = totals(results)
    suite = ET.Element(
        "testsuite",
        name=f"neveryu conformance {direction}",
        tests=str(len(results)),
        failures=str(count["fail"]),
        skipped=str(count["n/a"]),
        errors="0",
        time=f"{sum(r.seconds for r in results):.3f}",
    )
    for r in results:
        case = ET.SubElement(
            suite, "testcase", classname=f"conformance.{direction}", name=r.case, time=f"{r.seconds:.3f}"
        )
        if r.status == "fail":
            failure = ET.SubElement(case, "failure", message=r.detail)
            failure.text = f"{r.section}\n" + (
                json.dumps(r.frame, ensure_ascii=False) if r.frame is not None else ""
            )
        elif r.status == "n/a":
            ET.SubElement(case, "skipped", message=r.detail)
        if r.output:
            ET.SubElement(case, "system-out").text = r.output
    return str(ET.tostring(suite, encoding="unicode", xml_declaration=True)) + "\n"
