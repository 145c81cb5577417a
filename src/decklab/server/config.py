"""The server's settings: limits and timings in one place, each with the reason for its value."""

from __future__ import annotations

from dataclasses import dataclass, field

from decklab.server.accounts.hashing import default_workers


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
    # Limits per client address and per seat (decklab.server.limits): one client cannot
    # step around the per-connection limit by opening more connections.
    connections_per_address: int = 40
    """Open WebSockets per address at once: a club room or a household behind one NAT,
    each person with a table or two open; far below what would exhaust the server."""
    connections_per_seat: int = 4
    """Open WebSockets per seat at once: a phone, a laptop and a spare tab."""
    seat_messages_per_window: int = 150
    """Messages per seat per ``message_window_s``, over all its connections and REST:
    one connection's 100 and half again for a second device, not ten budgets for ten
    connections."""
    address_messages_per_window: int = 600
    """Messages per address per ``message_window_s``: about six busy players behind one
    NAT; a spectator flood from one address stops here."""
    joins_per_window: int = 20
    join_window_s: float = 60.0
    """Joins per address per ``join_window_s``: a person joins once a game; more than
    this is someone sweeping up open seats."""
    hints_per_seat_window: int = 12
    hints_per_address_window: int = 30
    hint_window_s: float = 60.0
    """Hints per seat and per address per ``hint_window_s``: each hint is an expert bot
    thinking (CPU in the bot workers every table shares); 304 hints in 20 s from one
    client slowed another table's bots by 40%. A hint every five seconds is plenty."""
    # -- accounts (docs/server.md, "Accounts")
    logins_per_account_window: int = 5
    logins_per_address_window: int = 20
    login_window_s: float = 300.0
    """Password checks (a login, a password change, a deletion) per account *from one
    address*, and per address, per ``login_window_s`` (every attempt counts, good or bad):
    five guesses at a password each five minutes, as Lichess allows about as many; 20
    from one address, a household or a club behind one NAT. Per account and address, not
    per account: a stranger's guesses never use up the owner's budget."""
    password_backoff_free: int = 3
    password_backoff_base_s: float = 0.5
    password_backoff_cap_s: float = 4.0
    """After three wrong passwords in a row for an account (from anywhere), ``n`` more make
    its next check wait ``min(cap, base * 2 ** (n - 1))`` (:class:`decklab.server.limits.
    Backoff`): guesses spread over many addresses slow to one per 4 s, and the owner still
    logs in within 4 s. A cap of 0 turns the slowdown off."""
    passkeys_per_address_window: int = 30
    passkey_registrations_per_window: int = 10
    """Passkey ceremonies (begun or finished) per address, and registrations begun per
    account, per ``login_window_s``: each leaves a challenge row for five minutes, so the
    challenge table stays small. Their own budgets: password failures never slow a passkey."""
    hash_workers: int = field(default_factory=default_workers)
    hash_queue: int = 8
    """Password hashing threads (one fewer than the cores) and how many hashing jobs may
    run or wait at once; past that, 503 with ``Retry-After`` before anything is hashed
    (:mod:`decklab.server.accounts.hashing`)."""
    signups_per_window: int = 5
    signup_window_s: float = 3600.0
    """Accounts made per address per ``signup_window_s``."""
    # -- the bot API (docs/server.md, "Bot accounts")
    bot_requests_per_window: int = 300
    bot_window_s: float = 60.0
    """Requests per API token per ``bot_window_s`` (moves, joins, streams opened): a
    move a second at several tables at once, far from flooding the server."""
    bot_streams_per_token: int = 16
    """Open NDJSON streams per API token at once: the event stream and a dozen tables."""
    api_tokens_per_account: int = 20
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
    # -- the HTTP edge: names, proxies, slow clients (docs/server.md, "Host, Origin, proxies")
    public_urls: tuple[str, ...] = ()
    """The URLs people reach this server by (``--public-url https://cards.example``): only
    their host:port may be named in ``Host`` (DNS rebinding), and a WebSocket's Origin must
    be one of them or an allowed origin. Empty: ``localhost``, IP addresses and
    :attr:`bind_host` only (:mod:`decklab.server.api.origin`)."""
    bind_host: str = ""
    """The address ``decklab serve`` listens on: a name given there is a Host it answers to."""
    trusted_proxies: tuple[str, ...] = ()
    """Addresses or networks (``10.0.0.0/8``) of reverse proxies whose ``X-Forwarded-For``
    and ``X-Forwarded-Proto`` are believed; from anyone else they are ignored, so a client
    cannot choose the address its limits are counted by."""
    header_timeout_s: float = 10.0
    """A connection whose request headers are not complete this long after it opened (or
    after its last answer) is closed: half-sent headers cannot hold connections open."""
    # -- deployment (docs/deploy.md): metrics, access log, retention
    metrics: bool = True
    """Answer ``/metrics`` (Prometheus; counts only). The nginx site keeps it off the
    public address: Prometheus scrapes each instance on its loopback port."""
    access_log: bool = False
    """One JSON line per HTTP request and WebSocket (``decklab.access``): off by default,
    as every request is a line."""
    chat_retention_days: float = 90.0
    """Chat lines older than this are deleted by the retention sweep; 0: kept forever.
    90 days: long enough for a report to be looked into (a report keeps its own copy)."""
    # -- moderation (issue 21 item 7)
    ban_refresh_s: float = 10.0
    """How often each process re-reads the banned addresses (``decklab admin`` writes them
    to the database from another process)."""
    reports_per_window: int = 5
    """Reports one address may make per ``report_window_s``; more: 429."""
    report_window_s: float = 3600.0
    finished_retention_days: float = 0.0
    """Finished tables (with their seats, actions and chat) this long after their last
    change are deleted by the retention sweep; 0: kept forever. Solo statistics stay."""
    retention_sweep_s: float = 3600.0
    """How often the retention sweep runs (when a retention is set)."""
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
    # -- notification mail (docs/server.md, "Notifications")
    smtp_host: str = ""
    """The SMTP server notification mail is handed to (a local relay); empty: no mail is
    recorded or sent, and nothing else changes."""
    smtp_port: int = 25
    smtp_from: str = "decklab@localhost"
    """The mail's From address."""
    mail_every_s: float = 3600.0
    """At most one mail per table per account this often: later news of the same table
    waits and goes in the next mail (Board Game Arena batches its turn mail the same way)."""
    mail_poll_s: float = 60.0
    """How often the mailer looks for mail that has become due."""
