"""The engines lane: `.ci/install-java`, `make test-engines`, and failing (not skipping) under CI.

`.ci/install-java` runs against stub commands (``id``, ``apt-get``, ``sleep``) on a PATH
of their own, so nothing is installed.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests._apt_stubs import run_script, stub_path

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / ".ci" / "install-java"


needs_bash = pytest.mark.skipif(shutil.which("bash") is None, reason="needs bash")


def _stubs(tmp_path: Path, *, uid: int, installs: bool) -> dict[str, str]:
    env = stub_path(tmp_path, uid=uid, program="java" if installs else None)
    return {**env}


def run(env: dict[str, str], **extra: str) -> subprocess.CompletedProcess[str]:
    return run_script(SCRIPT, env, **extra)


@needs_bash
def test_waits_for_the_lists_lock_then_installs_debian_java(tmp_path: Path) -> None:
    out = run(_stubs(tmp_path, uid=0, installs=True), CI="1")
    assert out.returncode == 0, out.stderr
    assert "locked by another process; waiting" in out.stderr
    calls = (tmp_path / "apt.log").read_text().splitlines()
    assert [c.split()[-1] for c in calls] == ["update", "update", "default-jre-headless"]
    assert all("DPkg::Lock::Timeout=600" in c for c in calls)


@needs_bash
def test_under_ci_java_that_cannot_be_had_is_a_failure(tmp_path: Path) -> None:
    env = _stubs(tmp_path, uid=1000, installs=False)
    failed = run(env, CI="true")
    assert failed.returncode == 1 and "CI is set" in failed.stderr
    skipped = run(env)
    assert skipped.returncode == 0 and "will skip" in skipped.stderr
    assert not (tmp_path / "apt.log").exists()  # not root: apt-get is never called


@needs_bash
def test_under_ci_an_install_that_fails_is_a_failure(tmp_path: Path) -> None:
    out = run(_stubs(tmp_path, uid=0, installs=False), CI="1")
    assert out.returncode == 1 and "could not be installed" in out.stderr


def test_engine_tests_fail_instead_of_skipping_under_ci(monkeypatch: pytest.MonkeyPatch) -> None:
    from tests import test_engines_distributed as lane

    monkeypatch.setattr(lane, "IN_CI", True)
    with pytest.raises(pytest.fail.Exception, match="duckdb is not available.*CI is set"):
        lane._unavailable("duckdb", "No module named 'duckdb'")
    monkeypatch.setattr(lane, "IN_CI", False)
    with pytest.raises(pytest.skip.Exception, match="install the 'engines' extra"):
        lane._unavailable("duckdb", "No module named 'duckdb'")


def test_the_lane_is_wired_into_make_and_ci() -> None:
    makefile = (ROOT / "Makefile").read_text()
    assert re.search(r"^test-engines: .*\bjava\b", makefile, re.M)
    assert "pytest -q -m engines tests" in makefile
    assert "bash .ci/install-java" in makefile
    steps = [line for line in (ROOT / ".ci" / "run").read_text().splitlines()
             if line.startswith("make ")]
    lanes = ["make test", "make test-slow", "make test-engines"]
    assert [s for s in steps if s in lanes] == lanes  # other steps (docs, dist) may come between
    if sys.version_info >= (3, 11):
        import tomllib

        project = tomllib.loads((ROOT / "pyproject.toml").read_text())
        pytest_opts = project["tool"]["pytest"]["ini_options"]
        assert "not engines" in pytest_opts["addopts"]
        extra = " ".join(project["project"]["optional-dependencies"]["engines"])
        for name in ("duckdb", "dask[dataframe]", "distributed", "pyspark", "pyarrow"):
            assert name in extra
        assert not any(n.split(">")[0] in ("duckdb", "dask", "distributed", "pyspark")
                       for n in project["project"]["dependencies"])
