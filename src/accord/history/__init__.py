"""Batches and time: groups of units, the run store, and drift charts.

- :mod:`~accord.history.groups`: one analysis per group (batch, guideline
  version, language, team), side by side with the pooled figure;
- :mod:`~accord.history.store`: the history store, one SQLite file holding each
  run's evidence register;
- :mod:`~accord.history.drift`: control limits over the batches of a study, and
  per annotator;
- :mod:`~accord.history.annotator_figures`: the per-annotator figures a run
  records (agreement with the majority), one ``figures`` row per rater.
"""

from .drift import (
    DriftChart,
    DriftPoint,
    annotator_charts,
    batches_to_detect,
    charts,
    control_chart,
)
from .groups import MISSING_GROUP, GroupedResult, Groups, groups
from .store import Figure, Run, Store, StoreError

__all__ = ["MISSING_GROUP", "DriftChart", "DriftPoint", "Figure", "GroupedResult", "Groups",
           "Run", "Store", "StoreError", "annotator_charts", "batches_to_detect", "charts",
           "control_chart", "groups"]
