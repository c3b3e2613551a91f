"""Alembic environment: migrations always run on the connection `upgrade_schema` hands over, inside its
transaction (and, on PostgreSQL, under its advisory lock)."""

from alembic import context

connection = context.config.attributes["connection"]
context.configure(connection=connection, target_metadata=None, transactional_ddl=True)
with context.begin_transaction():
    context.run_migrations()
