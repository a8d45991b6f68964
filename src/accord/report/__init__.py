"""Report model and renderers."""
