"""The "Scaling out" guide's accord commands, run as written against the cluster lane's
Dask scheduler and Spark master (``make test-cluster``).

The commands are read from the guide (every ``accord ...`` line of its shell blocks from
"The accord commands" on, with the ``export`` lines before them), so the page cannot
drift from what works; the guide's addresses (``tcp://127.0.0.1:8786``,
``spark://127.0.0.1:7077``) become the lane's. Each runs in a process of its own, as a
user's shell would run it.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from tests.test_cli_help_examples import EVERY, needs_a_cluster
from tests.test_engines_cluster import _address

pytestmark = pytest.mark.cluster

ROOT = Path(__file__).resolve().parents[1]
GUIDE = ROOT / "docs" / "guide" / "scaling-out.md"
DASK, SPARK = "tcp://127.0.0.1:8786", "spark://127.0.0.1:7077"


def guide_lines() -> list[str]:
    """The accord and export lines of the guide's shell blocks, from its commands on."""
    text = GUIDE.read_text(encoding="utf-8")
    text = text[text.index("## The accord commands"):]
    blocks = re.findall(r"^```bash\n(.*?)^```", text, re.S | re.M)
    return [line for b in blocks for line in b.splitlines()
            if line.startswith(("accord ", "export "))]


LINES = guide_lines()
COMMANDS = [line for line in LINES if line.startswith("accord ")]


def test_the_guide_shows_each_engine_by_option_and_by_environment() -> None:
    assert any("--scheduler " + DASK in c for c in COMMANDS)
    assert any("--master " + SPARK in c for c in COMMANDS)
    assert f"export DASK_SCHEDULER_ADDRESS={DASK}" in LINES
    assert f"export SPARK_MASTER={SPARK}" in LINES
    assert {c.split()[1] for c in COMMANDS} == {"compute", "consensus", "annotators"}


@pytest.mark.parametrize("position", range(len(COMMANDS)),
                         ids=[" ".join(c.split()[1:2] + c.split()[-4:]) for c in COMMANDS])
def test_a_guide_command_runs_against_the_lane_cluster(position: int, tmp_path: Path) -> None:
    lane = {DASK: _address("ACCORD_DASK_SCHEDULER"), SPARK: _address("ACCORD_SPARK_MASTER")}
    env = {**os.environ, "SPARK_LOCAL_IP": "127.0.0.1", "PYSPARK_PYTHON": sys.executable,
           "PYTHONPATH": os.pathsep.join([str(ROOT / "src"), os.environ.get("PYTHONPATH", "")])}
    for name in ("DASK_SCHEDULER_ADDRESS", "SPARK_MASTER"):
        env.pop(name, None)
    index = LINES.index(COMMANDS[position])
    for line in LINES[:index]:  # the exports a reader has typed by then
        if line.startswith("export "):
            name, _, value = line[len("export "):].partition("=")
            env[name] = lane.get(value, value)
    words = [lane.get(w, w) for w in shlex.split(COMMANDS[position])]
    os.symlink(ROOT / "examples", tmp_path / "examples")
    run = subprocess.run([sys.executable, "-c", "from accord.cli import main; "
                          "main(prog_name='accord')", *words[1:]], cwd=tmp_path, env=env,
                         capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stderr[-3000:]
    if "--json" in words:
        doc = json.loads(run.stdout)
        assert doc["command"] == words[1] and len(doc["results"]) == 150
    elif words[1] == "annotators":
        engine = words[words.index("--engine") + 1]
        assert run.stdout.startswith(f"examples/crowd.csv (counted by {engine}): 800 read, "
                                     "800 used")
        assert "Accuracy against the majority consensus" in run.stdout
    elif words[1] == "compute":
        assert "examples/crowd.csv: 150 units, 3 categories (nominal), counted by the engine" \
            in run.stdout and "Fleiss' kappa" in run.stdout
    else:
        assert "150 units labelled" in run.stdout
    if "-o" in words:
        written = (tmp_path / words[words.index("-o") + 1]).read_text().splitlines()
        assert written[0] == "image,label,posterior,n_ratings" and len(written) == 151


HELP = [line for _, line in EVERY if needs_a_cluster(line)]


def test_the_help_names_a_cluster_as_the_guide_does() -> None:
    assert HELP and all(DASK in line or SPARK in line for line in HELP)


@pytest.mark.parametrize("line", HELP, ids=[line.split()[1] for line in HELP])
def test_a_help_example_runs_against_the_lane_cluster(line: str) -> None:
    """The --help examples that name a cluster, with the lane's addresses for the guide's."""
    lane = {DASK: _address("ACCORD_DASK_SCHEDULER"), SPARK: _address("ACCORD_SPARK_MASTER")}
    env = {**os.environ, "SPARK_LOCAL_IP": "127.0.0.1", "PYSPARK_PYTHON": sys.executable,
           "PYTHONPATH": os.pathsep.join([str(ROOT / "src"), os.environ.get("PYTHONPATH", "")])}
    words = [lane.get(w, w) for w in shlex.split(line)]
    run = subprocess.run([sys.executable, "-c", "from accord.cli import main; "
                          "main(prog_name='accord')", *words[1:]], cwd=ROOT, env=env,
                         capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stderr[-3000:]
    engine = words[words.index("--engine") + 1]
    said = {"annotators": f"(counted by {engine}): 800 read, 800 used"}.get(words[1],
                                                                           "150 units")
    assert said in run.stdout, run.stdout[:2000]
