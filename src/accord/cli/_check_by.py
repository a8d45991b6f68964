"""``accord check --by COLUMN|file``: a decision per group (batch), each recorded as a run."""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from accord.cli._common import paths_of
from accord.cli._errors import cli_text
from accord.cli._json import emit
from accord.cli._record import DRIFT_ALARM, decision_line, history_line, record_run
from accord.cli._terminal import echo, one_line

POOLED = "(pooled)"


def check_by(data: str, by: str, read: Callable[[Any], Any],
             decide: Callable[[Any], tuple[Any, int, Any, list[str]]], study: Any,
             record: Path | None, against: bool, as_json: bool) -> None:
    """Decide each group, then the pooled data; exit 0 only when every group is accepted
    and, with ``--against-history``, none is flagged: 1 when a group is not accepted, else
    3 when one is flagged (a drift alarm). Groups are recorded in order."""
    from accord.errors import DataError
    from accord.history.split import split_files

    paths = paths_of(data)
    groups, pooled, notes = split_files([paths] if isinstance(paths, str) else paths, by, read,
                                        once=True)
    rows: list[dict[str, Any]] = []
    for name, ann in [*groups, (POOLED, pooled)]:
        try:
            if ann.n_units < 2:  # a coefficient of one unit is no evidence either way
                raise DataError(f"group {name!r} has {ann.n_units} unit; agreement needs at "
                                "least two units")
            decision, deviations, used, caveats = decide(ann)
        except DataError as exc:  # this group cannot be decided: said, and not accepted
            rows.append({"group": name, "status": "undefined", "line":
                         f"UNDEFINED (not accepted): {cli_text(str(exc))}", "caveats": []})
            continue
        row = {"group": name, **decision.to_dict(), "line": cli_text(decision.line()),
               "n_units": decision.result.n_units, "caveats": caveats,
               "protocol_deviations": deviations}
        if record is not None and name != POOLED:
            row["history"] = record_run(record, decision, study, data, used, caveats, against,
                                        source=f"{data} ({by} = {name})",
                                        annotations=ann)
        if row.get("history", {}).get("flagged") and decision.accepted:
            row["line"] = decision_line(decision, row["history"])
        rows.append(row)
    groups_only = [r for r in rows if r["group"] != POOLED]
    accepted = all(r["status"] == "accepted" for r in groups_only)
    drift = [r["group"] for r in groups_only if r.get("history", {}).get("flagged")]
    ok = accepted and not drift
    status = 0 if ok else 1 if not accepted else DRIFT_ALARM
    if as_json:
        emit("check", {"results": rows, "accepted": ok, "exit_status": status,
                       "data": str(data), "by": by, "notes": notes,
                       "caveats": list(dict.fromkeys(c for r in rows for c in r["caveats"]))})
    else:
        for caveat in dict.fromkeys(c for r in rows for c in r["caveats"]):
            echo(f"caveat: {caveat}")
        what = "file" if by == "file" else f"value of {by!r}"
        echo(f"{data}: {len(groups)} groups (one per {what}), each decided, and the pooled data")
        for note in notes:
            echo(f"note: {note}")
        for r in rows:
            echo(f"{one_line(r['group'])}: {r['line']}")
            if "history" in r:
                for line in history_line(r["history"]).splitlines():
                    echo(f"  {line}")
        echo("every group accepted" if ok else "not every group accepted: exit 1"
             if not accepted else f"DRIFT ALARM in group(s) {', '.join(map(str, drift))}: "
             "exit 3")
    sys.exit(status)
