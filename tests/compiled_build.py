"""The compiled combat engines for ``tests/rules/test_compiled_engines.py``, built once per
state of the sources and shared by every pytest process (xdist workers, later runs).

The build lives in ``build/test-compiled/<key>``, where the key hashes everything the build
reads (``rules/``, ``pyproject.toml``) and what it is built with (Python, mypy, the
optimisation level), so an edit of any engine source means a fresh build from the current
sources. A file lock makes concurrent processes wait for one build instead of each running
their own. The build is the production one (mypyc's default -O3): -O0 compiles in half the
CPU time (about 7 s less) but the 900 tests run against the build then take about 5 s more.

``start_in_background`` (called from ``tests/conftest.py`` at session start) runs
``python -m tests.compiled_build`` so the build overlaps the rest of the suite; the test's
fixture then only waits for the lock."""

from __future__ import annotations

import fcntl
import hashlib
import importlib.metadata
import importlib.util
import os
import shutil
import signal
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CACHE = ROOT / "build" / "test-compiled"
TEST_FILE = ROOT / "tests" / "rules" / "test_compiled_engines.py"
KEEP = 3  # builds kept in CACHE (other checkouts' states, a branch switched back)


def source_key() -> str:
    """A hash of the build's inputs."""
    digest = hashlib.sha256()
    for path in sorted((ROOT / "rules").rglob("*")):
        if path.is_file() and "__pycache__" not in path.parts and path.suffix != ".so":
            digest.update(str(path.relative_to(ROOT)).encode() + b"\0" + path.read_bytes())
    digest.update((ROOT / "pyproject.toml").read_bytes())
    level = os.environ.get("MYPYC_OPT_LEVEL", "3")
    digest.update(f"{sys.version}|{importlib.metadata.version('mypy')}|{level}".encode())
    return digest.hexdigest()[:20]


def _compile_script():
    spec = importlib.util.spec_from_file_location("bench_compile", ROOT / "bench" / "compile.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _prune(current: str) -> None:
    builds = sorted((p for p in CACHE.iterdir() if p.is_dir() and p.name != current),
                    key=lambda p: p.stat().st_mtime, reverse=True)
    for old in builds[KEEP - 1:]:
        shutil.rmtree(old, ignore_errors=True)


def ensure_built() -> Path:
    """The build of the current sources, compiled now unless a finished one exists. Raises
    ``CalledProcessError`` with mypyc's output when the build fails."""
    key = source_key()
    dest, done = CACHE / key, CACHE / key / ".built"
    CACHE.mkdir(parents=True, exist_ok=True)
    with open(CACHE / ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file closes
        if not done.exists():
            _prune(key)
            _compile_script().build(dest)
            done.write_text(key)
        os.utime(dest)
    return dest


def is_selected(args: list[str], ignored: list[str]) -> bool:
    """Whether a pytest run with these path arguments collects the compiled engines' test."""
    target = str(TEST_FILE)
    if any(target.startswith(str(Path(path).resolve())) for path in ignored or []):
        return False
    paths = [Path(arg.split("::")[0]).resolve() for arg in args] or [ROOT / "tests"]
    return any(target.startswith(str(path)) for path in paths)


def start_in_background() -> subprocess.Popen | None:
    """Start the build in its own process group unless it is already done."""
    if (CACHE / source_key() / ".built").exists():
        return None
    CACHE.mkdir(parents=True, exist_ok=True)
    log = open(CACHE / "background.log", "w")  # noqa: SIM115 (the child writes into it)
    with log:
        return subprocess.Popen([sys.executable, "-m", "tests.compiled_build"], cwd=ROOT,
                                stdout=log, stderr=subprocess.STDOUT, start_new_session=True)


def stop(process: subprocess.Popen | None) -> None:
    """End a background build still running (the session ended without needing it): an
    unfinished build has no ``.built`` mark and is redone by the next session."""
    if process is not None and process.poll() is None:
        os.killpg(process.pid, signal.SIGTERM)
        process.wait()


if __name__ == "__main__":
    try:
        print(ensure_built())
    except subprocess.CalledProcessError as error:  # the test's fixture reports it
        sys.exit(f"mypyc failed:\n{error.stdout}\n{error.stderr}")
