"""`.ci/install-browser` waits for apt's locks, and under CI a missing browser fails.

The script runs against stub commands (``id``, ``apt-get``, ``sleep``) on a PATH of
their own, so nothing is installed.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from tests._apt_stubs import run_script, stub_path

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / ".ci" / "install-browser"


def _stubs(tmp_path: Path, *, uid: int, installs: bool) -> dict[str, str]:
    env = stub_path(tmp_path, uid=uid, program="chromium" if installs else None)
    return {**env, "CHROMIUM": str(tmp_path / "no-chromium")}


def run(env: dict[str, str], **extra: str) -> subprocess.CompletedProcess[str]:
    return run_script(SCRIPT, env, **extra)


pytestmark = pytest.mark.skipif(shutil.which("bash") is None, reason="needs bash")


def test_waits_for_the_lists_lock_then_installs(tmp_path: Path) -> None:
    out = run(_stubs(tmp_path, uid=0, installs=True), CI="1")
    assert out.returncode == 0, out.stderr
    assert "locked by another process; waiting" in out.stderr
    calls = (tmp_path / "apt.log").read_text().splitlines()
    assert [c.split()[-1] for c in calls] == ["update", "update", "chromium"]
    assert all("DPkg::Lock::Timeout=600" in c for c in calls)  # dpkg's lock too


def test_under_ci_a_browser_that_cannot_be_had_is_a_failure(tmp_path: Path) -> None:
    env = _stubs(tmp_path, uid=1000, installs=False)
    failed = run(env, CI="true")
    assert failed.returncode == 1 and "CI is set" in failed.stderr
    skipped = run(env)
    assert skipped.returncode == 0 and "will skip" in skipped.stderr


def test_under_ci_an_install_that_fails_is_a_failure(tmp_path: Path) -> None:
    out = run(_stubs(tmp_path, uid=0, installs=False), CI="1")
    assert out.returncode == 1 and "could not be installed" in out.stderr


def test_browser_test_fails_instead_of_skipping_under_ci(monkeypatch: pytest.MonkeyPatch) -> None:
    from tests.test_html_browser import _unavailable

    monkeypatch.setenv("CI", "true")
    with pytest.raises(pytest.fail.Exception, match="CI is set"):
        _unavailable("no Chromium found")
    monkeypatch.setenv("CI", "")
    with pytest.raises(pytest.skip.Exception):
        _unavailable("no Chromium found")

