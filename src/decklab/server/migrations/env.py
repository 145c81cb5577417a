"""Alembic's entry point: run the migrations on the URL the server was given."""

from __future__ import annotations

from alembic import context

from decklab.server.store.db import make_engine
from decklab.server.store.models import Base

config = context.config
url = config.get_main_option("sqlalchemy.url")
assert url is not None
engine = make_engine(url)
with engine.connect() as connection:
    context.configure(connection=connection, target_metadata=Base.metadata, render_as_batch=True)
    with context.begin_transaction():
        context.run_migrations()
engine.dispose()
