"""Batches and time: groups of units, the run store, and drift charts.

- :mod:`~accord.history.groups`: one analysis per group (batch, guideline
  version, language, team), side by side with the pooled figure;
- :mod:`~accord.history.store`: the history store, one SQLite file holding each
  run's evidence register;
- :mod:`~accord.history.drift`: control limits over the batches of a study, and
  per annotator;
- :mod:`~accord.history.annotator_figures`: the per-annotator figures a run
  records (agreement with the majority), one ``figures`` row per rater;
- :mod:`~accord.history.legacy_keys`: registers recorded before JSON schema
  version 2, read with today's keys.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

# eager: the function ``groups`` shares its name with its submodule, which would replace it
from .groups import MISSING_GROUP, GroupedResult, Groups, groups

if TYPE_CHECKING:
    from .drift import (
        DriftChart,
        DriftPoint,
        annotator_charts,
        batches_to_detect,
        charts,
        control_chart,
    )
    from .store import Figure, Run, Store, StoreError

__all__ = ["MISSING_GROUP", "DriftChart", "DriftPoint", "Figure", "GroupedResult", "Groups",
           "Run", "Store", "StoreError", "annotator_charts", "batches_to_detect", "charts",
           "control_chart", "groups"]

#: The submodule of the other names, imported on first use: ``accord compute`` needs the
#: groups (``accord.history.split``) but not SQLite or the drift charts.
_WHERE = {
    **dict.fromkeys(("DriftChart", "DriftPoint", "annotator_charts", "batches_to_detect",
                     "charts", "control_chart"), "drift"),
    **dict.fromkeys(("Figure", "Run", "Store", "StoreError"), "store"),
}


def __getattr__(name: str) -> Any:
    if name in _WHERE:
        import importlib

        value = getattr(importlib.import_module(f"{__name__}.{_WHERE[name]}"), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
