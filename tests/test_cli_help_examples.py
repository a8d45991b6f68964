"""Every example in ``accord --help`` and each command's ``--help`` runs as written from
the repository root (outputs written to a temporary folder).

``check`` may exit 1 (rejected): a decision, not a failure; any other command exits 0.
"""

from __future__ import annotations

import shlex
from pathlib import Path

import pytest
from click.testing import CliRunner

from accord.cli import main

ROOT = Path(__file__).resolve().parents[1]


def _help(args: list[str]) -> str:
    out = CliRunner().invoke(main, [*args, "--help"])
    assert out.exit_code == 0, out.output
    return out.output


def _examples(text: str) -> list[str]:
    """Lines starting with ``accord``, with their ``\\`` continuation lines joined."""
    out: list[str] = []
    joining = False
    for raw in text.splitlines():
        line = raw.strip()
        if joining:
            out[-1] = out[-1].rstrip("\\").rstrip() + " " + line
        elif line.startswith("accord "):
            out.append(line)
        joining = bool(out) and out[-1].endswith("\\") and (joining or line.startswith("accord "))
    return out


def _all() -> list[tuple[str, str]]:
    found = [("accord", line) for line in _examples(_help([]))]
    for name in sorted(main.commands):  # type: ignore[attr-defined]
        found += [(name, line) for line in _examples(_help([name]))]
    return found


def needs_a_cluster(line: str) -> bool:
    """An example that names a running cluster (``--scheduler``, ``--master``): it runs in
    the cluster lane, against that lane's cluster (tests/test_guide_scaling_out.py)."""
    return "--scheduler" in line.split() or "--master" in line.split()


EVERY = _all()
EXAMPLES = [(w, line) for w, line in EVERY if not needs_a_cluster(line)]


def test_every_command_shows_examples() -> None:
    shown = {name for name, _ in EVERY}
    assert shown >= {"accord", *main.commands}  # type: ignore[attr-defined]


@pytest.mark.parametrize("where,line", EXAMPLES, ids=[f"{w}:{i}" for i, (w, _) in
                                                       enumerate(EXAMPLES)])
def test_help_example_runs(where: str, line: str, tmp_path: Path,
                           monkeypatch: pytest.MonkeyPatch) -> None:
    args = shlex.split(line)[1:]
    for i, word in enumerate(args[:-1]):
        if word in ("-o", "--output", "--record") and args[i + 1] != "-":
            args[i + 1] = str(tmp_path / Path(args[i + 1]).name)
    monkeypatch.chdir(ROOT)
    result = CliRunner().invoke(main, args)
    allowed = (0, 1) if args[0] == "check" else (0,)
    assert result.exit_code in allowed, f"{line!r} exited {result.exit_code}: " \
        f"{result.output[-1500:]}"
