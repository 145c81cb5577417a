"""Online play: tables, seats, live moves, durable storage, bots in seats.

The layers, one direction of dependency:

- :mod:`.store`: the database (SQLAlchemy 2 models and queries, Alembic migrations);
- :mod:`.service`: the table service, which knows no transport: it validates an
  intent with the engine, commits the action with the table's new version, and
  only then hands each viewer its own event (:mod:`.frames`);
- :mod:`.api` and :mod:`.live`: thin HTTP and WebSocket adapters over the service;
- :mod:`.bots`: bots thinking in worker processes on a determinization of their seat.

No module here names a game: everything comes through the generic interface.
"""
