"""A throwaway PostgreSQL server for tests and benchmarks: a fresh cluster in a temporary folder
on a free loopback port, trust authentication, stopped and removed when done. Production points
SCHOLARSTACK_STORE_URL at a real server instead."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

BIN_DIRS = [Path("/usr/lib/postgresql") / v / "bin" for v in ("17", "16", "15", "14")]


def pg_bin() -> Path | None:
    """The folder with initdb and pg_ctl: $SCHOLARSTACK_PG_BIN, the usual Debian places, or PATH."""
    candidates = [Path(os.environ["SCHOLARSTACK_PG_BIN"])] if os.environ.get("SCHOLARSTACK_PG_BIN") else []
    candidates += BIN_DIRS
    if shutil.which("initdb"):
        candidates.append(Path(shutil.which("initdb")).parent)
    return next((d for d in candidates if (d / "initdb").is_file() and (d / "pg_ctl").is_file()), None)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@dataclass
class LocalPostgres:
    folder: Path
    port: int
    bin: Path
    user: str
    as_postgres: bool  # root: initdb and pg_ctl run as the postgres user

    def url(self, database: str = "postgres") -> str:
        # Trust authentication ignores the password; dlt's PostgreSQL destination insists on one.
        return f"postgresql://{self.user}:local@127.0.0.1:{self.port}/{database}"

    def create_database(self, name: str) -> str:
        import psycopg

        with psycopg.connect(self.url(), autocommit=True) as con:
            con.execute(f'CREATE DATABASE "{name}"')
        return self.url(name)

    def stop(self) -> None:
        _run([str(self.bin / "pg_ctl"), "-D", str(self.folder / "data"), "-m", "immediate", "stop"], check=False,
             as_postgres=self.as_postgres)
        shutil.rmtree(self.folder, ignore_errors=True)


def _run(argv: list[str], check: bool = True, as_postgres: bool = False) -> None:
    if as_postgres:  # initdb and the server refuse to run as root
        argv = ["su", "postgres", "-s", "/bin/sh", "-c", " ".join(f"'{a}'" for a in argv)]
    done = subprocess.run(argv, capture_output=True, text=True)
    if check and done.returncode != 0:
        raise RuntimeError(f"{argv[0]} failed ({done.returncode}): {(done.stderr or done.stdout).strip()[-500:]}")


def start_local_postgres() -> LocalPostgres:
    """Start a fresh cluster; RuntimeError (with the reason) where PostgreSQL is not installed."""
    bin_dir = pg_bin()
    if bin_dir is None:
        raise RuntimeError("PostgreSQL is not installed (no initdb/pg_ctl; set SCHOLARSTACK_PG_BIN)")
    root = os.geteuid() == 0
    folder = Path(tempfile.mkdtemp(prefix="scholarstack-pg-"))
    user = "postgres" if root else os.environ.get("USER", "postgres")
    if root:
        folder.chmod(0o755)
        shutil.chown(folder, "postgres", "postgres")
    pg = LocalPostgres(folder, _free_port(), bin_dir, user, as_postgres=root)
    data = folder / "data"
    _run([str(bin_dir / "initdb"), "-D", str(data), "-U", user, "-A", "trust", "-E", "UTF8", "--no-sync"], as_postgres=root)
    opts = f"-p {pg.port} -k {folder} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=100"
    _run([str(bin_dir / "pg_ctl"), "-D", str(data), "-o", opts, "-l", str(folder / "log"), "-w", "start"], as_postgres=root)
    return pg
