"""Detection runs the readers' own checks without importing the readers, so a CSV table
is read with the CSV reader's modules only."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from accord.readers import _read
from accord.readers._sniff import SNIFF

ROOT = Path(__file__).resolve().parents[2]
PILOT = str(ROOT / "examples" / "pilot.csv")


def test_each_reader_sniffs_with_the_check_detection_runs() -> None:
    names = [name for name, _, _ in _read._REGISTRY]
    assert list(SNIFF) == names
    for name in names:
        assert _read._reader(name).sniff is SNIFF[name], name


def test_a_csv_compute_imports_no_other_reader() -> None:
    probe = ("import sys, json, runpy\n"
             f"sys.argv = ['accord', 'compute', {PILOT!r}, '--raters', 'annotator_a', "
             "'annotator_b']\n"
             "try:\n    runpy.run_module('accord', run_name='__main__')\n"
             "except SystemExit:\n    pass\n"
             "print(json.dumps(sorted(m for m in sys.modules if m.startswith('accord.'))),"
             " file=sys.stderr)")
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                         check=True, env={"PYTHONPATH": str(ROOT / "src"), "PATH": ""})
    loaded = set(json.loads(out.stderr.splitlines()[-1]))
    others = {f"accord.readers.{module}" for _, module, _ in _read._REGISTRY} - {
        "accord.readers.csv"}
    assert "accord.readers.csv" in loaded
    assert not loaded & others
    assert not loaded & {"accord.readers._webanno_tsv", "accord.readers._finish",
                         "accord.readers.spans"}
