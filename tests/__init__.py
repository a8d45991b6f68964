"""accord's test suite (a package, so that `tests.*` never resolves to another
distribution's top-level `tests` folder installed beside it)."""
