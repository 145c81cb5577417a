"""Where decklab keeps a user's files (saved games), honouring XDG and DECKLAB_HOME."""

from __future__ import annotations

import datetime as _dt
import os
from pathlib import Path


def data_dir() -> Path:
    """``$DECKLAB_HOME``, else ``$XDG_DATA_HOME/decklab``, else ``~/.local/share/decklab``."""
    if os.environ.get("DECKLAB_HOME"):
        base = Path(os.environ["DECKLAB_HOME"])
    else:
        xdg = os.environ.get("XDG_DATA_HOME")
        base = (Path(xdg) if xdg else Path.home() / ".local" / "share") / "decklab"
    base.mkdir(parents=True, exist_ok=True)
    return base


def default_record_path(game: str) -> Path:
    folder = data_dir() / "records"
    folder.mkdir(parents=True, exist_ok=True)
    stamp = _dt.datetime.now().strftime("%Y%m%d-%H%M%S")
    return folder / f"{game}-{stamp}.json"
