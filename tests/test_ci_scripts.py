"""`.ci/install-browser` waits for apt's locks, and under CI a missing browser fails.

The script runs against stub commands (``id``, ``apt-get``, ``sleep``) on a PATH of
their own, so nothing is installed.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / ".ci" / "install-browser"

APT_GET = """#!/bin/bash
echo "$@" >> "{log}"
case " $* " in
  *" update "*)
    if [ ! -e "{held}" ]; then : > "{held}"
      echo "E: Could not get lock /var/lib/apt/lists/lock. It is held by process 42" >&2
      exit 100
    fi ;;
  *" install "*)
    {install} ;;
esac
exit 0
"""


def _stubs(tmp_path: Path, *, uid: int, installs: bool) -> dict[str, str]:
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    log, held = tmp_path / "apt.log", tmp_path / "held"
    make_chromium = (f'printf "#!/bin/bash\\n" > "{bin_dir}/chromium"; '
                     f'chmod +x "{bin_dir}/chromium"') if installs else "exit 100"
    stubs = {"apt-get": APT_GET.format(log=log, held=held, install=make_chromium),
             "id": f"#!/bin/bash\necho {uid}\n", "sleep": "#!/bin/bash\nexit 0\n"}
    for name, text in stubs.items():
        (bin_dir / name).write_text(text)
        (bin_dir / name).chmod(0o755)
    for tool in ("grep", "chmod", "printf"):
        found = shutil.which(tool)
        if found:
            (bin_dir / tool).symlink_to(found)
    return {"PATH": str(bin_dir), "CHROMIUM": str(tmp_path / "no-chromium"),
            "HOME": str(tmp_path)}


def run(env: dict[str, str], **extra: str) -> subprocess.CompletedProcess[str]:
    bash = shutil.which("bash") or "/bin/bash"
    return subprocess.run([bash, str(SCRIPT)], env={**env, **extra}, capture_output=True,
                          text=True, timeout=60)


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

