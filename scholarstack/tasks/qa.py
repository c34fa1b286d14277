"""Question answering over one or many papers, in view mode or full-text mode.

Offline: extractive, and the answer is what the question asks for, taken from the best evidence:
a number with its unit for "how many / what accuracy" questions, the typed mentions (learned
tagger) for "which datasets / what baselines" questions (from the best three pieces of evidence,
or the next five when those name none), yes/no from the evidence's polarity;
otherwise the best evidence itself. A question whose content words the evidence barely covers
is reported unanswerable.
OpenAI-compatible: the model answers from the rendered context and must cite locators from it;
citations outside the context are removed and recorded, never passed on.
Over several papers, statements keep their paper identity and conditions.
"""

from __future__ import annotations

import re
import time

from pydantic import BaseModel, Field

from ..l2.mentions import LANGUAGE_FAMILIES, LANGUAGE_NAMES
from ..llm.client import LLMClient, LLMOutputError
from ..views.views import KnowledgeBase
from .common import TaskAnswer, check_text_input, cited_sources, count_tokens
from .evidence import fulltext_context, paper_items, score_items, view_context

YES_NO = re.compile(r"^(is|are|was|were|do|does|did|can|could|has|have|had|will|would|should)\b", re.I)
NEGATION = re.compile(r"\b(not|no|never|without|cannot|neither|nor|none)\b", re.I)
UNANSWERABLE_COVERAGE = 0.2


class LLMAnswer(BaseModel):
    answer: str = Field(..., max_length=300)
    unanswerable: bool = False
    citations: list[str] = Field(default_factory=list, max_length=3, description="locators like PAPER:SID from the context")


ENTITY_Q = re.compile(r"^(?:what|which)\s+(?:[\w\-]+\s+){0,3}?(models?|baselines?|datasets?|data sets?|corpora|corpus|"
                      r"methods?|approach(?:es)?|metrics?|measures?|tasks?|languages?|algorithms?|architectures?|systems?|"
                      r"classifiers?|networks?|benchmarks?)\b", re.I)
NUMERIC_Q = re.compile(r"^(?:how (?:many|much|big|large|long|small|fast)|what (?:is|was|are|were) (?:the )?(?:size|number|"
                       r"accuracy|score|performance|f1|improvement|amount|percentage)|what (?:accuracy|score|percentage|f1))\b", re.I)
ENTITY_TYPE = {"model": "method", "baseline": "method", "method": "method", "approach": "method", "algorithm": "method",
               "architecture": "method", "system": "method", "classifier": "method", "network": "method",
               "dataset": "dataset", "data set": "dataset", "corpus": "dataset", "corpora": "dataset", "benchmark": "dataset",
               "language": "dataset", "metric": "metric", "measure": "metric", "task": "task"}
UNIT = (r"((?:\s+(?!(?:and|or|in|of|the|to|on|for|with|at|by|from|than|using|is|was|are|were)\b)"
        r"[A-Za-z][\w\-]*){0,2})")  # up to two words after a number, never a function word
# A magnitude is part of the number: "1.2 million words" counts words, "10K sentences" sentences.
NUMBER_WITH_UNIT = re.compile(r"(?<![\w.])(\d(?:[\d,]*\d)?(?:\.\d+)?(?:\s*(?:%|percent)|[kKMB](?!\w)|"
                              r"\s+(?:thousand|million|billion)\b)?)" + UNIT)
YEAR = re.compile(r"^(?:19|20)\d\d$")  # dates a citation
SPELLED = re.compile(r"\b(two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|twenty|thirty|forty|fifty|hundred)" + UNIT,
                     re.I)
HOW_MANY = re.compile(r"^how many\s+([a-z][\w\-]*)", re.I)
# What a corpus's size is counted in: "how big is the dataset" is answered by "14,100 tweets".
COUNTED_IN = re.compile(r"^(?:tweets?|sentences?|documents?|words?|tokens?|articles?|papers?|messages?|posts?|pairs?|examples?|"
                        r"instances?|questions?|events?|images?|utterances?|dialog(?:ue)?s?|reviews?|users?|accounts?|annotations?|"
                        r"entries|records?|samples?|cases?|characters?|rows?|hours?|abstracts?|texts?|comments?|items?)\b", re.I)
SIZE_Q = re.compile(r"^(?:how (?:big|large) (?:is|are|was|were)|what (?:is|was|are|were) the size of) (?:the |their |its |this |a )?"
                    r"(?:[\w\-]+ ){0,3}(?:data|dataset|corpus|corpora|set|lexicon|vocabulary|collection|sample)\b", re.I)
LANGUAGE = re.compile(rf"\b(?:(?:{LANGUAGE_FAMILIES})\s+languages|(?:{LANGUAGE_NAMES})(?:\s?[-–/]\s?(?:{LANGUAGE_NAMES}))?)\b")


def _words(text: str) -> set[str]:
    return set(re.findall(r"[a-z0-9]+", text.lower()))


def distinct(ranked, n: int) -> list:
    """The best `n` pieces of evidence at distinct locators (a fact and its own sentence count once;
    a fact that also cites where its method is named is more than its sentence)."""
    used, seen = [], set()
    for r in ranked:
        if not r.item.locators or not set(r.item.locators) <= seen:
            used.append(r)
            seen |= set(r.item.locators)
        if len(used) == n:
            break
    return used


def _whole_word(text: str, start: int, end: int) -> bool:
    """A name is not a piece of a hyphenated word ("pre" of "pre-trained") nor a bare number."""
    return (text[start - 1:start] != "-" and text[end:end + 1] != "-" and text[end - 1:end] != "-"
            and re.search(r"[A-Za-z]", text[start:end]) is not None)


def _names(ranked, find, cap: int) -> tuple[str, list] | None:
    """The names `find` reads from the best three pieces of evidence, or from the next five when
    those three name none; each name once, in evidence order."""
    pieces = distinct(ranked, 8)  # its first three are distinct(ranked, 3)
    for pool in (pieces[:3], pieces[3:]):
        found, used = {}, []
        for r in pool:
            names = [n for n in find(r.item.text) if n.lower() not in found]
            if names:
                used.append(r)
                found |= {n.lower(): n for n in names}
        if found:
            return ", ".join(list(found.values())[:cap]), used
    return None


def typed_answer(question: str, ranked) -> tuple[str, list] | None:
    """The answer the question's form asks for, from the top evidence; None when it has none."""
    from ..l2.mentions import extract_mentions

    m = ENTITY_Q.match(question.strip())
    if m and m.group(1).lower().startswith("language") and "programming" not in question.lower():
        if (found := _names(ranked, lambda text: LANGUAGE.findall(text), 8)) is not None:
            return found
    if m:
        head = m.group(1).lower()
        want = next((ENTITY_TYPE[k] for k in (head, head[:-1], head[:-2]) if k in ENTITY_TYPE), "")
        asked = _words(question)

        def mentions(text: str) -> list[str]:
            return [x.text for x in extract_mentions(text) if x.type.value == want and not _words(x.text) <= asked
                    and _whole_word(text, x.start, x.end)]
        if (found := _names(ranked, mentions, 6)) is not None:
            return found
    if NUMERIC_Q.match(question.strip()):
        return _quantity(question, ranked)
    return None


def _counted(question: str):
    """What the question counts, as a test of the words after a number: the noun after "how many",
    or what a size is counted in for "how big is the corpus"; nothing for other questions."""
    q = question.strip()
    if m := HOW_MANY.match(q):
        noun = m.group(1).lower().rstrip("s")
        return lambda unit: bool(unit.split()) and unit.split()[0].lower().rstrip("s") == noun
    if SIZE_Q.match(q):
        return lambda unit: COUNTED_IN.match(unit.strip()) is not None
    return lambda unit: False


def _quantity(question: str, ranked) -> tuple[str, list] | None:
    """The quantity the question asks for. A number followed by what the question counts ("eight
    layers" for "how many layers"), in the best eight pieces of evidence, comes first; otherwise the
    number the question's words surround most in the best three, a percentage before a bare number,
    the better-ranked evidence on a tie. A spelled number ("five") answers only as a count."""
    from ..l2.mentions import points

    asked, counts_what = _words(question), _counted(question)
    best = None
    for rank, r in enumerate(distinct(ranked, 8)):
        text = r.item.text
        found = [(n.start(), n.group(1), n.group(2)) for n in NUMBER_WITH_UNIT.finditer(text)
                 if not YEAR.match(n.group(1)) and not points(text, n.start())]
        found += [(n.start(), n.group(1), n.group(2)) for n in SPELLED.finditer(text)]
        for start, number, unit in found:
            counts = counts_what(unit)
            if (rank >= 3 or not number[0].isdigit()) and not counts:
                continue
            near = len(_words(text[max(0, start - 60): start + len(number) + 40]) & asked)
            key = (counts, near, "%" in number or "percent" in number, -rank)
            if best is None or key > best[0]:
                best = (key, f"{number}{unit}".strip(), r)
    return (best[1], [best[2]]) if best is not None else None


def extractive_answer(question: str, ranked, typed: bool = True) -> tuple[str, bool, list]:
    """`typed`: answer with what the question asks for (a number, entities); False quotes the best evidence."""
    if not ranked or ranked[0].coverage < UNANSWERABLE_COVERAGE:
        return "Unanswerable", True, ranked[:1]
    best = ranked[0]
    if YES_NO.match(question.strip()):
        return ("No" if NEGATION.search(best.item.text) else "Yes"), False, [best]
    if typed and (found := typed_answer(question, ranked)) is not None:
        return found[0], False, found[1]
    return best.item.text, False, distinct(ranked, 2)


def multi_paper_context(kb: KnowledgeBase, question: str, paper_ids: list[str], ranked) -> dict:
    """Across papers: each paper's best findings aligned by dataset/metric/conditions (never merged),
    and registered syntheses whose declared studies cover at least two of the papers."""
    from ..views.views import View, compare

    per_paper: dict[str, list] = {}
    for r in ranked:
        if r.item.kind == "fact" and len(per_paper.setdefault(r.item.paper_id, [])) < 3:
            per_paper[r.item.paper_id].append(r.item)
    comparison = compare(View(query=question, items=[i for items in per_paper.values() for i in items]))
    wanted = set(paper_ids)
    syntheses = [{"id": row["id"], "topic": row["data"]["scope"]["topic"],
                  "covers": sorted(wanted & set(row["data"]["scope"]["studies"])),
                  "disagreements": row["data"]["disagreements"][:3], "context_differences": row["data"]["context_differences"][:3]}
                 for row in kb.store.objects("synthesis") if len(wanted & set(row["data"]["scope"]["studies"])) >= 2]
    return {"comparison": comparison.model_dump(mode="json"), "syntheses": syntheses[:5]}


def answer_question(kb: KnowledgeBase, question: str, paper_ids: list[str], mode: str = "view", embedder=None,
                    client: LLMClient | None = None, budget: int = 4000, typed: bool = True) -> TaskAnswer:
    question = check_text_input(question, "question", 2000)
    if not paper_ids:
        raise ValueError("name at least one paper (--paper ID)")
    started = time.perf_counter()
    if mode == "view":
        view, context, ranked = view_context(kb, question, paper_ids, embedder, budget=budget)
    elif mode == "fulltext":
        context = fulltext_context(kb.store, paper_ids)
        ranked = []
        for pid in paper_ids:
            ranked += score_items(question, [i for i in paper_items(kb, pid, ("sentence",))], embedder)
        ranked.sort(key=lambda x: -x.score)
    else:
        raise ValueError(f"unknown mode {mode!r} (view or fulltext)")
    tokens_in, tokens_out, extra = count_tokens(question) + count_tokens(context), 0, {}
    if client is None:
        text, unanswerable, used = extractive_answer(question, ranked, typed)
        sources = [u.item.source() for u in used if not unanswerable]
        interp = "" if unanswerable else ("polarity of the best evidence" if YES_NO.match(question) else
                                          "best-matching evidence quoted" if text == (used[0].item.text if used else "") else
                                          "the part of the best evidence the question asks for")
        tokens_out = count_tokens(text)
    else:
        prompt = (f"Context (each line starts with its source locator):\n{context}\n\nQuestion: {question}\n"
                  "Answer briefly from the context only and cite the locators you used. If the context does not answer it, set unanswerable.")
        try:
            out, usage = client.structured(prompt, LLMAnswer)
        except LLMOutputError as exc:
            return TaskAnswer(task="qa", question=question, answer="", mode=mode, unanswerable=True, tokens_in=tokens_in,
                              seconds=time.perf_counter() - started, extra={"error": str(exc)})
        sources, extra["invalid_citations"] = cited_sources(kb.store, context, out.citations)
        text, unanswerable, interp = out.answer, out.unanswerable, out.answer if not sources else ""
        tokens_in, tokens_out = usage.tokens_in or tokens_in, usage.tokens_out
        extra["llm_cache_hits"] = usage.cache_hits
    if len(paper_ids) > 1:
        extra |= multi_paper_context(kb, question, paper_ids, ranked)
        extra["papers"] = sorted({s.locators[0].rsplit(":", 1)[0] for s in sources if s.locators})
    return TaskAnswer(task="qa", question=question, answer=text, mode=mode, sources_state=sources, interpretation=interp,
                      unanswerable=unanswerable, tokens_in=tokens_in, tokens_out=tokens_out,
                      seconds=round(time.perf_counter() - started, 4), extra=extra)


def ask(kb: KnowledgeBase, question: str, paper_ids: list[str], mode: str = "view", client: LLMClient | None = None,
        reuse: bool = True, register: bool = True) -> TaskAnswer:
    """`answer_question`, registered as a judgement and reused while what it read stands."""
    from ..models import JudgementTask
    from .memory import judged

    settings = f"mode={mode} backend={'openai' if client else 'offline'}"
    return judged(kb.store, JudgementTask.qa, question, paper_ids, settings,
                  lambda: answer_question(kb, question, paper_ids, mode=mode, embedder=kb.embedder, client=client), reuse, register)
