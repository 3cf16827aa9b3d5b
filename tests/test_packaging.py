"""The distribution installs as one namespace, ``neveryu`` (docs/ARCHITECTURE.md, "Layout"): the folders at
the repository's top level become ``neveryu.engine``, ``neveryu.protocol``, ``neveryu.server`` and
``neveryu.client``; nothing else lands at the top of site-packages."""

from __future__ import annotations

import shutil
import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

import pytest

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


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The wheel built from a copy of this checkout (no build isolation: the test extras hold
    setuptools). A copy: setuptools writes its build folders beside the sources, and two test
    workers may each build the wheel at once."""
    out, src = tmp_path_factory.mktemp("wheel"), tmp_path_factory.mktemp("src") / "neveryu"
    junk = (".venv", ".git", "build", "*.egg-info", "__pycache__", ".*_cache", ".hypothesis")
    shutil.copytree(ROOT, src, ignore=shutil.ignore_patterns(*junk))
    subprocess.run(
        [sys.executable, "-m", "build", "--wheel", "--no-isolation", "--outdir", str(out), str(src)],
        check=True,
        capture_output=True,
        timeout=300,
    )
    (built,) = out.glob("neveryu-*.whl")
    return built


def test_the_wheel_has_one_top_level_package(wheel: Path) -> None:
    names = zipfile.ZipFile(wheel).namelist()
    tops = {name.split("/")[0] for name in names if not name.split("/")[0].endswith(".dist-info")}
    assert tops == {"neveryu"}
    assert "neveryu/protocol/schema.json" in names
    assert "neveryu/client/conformance/cases/handshake.json" in names  # the conformance kit's cases
    assert {f"neveryu/{top}/__init__.py" for top in FOLDERS} <= set(names)
    assert not any(name.startswith(("neveryu/tests/", "neveryu/scripts/")) for name in names)


def test_neveryu_help_works_from_an_isolated_install(wheel: Path, tmp_path: Path) -> None:
    """As ``pipx install`` does it: a fresh venv with the wheel and its dependencies only, run
    from a folder that holds none of the sources."""
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=120)
    pip = [str(venv / "bin" / "python"), "-m", "pip", "install", "--quiet", "--disable-pip-version-check"]
    subprocess.run([*pip, str(wheel)], check=True, capture_output=True, timeout=600)
    done = subprocess.run(
        [str(venv / "bin" / "neveryu"), "--help"], cwd=tmp_path, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    assert "usage: neveryu" in done.stdout
    for command in ("play", "serve", "join"):
        assert command in done.stdout
