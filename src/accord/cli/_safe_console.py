"""The rich console of the command line, which spells out control characters.

Kept apart from :mod:`accord.cli._terminal` so that commands that print plain lines
start without importing rich.
"""

from __future__ import annotations

from collections.abc import Iterable

from rich.console import Console
from rich.segment import Segment

from accord.cli._terminal import _UNSAFE, visible

__all__ = ["SafeConsole"]


class SafeConsole(Console):
    """A rich console that spells out control characters in every text it renders.

    Rich's own styling and cursor movement are control segments and pass
    unchanged; only the text (labels, names, notes) is made visible.
    """

    def _render_buffer(self, buffer: Iterable[Segment]) -> str:
        return super()._render_buffer(_safe_segments(buffer))


def _safe_segments(buffer: Iterable[Segment]) -> Iterable[Segment]:
    for segment in buffer:
        text, style, control = segment
        if control or not _UNSAFE.search(text):
            yield segment
        else:
            yield Segment(visible(text), style, control)
