"""Every command's ``--json`` output: one envelope, one formatting, errors included.

Each document is one JSON object, pretty-printed with two-space indents, that
starts with ``schema_version`` and ``command`` (``"compute"``, ``"judge bias"``)
and holds the command's figures (or rows) as a list under ``results``, its other
blocks beside. Every figure has one shape: its name (``coefficient`` or ``figure``),
``estimate``, ``se``, ``confidence_interval``, ``undefined_reason``, its parameters
as fields (``AgreementResult.to_dict()``). An undefined figure
(``nan``) is ``null`` and an infinite one a string (``"inf"``), so the output is
strict JSON (RFC 8259) that any parser reads. On failure with ``--json`` the
standard output holds ``{"schema_version", "command", "error", "exit_status"}`` (and
standard error the usual line). A command that takes ``--seed`` ends its document with
the ``seed`` its resampling used (the default, 0, when none was given), so a figure
in the JSON can be reproduced; a report's document says it under ``settings``. The
JSON Schema of each command's document is in ``accord/cli/schemas/`` (package data).
"""

from __future__ import annotations

import json
import math
from typing import Any

import click

__all__ = ["FIGURE_KEY", "RETIRED", "SCHEMA_VERSION", "dumps", "emit", "error_document"]

#: Raised when a key is renamed or removed; new keys keep the version.
SCHEMA_VERSION = 3

#: What a key of the envelope, of a result or of a figure looks like: a name, never a
#: figure or display text (a parameter is a field of its own). Maps keyed by the data's
#: names (categories, raters, labels) are not held to it; a reason for dropping is a
#: value (``[{"reason", "count"}]``), never a key.
FIGURE_KEY = r"^[a-z][a-z0-9_]*$"

#: Keys that meant two things or named an interval otherwise: none may appear in a
#: figure or a result any command writes.
RETIRED = frozenset({"observed", "expected", "interval", "ci_low", "ci_high", "p_o", "p_e",
                     "interval_a", "interval_b", "first_interval", "intervals",
                     "confidence_intervals"})


def envelope(command: str, payload: Any) -> dict[str, Any]:
    """``payload`` (an object, or a list put under ``results``) with the two header keys,
    then ``results``, then the command's other blocks."""
    body = payload if isinstance(payload, dict) else {"results": payload}
    rest = {k: v for k, v in body.items() if k not in ("schema_version", "command")}
    head = {"results": rest.pop("results")} if "results" in rest else {}
    return {"schema_version": SCHEMA_VERSION, "command": command, **head, **rest}


def dumps(command: str, payload: Any) -> str:
    """The document's text (see the module docstring)."""
    return json.dumps(_strict(envelope(command, payload)), indent=2, allow_nan=False,
                      default=str)


def emit(command: str, payload: Any) -> None:
    """Print the document on standard output, with the seed of a command that takes one."""
    click.echo(dumps(command, payload if command == "report" else _with_seed(payload)))


def _with_seed(payload: Any) -> Any:
    """The payload with the command's seed last (a report says it in its settings)."""
    ctx = click.get_current_context(silent=True)
    if ctx is None or "seed" not in ctx.params:
        return payload
    body = payload if isinstance(payload, dict) else {"results": payload}
    return body if "seed" in body else {**body, "seed": ctx.params["seed"]}


def error_document(command: str, message: str, status: int) -> str:
    """The document printed on standard output when a ``--json`` run fails."""
    return dumps(command, {"error": message, "exit_status": status})


def _strict(x: Any) -> Any:
    if isinstance(x, float) and not math.isfinite(x):
        return None if math.isnan(x) else ("inf" if x > 0 else "-inf")
    if isinstance(x, dict):
        return {str(k): _strict(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [_strict(v) for v in x]
    return x
