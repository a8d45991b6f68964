"""`make demo` installs accord alone; `make test` adds the extras, also after `make demo`.

Checked with ``make -n`` (print, do not run) in a copy of the Makefile whose
virtualenv is a stub, so nothing is installed.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

pytestmark = pytest.mark.skipif(shutil.which("make") is None, reason="make is not installed")


@pytest.fixture
def checkout(tmp_path: Path) -> Path:
    for name in ("Makefile", "pyproject.toml"):
        shutil.copy(ROOT / name, tmp_path / name)
    (tmp_path / ".venv" / "bin").mkdir(parents=True)
    (tmp_path / ".venv" / "bin" / "python").touch()
    return tmp_path


def dry_run(where: Path, target: str) -> str:
    return subprocess.run(["make", "-n", target], cwd=where, capture_output=True, text=True,
                          check=True).stdout


def installs(plan: str) -> list[str]:
    return re.findall(r"pip install --quiet (.+)", plan)


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
