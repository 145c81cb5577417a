"""The server's settings: limits and timings in one place, each with the reason for its value."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class Settings:
    database_url: str = ""
    """Empty: the embedded SQLite file in the data folder."""
    sqlite_sync: str = "normal"
    """SQLite's fsync level: ``normal`` survives a killed server, ``full`` a power cut too
    (:data:`decklab.server.store.db.SQLITE_SYNC`)."""
    bot_workers: int = 1
    """Processes that bots think in (the event loop never thinks)."""
    grace_s: float = 30.0
    """How long a person may be away before a bot plays their seat (zombie mode)."""
    zombie_spec: str = "greedy"
    """The bot that plays for a person who left or ran out of time: quick and sensible."""
    hint_spec: str = "expert"
    """Hints come from the strongest fair bot, as at the terminal."""
    events_kept: int = 256
    """Events kept in memory per table for reconnects; older gaps get a full resync."""
    chat_max_chars: int = 500
    chat_burst: int = 5
    chat_window_s: float = 10.0
    """At most ``chat_burst`` messages per ``chat_window_s`` per seat."""
    messages_per_window: int = 100
    message_window_s: float = 20.0
    """Per connection, as Lichess limits its players: 100 messages per 20 s."""
    max_frame_bytes: int = 4096
    """An intent or a chat line is small: a larger frame is refused, not parsed."""
    heartbeat_s: float = 15.0
    """The server pings every connection this often; no answer in 2× this: closed."""
    hello_timeout_s: float = 10.0
    tables_per_window: int = 30
    table_window_s: float = 60.0
    """Table creation per client address."""
    allowed_origins: frozenset[str] = field(default_factory=frozenset)
    """Extra origins allowed to open a WebSocket (the server's own is always allowed)."""
    full_gc_every_s: float = 0.0
    """Seconds between the server's own full garbage collections, with CPython's automatic
    ones off (:mod:`decklab.server.heap`); 0 leaves the interpreter's collector alone (tests,
    embedding). ``decklab serve`` runs one every 300 s."""
    idle_table_s: float = 600.0
    """A finished table that nobody has followed for this long leaves memory (asked for
    again, it is read back from the database): a long-running server's heap — and the
    time a full collection takes — stays the size of the tables in play. 0: kept."""
    shared: bool = True
    """On PostgreSQL, share tables with other server processes (advisory locks, NOTIFY)."""
    # --- heavy requests, waiting tables, database faults (issue 19 items 4, 5, 8)
    heavy_workers: int = 2
    """Processes that replays, records, hints and statistics are worked out in (apart from
    the bots' workers): a replay of a long game is most of a second of pure Python, which
    on the event loop would stall every table. Two let one long replay not hold up all."""
    heavy_per_address: int = 2
    """Heavy requests one client address may have in flight at once; more: 429."""
    heavy_in_flight: int = 16
    """Heavy requests in flight from everyone (working or waiting for a worker); more: 503.
    With two workers, the last of 16 replays of the longest game waits about 6 s."""
    waiting_table_ttl_s: float = 24 * 3600.0
    """A table still waiting for players after this long without a change expires: a link
    sent to friends in the evening may be opened the next day, but a table nobody took in
    a day was abandoned, and kept it would crowd the lobby for good. 0: never."""
    db_busy_timeout_s: float = 5.0
    """How long a write waits for a database lock held by someone else (SQLite's
    ``busy_timeout``, PostgreSQL's ``lock_timeout``) before the request is answered 503."""
