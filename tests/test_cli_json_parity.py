"""Every figure the console shows is in the JSON, with its interval, under stable names.

Every example of every command's ``--help`` (judge's subcommands included) runs with
``--json``: the document parses, validates against the command's schema, has its
``results``, names every interval ``confidence_interval``, gives every figure with an
``se`` its interval, has no key holding a figure or display text (nor, anywhere, a key
with a space: a reason for dropping is a value), and keeps agreement
fields within [-1, 1]. Then the same example without ``--json``: every interval the
console prints is in the JSON, the same at the console's rounding.
"""

from __future__ import annotations

import json
import re
import shlex
from collections.abc import Iterator
from importlib.resources import files
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from click.testing import CliRunner

from accord.cli import main
from accord.cli._json import FIGURE_KEY, RETIRED
from tests.conftest import CLI_ENV
from tests.test_cli_help_examples import _examples, _help, needs_a_cluster

ROOT = Path(__file__).resolve().parents[1]


def _all() -> list[tuple[str, str]]:
    found: list[tuple[str, str]] = []
    for name in sorted(main.commands):  # type: ignore[attr-defined]
        found += [(name, line) for line in _examples(_help([name]))]
        for sub in sorted(getattr(main.commands[name], "commands", {})):  # type: ignore[attr-defined]
            found += [(f"{name} {sub}", line) for line in _examples(_help([name, sub]))]
    return [(where, line) for where, line in found if not needs_a_cluster(line)]


EXAMPLES = _all()  # those naming a running cluster run in the cluster lane
IDS = [f"{w}:{i}" for i, (w, _) in enumerate(EXAMPLES)]


def _args(line: str, tmp_path: Path, *, as_json: bool) -> list[str]:
    """The example's arguments: files it writes go to ``tmp_path``; with ``as_json`` an
    ``-o FILE`` (another output than the JSON) is left out and ``--json`` added."""
    words = shlex.split(line)[1:]
    out: list[str] = []
    skip = False
    for i, word in enumerate(words):
        nxt = words[i + 1] if i + 1 < len(words) else None
        if skip or word == "--json":
            skip = False
        elif word in ("-o", "--output") and nxt not in (None, "-"):
            skip = True
        elif word in ("--record", "--report") and nxt is not None:
            out += [word, str(tmp_path / Path(nxt).name)]
            skip = True
        else:
            out.append(word)
    return [*out, "--json"] if as_json else out


def _run(args: list[str], monkeypatch: pytest.MonkeyPatch) -> tuple[int, str]:
    monkeypatch.chdir(ROOT)
    result = CliRunner(env=CLI_ENV).invoke(main, args)
    return result.exit_code, result.stdout


def _schema(command: str) -> dict[str, Any]:
    text = files("accord.cli").joinpath("schemas", f"{command.replace(' ', '_')}.json")
    doc: dict[str, Any] = json.loads(text.read_text(encoding="utf-8"))
    return doc


def _is_figure(d: dict[str, Any]) -> bool:
    return "estimate" in d and ("coefficient" in d or "figure" in d)


def _objects(doc: Any, path: str = "") -> Iterator[tuple[str, dict[str, Any]]]:
    if isinstance(doc, dict):
        yield path, doc
        for k, v in doc.items():
            yield from _objects(v, f"{path}/{k}")
    elif isinstance(doc, list):
        for i, v in enumerate(doc):
            yield from _objects(v, f"{path}[{i}]")


def problems(doc: dict[str, Any]) -> list[str]:
    """What breaks the rules of one shape in a document (empty when none)."""
    out: list[str] = []
    if "results" not in doc:
        out.append("no results")
    named = [("", doc), *(("results", r) for r in doc.get("results", []) if isinstance(r, dict))]
    named += [(p, d) for p, d in _objects(doc) if _is_figure(d)]
    for path, d in named:
        out += [f"{path}: key {k!r}" for k in d if not re.match(FIGURE_KEY, k.lstrip("$"))]
        out += [f"{path}: retired key {k!r}" for k in set(d) & RETIRED]
    for path, d in _objects(doc):
        out += [f"{path}: key {k!r} has a space" for k in d if re.search(r"\s", k)]
        for k, v in d.items():
            if isinstance(v, dict) and {"low", "high"} <= set(v) and k != "confidence_interval":
                out.append(f"{path}: interval named {k!r}")
        if d.get("se") is not None and "confidence_interval" not in d:
            out.append(f"{path}: se without confidence_interval")
        ci = d.get("confidence_interval")
        if isinstance(ci, dict) and not {"low", "high", "confidence_level", "method"} <= set(ci):
            out.append(f"{path}: confidence_interval without low, high, its level and method")
        for k in ("observed_agreement", "expected_agreement"):
            if isinstance(d.get(k), (int, float)) and not -1 <= d[k] <= 1:
                out.append(f"{path}: {k} = {d[k]}")
    return list(dict.fromkeys(out))


@pytest.mark.parametrize("where,line", EXAMPLES, ids=IDS)
def test_help_example_json_has_one_shape(where: str, line: str, tmp_path: Path,
                                         monkeypatch: pytest.MonkeyPatch) -> None:
    code, out = _run(_args(line, tmp_path, as_json=True), monkeypatch)
    doc = json.loads(out)
    assert code in ((0, 1) if where == "check" else (0,)), doc
    assert (list(doc)[:2] == ["schema_version", "command"]
            or list(doc)[1:3] == ["schema_version", "command"]), list(doc)[:3]
    assert doc["command"] == ("judge alt" if where == "judge" else where)
    jsonschema.validate(doc, _schema(doc["command"]), cls=jsonschema.Draft202012Validator)
    assert problems(doc) == []


_NUMBER = r"-?\d+\.\d+"
#: An interval on the console: "[0.59, 0.83]", "CI 0.59 to 0.83" or a table cell
#: "0.59 to 0.83", "CI 0.59-0.83", with "%" after each limit when the console shows a share
#: as a percentage. (A sentence's "from 0.18 to 0.11" or a range of figures is no interval.)
_INTERVALS = [re.compile(rf"\[({_NUMBER})(%?), ({_NUMBER})%?\]"),
              re.compile(rf"(?:CI |[│|] *)({_NUMBER})(%?) to ({_NUMBER})%?"),
              re.compile(rf"CI ({_NUMBER})(%?)-({_NUMBER})%?")]


def _console_intervals(text: str) -> set[tuple[str, str, bool]]:
    return {(m.group(1), m.group(3), m.group(2) == "%") for rx in _INTERVALS
            for m in rx.finditer(text)}


def _json_intervals(doc: Any) -> list[tuple[float, float]]:
    return [(d["confidence_interval"]["low"], d["confidence_interval"]["high"])
            for _, d in _objects(doc) if isinstance(d.get("confidence_interval"), dict)
            and d["confidence_interval"].get("low") is not None]


def _rounded(x: float, like: str, percent: bool) -> str:
    digits = len(like.split(".")[1])
    return f"{x * (100 if percent else 1):.{digits}f}"


@pytest.mark.parametrize("where,line", EXAMPLES, ids=IDS)
def test_every_interval_on_the_console_is_in_the_json(where: str, line: str, tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    _, shown = _run(_args(line, tmp_path, as_json=False), monkeypatch)
    _, out = _run(_args(line, tmp_path, as_json=True), monkeypatch)
    given = _json_intervals(json.loads(out))
    missing = [(lo, hi) for lo, hi, pct in sorted(_console_intervals(shown))
               if not any(_rounded(a, lo, pct) == lo and _rounded(b, hi, pct) == hi
                          for a, b in given)]
    assert missing == [], f"{line}: on the console, not in the JSON: {missing}"
