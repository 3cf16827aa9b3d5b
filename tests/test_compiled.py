"""The compiled engine (engine/_compiled.py, scripts/compile.py): used only when it matches its
sources, and it plays exactly as the Python sources do."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import warnings
from pathlib import Path

import pytest

from engine import VARIANTS
from engine._compiled import COMPILED, MANIFEST, ROOT, compiled_dir, read_manifest, source_digest

SOURCE = "engine/bots/_sharp.py"


@pytest.fixture
def tree(tmp_path: Path) -> tuple[Path, Path]:
    """A root with one source and a compiled directory whose manifest records it."""
    root = tmp_path / "root"
    (root / "engine" / "bots").mkdir(parents=True)
    (root / SOURCE).write_text("x = 1\n")
    compiled = tmp_path / "compiled"
    (compiled / "engine" / "bots").mkdir(parents=True)
    manifest = {"modules": {SOURCE: source_digest(root / SOURCE)}}
    (compiled / MANIFEST).write_text(json.dumps(manifest))
    return root, compiled


def test_a_fresh_build_is_used_for_its_package_only(tree, monkeypatch) -> None:
    monkeypatch.delenv("NEVERYU_PURE_PYTHON", raising=False)
    root, compiled = tree
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert compiled_dir("engine.bots", root, compiled) == compiled / "engine" / "bots"
        assert compiled_dir("engine", root, compiled) is None  # no module of engine itself


def test_an_edited_source_falls_back_to_python_with_a_warning(tree, monkeypatch) -> None:
    monkeypatch.delenv("NEVERYU_PURE_PYTHON", raising=False)
    root, compiled = tree
    (root / SOURCE).write_text("x = 2\n")
    with pytest.warns(RuntimeWarning, match=r"engine/bots/_sharp\.py changed since it was compiled"):
        assert compiled_dir("engine.bots", root, compiled) is None


def test_a_missing_source_falls_back_to_python(tree, monkeypatch) -> None:
    monkeypatch.delenv("NEVERYU_PURE_PYTHON", raising=False)
    root, compiled = tree
    (root / SOURCE).unlink()
    with pytest.warns(RuntimeWarning, match="changed since it was compiled"):
        assert compiled_dir("engine.bots", root, compiled) is None


@pytest.mark.parametrize("manifest", [None, "", "not json", "[]", '{"modules": 3}'])
def test_no_usable_manifest_means_python(tree, monkeypatch, manifest) -> None:
    monkeypatch.delenv("NEVERYU_PURE_PYTHON", raising=False)
    root, compiled = tree
    if manifest is None:
        (compiled / MANIFEST).unlink()
    else:
        (compiled / MANIFEST).write_text(manifest)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert compiled_dir("engine.bots", root, compiled) is None


def test_pure_python_on_request(tree, monkeypatch) -> None:
    root, compiled = tree
    monkeypatch.setenv("NEVERYU_PURE_PYTHON", "1")
    assert compiled_dir("engine.bots", root, compiled) is None


def _built() -> bool:
    modules = read_manifest()
    return modules is not None and all(source_digest(ROOT / name) == digest for name, digest in modules.items())


needs_build = pytest.mark.skipif(not _built(), reason="no up-to-date compiled engine (scripts/compile.py)")


def _run(code: str, pure: bool) -> str:
    env = {k: v for k, v in os.environ.items() if k != "NEVERYU_PURE_PYTHON"}
    if pure:
        env["NEVERYU_PURE_PYTHON"] = "1"
    done = subprocess.run(
        [sys.executable, "-W", "error::RuntimeWarning", "-c", code],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=120, check=True,
    )
    return done.stdout


@needs_build
def test_the_compiled_modules_are_the_ones_imported() -> None:
    code = "import engine._deal, engine.bots._sharp, engine._compiled as c; print(engine._deal.__file__); print(engine.bots._sharp.__file__); print(c.__file__)"
    deal, sharp, loader = _run(code, pure=False).split()
    assert deal.startswith(str(COMPILED)) and deal.endswith(".so")
    assert sharp.startswith(str(COMPILED)) and sharp.endswith(".so")
    assert loader == str(ROOT / "engine" / "_compiled.py")  # the loader itself is never compiled
    deal, sharp, _ = _run(code, pure=True).split()
    assert (deal, sharp) == (str(ROOT / "engine" / "_deal.py"), str(ROOT / "engine" / "bots" / "_sharp.py"))


SIMULATIONS = """
import json
from engine import VARIANTS, variant
from engine.simulate import simulate
for name in VARIANTS:
    for bots in ("sharp", "random,honest,sharp,honest"):
        report = simulate(variant(name), 4, deals=40, seed=5, bots=bots, check=True)
        print(json.dumps(report.as_dict(), sort_keys=True))
"""


@needs_build
def test_the_compiled_engine_plays_every_variant_exactly_as_the_sources_do() -> None:
    compiled = _run(SIMULATIONS, pure=False).splitlines()
    assert compiled == _run(SIMULATIONS, pure=True).splitlines()
    assert len(compiled) == 2 * len(VARIANTS)
    for line in compiled:
        report = json.loads(line)
        assert report["completed"] == 40 and report["invariant_violations"] == 0 and report["bot_errors"] == 0
