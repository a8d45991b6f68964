"""A first coefficient call imports neither scipy.stats nor a dataframe engine (issue 20,
observation 9). Speed itself is measured in benchmarks/bench_import.py; this only checks
what is imported, so the gain cannot silently regress."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

SRC = str(Path(__file__).resolve().parents[1] / "src")
HEAVY = ("scipy.stats", "scipy.sparse", "scipy.optimize", "polars", "narwhals", "pandas",
         "matplotlib", "rich", "accord.readers", "accord.report", "accord.annotators")


def _loaded_after(code: str) -> list[str]:
    probe = f"import sys, json\n{code}\nprint(json.dumps(sorted(sys.modules)))"
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                         check=True, env={"PYTHONPATH": SRC, "PATH": ""})
    loaded = json.loads(out.stdout.splitlines()[-1])
    return sorted({h for h in HEAVY for m in loaded if m == h or m.startswith(h + ".")})


def test_import_accord_coefficients_loads_no_scipy_stats() -> None:
    assert _loaded_after("import accord.coefficients") == []


def test_a_first_coefficient_call_and_its_interval_load_nothing_heavy() -> None:
    code = ("import accord\n"
            "r = accord.cohen_kappa(['a', 'b', 'a', 'a'], ['a', 'b', 'b', 'a'])\n"
            "r.confidence_interval(0.95)\n"
            "accord.fleiss_kappa([[1, 1, 2], [2, 2, 2], [1, 2, 1]])")
    assert _loaded_after(code) == []


def test_the_normal_helper_agrees_with_scipy_stats_norm() -> None:
    from scipy import stats

    from accord.inference._normal import norm_cdf, norm_ppf, norm_sf

    for p in (1e-12, 0.001, 0.025, 0.3, 0.5, 0.8, 0.975, 1 - 1e-9):
        assert abs(norm_ppf(p) - stats.norm.ppf(p)) <= 4e-15 * max(1.0, abs(stats.norm.ppf(p)))
    for x in (-30.0, -8.0, -1.96, 0.0, 0.5, 1.96, 8.0, 30.0):
        assert norm_cdf(x) == stats.norm.cdf(x) or abs(norm_cdf(x) / stats.norm.cdf(x) - 1) < 1e-12
        assert norm_sf(x) == stats.norm.sf(x) or abs(norm_sf(x) / stats.norm.sf(x) - 1) < 1e-12
    assert (norm_ppf(0.0), norm_ppf(1.0)) == (float("-inf"), float("inf"))


def test_krippendorff_alpha_takes_its_t_test_from_scipy_special_only() -> None:
    code = "import accord\naccord.krippendorff_alpha([[1, 1], [2, 2], [1, 2], [2, 2]])"
    assert _loaded_after(code) == []  # scipy.special is loaded, scipy.stats is not


def test_the_alpha_p_values_equal_scipy_stats_t() -> None:
    from scipy import stats

    import accord

    res = accord.krippendorff_alpha([[1, 1], [2, 2], [1, 2], [2, 2], [3, 3], [1, 1]])
    t, df = res.estimate / res.se, res.details["t_df"]
    assert res.details["pvalue"] == 2.0 * stats.t.sf(abs(t), df)
    assert res.details["pvalue_one_sided"] == stats.t.sf(t, df)


def test_icc_and_its_t_interval_take_scipy_special_only() -> None:
    code = ("import accord\n"
            "r = accord.icc([[1.0, 2.0], [2.0, 2.5], [3.0, 3.5], [4.0, 3.0]])\n"
            "r.confidence_interval(0.95, method='jackknife', distribution='t')")
    assert _loaded_after(code) == []


def test_the_t_and_f_helpers_are_scipy_stats_bit_for_bit() -> None:
    import math

    from scipy import stats

    from accord.inference._distributions import f_ppf, f_sf, t_ppf

    inf, nan = math.inf, math.nan
    for q in (0.0, 1e-9, 0.025, 0.5, 0.975, 1.0, nan):
        for df in (1.0, 3.0, 11.0, 1e6, 0.0, -1.0, inf, nan):
            assert _same(t_ppf(q, df), stats.t.ppf(q, df)), (q, df)
            for dfd in (2.0, 40.5, 0.0, inf):
                assert _same(f_ppf(q, df, dfd), stats.f.ppf(q, df, dfd)), (q, df, dfd)
    for x in (-1.0, 0.0, 1e-9, 0.7, 3.2, 250.0, inf, nan):
        for dfn, dfd in ((1.0, 1.0), (4.0, 30.0), (29.5, 3.0), (0.0, 3.0), (3.0, inf)):
            assert _same(f_sf(x, dfn, dfd), stats.f.sf(x, dfn, dfd)), (x, dfn, dfd)


def _same(a: float, b: float) -> bool:
    return (a == b) or (a != a and b != b)  # equal, or both nan


def _command_loads(args: list[str]) -> list[str]:
    """The modules loaded by one command run in a fresh interpreter (its output dropped)."""
    probe = ("import contextlib, io, json, sys\n"
             "from accord.cli import main\n"
             "with contextlib.redirect_stdout(io.StringIO()), contextlib.suppress(SystemExit):\n"
             f"    main({args!r})\n"
             "print(json.dumps(sorted(sys.modules)))")
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                         check=True, env={"PYTHONPATH": SRC, "PATH": ""})
    return json.loads(out.stdout.splitlines()[-1])


def test_accord_compute_on_a_small_csv_does_not_import_the_span_family() -> None:
    """Issue 20, observation 9: compute needs the coefficient registry's titles, not the
    span family that ``accord.study`` registers (about 80 ms of start-up)."""
    pilot = str(Path(SRC).parent / "examples" / "pilot.csv")
    plain = _command_loads(["compute", pilot, "--raters", "annotator_a", "annotator_b"])
    named = _command_loads(["compute", pilot, "--raters", "annotator_a", "annotator_b",
                            "--coefficient", "cohen_kappa"])
    assert "accord.coefficients" in plain and "accord.coefficients" in named  # it computed
    assert [m for m in plain + named if m == "accord.spans" or m == "accord.study"] == []


def test_a_name_outside_the_core_registry_still_loads_the_full_list() -> None:
    """The quick path vouches only for core names: span_f1 (registered by accord.study)
    is still refused by compute with the list of choices, and a typo is still refused."""
    from click.testing import CliRunner

    from accord.cli import main

    pilot = str(Path(SRC).parent / "examples" / "pilot.csv")
    for name in ("span_f1", "cohen_kapa"):
        result = CliRunner().invoke(main, ["compute", pilot, "--coefficient", name])
        assert result.exit_code == 2, result.output
        assert f"'{name}' is not one of" in result.output and "'fleiss_kappa'" in result.output


def test_accord_check_on_a_core_coefficient_does_not_import_the_span_family() -> None:
    """``accord check`` builds a study protocol; the protocol's package registered span_f1
    by importing the span family at load (about 50 ms of start-up). It is loaded only
    when a name is not in the core registry."""
    pilot = str(Path(SRC).parent / "examples" / "pilot.csv")
    loaded = _command_loads(["check", pilot, "--raters", "annotator_a", "annotator_b",
                             "--coefficient", "cohen_kappa", "--min", "0.6"])
    assert "accord.study.protocol" in loaded  # it decided through a protocol
    assert [m for m in loaded if m == "accord.spans"] == []


def test_the_study_registry_still_holds_the_span_figure() -> None:
    from accord.study import REGISTRY, is_registered, registered

    assert "span_f1" in REGISTRY and registered("span_f1").family == "spans"
    assert is_registered("cohen_kappa") and not is_registered(["cohen_kappa"])


def test_a_small_report_draws_its_charts_without_matplotlib_or_scipy(
        tmp_path: Path) -> None:
    """The pilot's HTML report (make demo's job): its three charts are written as SVG
    directly, its tests' p-values come from the chi-squared series and the binomial
    CDF, Stuart-Maxwell's groups from a search of its own, and nothing imports scipy,
    matplotlib, the crowd work or the evaluation of systems (the data have no reference)."""
    pilot = Path(SRC).parent / "examples"
    code = ("import sys\nfrom accord.cli import main\n"
            f"sys.argv = ['accord', 'report', {str(pilot / 'pilot.csv')!r}, '--raters', "
            f"'annotator_a', 'annotator_b', '--study', {str(pilot / 'study.toml')!r}, "
            f"'-o', {str(tmp_path / 'r.html')!r}]\n"
            "try:\n    main()\nexcept SystemExit:\n    pass")
    probe = f"import sys, json\n{code}\nprint(json.dumps(sorted(sys.modules)))"
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                         env={"PYTHONPATH": SRC, "PATH": ""})
    loaded = json.loads(out.stdout.splitlines()[-1])
    heavy = ("scipy", "matplotlib", "accord.annotators", "accord.evaluation")
    assert sorted({h for h in heavy for m in loaded if m == h or m.startswith(h + ".")}) == []
    page = (tmp_path / "r.html").read_text(encoding="utf-8")
    assert page.count('class="plot"') == 3 and "<image" not in page


def test_the_series_p_values_equal_scipy_stats() -> None:
    """chi2_sf's series (Abramowitz & Stegun 26.4.4/26.4.5) against scipy.stats.chi2.sf,
    and binom_cdf against scipy.stats.binom.cdf (the same Boost function, so equal)."""
    import numpy as np
    from scipy import stats

    from accord.inference._distributions import binom_cdf, chi2_sf

    for df in (1, 2, 3, 4, 5, 9, 10, 29, 30, 99, 100, 435, 2000):
        for x in np.geomspace(1e-6, 6000.0, 120):
            want = float(stats.chi2.sf(x, df))
            got = chi2_sf(float(x), df)
            assert got == want or abs(got - want) <= 2e-12 * want or want < 1e-300, (df, x)
    assert chi2_sf(3.0, 2.5) == stats.chi2.sf(3.0, 2.5)  # not a whole df: scipy.special
    assert chi2_sf(0.0, 3) == 1.0 and chi2_sf(float("inf"), 3) == 0.0
    for n in (1, 2, 7, 40, 301):
        for k in range(n + 1):
            assert binom_cdf(k, n, 0.5) == stats.binom.cdf(k, n, 0.5)
