"""Use the engine's compiled modules when they were built from the sources as they are now.

``scripts/compile.py`` compiles the engine's hot modules with Cython (the same Python source,
same behaviour, about 1.5x faster) into ``build/compiled/`` beside the packages, with a manifest
of the SHA-256 of each source it compiled. ``use_compiled`` puts that directory first on a
package's ``__path__`` (as ``pkgutil.extend_path`` does), so ``import engine._deal`` finds the
compiled module, but only when every module compiled for the package still matches its source:
an edited source falls back to the pure-Python package with a warning, never to stale code.

Set ``NEVERYU_PURE_PYTHON=1`` to ignore the compiled modules.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
import warnings
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
"""The directory that holds the ``engine`` package (the project's root in a checkout)."""

COMPILED = ROOT / "build" / "compiled"
"""Where ``scripts/compile.py`` writes the compiled modules and ``manifest.json``."""

MANIFEST = "manifest.json"
"""``{"modules": {"engine/_deal.py": "<sha256 hex>", ...}}``, paths relative to ``ROOT``."""


def source_digest(path: Path) -> str:
    """The SHA-256 (hex) of the file at ``path``, as the manifest records it."""
    return hashlib.sha256(path.read_bytes()).hexdigest()


def read_manifest(compiled: Path = COMPILED) -> dict[str, str] | None:
    """The ``modules`` of ``compiled``'s manifest (source path -> SHA-256 hex), or None when
    there is no readable manifest."""
    try:
        modules = json.loads((compiled / MANIFEST).read_text())["modules"]
    except (OSError, ValueError, KeyError, TypeError):
        return None
    return modules if isinstance(modules, dict) else None


def compiled_dir(package: str, root: Path = ROOT, compiled: Path = COMPILED) -> Path | None:
    """The directory of ``package``'s compiled modules (``package``: a dotted name such as
    ``"engine.bots"``), or None when there is none to use: no manifest, no module of the
    package in it, or ``NEVERYU_PURE_PYTHON`` set. Warns (``RuntimeWarning``) and returns None
    when a compiled module's source has changed since it was compiled."""
    if os.environ.get("NEVERYU_PURE_PYTHON"):
        return None
    modules = read_manifest(compiled)
    if modules is None:
        return None
    folder = package.replace(".", "/")
    mine = {name: digest for name, digest in modules.items() if name.rpartition("/")[0] == folder}
    if not mine:
        return None
    for name, digest in mine.items():
        try:
            fresh = source_digest(root / name) == digest
        except OSError:
            fresh = False
        if not fresh:
            warnings.warn(
                f"{name} changed since it was compiled: using {package}'s Python sources"
                " (scripts/compile.py compiles it again)",
                RuntimeWarning,
                stacklevel=3,
            )
            return None
    return compiled / folder


def use_compiled(package_path: list[str], package: str) -> bool:
    """Put ``package``'s compiled modules first on its ``__path__`` (``package_path``) when
    ``compiled_dir`` has them; called by the package's ``__init__`` before it imports any
    module. Returns whether it did."""
    where = compiled_dir(package)
    if where is None:
        return False
    package_path.insert(0, str(where))
    return True


def loaded() -> tuple[str, ...]:
    """The names of the engine's modules imported now from compiled files, sorted (empty: the
    engine runs as pure Python)."""
    return tuple(
        sorted(
            name
            for name, module in list(sys.modules.items())
            if name.partition(".")[0] == "engine" and getattr(module, "__file__", "").endswith((".so", ".pyd"))
        )
    )
