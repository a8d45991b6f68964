"""Sufficient statistics counted where the data live: lazy and distributed frames.

Every coefficient in accord is a function of a small table (see
:mod:`accord.tables`). The functions here compute that table as GROUP BY
aggregations written once against `narwhals <https://narwhals-dev.github.io/narwhals/>`_,
so they run unchanged on a polars ``LazyFrame`` over a Parquet file (on the
streaming engine), on pandas and pyarrow tables, and on the engines a user
already runs (DuckDB, Dask, PySpark). Only the aggregate is collected.

=======================  ====================================  ==============================
function                 statistic                             coefficients computed from it
=======================  ====================================  ==============================
:func:`contingency_table`  :class:`~accord.ContingencyTable`   Cohen's kappa (any weights),
                                                               Scott's pi, AC1/AC2, PABAK, ...
:func:`rater_counts`       :class:`~accord.RaterCounts`        Fleiss' kappa, multi-rater
                                                               AC1/AC2, Brennan-Prediger,
                                                               percent agreement, nominal
                                                               Krippendorff's alpha
:func:`consensus`          per EM iteration, (rater, label) x  majority, Wawa, one-coin,
                           classes posterior sums              Dawid-Skene and MACE
                                                               consensus labels
                                                               (:class:`~accord.Consensus`)
:func:`annotators`         the consensus, then per (rater,     per-annotator accuracy,
                           label): counts against the label,   kappa vs others, confusion,
                           votes, posterior mass               spammer score, competence
                                                               (:func:`accord.annotators`)
=======================  ====================================  ==============================

Conventions shared with the in-memory path (:class:`~accord.Annotations`):

- long data is named by ``unit=``, ``rater=``, ``value=``; wide data by
  ``raters=[...]``; ``categories=`` declares the scale (unused categories kept);
- missing values (null, NaN, blank text and the markers :func:`accord.read`
  knows: ``"NA"``, ``"N/A"``, ``"null"``, ``"."``, ``"-"``, ...; ``missing=``
  adds more) are counted in the audit and never become a category;
- identical repeated ratings collapse; a rater who gave one unit two different
  values raises :class:`~accord.errors.DuplicateRatingError` with the same
  sentence as the in-memory path, except the remedy: there is no
  ``duplicates="last"``, since an engine's rows have no order.

``rater_counts(..., by_unit=False)`` collects only the distinct per-unit
count patterns with their multiplicities; estimates, analytic SEs, jackknife
and bootstrap intervals computed from it equal those from the raw rows (the
bootstrap resamples patterns, so the same seed gives the same interval).

:func:`consensus` runs the majority vote, Wawa, and the one-coin, Dawid-Skene
(plain, or accelerated by SQUAREM) and MACE EM of :func:`accord.consensus` in the
engine: each EM iteration (each E step) is one query whose only collected output
is a (rater, label) x classes table; the per-unit posteriors are collected once,
at the end. GLAD runs in memory only.

:func:`read` opens a CSV or Parquet file with DuckDB, Dask or Spark, on a cluster that is
already running when given its address (``scheduler=`` for Dask, ``master=`` for Spark,
or the environment variables ``DASK_SCHEDULER_ADDRESS`` and ``SPARK_MASTER``).

Each counting function returns an :class:`EngineResult`: the statistic (for
:func:`consensus`, the :class:`~accord.Consensus`) and an
:class:`~accord.Audit` (the result classes have no room for one); it unpacks
as ``statistic, audit``.

Examples
--------
>>> import polars as pl
>>> import accord
>>> from accord.engines import rater_counts
>>> lf = pl.LazyFrame({"item": [1, 1, 2, 2, 3, 3, 3], "coder": list("abababc"),
...                    "label": ["x", "x", "y", "x", "y", "y", "NA"]})
>>> rc, audit = rater_counts(lf, unit="item", rater="coder", value="label")
>>> rc.counts.tolist(), audit.dropped
([[2, 0], [1, 1], [0, 2]], {'missing value': 1})
>>> round(accord.fleiss_kappa(rc).estimate, 4)
0.3333
"""

from __future__ import annotations

from typing import Any

from accord.engines._connect import ENGINES, read
from accord.engines._result import EngineResult
from accord.engines.contingency import contingency_table
from accord.engines.rater_counts import rater_counts

__all__ = ["ENGINES", "EngineResult", "annotators", "consensus", "contingency_table",
           "rater_counts", "read"]


def __getattr__(name: str) -> Any:
    # consensus and annotators need accord.annotators; load them on first use so the
    # counts stay cheap
    if name == "consensus":
        from accord.engines._consensus import consensus

        globals()["consensus"] = consensus
        return consensus
    if name == "annotators":
        from accord.engines._annotators import annotators

        globals()["annotators"] = annotators
        return annotators
    raise AttributeError(f"module 'accord.engines' has no attribute {name!r}")
