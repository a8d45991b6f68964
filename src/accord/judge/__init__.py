"""LLM judges against humans: may a judge replace a human annotator?

* :func:`alt_test`: the alternative annotator test (Calderon, Reichart & Dror 2025).
"""

from accord.judge.alt_test import AltTestHuman, AltTestResult, alt_test

__all__ = ["AltTestHuman", "AltTestResult", "alt_test"]
