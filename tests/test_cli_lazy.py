"""``accord`` imports only the module of the command that runs; ``accord --help`` lists
every command from a stored table, which must say what the commands themselves say."""

from __future__ import annotations

import importlib
import json
import pkgutil
import subprocess
import sys
from pathlib import Path

import click
import pytest

import accord.cli
from accord.cli import main
from accord.cli._commands import COMMANDS
from tests.conftest import run_cli

ROOT = Path(__file__).resolve().parents[1]
SRC = str(ROOT / "src")
PILOT = str(ROOT / "examples" / "pilot.csv")


def _defined() -> dict[str, tuple[str, click.Command]]:
    """Every top-level command that a public module of accord.cli defines."""
    for info in pkgutil.iter_modules(accord.cli.__path__):
        if not info.name.startswith("_"):
            importlib.import_module(f"accord.cli.{info.name}")
    return {name: (cmd.callback.__module__ if cmd.callback else "", cmd)
            for name, cmd in main.commands.items()}


def test_the_table_holds_every_command_and_where_it_is_defined() -> None:
    defined = _defined()
    assert sorted(defined) == sorted(COMMANDS)
    for name, (module, _) in defined.items():
        assert module == f"accord.cli.{COMMANDS[name][0][0]}", name


@pytest.mark.parametrize("name", sorted(COMMANDS))
@pytest.mark.parametrize("limit", [20, 45, 56, 80, 10_000])
def test_the_stored_short_help_is_the_commands_own(name: str, limit: int) -> None:
    real = main.commands[name].get_short_help_str(limit)
    stored = click.Command(name, help=COMMANDS[name][1]).get_short_help_str(limit)
    assert stored == real


def test_judge_has_all_its_subcommands() -> None:
    judge = main.commands["judge"]
    assert isinstance(judge, click.Group)
    assert {"alt", "bias", "rank", "consistency", "calibration", "ppi", "panel"} <= set(
        judge.commands)


def test_help_lists_every_command_with_its_short_help() -> None:
    code, out, _ = run_cli("--help")
    assert code == 0
    listed = out[out.index("\nCommands:\n"):].splitlines()[2:]
    assert [line.split()[0] for line in listed if line.strip()] == sorted(COMMANDS)
    assert "  compute        Compute agreement coefficients for DATA." in listed


def _cli_modules_after(*args: str) -> list[str]:
    probe = ("import sys, json, runpy\n"
             f"sys.argv = ['accord', *{list(args)!r}]\n"
             "try:\n    runpy.run_module('accord', run_name='__main__')\n"
             "except SystemExit:\n    pass\n"
             "print(json.dumps(sorted(m for m in sys.modules if m.startswith('accord.cli.')"
             " and not m.startswith('accord.cli._'))), file=sys.stderr)")
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                         check=True, env={"PYTHONPATH": SRC, "PATH": ""})
    return list(json.loads(out.stderr.splitlines()[-1]))


def test_a_command_imports_its_own_module_only() -> None:
    assert _cli_modules_after("compute", PILOT, "--raters", "annotator_a",
                              "annotator_b") == ["accord.cli.compute"]
    assert _cli_modules_after("--help") == []
    assert _cli_modules_after("judge", "--help") == ["accord.cli.judge", "accord.cli.judge_lab"]
