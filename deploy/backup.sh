#!/bin/sh
# The nightly backup (docker-compose.yml's `backup` service): a pg_dump in PostgreSQL's
# custom format (pg_restore reads it, table by table if need be) every day at BACKUP_AT
# (UTC), written under a temporary name and renamed when whole, so a dump cut short is
# never taken for a good one; dumps older than BACKUP_KEEP_DAYS days are deleted.
# The connection comes from libpq's PGHOST, PGUSER, PGPASSWORD and PGDATABASE.
# BACKUP_ONCE=1: one dump now, then exit (a drill, or before an upgrade).
set -eu

dir="${BACKUP_DIR:-/backups}"
at="${BACKUP_AT:-03:00}"
keep="${BACKUP_KEEP_DAYS:-14}"
mkdir -p "$dir"

dump() {
    name="$dir/${PGDATABASE:-catclub}-$(date -u +%Y%m%dT%H%M%SZ).dump"
    if pg_dump --format=custom --file="$name.partial"; then
        mv "$name.partial" "$name"
        echo "backup: wrote $name ($(wc -c <"$name") bytes)"
    else
        rm -f "$name.partial"
        echo "backup: pg_dump failed" >&2
        return 1
    fi
    # Retention: keep BACKUP_KEEP_DAYS days of dumps (never the one just written).
    find "$dir" -name '*.dump' -type f -mtime +"$((keep - 1))" ! -path "$name" -print -delete
}

seconds_until() {
    now=$(date -u +%s)
    next=$(date -u -d "$(date -u +%Y-%m-%d) $1" +%s 2>/dev/null ||
        date -u -D '%Y-%m-%d %H:%M' -d "$(date -u +%Y-%m-%d) $1" +%s)
    [ "$next" -gt "$now" ] || next=$((next + 86400))
    echo $((next - now))
}

if [ "${BACKUP_ONCE:-0}" = 1 ]; then
    dump
    exit
fi
while true; do
    sleep "$(seconds_until "$at")"
    # A failed night is logged and tried again the next; the service stays up.
    dump || true
done
