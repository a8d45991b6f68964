"""The registry names every figure, the span family's too, without importing them; a
figure's module is imported when its entry is read, and the coefficients' and tables'
packages import a public name's module on its first use."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import accord.coefficients
import accord.tables
from accord.coefficients._registry import WHERE, CoefficientInfo, Registry

SRC = str(Path(__file__).resolve().parents[1] / "src")


def _loaded_after(code: str) -> tuple[object, set[str]]:
    probe = (f"import sys, json\n{code}\n"
             "print(json.dumps([out, sorted(m for m in sys.modules if m.startswith('accord'))]))")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                          check=True, env={"PYTHONPATH": SRC, "PATH": ""})
    out, loaded = json.loads(done.stdout.splitlines()[-1])
    return out, set(loaded)


def test_the_table_says_where_each_figure_registers() -> None:
    for name, module in WHERE.items():
        assert accord.REGISTRY[name].function.__module__ == module, name
    assert set(accord.REGISTRY) >= set(WHERE)


def test_accord_registry_is_complete_without_importing_the_families() -> None:
    out, loaded = _loaded_after(
        "import accord\nout = [sorted(accord.REGISTRY), len(accord.REGISTRY),\n"
        "       'span_f1' in accord.REGISTRY, accord.REGISTRY['cohen_kappa'].title]")
    names, n, has_span, title = out
    assert "span_f1" in names and "icc" in names and n == len(names) == len(WHERE)
    assert has_span and title == "Cohen's kappa"
    assert "accord.spans" not in loaded
    assert "accord.coefficients.intraclass" not in loaded


def test_reading_a_family_entry_imports_the_family() -> None:
    out, loaded = _loaded_after(
        "import accord\nout = accord.REGISTRY['span_f1'].family")
    assert out == "spans" and "accord.spans" in loaded


def test_a_figure_is_registered_once_and_a_miss_is_a_key_error() -> None:
    reg = Registry({})
    info = CoefficientInfo("x", "X", len, "two_raters", "nobody")
    reg.add(info)
    assert reg["x"] is info and list(reg) == ["x"] and len(reg) == 1
    with pytest.raises(RuntimeError, match="registered twice"):
        reg.add(info)
    with pytest.raises(KeyError):
        reg["y"]


@pytest.mark.parametrize("package", [accord.coefficients, accord.tables])
def test_each_lazy_name_comes_from_the_module_its_package_names(package: Any) -> None:
    where: dict[str, str] = package._WHERE
    public = set(package.__all__) - {"REGISTRY", "CoefficientInfo", "register"}
    assert set(where) == public
    for name, module in where.items():
        assert getattr(package, name).__module__ == module, name


def test_a_two_rater_compute_loads_only_the_coefficients_it_reports() -> None:
    pilot = str(Path(SRC).parent / "examples" / "pilot.csv")
    _, loaded = _loaded_after(
        "import runpy, contextlib, io\n"
        f"sys.argv = ['accord', 'compute', {pilot!r}, '--raters', 'annotator_a', "
        "'annotator_b']\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        "    try:\n        runpy.run_module('accord', run_name='__main__')\n"
        "    except SystemExit:\n        pass\n"
        "out = None")
    assert "accord.coefficients.two_raters" in loaded
    assert not loaded & {"accord.coefficients.intraclass", "accord.coefficients.krippendorff",
                         "accord.coefficients.multilabel", "accord.tables.rating_matrix",
                         "accord.tables.coincidence", "accord.spans"}
