"""The command line: a thin adapter with one-line errors and documented commands."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from accord.cli import main
from accord.cli._app import expand_multi
from tests.conftest import COHEN_1960, run_cli, write_table_csv

#: The README and the documentation site's pages, where every command is described.
README = "\n".join(p.read_text(encoding="utf-8") for p in [
    Path(__file__).resolve().parents[1] / "README.md",
    *sorted((Path(__file__).resolve().parents[1] / "docs").rglob("*.md"))])



@pytest.fixture()
def cohen_csv(tmp_path: Path) -> Path:
    header = "item,ann_a,ann_b,notes"
    return write_table_csv(tmp_path / "cohen.csv", COHEN_1960, header, ",free text")


run = run_cli


def test_expand_multi_reads_space_separated_values() -> None:
    got = expand_multi(["compute", "d.csv", "--raters", "A", "B", "-o", "x", "--categories", "1,2"])
    assert got == ["compute", "d.csv", "--raters", "A", "--raters", "B", "-o", "x",
                   "--categories", "1", "--categories", "2"]
    assert expand_multi(["--categories", "-1", "0", "--json"]) == [
        "--categories", "-1", "--categories", "0", "--json"]


def test_commas_split_only_a_lone_word() -> None:
    # --categories 'a,b' c used to be the three labels a, b and c; --predicted=model,v2
    # the two columns model and v2
    assert expand_multi(["--categories", "a,b", "c"]) == ["--categories", "a,b",
                                                         "--categories", "c"]
    assert expand_multi(["--predicted=model,v2"]) == ["--predicted", "model,v2"]
    assert expand_multi(["--raters", "a,b"]) == ["--raters", "a", "--raters", "b"]


@pytest.mark.parametrize("args", [
    ["compute", "d.csv", "--raters"],
    ["compute", "d.csv", "--raters", "--json"],
    ["compute", "d.csv", "--raters=", "--json"],
    ["compute", "d.csv", "--categories", "--raters", "a"],
])
def test_a_multi_value_option_without_a_value_is_refused(args: list[str]) -> None:
    # read as "not given", an empty --raters would silently fall back to a guessed layout
    import click

    name = next(a for a in args if a.startswith("--") and a != "--json").partition("=")[0]
    with pytest.raises(click.UsageError, match=f"^{name} needs at least one value after it"):
        expand_multi(args)


def test_an_empty_raters_option_is_one_sentence_and_a_json_error(cohen_csv: Path) -> None:
    code, out, err = run("compute", str(cohen_csv), "--raters", "--json")
    assert code == 2
    assert json.loads(out)["error"] == ("--raters needs at least one value after it "
                                        "(e.g. --raters A B, or --raters A,B; a value "
                                        "holding a comma: --raters=A,B).")
    assert "Traceback" not in err and "--raters needs at least one value" in err


def test_compute_json_reproduces_cohen_1960(cohen_csv: Path) -> None:
    code, out, err = run("compute", str(cohen_csv), "--raters", "ann_a", "ann_b",
                         "--coefficient", "cohen_kappa", "--json")
    assert code == 0, err
    (row,) = json.loads(out)["results"]
    # Cohen (1960, p. 45); SE of Fleiss, Cohen & Everitt (1969): 0.4915254237, 0.05100181558
    assert row["estimate"] == pytest.approx(0.4915254237, abs=1e-10)
    assert row["se"] == pytest.approx(0.05100181558, abs=1e-10)
    assert row["confidence_interval"]["low"] == pytest.approx(0.3915637021, abs=1e-9)
    assert row["n_units"] == 200


def test_compute_prints_table_worksheet_and_audit(cohen_csv: Path) -> None:
    code, out, err = run("compute", str(cohen_csv), "--raters", "ann_a", "ann_b")
    assert code == 0, err
    for text in ("Cohen's kappa", "0.4915", "p_o = 0.7000", "p_e = 0.4100", "total", "200 units"):
        assert text in out


def test_compute_bootstrap_is_reproducible(cohen_csv: Path) -> None:
    args = ("compute", str(cohen_csv), "--raters", "ann_a", "ann_b", "--coefficient",
            "cohen_kappa", "--ci", "bootstrap", "--n-resamples", "500", "--seed", "3", "--json")
    first, second = run(*args), run(*args)
    assert first[0] == 0, first[2]
    assert json.loads(first[1]) == json.loads(second[1])
    ci = json.loads(first[1])["results"][0]["confidence_interval"]
    assert ci["method"] == "bootstrap-percentile" and ci["low"] < 0.4915 < ci["high"]


def test_table_prints_worksheet(cohen_csv: Path) -> None:
    code, out, err = run("table", str(cohen_csv), "--raters", "ann_a", "ann_b")
    assert code == 0, err
    assert "ann_a \\ ann_b" in out and "kappa = 0.4915" in out


def test_bad_data_is_one_line_and_exit_1(cohen_csv: Path) -> None:
    code, out, err = run("compute", str(cohen_csv), "--raters", "ann_a", "nobody")
    assert code == 1
    assert err.startswith("accord: error:") and err.count("\n") == 1 and "nobody" in err


def test_bad_usage_exits_2(cohen_csv: Path) -> None:
    code, _, err = run("compute", str(cohen_csv), "--coefficient", "kappa_of_my_own")
    assert code == 2 and "kappa_of_my_own" in err


def test_constant_labels_report_undefined_not_a_number(tmp_path: Path) -> None:
    path = tmp_path / "const.csv"
    path.write_text("a,b\nx,x\nx,x\nx,x\n", encoding="utf-8")
    code, out, err = run("compute", str(path), "--coefficient", "cohen_kappa", "--json")
    assert code == 0, err
    (row,) = json.loads(out)["results"]
    assert row["estimate"] is None and "single category" in row["undefined_reason"]
    assert err == f"accord: warning: cohen_kappa is undefined: {row['undefined_reason']}\n"


def _commands() -> list[str]:
    return sorted(main.commands)


@pytest.mark.parametrize("name", _commands())
def test_every_command_has_help_with_an_example(name: str) -> None:
    code, out, _ = run(name, "--help")
    assert code == 0
    assert "Usage: " in out and f"accord {name}" in out.replace("main", "accord")
    assert main.commands[name].help and len(main.commands[name].help.strip()) > 20


@pytest.mark.parametrize("name", _commands())
def test_every_command_is_documented_in_the_readme(name: str) -> None:
    assert f"accord {name}" in README


LS_EXPORT = Path(__file__).resolve().parent / "readers" / "data" / "label_studio_export.json"


def test_model_and_gold_raters_are_left_out_unless_asked_for() -> None:
    args = ("compute", str(LS_EXPORT), "--field", "sentiment", "--coefficient",
            "percent_agreement", "--json")
    code, out, err = run(*args)
    assert code == 0, err
    assert json.loads(out)["results"][0]["n_raters"] == 2  # the two human annotators
    code, out, err = run(*args, "--kinds", "human", "model", "gold")
    assert code == 0, err
    assert json.loads(out)["results"][0]["n_raters"] == 4
    code, out, _ = run(*args[:-1])
    assert "left out raters 'sentiment-v2' (model), 'ground_truth' (gold)" in out


def test_a_foreign_warning_is_said_once_and_the_command_ends() -> None:
    """A warning from another library is said after the command, once, as one line of
    the command line's own (never Python's ``file:line: Category:`` form); passing it on
    inside the recording block once re-recorded it forever (a hang)."""
    import warnings

    import click
    from click.testing import CliRunner

    from accord.cli._app import AccordGroup

    @click.group(cls=AccordGroup)
    def group() -> None:
        pass

    @group.command()
    def noisy() -> None:
        warnings.warn("a warning from another library", UserWarning, stacklevel=1)
        click.echo("done")

    result = CliRunner().invoke(group, ["noisy"])
    assert result.exit_code == 0 and result.stdout == "done\n"
    assert result.stderr == "accord: warning: a warning from another library\n"


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full (Linux)")
def test_a_full_disk_is_one_error_line(cohen_csv: Path) -> None:
    code, _, err = run("report", str(cohen_csv), "--raters", "ann_a", "ann_b", "-q",
                       "-o", "/dev/full", "--to", "json")
    assert code == 1 and err.startswith("accord: error: could not write /dev/full: No space left")
    assert Path("/dev/full").is_char_device()  # written to, never replaced by a file
    assert err.count("\n") == 1
