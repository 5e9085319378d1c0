#!/usr/bin/env bash
# Makes sure MariaDB/MySQL and PostgreSQL answer. On a machine where they are installed but
# stopped, starts them; otherwise explains what is needed.
set -uo pipefail

mysql_ok() { node -e '
const u=new URL(process.env.DATABASE_URL||"mysql://root@127.0.0.1:3306/timber");
require("net").connect({host:u.hostname,port:+u.port||3306}).on("connect",()=>process.exit(0)).on("error",()=>process.exit(1));' 2>/dev/null; }
pg_ok() { node -e '
const u=new URL(process.env.JOBS_DATABASE_URL||"postgres://postgres@127.0.0.1:5432/timber_jobs");
require("net").connect({host:u.hostname,port:+u.port||5432}).on("connect",()=>process.exit(0)).on("error",()=>process.exit(1));' 2>/dev/null; }

if ! mysql_ok; then
  if command -v mariadbd >/dev/null 2>&1 || [ -x /usr/sbin/mariadbd ]; then
    echo "MariaDB is not answering: starting it"
    start-stop-daemon --start --oknodo --background --exec /usr/sbin/mariadbd || true
    for _ in $(seq 1 30); do mysql_ok && break; sleep 1; done
  fi
fi
if ! pg_ok; then
  if command -v pg_ctlcluster >/dev/null 2>&1; then
    echo "PostgreSQL is not answering: starting it"
    pg_ctlcluster --skip-systemctl-redirect "$(ls /etc/postgresql | head -1)" main start || true
    for _ in $(seq 1 30); do pg_ok && break; sleep 1; done
  fi
fi
mysql_ok || { echo "MariaDB/MySQL does not answer at DATABASE_URL. Install MariaDB 10.11+ or MySQL 8 (Debian: apt-get install -y mariadb-server) and start it, or set DATABASE_URL." >&2; exit 1; }
pg_ok || { echo "PostgreSQL does not answer at JOBS_DATABASE_URL. Install PostgreSQL 13+ (Debian: apt-get install -y postgresql) and start it, or set JOBS_DATABASE_URL." >&2; exit 1; }
echo "databases answer"
