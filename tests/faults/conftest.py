"""Helpers for the fault matrix: small papers written on the spot, the CLI in-process or in a
subprocess, and folders made read-only for real (root ignores file modes, so a bind mount)."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
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


def run_cli(*argv: str, env: dict | None = None, timeout: int = 300) -> subprocess.CompletedProcess:
    """`scholarstack …` in a subprocess."""
    return subprocess.run([sys.executable, "-m", "scholarstack.cli", *argv], capture_output=True, text=True,
                          cwd=REPO, env={**os.environ, **(env or {})}, timeout=timeout)


@contextmanager
def read_only(path: Path) -> Iterator[Path]:
    """`path` as a read-only folder for real: a read-only bind mount as root (root ignores file
    modes), file modes otherwise. Skips when neither can be had."""
    if os.geteuid() == 0:
        view = path.parent / f"{path.name}-ro"
        view.mkdir()
        if subprocess.run(["mount", "--bind", str(path), str(view)], capture_output=True).returncode != 0:
            pytest.skip("cannot bind-mount here (no privilege): the read-only cases need it as root")
        try:
            subprocess.run(["mount", "-o", "remount,ro,bind", str(view)], check=True, capture_output=True)
            yield view
        finally:
            subprocess.run(["umount", str(view)], capture_output=True)
    else:
        modes = {p: p.stat().st_mode for p in [path, *path.rglob("*")]}
        for p in modes:
            p.chmod(0o555 if p.is_dir() else 0o444)
        try:
            yield path
        finally:
            for p, m in modes.items():
                p.chmod(m)


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
