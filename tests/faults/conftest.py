"""Helpers for the fault matrix: small papers written on the spot, the CLI run in-process, and
subprocesses run as an unprivileged user (root ignores file permissions)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from scholarstack.cli import main

REPO = Path(__file__).resolve().parents[2]

TAGGER = [
    "TnT is a statistical part-of-speech tagger based on second order Markov models.",
    "We use linear interpolation smoothing for the trigram probabilities.",
    "TnT achieves 96.7% accuracy on the Penn Treebank.",
    "The Maximum Entropy tagger reaches 96.6% accuracy on the Penn Treebank.",
    "Unknown words are handled by suffix analysis, which improves accuracy on rare words.",
    "A limitation is that the tagger fails to use long-distance context.",
]


def write_md(path: Path, title: str, sentences: list[str], section: str = "Results") -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(f"# {title}\n\n## {section}\n\n" + " ".join(sentences) + "\n", encoding="utf-8")
    return path


def cli(capsys, *argv: str) -> tuple[int, str, str]:
    try:
        code = main(list(argv))
    except SystemExit as exc:  # argparse refuses bad arguments with exit 2
        code = exc.code
    out = capsys.readouterr()
    return code, out.out, out.err


def run_cli(*argv: str, user: str | None = None, env: dict | None = None, timeout: int = 300) -> subprocess.CompletedProcess:
    """`scholarstack …` in a subprocess (as `user` when given; only root can switch)."""
    full_env = {**os.environ, **(env or {})}
    kwargs = {"user": user} if user else {}
    return subprocess.run([sys.executable, "-m", "scholarstack.cli", *argv], capture_output=True, text=True,
                          cwd=REPO, env=full_env, timeout=timeout, **kwargs)


def unprivileged() -> str | None:
    """The user to run permission cases as: `nobody` when we are root (root bypasses modes)."""
    return "nobody" if os.geteuid() == 0 else None


def world_readable_dir(tmp_path: Path, name: str) -> Path:
    """A folder `nobody` can traverse (pytest's tmp dirs are private to their owner)."""
    base = Path("/tmp") / f"scholarstack-faults-{os.getpid()}-{name}"
    shutil.rmtree(base, ignore_errors=True)
    base.mkdir(mode=0o755)
    return base


@pytest.fixture
def one_line_error():
    def check(code: int, err: str, *needles: str) -> None:
        lines = [ln for ln in err.strip().splitlines() if ln.strip()]
        assert code not in (0, None), f"expected a non-zero exit, got {code}; stderr: {err}"
        assert len(lines) == 1, f"expected one line on stderr, got {len(lines)}:\n{err}"
        assert "Traceback" not in err
        for n in needles:
            assert n.lower() in err.lower(), f"{n!r} not in {err!r}"
    return check
