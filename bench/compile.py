"""Build the compiled combat engines out of the source tree (mypyc; the modules are the
``files`` of ``[tool.mypy]`` in ``pyproject.toml``: submodules of the ``rules.naval`` and
``rules.space`` packages, whose ``__init__.py`` only re-exports and stays interpreted, and
``rules/boarding.py``).

    .venv/bin/python bench/compile.py [DEST]      # default: build/compiled

Copies ``rules/`` and ``pyproject.toml`` into DEST and compiles there, so the checkout keeps
only sources (an extension module beside its ``.py`` would shadow every later edit). Put DEST
first on ``PYTHONPATH`` to run the compiled build: ``make bench`` measures both builds, and
``tests/rules/test_compiled_engines.py`` checks that they fight the same battles. The
production image compiles in place instead (see ``Dockerfile``).
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def build(dest: Path) -> Path:
    """Compile the engines into ``dest`` (replaced); returns it. Raises CalledProcessError
    with mypyc's output when the build fails."""
    dest = dest.resolve()
    inside = dest.is_relative_to(ROOT) and not dest.is_relative_to(ROOT / "build")
    if inside or ROOT.is_relative_to(dest):  # DEST is emptied first
        raise ValueError(f"refusing to build into the source tree: {dest}")
    shutil.rmtree(dest, ignore_errors=True)
    dest.mkdir(parents=True)
    shutil.copytree(ROOT / "rules", dest / "rules",
                    ignore=shutil.ignore_patterns("__pycache__", "*.so"))
    shutil.copy2(ROOT / "pyproject.toml", dest / "pyproject.toml")
    mypyc = Path(sys.executable).with_name("mypyc")
    subprocess.run([str(mypyc)], cwd=dest, check=True, capture_output=True, text=True)
    return dest


def main() -> None:
    dest = Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "build" / "compiled"
    try:
        build(dest)
    except subprocess.CalledProcessError as error:
        sys.exit(f"mypyc failed:\n{error.stdout}\n{error.stderr}")
    print(f"compiled combat engines in {dest}")


if __name__ == "__main__":
    main()
