"""The README's examples run and print what the README says they print."""

from __future__ import annotations

import contextlib
import io
import re
import shlex
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
BLOCKS = re.findall(r"```python\n(.*?)```", README.read_text(encoding="utf-8"), re.S)
SHELL_DOCS = [README, ROOT / "examples" / "README.md"]

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib


def _shell_lines() -> list[tuple[str, str]]:
    """Every command line of the shell blocks (fences without a language, or sh/bash)."""
    out = []
    for doc in SHELL_DOCS:
        fence: str | None = None  # the language of the open block, "" for none
        for line in doc.read_text(encoding="utf-8").splitlines():
            if line.startswith("```"):
                fence = line[3:].strip() if fence is None else None
            elif fence in ("", "sh", "bash", "shell") and line.strip():
                out.append((doc.relative_to(ROOT).as_posix(), line))
    return out


SHELL = _shell_lines()


def _expected(block: str) -> list[str]:
    """Comment lines right after a print(...) line are that print's expected output."""
    out, after_print = [], False
    for line in block.splitlines():
        if line.startswith("# ") and after_print:
            out.append(line[2:])
            continue
        after_print = line.lstrip().startswith("print(")
    return out


@pytest.mark.parametrize("block", BLOCKS, ids=[f"block{i}" for i in range(len(BLOCKS))])
def test_readme_python_block_runs_and_prints_what_it_says(block: str) -> None:
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        exec(compile(block, str(README), "exec"), {})  # noqa: S102 - our own README
    printed = buf.getvalue().splitlines()
    expected = _expected(block)
    it = iter(printed)
    for line in expected:
        assert any(p.strip() == line.strip() for p in it), (
            f"README promises {line!r}; got {printed}"
        )


def _split(line: str) -> tuple[list[str], int]:
    """The words of a command line and the exit status it documents (``# exit 1``)."""
    command, _, comment = line.partition(" #")
    status = re.search(r"\bexit (\d)", comment)
    return shlex.split(command), int(status.group(1)) if status else 0


@pytest.mark.parametrize("doc,line", SHELL, ids=[f"{d}:{i}" for i, (d, _) in enumerate(SHELL)])
def test_readme_shell_line_runs_as_written(doc: str, line: str, tmp_path: Path,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    """``accord`` lines run through the CLI from the repository root (outputs go to a
    temporary folder); ``make``, ``pip`` and ``source`` lines name targets, extras and
    files that exist; any other command is an error here."""
    words, status = _split(line)
    program, args = words[0], words[1:]
    if program in ("accord", ".venv/bin/accord"):
        from click.testing import CliRunner

        from accord.cli import main

        for i, word in enumerate(args[:-1]):
            if word in ("-o", "--output", "--record") and args[i + 1] != "-":
                args[i + 1] = str(tmp_path / Path(args[i + 1]).name)
        monkeypatch.chdir(ROOT)
        result = CliRunner().invoke(main, args)
        assert result.exit_code == status, f"{doc}: {line!r} exited {result.exit_code}: " \
            f"{result.output[-2000:]}"
        return
    if program == "make":
        targets = re.findall(r"^([\w-]+):", (ROOT / "Makefile").read_text(), re.M)
        assert all(t in targets for t in args), f"{doc}: {line!r}: no such make target"
    elif program == "pip":
        assert args[0] == "install", line
        extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"][
            "optional-dependencies"]
        for spec in (a for a in args[1:] if not a.startswith("-")):
            path, _, named = spec.partition("[")
            assert (ROOT / path).joinpath("pyproject.toml").exists(), line
            for extra in named.rstrip("]").split(",") if named else []:
                assert extra in extras, f"{doc}: {line!r}: no extra {extra!r}"
    elif program == "source":
        assert args == [".venv/bin/activate"], line  # what `make demo` creates
    elif program == "python":
        assert (ROOT / args[0]).exists(), line
    else:
        pytest.fail(f"{doc}: {line!r}: a shell line this test does not know how to check")


def test_readme_has_the_two_setup_commands() -> None:
    text = README.read_text(encoding="utf-8")
    assert "make demo" in text and "make test" in text


def test_readme_has_python_examples() -> None:
    assert len(BLOCKS) >= 3
