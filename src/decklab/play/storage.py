"""Where decklab keeps a user's files (saved games), honouring XDG and DECKLAB_HOME.

Two promises live here. A user's folder that cannot be used (``DECKLAB_HOME``
naming a file, a folder without write permission) is a clear :class:`StorageError`,
never a traceback. And a new save never lands on an existing file: names carry
the time to the second, and :func:`claim_new_file` creates the file exclusively,
adding ``-2``, ``-3``… when two saves fall in the same second.
"""

from __future__ import annotations

import datetime as _dt
import os
import tempfile
from pathlib import Path

from decklab.engine.errors import DecklabError


class StorageError(DecklabError):
    """The user's data folder (or a file in it) cannot be used."""


def data_dir() -> Path:
    """``$DECKLAB_HOME``, else ``$XDG_DATA_HOME/decklab``, else ``~/.local/share/decklab``."""
    if os.environ.get("DECKLAB_HOME"):
        base = Path(os.environ["DECKLAB_HOME"])
        where = f"DECKLAB_HOME={base}"
    else:
        xdg = os.environ.get("XDG_DATA_HOME")
        base = (Path(xdg) if xdg else Path.home() / ".local" / "share") / "decklab"
        where = str(base)
    return _folder(base, where)


def _folder(path: Path, where: str) -> Path:
    if path.exists() and not path.is_dir():
        raise StorageError(
            f"{where} is a file, not a folder: decklab keeps saved games and statistics "
            "in a folder (point DECKLAB_HOME at a folder, or move the file away)"
        )
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise StorageError(f"cannot use {where} as decklab's folder: {exc.strerror}") from None
    return path


def records_dir() -> Path:
    """The folder of saved games."""
    return _folder(data_dir() / "records", "the records folder " + str(data_dir() / "records"))


def default_record_path(game: str) -> Path:
    """A name for a new save of ``game`` (not yet claimed: see :func:`claim_new_file`)."""
    stamp = _dt.datetime.now().strftime("%Y%m%d-%H%M%S")
    return records_dir() / f"{game}-{stamp}.json"


def claim_new_file(wanted: Path) -> Path:
    """Create ``wanted`` (or ``stem-2.json``, ``stem-3.json``… if taken) and return it.

    The file is created with ``O_EXCL``, so two saves in the same second, even
    from two processes, never share a name and never overwrite each other.
    """
    stem, suffix = wanted.stem, wanted.suffix or ".json"
    for k in range(1, 10_000):
        path = wanted if k == 1 else wanted.with_name(f"{stem}-{k}{suffix}")
        try:
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
        except FileExistsError:
            continue
        os.close(fd)
        return path
    raise StorageError(f"no free file name next to {wanted}")


def fallback_save_path(game: str) -> Path:
    """Somewhere a save can still go when the wanted place cannot be written:
    a new file in the records folder, else one in the system's temporary folder."""
    try:
        return claim_new_file(default_record_path(game))
    except (StorageError, OSError):
        fd, name = tempfile.mkstemp(prefix=f"decklab-{game}-", suffix=".json")
        os.close(fd)
        return Path(name)
