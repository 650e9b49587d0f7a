#!/bin/sh
# Runs once, when the primary's data directory is created: lets the replica stream from it.
set -e
echo "host replication ${POSTGRES_USER} all scram-sha-256" >> "$PGDATA/pg_hba.conf"
