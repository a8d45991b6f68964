"""MkDocs hooks of the accord site: refuse to build a site whose offline search would
fail from disk.

The search's web worker cannot start from a ``file://`` folder without iframe-worker's
shim, which ``make docs`` fetches (``.ci/fetch-doc-assets``) into a git-ignored folder.
A build without it would look right and search nothing, so it stops and says how to fetch
it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from mkdocs.exceptions import PluginError


def on_config(config: Any) -> Any:
    docs = Path(config["docs_dir"])
    for script in config["extra"].get("polyfills", []):
        if "://" not in script and not (docs / script).is_file():
            raise PluginError(f"{script} is missing from {docs}: run `make docs`, or "
                              "`bash .ci/fetch-doc-assets`, which fetches it for the "
                              "site's offline search")
    return config
