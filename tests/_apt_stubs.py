"""Stub commands (``id``, ``apt-get``, ``sleep``) for the project's install scripts.

The scripts under ``.ci/`` run against these on a PATH of their own, so nothing is
installed: ``apt-get update`` first reports its lists lock held, then succeeds, and
``apt-get install`` puts a stub of the installed program on the PATH, or fails.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

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


def stub_path(tmp_path: Path, *, uid: int, program: str | None) -> dict[str, str]:
    """An environment whose PATH holds the stubs; ``apt-get install`` makes ``program``
    (``None``: the install fails). The calls are logged to ``tmp_path / "apt.log"``."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    log, held = tmp_path / "apt.log", tmp_path / "held"
    install = (f'printf "#!/bin/bash\\nexit 0\\n" > "{bin_dir}/{program}"; '
               f'chmod +x "{bin_dir}/{program}"') if program else "exit 100"
    stubs = {"apt-get": APT_GET.format(log=log, held=held, install=install),
             "id": f"#!/bin/bash\necho {uid}\n", "sleep": "#!/bin/bash\nexit 0\n"}
    for name, text in stubs.items():
        (bin_dir / name).write_text(text)
        (bin_dir / name).chmod(0o755)
    for tool in ("grep", "chmod", "printf"):
        found = shutil.which(tool)
        if found:
            (bin_dir / tool).symlink_to(found)
    return {"PATH": str(bin_dir), "HOME": str(tmp_path)}


def run_script(script: Path, env: dict[str, str], **extra: str
               ) -> subprocess.CompletedProcess[str]:
    """Run an install script with ``env`` (plus ``extra``) and nothing else."""
    bash = shutil.which("bash") or "/bin/bash"
    return subprocess.run([bash, str(script)], env={**env, **extra}, capture_output=True,
                          text=True, timeout=60)
