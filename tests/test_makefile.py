"""`make demo` installs accord alone; `make test` adds the extras, also after `make demo`;
every install is constrained by the lock, constraints.txt, which must fit pyproject.toml.

The install plans are checked with ``make -n`` (print, do not run) in a copy of the
Makefile whose virtualenv is a stub, so nothing is installed.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

pytestmark = pytest.mark.skipif(shutil.which("make") is None, reason="make is not installed")


@pytest.fixture
def checkout(tmp_path: Path) -> Path:
    for name in ("Makefile", "pyproject.toml", "constraints.txt"):
        shutil.copy(ROOT / name, tmp_path / name)
    (tmp_path / ".ci").mkdir()
    shutil.copy(ROOT / ".ci" / "lock.py", tmp_path / ".ci" / "lock.py")
    (tmp_path / ".venv" / "bin").mkdir(parents=True)
    (tmp_path / ".venv" / "bin" / "python").touch()
    return tmp_path


def dry_run(where: Path, target: str) -> str:
    return subprocess.run(["make", "-n", target], cwd=where, capture_output=True, text=True,
                          check=True).stdout


def installs(plan: str) -> list[str]:
    """What each pip install of the plan installs; every one must go through the lock."""
    found = re.findall(r"pip install --quiet (.+)", plan)
    assert all(f.startswith("-c constraints.txt ") for f in found), found
    return [f.removeprefix("-c constraints.txt ") for f in found if "--upgrade pip" not in f]


def stamps(plan: str) -> list[str]:
    return [s for line in re.findall(r"^touch (.+)$", plan, re.M) for s in line.split()]


def test_demo_installs_no_extras(checkout: Path) -> None:
    assert installs(dry_run(checkout, "demo")) == ["-e ."]


def test_test_after_demo_installs_the_extras_and_demo_after_test_nothing(checkout: Path) -> None:
    for stamp in stamps(dry_run(checkout, "demo")):
        (checkout / stamp).touch()  # as if `make demo` had run
    plan = dry_run(checkout, "test")
    assert installs(plan) == ["-e '.[test,bench]'"]
    for stamp in stamps(plan):
        (checkout / stamp).touch()
    assert installs(dry_run(checkout, "demo")) == []
    assert installs(dry_run(checkout, "test")) == []


def test_a_changed_pyproject_reinstalls(checkout: Path) -> None:
    for stamp in stamps(dry_run(checkout, "test")):
        (checkout / stamp).touch()
    with open(checkout / "pyproject.toml", "a", encoding="utf-8") as fh:
        fh.write("\n# changed\n")
    assert installs(dry_run(checkout, "demo")) == ["-e ."]


def lock_check(where: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(where / ".ci" / "lock.py"), "check", sys.executable],
                          capture_output=True, text=True)


def test_the_lock_fits_pyproject() -> None:
    """A change to the dependency lists of pyproject.toml needs `make lock` in the same
    commit: this fails until constraints.txt is made again."""
    done = lock_check(ROOT)
    assert done.returncode == 0, done.stderr


def test_a_stale_or_missing_lock_names_the_command_that_refreshes_it(checkout: Path) -> None:
    text = (checkout / "pyproject.toml").read_text(encoding="utf-8")
    (checkout / "pyproject.toml").write_text(text.replace('"numpy>=1.24"', '"numpy>=1.25"'),
                                             encoding="utf-8")
    stale = lock_check(checkout)
    assert stale.returncode == 1
    assert stale.stderr.strip() == ("constraints.txt is stale: the dependency lists in "
                                    "pyproject.toml changed since it was made; run `make lock` "
                                    "to refresh it")
    (checkout / "constraints.txt").unlink()
    missing = lock_check(checkout)
    assert missing.returncode == 1 and "run `make lock` to make it" in missing.stderr
    plan = subprocess.run(["make", "demo"], cwd=checkout, capture_output=True, text=True)
    assert plan.returncode != 0 and "run `make lock`" in plan.stderr


def test_a_change_outside_the_dependency_lists_keeps_the_lock(checkout: Path) -> None:
    with open(checkout / "pyproject.toml", "a", encoding="utf-8") as fh:
        fh.write("\n# changed\n")
    assert lock_check(checkout).returncode == 0


def test_the_lock_pins_every_tool_and_names_its_python() -> None:
    lines = (ROOT / "constraints.txt").read_text(encoding="utf-8").splitlines()
    pins = dict(line.split("==") for line in lines if line and not line.startswith("#"))
    for tool in ("pytest", "hypothesis", "ruff", "mypy", "mkdocs", "mkdocs-material",
                 "mkdocstrings-python", "playwright", "crowd-kit", "scikit-learn", "pip"):
        assert re.fullmatch(r"\d+(\.\w+)*", pins[tool]), (tool, pins.get(tool))
    assert any(re.fullmatch(r"# python: 3\.\d+ \(3\.\d+\.\d+\)", line) for line in lines)
