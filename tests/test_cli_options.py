"""One option vocabulary: every command declares its shared options from one table, with
one name, one default and one check; ``--json`` everywhere, errors included."""

from __future__ import annotations

import json
from pathlib import Path

import click
import pytest

from accord.cli import main
from accord.cli._options import OPTIONS, REGENERATE, options_page
from tests.conftest import run_cli

ROOT = Path(__file__).resolve().parents[1]
PILOT = str(ROOT / "examples" / "pilot.csv")
TOXIC = str(ROOT / "examples" / "toxicity_multilabel.csv")
PAGE = ROOT / "docs" / "reference" / "options.md"


def _commands(cmd: click.Command = main, name: str = "") -> list[tuple[str, click.Command]]:
    if isinstance(cmd, click.Group):
        return [c for sub, s in sorted(cmd.commands.items())
                for c in _commands(s, f"{name} {sub}".strip())]
    return [(name, cmd)]


COMMANDS = _commands()


def test_the_options_page_is_generated_from_the_table() -> None:
    assert PAGE.read_text(encoding="utf-8") == options_page(main), (
        f"docs/reference/options.md is stale: regenerate it with {REGENERATE}")


@pytest.mark.parametrize(("name", "command"), COMMANDS, ids=[n for n, _ in COMMANDS])
def test_every_command_has_json(name: str, command: click.Command) -> None:
    assert any("--json" in getattr(p, "opts", ()) for p in command.params), name


@pytest.mark.parametrize("flag", ["--n-resamples", "--seed", "--confidence-level", "--scale",
                                  "--gold", "--weights", "--ci", "--bootstrap-kind"])
def test_a_shared_option_has_one_default_and_one_type_everywhere(flag: str) -> None:
    shared = OPTIONS[flag]
    seen = 0
    for name, command in COMMANDS:
        for param in command.params:
            if flag not in getattr(param, "opts", ()) or (name, flag) == ("spans",
                                                                          "--n-resamples"):
                continue
            seen += 1
            assert param.default == shared.default, (name, flag, param.default)
            assert type(param.type) is type(_declared(flag).type), (name, flag, param.type)
    assert seen >= 2


def _declared(flag: str) -> click.Parameter:
    """The option as the table declares it."""
    return next(p for p in OPTIONS[flag].option()(lambda: None).__click_params__)


def test_n_resamples_is_bounded_and_has_one_default() -> None:
    # before: 9999 in compute, 2000 in judge, 1999 in annotators and spans; unbounded in judge
    defaults = {n: p.default for n, c in COMMANDS for p in c.params
                if "--n-resamples" in getattr(p, "opts", ())}
    assert set(defaults.values()) == {9999}, defaults
    code, out, err = run_cli("judge", PILOT, "--judge", "annotator_c", "--n-resamples",
                             "100000000", "--json")
    assert code == 2 and "--n-resamples" in err
    assert json.loads(out)["exit_status"] == 2


def test_coefficient_and_scale_are_checked_choices_everywhere() -> None:
    # before: judge --coefficient and report --scale took any text
    code, _, err = run_cli("judge", PILOT, "--judge", "annotator_c", "--coefficient", "kapa")
    assert code == 2 and "'kapa' is not one of" in err and "cohen_kappa" in err
    code, _, err = run_cli("report", PILOT, "--raters", "annotator_a", "annotator_b",
                           "--scale", "landis")
    assert code == 2 and "'landis' is not one of" in err


def test_confidence_level_is_checked_before_the_data_are_read() -> None:
    code, out, err = run_cli("judge", "ppi", PILOT, "--judge", "x", "--human", "y",
                             "--confidence-level", "95", "--json")
    assert code == 2 and "--confidence-level must be" in err
    assert json.loads(out) == {"schema_version": 3, "command": "judge ppi",
                               "error": json.loads(out)["error"], "exit_status": 2}


def test_multilabel_takes_gold_and_reference_is_a_deprecated_alias() -> None:
    code, new, err = run_cli("multilabel", TOXIC, "--separator", ";", "--gold", "annotator_a",
                             "--json")
    assert code == 0, err
    code, old, err = run_cli("multilabel", TOXIC, "--separator", ";", "--reference",
                             "annotator_a", "--json")
    assert code == 0 and "--reference is deprecated; use --gold" in err
    assert json.loads(old) == json.loads(new)
    code, _, err = run_cli("multilabel", TOXIC, "--separator", ";", "--gold", "annotator_a",
                           "--reference", "annotator_b")
    assert code == 2 and "give --gold only" in err


def test_a_failure_with_json_prints_an_error_object_on_stdout() -> None:
    # before: an error printed nothing on standard output, so a script parsing it choked
    code, out, err = run_cli("compute", PILOT, "--raters", "annotator_a", "nobody", "--json")
    assert code == 1 and err.startswith("accord: error: ")
    doc = json.loads(out)
    assert doc["schema_version"] == 3 and doc["command"] == "compute" and doc["exit_status"] == 1
    assert "'nobody'" in doc["error"] and doc["error"] in err
    code, out, err = run_cli("compute", PILOT, "--raters", "annotator_a", "annotator_b",
                             "--ci", "bootsrap", "--json")
    doc = json.loads(out)
    assert code == 2 and doc["exit_status"] == 2 and "bootsrap" in doc["error"]
    code, out, _ = run_cli("compute", PILOT, "--raters", "annotator_a", "nobody")
    assert code == 1 and out == ""  # without --json: standard output stays empty


def test_report_and_disagreements_take_json() -> None:
    code, out, err = run_cli("report", PILOT, "--raters", "annotator_a", "annotator_b",
                             "--json")
    assert code == 0, err
    doc = json.loads(out)
    assert (doc["schema_version"], doc["command"]) == (3, "report")
    code, out, err = run_cli("disagreements", PILOT, "--raters", "annotator_a", "annotator_b",
                             "--json")
    assert code == 0, err
    doc = json.loads(out)
    assert doc["command"] == "disagreements" and doc["n_disagreements"] == len(doc["results"])
    assert all(u["ratings"]["annotator_a"] != u["ratings"]["annotator_b"]
               for u in doc["results"])
