"""Chain files: what a user can declare, and clear errors naming the file and step for the rest."""

from __future__ import annotations

import pytest

from scholarstack.chain import load_chain
from scholarstack.settings import CONFIG_DIR


def test_the_shipped_chain_loads():
    chain = load_chain(CONFIG_DIR / "chains" / "demo.yaml")
    assert chain.name == "demo" and [s.task for s in chain.steps][:3] == ["ask", "ask", "verify_claim"]


@pytest.mark.parametrize("body, message", [
    ("name: c\nsteps:\n  - {task: ask, question: q, papers: [P]}\n  - {task: dance, paper: P}\n",
     "step 2: unknown task 'dance' (one of ask, verify_claim"),
    ("name: c\nsteps:\n  - {task: ask, question: '', papers: [P]}\n", "steps.0.ask.question: String should have at least 1 character"),
    ("name: c\nsteps:\n  - {task: summarize, paper: P, colour: red}\n", "colour: Extra inputs are not permitted"),
    ("name: c\nsteps: []\n", "steps: List should have at least 1 item"),
    ("name: Bad Name\nsteps:\n  - {task: summarize, paper: P}\n", "name: String should match pattern"),
    ("steps: [unclosed\n", "not valid YAML"),
    ("- just a list\n", "expected a mapping with name and steps"),
])
def test_bad_chain_files_name_the_file_and_the_reason(tmp_path, body, message):
    path = tmp_path / "chain.yaml"
    path.write_text(body)
    with pytest.raises(ValueError) as err:
        load_chain(path)
    assert str(path) in str(err.value) and message in str(err.value)


def test_a_missing_chain_file_is_named(tmp_path):
    with pytest.raises(FileNotFoundError, match="nope.yaml: no such chain file"):
        load_chain(tmp_path / "nope.yaml")
