"""``--engine``, ``--scheduler`` and ``--master`` on ``accord compute`` and ``accord consensus``.

Bad usage is refused before any engine starts (the default run). In the ``engines`` lane
the figures an engine counts equal the in-memory command's JSON (examples/crowd.csv: the
coefficients to 1e-12, the consensus labels and posteriors to 1e-9), and a scheduler or
master whose port is closed ends in one sentence within a bounded time, whether given as
an option or by ``DASK_SCHEDULER_ADDRESS`` / ``SPARK_MASTER``.
"""

from __future__ import annotations

import importlib.util
import json
import socket
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import run_cli

ROOT = Path(__file__).resolve().parents[1]
CROWD = str(ROOT / "examples" / "crowd.csv")
LONG = ("--unit", "image", "--rater", "worker", "--value", "label")


def closed_port() -> int:
    """A port on 127.0.0.1 that nothing listens on (bound, then released)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class TestRefusedBeforeAnyEngineStarts:
    def test_an_unknown_engine_names_the_choices(self) -> None:
        code, _, err = run_cli("compute", CROWD, *LONG, "--engine", "polars")
        assert code == 2
        assert "Invalid value for '--engine': 'polars' is not one of 'duckdb', 'dask', " \
               "'spark'." in err

    @pytest.mark.parametrize(("args", "said"), [
        (("--scheduler", "tcp://127.0.0.1:8786"), "--scheduler is the address of a running "
                                                   "cluster: give it with --engine dask"),
        (("--engine", "dask", "--master", "spark://127.0.0.1:7077"),
         "--master goes with --engine spark, not --engine dask."),
        (("--engine", "duckdb", "--format", "csv"),
         "--engine takes the data options --unit, --rater, --value, --raters, --categories, "
         "--missing only; not --format."),
        (("--timeout", "5"), "--timeout bounds the wait on a Dask or Spark cluster: give it "
                             "with --engine dask or --engine spark."),
        (("--engine", "duckdb", "--timeout", "5"),
         "--timeout bounds the wait on a Dask or Spark cluster: give it with --engine dask or "
         "--engine spark, not duckdb."),
        (("--engine", "dask", "--timeout", "0"),
         "Invalid value for '--timeout': 0.0 is not in the range x>0."),
    ])
    def test_options_that_do_not_go_together(self, args: tuple[str, ...], said: str) -> None:
        for command in ("compute", "consensus"):
            code, _, err = run_cli(command, CROWD, *LONG, *args)
            assert code == 2 and said in " ".join(err.split()), (command, err)

    def test_consensus_needs_long_data_and_no_model(self) -> None:
        code, _, err = run_cli("consensus", CROWD, "--raters", "a", "b", "--engine", "duckdb")
        assert code == 2 and "name the --unit, --rater and --value columns" in err
        code, _, err = run_cli("consensus", CROWD, *LONG, "--engine", "duckdb",
                               "--method", "median")
        assert code == 2 and "--method median runs in memory only" in err
        for method in ("glad", "crowdlab"):  # the CLI's own words, not the library's
            code, _, err = run_cli("consensus", CROWD, *LONG, "--engine", "duckdb",
                                   "--method", method)
            assert code == 2 and f"--method {method} runs in memory only" in err, err
            assert "--ci" not in err
        for extra in (("--relabel", "3"), ("--tie-break", "quality")):
            code, _, err = run_cli("consensus", CROWD, *LONG, "--engine", "duckdb", *extra)
            assert code == 2 and "run in memory only" in err, (extra, err)

    @pytest.mark.parametrize(("engine", "package"), [("duckdb", "duckdb"),
                                                     ("dask", "dask.dataframe"),
                                                     ("spark", "pyspark.sql")])
    def test_a_missing_engine_package_names_what_to_install(
            self, monkeypatch: pytest.MonkeyPatch, engine: str, package: str) -> None:
        monkeypatch.setitem(sys.modules, package, None)  # import now raises ImportError
        code, _, err = run_cli("consensus", CROWD, *LONG, "--engine", engine)
        assert code == 1
        assert (f"the {engine} engine needs the Python package {package!r}, which is not "
                "installed: pip install 'accord[engines]'") in " ".join(err.split())


def _json(*args: str) -> Any:
    code, out, err = run_cli(*args, "--json")
    assert code == 0, err
    return json.loads(out)


@pytest.mark.engines
@pytest.mark.filterwarnings("ignore:Dask support is moving out of Narwhals:FutureWarning")
class TestOnDuckDB:
    def test_compute_equals_the_in_memory_figures(self) -> None:
        got = _json("compute", CROWD, *LONG, "--engine", "duckdb")["results"]
        names = [r["coefficient"] for r in got]
        assert names == ["fleiss_kappa", "gwet_ac1", "brennan_prediger", "percent_agreement",
                         "krippendorff_alpha"]
        want = _json("compute", CROWD, *LONG, *(a for n in names for a in ("--coefficient",
                                                                            n)))["results"]
        for g, w in zip(got, want):
            assert g["coefficient"] == w["coefficient"]
            for key in ("estimate", "se"):
                assert g[key] == pytest.approx(w[key], abs=1e-12), (g["coefficient"], key)
            for end in ("low", "high"):
                assert g["confidence_interval"][end] == pytest.approx(
                    w["confidence_interval"][end], abs=1e-12)
            assert g["interpretation"] == w["interpretation"]

    @pytest.mark.parametrize("method", ["majority", "dawid_skene", "mace"])
    def test_consensus_equals_the_in_memory_labels(self, method: str) -> None:
        got = _json("consensus", CROWD, *LONG, "--method", method, "--engine", "duckdb")
        want = _json("consensus", CROWD, *LONG, "--method", method)
        assert got["command"] == "consensus"
        mine = {u["unit"]: u for u in got["results"]}
        theirs = {u["unit"]: u for u in want["results"]}
        assert mine.keys() == theirs.keys()
        for unit, row in mine.items():
            assert row["label"] == theirs[unit]["label"]
            assert row["posterior"] == pytest.approx(theirs[unit]["posterior"], abs=1e-9)


@pytest.mark.engines
class TestAClusterThatDoesNotAnswer:
    """A closed port: one sentence naming the address, well within 15 s."""

    @pytest.mark.parametrize(("engine", "flag", "scheme", "what"), [
        ("dask", "--scheduler", "tcp", "Dask scheduler"),
        ("spark", "--master", "spark", "Spark master"),
    ])
    def test_given_as_an_option(self, engine: str, flag: str, scheme: str, what: str) -> None:
        address = f"{scheme}://127.0.0.1:{closed_port()}"
        self._refused(address, what, "--engine", engine, flag, address)

    @pytest.mark.parametrize(("engine", "variable", "scheme", "what"), [
        ("dask", "DASK_SCHEDULER_ADDRESS", "tcp", "Dask scheduler"),
        ("spark", "SPARK_MASTER", "spark", "Spark master"),
    ])
    def test_given_by_the_environment(self, monkeypatch: pytest.MonkeyPatch, engine: str,
                                      variable: str, scheme: str, what: str) -> None:
        address = f"{scheme}://127.0.0.1:{closed_port()}"
        monkeypatch.setenv(variable, address)
        self._refused(address, what, "--engine", engine)

    def test_timeout_bounds_a_scheduler_that_accepts_but_never_answers(self) -> None:
        """--timeout reaches accord.engines.read: the sentence and the time are its."""
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            s.listen(8)
            address = f"tcp://127.0.0.1:{s.getsockname()[1]}"
            started = time.monotonic()
            code, _, err = run_cli("consensus", CROWD, *LONG, "--engine", "dask",
                                   "--scheduler", address, "--timeout", "1.5")
            took = time.monotonic() - started
        assert code == 1 and took < 10, took
        assert " ".join(err.split()) == (
            f"accord: error: the Dask scheduler at {address} does not answer (it accepts a "
            "connection but sends no Dask handshake, waited up to 1.5 s): is it running, and "
            "is the address right?")

    @staticmethod
    def _refused(address: str, what: str, *args: str) -> None:
        started = time.monotonic()
        code, _, err = run_cli("consensus", CROWD, *LONG, *args)
        assert time.monotonic() - started < 15
        assert code == 1
        text = " ".join(err.split())
        assert f"the {what} at {address} does not answer" in text, text
        assert "is it running, and is the address right?" in text


GUIDE = ROOT / "docs" / "guide" / "scaling-out.md"


@pytest.mark.engines
def test_the_scaling_out_guides_python_prints_what_it_says(
        monkeypatch: pytest.MonkeyPatch) -> None:
    import contextlib
    import io
    import re

    (block,) = re.findall(r"```python engines\n(.*?)```", GUIDE.read_text(encoding="utf-8"),
                          re.S)
    monkeypatch.chdir(ROOT)
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        exec(compile(block, str(GUIDE), "exec"), {})  # noqa: S102 - our own guide
    lines = block.splitlines()
    expected = [b[2:] for a, b in zip(lines, lines[1:]) if a.startswith("print(")]
    assert expected and buf.getvalue().splitlines() == expected


def test_the_guide_starts_the_cluster_as_the_lane_does() -> None:
    """The guide's start-up commands use the processes and flags .ci/cluster.py starts."""
    guide = " ".join(GUIDE.read_text(encoding="utf-8").split())
    lane = (ROOT / ".ci" / "cluster.py").read_text(encoding="utf-8")
    for words in (("dask", "scheduler"), ("--nworkers", "2", "--nthreads", "1"),
                  ("org.apache.spark.deploy.master.Master",),
                  ("org.apache.spark.deploy.worker.Worker",),
                  ("--cores", "1")):
        assert " ".join(words) in guide
        assert all(f'"{w}"' in lane for w in words), words
    # the Spark workers' memory: 1g in the guide, and from the lane's default
    spec = importlib.util.spec_from_file_location("lane_cluster", ROOT / ".ci" / "cluster.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert "--cores 1 --memory 1g" in guide
    assert module.spark_worker_memory(2.0 / 2) == "1g"
    assert 'add_argument("--worker-memory", type=float, default=2.0' in lane


@pytest.mark.parametrize(("args", "said"), [
    (("--engine", "dask", "--scheduler", "localhost:8786"),
     "The 'scheduler' parameter of accord.engines.read must be an address tcp://HOST:PORT. "
     "Got 'localhost:8786' instead."),
    (("--engine", "spark", "--master", "spark://127.0.0.1"),
     "The 'master' parameter of accord.engines.read must be an address spark://HOST:PORT. "
     "Got 'spark://127.0.0.1' instead."),
])
def test_a_malformed_address_is_bad_usage(args: tuple[str, ...], said: str) -> None:
    code, _, err = run_cli("compute", CROWD, *LONG, *args)
    assert code == 2 and said in " ".join(err.split()), err
