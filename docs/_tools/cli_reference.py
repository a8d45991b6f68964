"""Write docs/reference/cli.md from the click commands: ``python docs/_tools/cli_reference.py``.

The page is checked in, and tests/test_docs.py fails when it differs from what this
script writes, so an option added to a command without regenerating the page is caught.
The help is formatted at a fixed width, so the page does not depend on the terminal.
"""

from __future__ import annotations

import sys
from pathlib import Path

import click

ROOT = Path(__file__).resolve().parents[2]
PAGE = ROOT / "docs" / "reference" / "cli.md"
WIDTH = 88

INTRO = """\
# CLI reference

Every `accord` command and subcommand with its `--help`, generated from the click
commands by `docs/_tools/cli_reference.py` (`tests/test_docs.py` fails when this page is
stale: rerun the script). Conventions shared by all commands (how several values are
passed, exit statuses, what accord guesses) are in
[Command-line conventions](command-line.md).
"""


def _commands(group: click.Group, ctx: click.Context) -> list[tuple[str, click.Command]]:
    return [(name, cmd) for name in group.list_commands(ctx)
            if (cmd := group.get_command(ctx, name)) is not None and not cmd.hidden]


def _section(path: list[str], cmd: click.Command, parent: click.Context | None) -> list[str]:
    settings = {**cmd.context_settings, "terminal_width": WIDTH, "max_content_width": WIDTH}
    ctx = click.Context(cmd, info_name=path[-1], parent=parent, **settings)
    level = "#" * min(len(path) + 1, 4)
    out = [f"{level} {' '.join(path)}", "", "```text", cmd.get_help(ctx).rstrip(), "```", ""]
    if isinstance(cmd, click.Group):
        for name, sub in _commands(cmd, ctx):
            out += _section([*path, name], sub, ctx)
    return out


def render() -> str:
    """The page, as the commands describe themselves now."""
    from accord.cli import main

    return INTRO + "\n" + "\n".join(_section(["accord"], main, None)).rstrip() + "\n"


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT / "src"))
    PAGE.write_text(render(), encoding="utf-8")
    print(f"wrote {PAGE.relative_to(ROOT)}")
