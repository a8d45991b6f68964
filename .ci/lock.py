"""The lock of the development tools: ``constraints.txt``, made by ``make lock``, read by every ``make`` target.

accord's runtime dependencies stay ranges in ``pyproject.toml``: users install accord into
environments of their own. The tools that build, test and document it (pytest, hypothesis,
ruff, mypy, mkdocs and its plugins, playwright, the peers the tests compare with, the engines)
are pinned here, so that a release of one of them cannot turn a clean checkout red overnight.

    python3 .ci/lock.py make VENV     write constraints.txt from VENV (a fresh venv with every extra)
    python3 .ci/lock.py check PYTHON  say whether constraints.txt fits pyproject.toml and PYTHON

The header of constraints.txt records the Python it was made with and a checksum of
pyproject.toml's dependency lists; ``check`` compares both and says which command refreshes
the lock when they differ. A missing lock, or one made for other dependency lists, stops
``make``; another Python version is only noted, since most pins install there too.
"""

from __future__ import annotations

import hashlib
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LOCK = ROOT / "constraints.txt"
PYPROJECT = ROOT / "pyproject.toml"
# the build backend comes from [build-system] in an isolated environment; pinning the venv's
# own copy here would only clash with it
UNPINNED = {"setuptools", "wheel"}


def dependency_text() -> str:
    """The part of pyproject.toml that decides what is installed: [project] dependencies and extras."""
    text = PYPROJECT.read_text(encoding="utf-8")
    match = re.search(r"^dependencies = \[.*?(?=^\[project\.scripts\])", text, re.M | re.S)
    if match is None:
        sys.exit("pyproject.toml has no 'dependencies = [' ... '[project.scripts]' block to checksum")
    return match.group(0)


def checksum() -> str:
    return hashlib.sha256(dependency_text().encode("utf-8")).hexdigest()[:16]


def python_version(python: str) -> str:
    out = subprocess.run([python, "-c", "import sys; print('%d.%d' % sys.version_info[:2])"],
                         capture_output=True, text=True, check=True)
    return out.stdout.strip()


def header_field(name: str) -> str | None:
    for line in LOCK.read_text(encoding="utf-8").splitlines():
        if line.startswith(f"# {name}: "):
            return line.split(": ", 1)[1].strip()
    return None


def make(venv: str) -> None:
    python = str(Path(venv) / "bin" / "python")
    frozen = subprocess.run([python, "-m", "pip", "freeze", "--all", "--exclude-editable"],
                            capture_output=True, text=True, check=True).stdout.splitlines()
    pins = sorted((line for line in frozen
                   if line and line.split("==")[0].lower() not in UNPINNED),
                  key=str.lower)
    full = subprocess.run([python, "-c", "import sys; print(sys.version.split()[0])"],
                          capture_output=True, text=True, check=True).stdout.strip()
    lines = [
        "# The development tools and test oracles, pinned: every make target installs with this file",
        "# (pip install -c constraints.txt). Made by `make lock` from a fresh virtualenv with every",
        "# extra of pyproject.toml; do not edit by hand. The runtime dependencies stay ranges in",
        "# pyproject.toml; this pins the versions the suite was last run with.",
        f"# python: {python_version(python)} ({full})",
        f"# pyproject-dependencies: {checksum()}",
        *pins,
    ]
    LOCK.write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(f"wrote {LOCK.name}: {len(pins)} pins for Python {full}")


def check(python: str) -> int:
    if not LOCK.exists():
        print("constraints.txt is missing: run `make lock` to make it (it pins the development "
              "tools that every make target installs)", file=sys.stderr)
        return 1
    if header_field("pyproject-dependencies") != checksum():
        print("constraints.txt is stale: the dependency lists in pyproject.toml changed since it "
              "was made; run `make lock` to refresh it", file=sys.stderr)
        return 1
    made_for, here = header_field("python"), python_version(python)
    if made_for is not None and made_for.split()[0] != here:
        print(f"note: constraints.txt was made on Python {made_for.split()[0]} and this is Python "
              f"{here}; if a pinned version does not install here, `make lock` makes a lock for "
              "this Python", file=sys.stderr)
    return 0


def main(argv: list[str]) -> int:
    if len(argv) == 2 and argv[0] == "make":
        make(argv[1])
        return 0
    if len(argv) == 2 and argv[0] == "check":
        return check(argv[1])
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
