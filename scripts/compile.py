"""Compile the engine's hot modules with Cython into build/compiled/ (engine/_compiled.py).

    .venv/bin/python scripts/compile.py [--force] [--quiet]

The compiled modules are the same Python source made into C extension modules: same behaviour,
about 1.5x the speed (README.md, "The compiled engine"). The engine uses them only while the
manifest's SHA-256 of every source matches the file (edit a source and it falls back to Python
until this runs again). Does nothing when the manifest already matches. Without Cython or a C
compiler it says so and exits 0: the pure-Python engine is complete on its own.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ["NEVERYU_PURE_PYTHON"] = "1"  # importing engine here must not check the compiled modules

from engine._compiled import COMPILED, MANIFEST, read_manifest, source_digest  # noqa: E402  (needs ROOT on the path)

MODULES = (
    "engine/_actions.py",
    "engine/_cards.py",
    "engine/_deal.py",
    "engine/_events.py",
    "engine/_records.py",
    "engine/_rules.py",
    "engine/_view.py",
    "engine/simulate.py",
    "engine/bots/_base.py",
    "engine/bots/_honest.py",
    "engine/bots/_memory.py",
    "engine/bots/_play.py",
    "engine/bots/_random.py",
    "engine/bots/_sharp.py",
)
"""The sources compiled, relative to the project's root: the simulator's and bots' hot path."""

DIRECTIVES = {"language_level": 3, "annotation_typing": False}
"""Cython reads the code as plain Python 3: annotations are not C types, so values keep their
Python types (an ``int`` stays an ``int``, a ``float`` argument is not converted)."""


def wanted() -> dict[str, str]:
    """The manifest's ``modules`` for the sources as they are now."""
    return {name: source_digest(ROOT / name) for name in MODULES}


def build() -> None:
    """Compile the modules of ``MODULES`` whose source changed into ``COMPILED`` (C sources and
    objects under build/) and delete any other file there. Raises on a Cython or compiler
    error."""
    from Cython.Build import cythonize
    from setuptools import Distribution, Extension

    flags = ["-Wno-array-bounds"] if os.name == "posix" else []  # gcc's false alarm on Cython's C
    extensions = [Extension(name[: -len(".py")].replace("/", "."), [name], extra_compile_args=flags) for name in MODULES]
    os.chdir(ROOT)
    dist = Distribution({"ext_modules": cythonize(extensions, compiler_directives=DIRECTIVES, build_dir="build/cython", quiet=True)})
    command = dist.get_command_obj("build_ext")
    command.build_lib = str(COMPILED)
    command.build_temp = str(ROOT / "build" / "cython-obj")
    command.parallel = os.cpu_count() or 1
    command.ensure_finalized()
    command.run()
    keep = {Path(path).resolve() for path in command.get_outputs()}
    for path in COMPILED.rglob("*"):
        if path.is_file() and path.resolve() not in keep:
            path.unlink()  # a module no longer compiled must not shadow its source


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--force", action="store_true", help="compile even when up to date")
    parser.add_argument("--quiet", action="store_true", help="print nothing when up to date")
    args = parser.parse_args(argv)
    modules = wanted()
    if not args.force and read_manifest() == modules:
        if not args.quiet:
            print(f"compiled engine up to date ({len(modules)} modules in {COMPILED})")
        return 0
    (COMPILED / MANIFEST).unlink(missing_ok=True)  # the pure-Python engine until it is built
    print(f"compiling {len(modules)} engine modules with Cython (a minute the first time) ...", flush=True)
    try:
        build()
    except Exception as e:  # noqa: BLE001  (any failure leaves the pure-Python engine, complete)
        print(f"not compiled ({type(e).__name__}: {e}); the engine runs as pure Python", file=sys.stderr)
        return 0
    if wanted() != modules:  # a source changed while it compiled
        print("a source changed while compiling: run scripts/compile.py again", file=sys.stderr)
        return 0
    (COMPILED / MANIFEST).write_text(json.dumps({"modules": modules}, indent=1) + "\n")
    print(f"compiled into {COMPILED}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
