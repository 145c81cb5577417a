"""The tables of the database. One row per table, per seat, per accepted action, per
chat message, per finished solo game: enough to rebuild every table exactly."""

from __future__ import annotations

import datetime as _dt
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    DateTime,
    Float,
    ForeignKey,
    Integer,
    LargeBinary,
    String,
    Text,
    false,
    true,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column


def utcnow() -> _dt.datetime:
    return _dt.datetime.now(_dt.UTC)


class Base(DeclarativeBase):
    """The declarative base of every table."""


class TableRow(Base):
    """A table: the game, its deal, its seats' rules, and the version of its events."""

    __tablename__ = "game_tables"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    game: Mapped[str] = mapped_column(String(64))
    game_version: Mapped[int] = mapped_column(Integer)
    num_players: Mapped[int] = mapped_column(Integer)
    options: Mapped[dict[str, Any]] = mapped_column(JSON)
    setup: Mapped[dict[str, Any]] = mapped_column(JSON)
    seed: Mapped[int | None] = mapped_column(BigInteger, nullable=True)
    """The deal number of a game played alone (public); None at a table of several."""
    deal_secret: Mapped[bytes | None] = mapped_column(LargeBinary(16), nullable=True)
    """A table of several players' secret, never sent before its end (server/dealing.py)."""
    version: Mapped[int] = mapped_column(Integer, default=0)
    status: Mapped[str] = mapped_column(String(16), index=True)
    """``waiting`` (open seats), ``playing``, ``finished``."""
    public: Mapped[bool] = mapped_column(Boolean, default=True)
    clock: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    outcome: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    previous_id: Mapped[str | None] = mapped_column(String(32), nullable=True)
    next_id: Mapped[str | None] = mapped_column(String(32), nullable=True)
    rated: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    """A rated table: its end updates the seats' ratings (server/ratings/)."""
    created_at: Mapped[_dt.datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    updated_at: Mapped[_dt.datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class SeatRow(Base):
    """A seat: open, a person (known by the hash of their token), or a bot."""

    __tablename__ = "seats"

    table_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("game_tables.id", ondelete="CASCADE"), primary_key=True
    )
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    kind: Mapped[str] = mapped_column(String(8))
    """``open``, ``human`` or ``bot``."""
    nickname: Mapped[str | None] = mapped_column(String(64), nullable=True)
    token_hash: Mapped[str | None] = mapped_column(String(64), nullable=True)
    bot_spec: Mapped[str | None] = mapped_column(String(200), nullable=True)
    zombie: Mapped[bool] = mapped_column(Boolean, default=False)
    """A person's seat played by a bot while they are away (reclaimable with the token)."""
    clock_ms: Mapped[int | None] = mapped_column(Integer, nullable=True)
    account_id: Mapped[int | None] = mapped_column(
        Integer, ForeignKey("accounts.id", ondelete="SET NULL"), nullable=True, index=True
    )
    """The account the seat belongs to (None: a guest's, a bot's, an open seat)."""
    token_salt: Mapped[str | None] = mapped_column(String(32), nullable=True)
    """An account's seat: the random input its token is derived from (accounts/seats.py)."""
    bot_account: Mapped[bool] = mapped_column(Boolean, default=False)
    """The seat's account is a bot account, playing through the bot API (shown as a bot)."""
    arrived: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    """At a rated table: the seat's token has been used (a connection, a request). A
    seat that never arrived aborts its rated table by its absence (ratings/rules.py)."""


class ActionRow(Base):
    """An accepted action: its canonical text, the chance it drew, the intent's client id."""

    __tablename__ = "actions"

    table_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("game_tables.id", ondelete="CASCADE"), primary_key=True
    )
    seq: Mapped[int] = mapped_column(Integer, primary_key=True)
    actor: Mapped[int] = mapped_column(Integer)
    text: Mapped[str] = mapped_column(String(200))
    chance: Mapped[list[Any]] = mapped_column(JSON)
    client_id: Mapped[str | None] = mapped_column(String(64), nullable=True)
    version: Mapped[int] = mapped_column(Integer)
    created_at: Mapped[_dt.datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class ChatRow(Base):
    """A chat message: plain text from a seated player."""

    __tablename__ = "chat"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    table_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("game_tables.id", ondelete="CASCADE"), index=True
    )
    seat: Mapped[int] = mapped_column(Integer)
    nickname: Mapped[str] = mapped_column(String(64))
    text: Mapped[str] = mapped_column(Text)
    created_at: Mapped[_dt.datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class SoloResultRow(Base):
    """A finished solo game, for the statistics of a nickname."""

    __tablename__ = "solo_results"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    nickname: Mapped[str] = mapped_column(String(64), index=True)
    game: Mapped[str] = mapped_column(String(64))
    deal: Mapped[int | None] = mapped_column(Integer, nullable=True)
    score: Mapped[float] = mapped_column(Float)
    perfect: Mapped[bool] = mapped_column(Boolean)
    table_id: Mapped[str] = mapped_column(String(32))
    account_id: Mapped[int | None] = mapped_column(
        Integer, ForeignKey("accounts.id", ondelete="CASCADE"), nullable=True, index=True
    )
    """The account that played it (None: a guest); an account's statistics count only these."""
    finished_at: Mapped[_dt.datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class AccountRow(Base):
    """A person's account: a unique username, an argon2id hash of the password (never the
    password), and the key its seats' tokens are derived from."""

    __tablename__ = "accounts"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    username: Mapped[str] = mapped_column(String(32))
    username_key: Mapped[str] = mapped_column(String(32), unique=True)
    """The username folded to lower case: ``Ann`` and ``ann`` are one name."""
    password_hash: Mapped[str | None] = mapped_column(String(200), nullable=True)
    seat_key: Mapped[bytes] = mapped_column(LargeBinary(32))
    webauthn_user_id: Mapped[bytes] = mapped_column(LargeBinary(32), unique=True)
    """The random user handle passkeys carry (never the username or the row id)."""
    created_at: Mapped[_dt.datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    bot: Mapped[bool] = mapped_column(Boolean, default=False)
    """A bot account: plays only through the bot API, with a personal API token."""
    email: Mapped[str | None] = mapped_column(String(254), nullable=True, default=None)
    """Where notification mail goes (none: no mail)."""
    email_turn: Mapped[bool] = mapped_column(Boolean, default=True, server_default=true())
    email_invite: Mapped[bool] = mapped_column(Boolean, default=True, server_default=true())
    """Which kinds of notification mail the person wants (docs/server.md, Notifications)."""
    banned_at: Mapped[_dt.datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    """Banned by ``decklab admin ban-account``: no login, no session (None: in good standing)."""


class SessionRow(Base):
    """A logged-in browser: only the SHA-256 of its cookie's token is kept."""

    __tablename__ = "account_sessions"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    account_id: Mapped[int] = mapped_column(
        Integer, ForeignKey("accounts.id", ondelete="CASCADE"), index=True
    )
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    created_at: Mapped[_dt.datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    last_seen_at: Mapped[_dt.datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    revoked_at: Mapped[_dt.datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    how: Mapped[str] = mapped_column(String(16))
    """``password`` or ``passkey``: how this session logged in (shown in the export)."""


class PasskeyRow(Base):
    """A passkey (WebAuthn credential) of an account: its id and public key."""

    __tablename__ = "passkeys"

    credential_id: Mapped[str] = mapped_column(String(400), primary_key=True)
    """base64url, as the browser sends it."""
    account_id: Mapped[int] = mapped_column(
        Integer, ForeignKey("accounts.id", ondelete="CASCADE"), index=True
    )
    public_key: Mapped[bytes] = mapped_column(LargeBinary)
    sign_count: Mapped[int] = mapped_column(BigInteger, default=0)
    created_at: Mapped[_dt.datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class ChallengeRow(Base):
    """A WebAuthn ceremony's challenge between its two requests (in the database, so that
    another server process may answer the second); used once, and short-lived."""

    __tablename__ = "webauthn_challenges"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    challenge: Mapped[bytes] = mapped_column(LargeBinary(64))
    purpose: Mapped[str] = mapped_column(String(16))
    account_id: Mapped[int | None] = mapped_column(
        Integer, ForeignKey("accounts.id", ondelete="CASCADE"), nullable=True
    )
    created_at: Mapped[_dt.datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class ApiTokenRow(Base):
    """A personal API token of an account (``Authorization: Bearer``): only its SHA-256
    is kept; the token itself is shown once, when it is made."""

    __tablename__ = "api_tokens"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    account_id: Mapped[int] = mapped_column(
        Integer, ForeignKey("accounts.id", ondelete="CASCADE"), index=True
    )
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    label: Mapped[str] = mapped_column(String(64))
    created_at: Mapped[_dt.datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    last_used_at: Mapped[_dt.datetime | None] = mapped_column(
        DateTime(timezone=True), nullable=True
    )
    revoked_at: Mapped[_dt.datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)


class RatingRow(Base):
    """A player's rating at one game (Weng–Lin: a mean and an uncertainty). The player
    is an account (``a:<id>``) or a bot spec (``bot:<spec>``), on one scale."""

    __tablename__ = "ratings"

    game: Mapped[str] = mapped_column(String(64), primary_key=True)
    player: Mapped[str] = mapped_column(String(220), primary_key=True)
    account_id: Mapped[int | None] = mapped_column(
        Integer, ForeignKey("accounts.id", ondelete="CASCADE"), nullable=True, index=True
    )
    bot_spec: Mapped[str | None] = mapped_column(String(200), nullable=True)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    games: Mapped[int] = mapped_column(Integer, default=0)
    updated_at: Mapped[_dt.datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class RatedTableRow(Base):
    """A table whose result has updated the ratings: its primary key is what makes rating
    a table happen once, whichever process or restart tries again."""

    __tablename__ = "rated_tables"

    table_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    game: Mapped[str] = mapped_column(String(64))
    rated_at: Mapped[_dt.datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class RatingHistoryRow(Base):
    """A player's rating after one rated table (the points of a profile's plot)."""

    __tablename__ = "rating_history"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    game: Mapped[str] = mapped_column(String(64))
    player: Mapped[str] = mapped_column(String(220), index=True)
    account_id: Mapped[int | None] = mapped_column(
        Integer, ForeignKey("accounts.id", ondelete="CASCADE"), nullable=True, index=True
    )
    table_id: Mapped[str] = mapped_column(String(32))
    rank: Mapped[int] = mapped_column(Integer)
    """The seat's place at that table (1 = first; equal places are ties)."""
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    at: Mapped[_dt.datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class FriendRow(Base):
    """One account's friend (one way, as a list of people one plays with: adding someone
    asks nothing of them, and lets one invite them to a seat)."""

    __tablename__ = "friends"

    account_id: Mapped[int] = mapped_column(
        Integer, ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True
    )
    friend_id: Mapped[int] = mapped_column(
        Integer, ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True, index=True
    )
    created_at: Mapped[_dt.datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class InvitationRow(Base):
    """A seat of a waiting table kept for a friend: only they may take it while it stands."""

    __tablename__ = "invitations"

    table_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("game_tables.id", ondelete="CASCADE"), primary_key=True
    )
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    from_id: Mapped[int] = mapped_column(
        Integer, ForeignKey("accounts.id", ondelete="CASCADE"), index=True
    )
    to_id: Mapped[int] = mapped_column(
        Integer, ForeignKey("accounts.id", ondelete="CASCADE"), index=True
    )
    created_at: Mapped[_dt.datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class OutboxRow(Base):
    """A notification waiting for the mailer, or sent (kept an hour, for the batching).

    ``at`` and ``sent_at`` are wall-clock seconds (the service's injectable clock)."""

    __tablename__ = "notify_outbox"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    account_id: Mapped[int] = mapped_column(
        Integer, ForeignKey("accounts.id", ondelete="CASCADE"), index=True
    )
    table_id: Mapped[str] = mapped_column(String(32))
    kind: Mapped[str] = mapped_column(String(16))
    text: Mapped[str] = mapped_column(String(300))
    at: Mapped[float] = mapped_column(Float)
    sent_at: Mapped[float | None] = mapped_column(Float, nullable=True, default=None)


class TableCreatorRow(Base):
    """Who created a table (the hash of the creator token handed out at creation, and the
    account if one was logged in): they may remove a person from a seat before the start."""

    __tablename__ = "table_creators"

    table_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("game_tables.id", ondelete="CASCADE"), primary_key=True
    )
    token_hash: Mapped[str] = mapped_column(String(64))
    account_id: Mapped[int | None] = mapped_column(
        Integer, ForeignKey("accounts.id", ondelete="SET NULL"), nullable=True, index=True
    )


class MuteRow(Base):
    """One account muting (or blocking: ``block``) another: one way, told to nobody."""

    __tablename__ = "mutes"

    account_id: Mapped[int] = mapped_column(
        Integer, ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True
    )
    other_id: Mapped[int] = mapped_column(
        Integer, ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True, index=True
    )
    block: Mapped[bool] = mapped_column(Boolean, default=False)
    created_at: Mapped[_dt.datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class ReportRow(Base):
    """A report of a seat's person, with the table's chat as it was when reported (kept
    even after the table, its chat lines or the accounts are gone)."""

    __tablename__ = "reports"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    table_id: Mapped[str] = mapped_column(String(32), index=True)
    seat: Mapped[int] = mapped_column(Integer)
    nickname: Mapped[str | None] = mapped_column(String(64), nullable=True)
    """The reported seat's name then."""
    account_id: Mapped[int | None] = mapped_column(
        Integer, ForeignKey("accounts.id", ondelete="SET NULL"), nullable=True, index=True
    )
    """The reported seat's account (None: a guest)."""
    reporter: Mapped[str] = mapped_column(String(80))
    """Who reported: ``account:<username>`` or ``seat:<seat> <nickname>``."""
    reason: Mapped[str] = mapped_column(Text)
    chat: Mapped[list[Any]] = mapped_column(JSON)
    created_at: Mapped[_dt.datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    resolved_at: Mapped[_dt.datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)


class AddressBanRow(Base):
    """A client address whose requests are refused (``decklab admin ban-address``)."""

    __tablename__ = "address_bans"

    address: Mapped[str] = mapped_column(String(64), primary_key=True)
    created_at: Mapped[_dt.datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class ModerationClockRow(Base):
    """One row whose ``version`` goes up with every ban, unban, mute or block: what each
    server process reads a few times a second to learn that the moderation it holds in
    memory is out of date (the admin command writes from another process)."""

    __tablename__ = "moderation_clock"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    version: Mapped[int] = mapped_column(Integer, default=0)


class QuickPlayRow(Base):
    """A quick-play table's terms while it fills: what a newcomer must ask for to be seated
    at it, and the wall-clock second at which its empty seats go to bots (kept, so that a
    restart keeps the promise "never waits past its deadline")."""

    __tablename__ = "quickplay"

    table_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("game_tables.id", ondelete="CASCADE"), primary_key=True
    )
    game: Mapped[str] = mapped_column(String(64), index=True)
    min_players: Mapped[int] = mapped_column(Integer)
    max_players: Mapped[int] = mapped_column(Integer)
    level: Mapped[str] = mapped_column(String(32))
    rated: Mapped[bool] = mapped_column(Boolean, default=False)
    deadline: Mapped[float] = mapped_column(Float)
    """Wall-clock seconds (``TableService.wall``)."""


class KnownDeviceRow(Base):
    """A device cookie or an address an account took a seat from, as a SHA-256 only: what
    lets a block refuse the same person logged out (:mod:`decklab.server.seating`).
    Addresses are forgotten after ``seating.ADDRESS_DAYS``; an account keeps its
    ``seating.DEVICES_KEPT`` latest devices."""

    __tablename__ = "known_devices"

    account_id: Mapped[int] = mapped_column(
        Integer, ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True
    )
    kind: Mapped[str] = mapped_column(String(8), primary_key=True)
    """``device`` (the device cookie) or ``address`` (the client address)."""
    digest: Mapped[str] = mapped_column(String(64), primary_key=True, index=True)
    seen_at: Mapped[_dt.datetime] = mapped_column(
        DateTime(timezone=True), default=utcnow, index=True
    )
