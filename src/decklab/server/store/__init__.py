"""The database: models, engine set-up and migrations, and the queries the service needs."""
