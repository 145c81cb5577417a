"""Notifications: "your turn" and "you were invited", kept in an outbox per account and
mailed in batches (at most one mail per table an hour); docs/server.md, Notifications."""
