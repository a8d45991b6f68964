"""accord.engines.annotators on the cluster lane's Dask worker processes and Spark
standalone workers (``make test-cluster``).

The engines lane checks every figure against :func:`accord.annotators` on local modes;
here the same comparison (to 1e-9) runs where the ratings live in other processes: the
per-unit posteriors held by the workers (``persist`` on Dask, ``cache`` on Spark) are
read by the consensus and by the tally, so a copy that did not survive would show as a
label that differs.
"""

from __future__ import annotations

import pytest

from accord.engines import annotators
from tests.test_engines_annotators import COLS, assert_same, gold_crowd, in_memory
from tests.test_engines_cluster import (  # noqa: F401 - fixtures used by _maker
    _maker,
    dask_client,
    spark_session,
)
from tests.test_engines_consensus import synthetic_crowd

pytestmark = [
    pytest.mark.cluster,
    pytest.mark.filterwarnings("ignore:Dask support is moving out of Narwhals:FutureWarning"),
    pytest.mark.filterwarnings("ignore:PySpark does not yet fully support pandas"),
]


@pytest.mark.parametrize("where", ["dask-processes", "spark-standalone"])
@pytest.mark.parametrize(("method", "gold"), [("majority", None), ("majority", "gold")])
def test_the_vote_and_gold_on_the_cluster(request: pytest.FixtureRequest, where: str,
                                          method: str, gold: str | None) -> None:
    columns = gold_crowd()
    got, audit = annotators(_maker(request, where)(columns), **COLS, method=method,
                            gold=gold)
    assert audit.ratings_used == len(columns["unit"])
    assert_same(got, in_memory(columns, COLS, method, gold=gold))


def test_an_em_fit_on_the_dask_workers(request: pytest.FixtureRequest) -> None:
    columns = synthetic_crowd(n_units=120, n_raters=6, seed=5)
    got, _ = annotators(_maker(request, "dask-processes")(columns), **COLS,
                        method="one_coin")
    assert_same(got, in_memory(columns, COLS, "one_coin"))
