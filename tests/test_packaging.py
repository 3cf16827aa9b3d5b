"""The distribution installs as one namespace, ``neveryu`` (DESIGN.md, "Layout"): the folders at
the repository's top level become ``neveryu.engine``, ``neveryu.protocol``, ``neveryu.server`` and
``neveryu.client``; nothing else lands at the top of site-packages."""

from __future__ import annotations

import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FOLDERS = ("engine", "protocol", "server", "client")


def _package_folders() -> set[str]:
    """Every folder of the four packages that holds an ``__init__.py``, as a dotted name under
    ``neveryu``."""
    names = set()
    for top in FOLDERS:
        for init in (ROOT / top).rglob("__init__.py"):
            names.add("neveryu." + ".".join(init.parent.relative_to(ROOT).parts))
    return names


def test_every_package_folder_is_listed_in_pyproject() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))
    assert set(config["tool"]["setuptools"]["packages"]) == _package_folders()


def test_the_wheel_has_one_top_level_package(tmp_path: Path) -> None:
    subprocess.run(
        [sys.executable, "-m", "build", "--wheel", "--no-isolation", "--outdir", str(tmp_path), str(ROOT)],
        check=True,
        capture_output=True,
        timeout=300,
    )
    (wheel,) = tmp_path.glob("neveryu-*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    tops = {name.split("/")[0] for name in names if not name.split("/")[0].endswith(".dist-info")}
    assert tops == {"neveryu"}
    assert "neveryu/protocol/schema.json" in names
    assert {f"neveryu/{top}/__init__.py" for top in FOLDERS} <= set(names)
    assert not any(name.startswith(("neveryu/tests/", "neveryu/scripts/")) for name in names)
