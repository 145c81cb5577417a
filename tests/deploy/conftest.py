"""The deployment tests borrow the server tests' PostgreSQL and the browser tests' Chromium."""

from server.conftest import pg_server
from web.conftest import browser

__all__ = ["browser", "pg_server"]
