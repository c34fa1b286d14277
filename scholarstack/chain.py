"""A research chain: a declared sequence of tasks (a YAML file) whose outputs are registered, so a
later step, or a later run of the chain, reuses what an earlier one judged.

The orchestration materialises each step as a Dagster asset depending on the one before; this
module reads the file and runs one task step. Ingesting and compiling are steps too, run by the
orchestration (compiling is its job).
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Annotated, Any, Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from .store import Store


class _Step(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Ask(_Step):
    task: Literal["ask"]
    question: str = Field(..., min_length=1, max_length=2000)
    papers: list[str] = Field(..., min_length=1)
    mode: Literal["view", "fulltext"] = "view"


class VerifyClaim(_Step):
    task: Literal["verify_claim"]
    claim: str = Field(..., min_length=1, max_length=5000)
    paper: str = Field(..., min_length=1)
    mode: Literal["view", "fulltext"] = "view"


class Summarize(_Step):
    task: Literal["summarize"]
    paper: str = Field(..., min_length=1)
    words: int = Field(250, ge=30, le=2000)


class RelatedWork(_Step):
    task: Literal["related_work"]
    paper: str = Field(..., min_length=1)
    k: int = Field(10, ge=1, le=50)


class Review(_Step):
    task: Literal["review"]
    topic: str = Field(..., min_length=1, max_length=500)
    papers: list[str] | None = None
    k: int = Field(12, ge=1, le=50)


class Design(_Step):
    task: Literal["design"]
    request: str = Field(..., min_length=1, max_length=5000)
    k: int = Field(15, ge=1, le=50)


class Novelty(_Step):
    task: Literal["novelty"]
    idea: str | None = Field(None, min_length=1, max_length=20_000)
    paper: str | None = None
    k: int = Field(10, ge=1, le=50)

    @model_validator(mode="after")
    def _one_request(self) -> "Novelty":
        if (self.idea is None) == (self.paper is None):
            raise ValueError("give exactly one of idea or paper")
        return self


class Ingest(_Step):
    task: Literal["ingest"]
    paths: list[str] = Field(..., min_length=1, description="files or folders, relative to the chain file")


class Compile(_Step):
    task: Literal["compile"]
    papers: list[str] | None = Field(None, description="default: every ingested paper (unchanged ones are kept as they were)")


Step = Annotated[Ask | VerifyClaim | Summarize | RelatedWork | Review | Design | Novelty | Ingest | Compile, Field(discriminator="task")]
TASKS = ("ask", "verify_claim", "summarize", "related_work", "review", "design", "novelty", "ingest", "compile")


class Chain(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: str = Field(..., pattern=r"^[a-z][a-z0-9_]{0,40}$", description="a Dagster-safe name")
    description: str = ""
    backend: Literal["offline", "openai"] = "offline"
    steps: list[Step] = Field(..., min_length=1, max_length=500)
    source: str = Field("", description="the file it was read from")


class StepResult(BaseModel):
    index: int
    task: str
    request: str
    reused: bool = False
    output: str = Field("", description="the registered object's id")
    status: str = Field("", description="new, revised, reused (same content) or rejected; 'hit' when reused")
    answer: str = ""
    tokens_in: int = 0
    tokens_out: int = 0
    seconds: float = 0.0
    why: str = Field("", description="why a registered output was not reused")


def load_chain(path: str | Path) -> Chain:
    """The chain in `path`; a clear error naming the file and the step for anything wrong in it."""
    path = Path(path)
    if not path.is_file():
        raise FileNotFoundError(f"{path}: no such chain file")
    try:
        raw = yaml.safe_load(path.read_text())
    except yaml.YAMLError as exc:
        raise ValueError(f"{path}: not valid YAML: {exc}") from None
    if not isinstance(raw, dict):
        raise ValueError(f"{path}: expected a mapping with name and steps")
    for i, step in enumerate(raw.get("steps") or []):
        task = step.get("task") if isinstance(step, dict) else None
        if task not in TASKS:
            raise ValueError(f"{path}: step {i + 1}: unknown task {task!r} (one of {', '.join(TASKS)})")
    try:
        return Chain.model_validate(raw | {"source": str(path)})
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(x) for x in first["loc"])
        raise ValueError(f"{path}: {where}: {first['msg']}") from None


def describe(step: Any) -> str:
    """What a step asks, in one line."""
    match step.task:
        case "ask":
            return f"{step.question} [{', '.join(step.papers)}]"
        case "verify_claim":
            return f"{step.claim} [{step.paper}]"
        case "summarize" | "related_work":
            return step.paper
        case "review":
            return step.topic
        case "design":
            return step.request
        case "novelty":
            return step.paper or step.idea[:200]
        case "ingest":
            return ", ".join(step.paths)
        case _:
            return ", ".join(step.papers or ["all new papers"])


def run_task_step(store: Store, kb, index: int, step: Any, client=None, reuse: bool = True) -> StepResult:
    """One task step through its task (registered, reused while its basis stands)."""
    started = time.perf_counter()
    out = StepResult(index=index, task=step.task, request=describe(step))
    if step.task in ("ask", "verify_claim", "novelty"):
        from .tasks.claims import judge_claim
        from .tasks.novelty import judge_novelty
        from .tasks.qa import ask

        ans = (ask(kb, step.question, step.papers, mode=step.mode, client=client, reuse=reuse) if step.task == "ask"
               else judge_claim(kb, step.claim, step.paper, mode=step.mode, client=client, reuse=reuse) if step.task == "verify_claim"
               else judge_novelty(store, idea=step.idea, paper=step.paper, k=step.k, embedder=kb.embedder, client=client, reuse=reuse))
        reused, reg = ans.extra.get("reuse") or {}, ans.extra.get("registration") or {}
        if ans.extra.get("error"):
            raise RuntimeError(f"step {index} ({step.task}): {ans.extra['error']}")
        out.answer, out.tokens_in, out.tokens_out = ans.answer[:300], ans.tokens_in, ans.tokens_out
    elif step.task in ("summarize", "related_work", "review", "design"):
        from .writing.design import design
        from .writing.related_work import related_work
        from .writing.review import review
        from .writing.summary import summarize

        res = (summarize(store, step.paper, words=step.words, client=client, reuse=reuse) if step.task == "summarize"
               else related_work(store, paper=step.paper, k=step.k, client=client, embedder=kb.embedder, reuse=reuse)
               if step.task == "related_work"
               else design(store, step.request, k=step.k, client=client, embedder=kb.embedder, reuse=reuse) if step.task == "design"
               else review(store, step.topic, papers=step.papers, k=step.k, client=client, embedder=kb.embedder, reuse=reuse))
        reused, reg = res.extra.get("reuse") or {}, res.registration
        out.answer = res.writing.title
        out.tokens_in, out.tokens_out = res.tokens_in, res.tokens_out  # a reused writing reports none
    else:
        raise ValueError(f"step {index}: {step.task} is run by the orchestration, not as a task")
    out.reused = bool(reused.get("hit"))
    out.output = reused.get("id") or reg.get("id", "")
    out.status = "hit" if out.reused else reg.get("status", "")
    out.why = reused.get("why", "") if not out.reused else ""
    if reg.get("status") == "rejected":
        out.why = f"rejected at the gate: {reg.get('reason', '')}"
    out.seconds = round(time.perf_counter() - started, 3)
    return out
