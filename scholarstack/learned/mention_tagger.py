"""A learned scientific-mention tagger: tokens → typed spans (Method, Task, Metric, Material).

Trained on SciREX's `train_docs.jsonl.gz` only (a tenth of its papers, chosen by a hash of the
doc id, held out to pick the epoch); measured on `docs.jsonl.gz` by `eval scirex`.

Model: each token is the mean of all-MiniLM-L6-v2's *static* word-piece embeddings (frozen, from
the installed package: no contextual encoder pass, so a paper tags in a fraction of a second)
plus casing and shape features, read by a two-layer BiLSTM; a linear layer scores BIO tags, and
decoding is Viterbi over the valid BIO transitions (an I-X only after B-X or I-X). A whole BiLSTM
rather than a CRF library because torch is already here and the transition constraint is
all a CRF would add at inference time. Trained with torch; tagging runs the trained network's
forward pass in numpy (`BiLstm`), so a process that compiles a paper never imports torch (about a
second of a one-paper update). Weights: `weights/mention_tagger.npz` (float16, ~2.6 MB).
"""

from __future__ import annotations

import hashlib
import re
import time
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, Iterable

import numpy as np


TYPES = ("Method", "Task", "Metric", "Material")
TAGS = ("O",) + tuple(f"{p}-{t}" for t in TYPES for p in ("B", "I"))
WEIGHTS = Path(__file__).parent / "weights" / "mention_tagger.npz"
TOKEN_RE = re.compile(r"\d+(?:\.\d+)+|\w+|[^\w\s]")
N_SHAPE = 10
EMB_DIM = 384


def tokenize(text: str) -> list[tuple[str, int, int]]:
    """SciREX-style tokens (hyphens and punctuation split off) with character offsets."""
    return [(m.group(0), m.start(), m.end()) for m in TOKEN_RE.finditer(text)]


def is_dev_doc(doc_id: str) -> bool:
    """The tenth of SciREX's training papers held out to pick the epoch (never trained on)."""
    return int(hashlib.sha256(doc_id.encode()).hexdigest(), 16) % 10 == 0


def shape(word: str) -> list[float]:
    return [float(word.isupper() and len(word) > 1), float(word[:1].isupper()),
            float(any(c.isupper() for c in word[1:])), float(any(c.isdigit() for c in word)),
            float(not word[:1].isalnum()), float(word in "-/"), float(len(word) <= 2), float(len(word) >= 8),
            float(word.lower() in _STOP), float(word.endswith("s") and len(word) > 3)]


_STOP = frozenset("the a an of for in on to and or with by from at as is are was were be that this these we our "
                  "it its which than into over using used use".split())


def _static_table() -> tuple[Any, np.ndarray]:
    """(word-piece tokenizer, embedding matrix) of the packaged MiniLM, read from its files: loading
    the model through sentence-transformers took ~9 s of every process that tags."""
    from . import minilm_files

    return minilm_files.tokenizer(), minilm_files.word_piece_table()


class WordVectors:
    """Static word vectors with a per-process cache (papers repeat their vocabulary)."""

    def __init__(self) -> None:
        self._cache: dict[str, np.ndarray] = {}  # lower-cased word → word-piece mean
        self._rows: dict[str, np.ndarray] = {}  # word as written → its whole input row (vector + shape)

    def __call__(self, words: list[str]) -> np.ndarray:
        new = [w for w in dict.fromkeys(words) if w not in self._rows]
        if len(self._rows) + len(new) > 100_000:  # ~160 MB; a corpus's long tail of numbers and typos
            self._rows.clear()
        if new:
            tok, table = _static_table()
            todo = [w for w in dict.fromkeys(w.lower() for w in new) if w not in self._cache]
            if todo:
                ids = [e.ids for e in tok.encode_batch(todo, add_special_tokens=False)]
                for w, pieces in zip(todo, ids):
                    self._cache[w] = table[pieces].mean(axis=0) if pieces else np.zeros(EMB_DIM, np.float32)
            for w in new:
                self._rows[w] = np.concatenate([self._cache[w.lower()], shape(w)]).astype(np.float32)
        return np.stack([self._rows[w] for w in words])


def _net(hidden: int = 160):
    import torch
    from torch import nn

    class Tagger(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.lstm = nn.LSTM(EMB_DIM + N_SHAPE, hidden, num_layers=2, bidirectional=True, batch_first=True, dropout=0.3)
            self.drop = nn.Dropout(0.3)
            self.out = nn.Linear(2 * hidden, len(TAGS))

        def forward(self, x: torch.Tensor, lengths: torch.Tensor | None = None) -> torch.Tensor:
            """With `lengths`, padding is packed away, so a sentence's tags never depend on the
            length of the others in its batch (the backward direction would start in the padding)."""
            if lengths is None:
                h, _ = self.lstm(self.drop(x))
            else:
                packed = nn.utils.rnn.pack_padded_sequence(self.drop(x), lengths, batch_first=True, enforce_sorted=False)
                h, _ = nn.utils.rnn.pad_packed_sequence(self.lstm(packed)[0], batch_first=True, total_length=x.shape[1])
            return self.out(self.drop(h))

    return Tagger()


class BiLstm:
    """The trained network's forward pass in numpy (eval mode: no dropout), from its weights as torch
    names them (`lstm.weight_ih_l0`, `lstm.weight_hh_l0_reverse`, `out.weight`, …): logits (batch,
    tokens, tags) for padded inputs, each row read over its own length only, as packed sequences are."""

    def __init__(self, state: dict[str, np.ndarray]) -> None:
        w = {k: np.asarray(v, dtype=np.float32) for k, v in state.items()}
        hidden = w["lstm.weight_hh_l0"].shape[1]
        # torch's gate order is input, forget, cell, output; as input, forget, output, cell the three
        # sigmoids are one call
        order = np.r_[0:2 * hidden, 3 * hidden:4 * hidden, 2 * hidden:3 * hidden]
        self.layers = []
        for layer in range(sum(1 for k in w if k.startswith("lstm.weight_ih_l") and not k.endswith("_reverse"))):
            keys = (f"l{layer}", f"l{layer}_reverse")
            self.layers.append((
                np.concatenate([w[f"lstm.weight_ih_{k}"][order].T for k in keys], axis=1),  # (inputs, 2 × 4 hidden)
                np.concatenate([(w[f"lstm.bias_ih_{k}"] + w[f"lstm.bias_hh_{k}"])[order] for k in keys]),
                np.stack([w[f"lstm.weight_hh_{k}"][order].T for k in keys])))  # (2, hidden, 4 hidden)
        self.out_w, self.out_b = w["out.weight"].T, w["out.bias"]

    @property
    def projection_width(self) -> int:
        """The width of `project`'s rows (both directions' four gates)."""
        return self.layers[0][1].shape[0]

    def project(self, rows: np.ndarray) -> np.ndarray:
        """The first layer's input projection of each input row: a word's is the same wherever it stands."""
        w_ih, bias, _ = self.layers[0]
        return np.asarray(rows, dtype=np.float32) @ w_ih + bias

    def __call__(self, x: np.ndarray, lengths: np.ndarray, projected: bool = False) -> np.ndarray:
        """`projected`: `x` holds the first layer's input projections (`project`), not input rows."""
        # Longest rows first: at step t the rows still running are the first `running[t]`, so padding
        # is never computed, as in torch's packed sequences.
        order = np.argsort(-lengths, kind="stable")
        x, lengths = x[order], lengths[order]
        b, n, _ = x.shape
        valid = np.arange(n)[None, :] < lengths[:, None]
        running, last, rows = valid.sum(axis=0), lengths - 1, np.arange(b)
        h_in = np.asarray(x, dtype=np.float32)
        for layer, (w_ih, bias, w_hh) in enumerate(self.layers):
            hidden = w_hh.shape[1]
            if layer == 0 and projected:
                proj = h_in
            else:
                proj = np.zeros((b, n, w_ih.shape[1]), np.float32)
                proj[valid] = h_in[valid] @ w_ih + bias
            fwd_in, bwd_in = proj[..., :4 * hidden], proj[..., 4 * hidden:]
            h, c = np.zeros((2, b, hidden), np.float32), np.zeros((2, b, hidden), np.float32)
            g = np.empty((2, b, 4 * hidden), np.float32)
            out = np.zeros((b, n, 2 * hidden), np.float32)
            # Both directions step together; at step t the backward one reads each row's token last - t.
            for t in range(n):
                k = running[t]
                back = last[:k] - t
                gk = np.matmul(h[:, :k], w_hh, out=g[:, :k])
                gk[0] += fwd_in[:k, t]
                gk[1] += bwd_in[rows[:k], back]
                gates = 0.5 * (1.0 + np.tanh(0.5 * gk[..., :3 * hidden]))  # the logistic function, without exp's overflow
                c[:, :k] = gates[..., hidden:2 * hidden] * c[:, :k] + gates[..., :hidden] * np.tanh(gk[..., 3 * hidden:])
                h[:, :k] = gates[..., 2 * hidden:] * np.tanh(c[:, :k])
                out[:k, t, :hidden] = h[0, :k]
                out[rows[:k], back, hidden:] = h[1, :k]
            h_in = out
        logits = np.empty((b, n, self.out_b.shape[0]), np.float32)
        logits[order] = h_in @ self.out_w + self.out_b
        return logits


def _numpy_state(net: Any) -> dict[str, np.ndarray]:
    return {k: v.detach().float().numpy() for k, v in net.state_dict().items()}


def _allowed() -> np.ndarray:
    """allowed[i, j]: tag j may follow tag i."""
    ok = np.ones((len(TAGS), len(TAGS)), dtype=bool)
    for j, t in enumerate(TAGS):
        if t.startswith("I-"):
            for i, s in enumerate(TAGS):
                ok[i, j] = s[2:] == t[2:] and s != "O"
    return ok


ALLOWED = _allowed()
START_OK = np.array([not t.startswith("I-") for t in TAGS])


def viterbi(logp: np.ndarray) -> list[int]:
    return viterbi_batch(logp[None], np.array([len(logp)]))[0]


def viterbi_batch(logp: np.ndarray, lengths: np.ndarray) -> list[list[int]]:
    """Best allowed tag path of each padded row of `logp` (batch, tokens, tags), over its own length;
    one pass for the whole batch (a numpy loop per sentence cost as much as the network)."""
    b, n, k = logp.shape
    trans = np.where(ALLOWED, 0.0, -1e9)
    score = logp[:, 0] + np.where(START_OK, 0.0, -1e9)
    back = np.zeros((b, n, k), dtype=np.int64)
    rows = np.arange(b)[:, None]
    for t in range(1, n):
        cand = score[:, :, None] + trans
        best = cand.argmax(axis=1)
        new = cand[rows, best, np.arange(k)[None, :]] + logp[:, t]
        score = np.where((t < lengths)[:, None], new, score)  # a finished row keeps its final scores
        back[:, t] = best
    paths = []
    for i in range(b):
        path = [int(score[i].argmax())]
        for t in range(int(lengths[i]) - 1, 0, -1):
            path.append(int(back[i, t, path[-1]]))
        paths.append(path[::-1])
    return paths


def spans_from_tags(tags: list[int]) -> list[tuple[int, int, str]]:
    out, start, kind = [], None, None
    for i, j in enumerate(tags + [0]):
        t = TAGS[j]
        if start is not None and not (t.startswith("I-") and t[2:] == kind):
            out.append((start, i, kind))
            start = None
        if t.startswith("B-"):
            start, kind = i, t[2:]
    return out


@dataclass(frozen=True)
class Span:
    start: int  # token index
    end: int    # exclusive
    type: str   # one of TYPES


class MentionTagger:
    def __init__(self, net: BiLstm, vectors: WordVectors | None = None) -> None:
        self.net = net
        self.vectors = vectors or WordVectors()
        # L2 tags fact statements that L1 tagged as sentences (most are the sentence verbatim).
        self._seen: dict[tuple[str, ...], list[Span]] = {}
        # Each word's first-layer input projection, a row of `_table` (row 0: padding): a word's is the
        # same wherever it stands, papers repeat their words, and it is half the network's work.
        self._index: dict[str, int] = {}
        self._table = np.zeros((1, self.net.projection_width), np.float32)
        self._rows = 1

    def _inputs(self, rows: list[tuple[str, ...]]) -> np.ndarray:
        """The padded (batch, tokens, projection) input of a batch of tokenised sentences."""
        new = [w for w in dict.fromkeys(w for row in rows for w in row) if w not in self._index]
        if self._rows + len(new) > 30_000:  # ~150 MB
            self._index, self._rows = {}, 1
            new = list(dict.fromkeys(w for row in rows for w in row))
        if new:
            if self._rows + len(new) > len(self._table):
                grown = np.zeros((max(2 * len(self._table), self._rows + len(new)), self._table.shape[1]), np.float32)
                grown[:self._rows] = self._table[:self._rows]
                self._table = grown
            self._table[self._rows:self._rows + len(new)] = self.net.project(self.vectors(new))
            self._index.update(zip(new, range(self._rows, self._rows + len(new))))
            self._rows += len(new)
        ids = np.zeros((len(rows), max(len(row) for row in rows)), np.int64)
        for i, row in enumerate(rows):
            ids[i, :len(row)] = [self._index[w] for w in row]
        return self._table[ids]

    def tag(self, sentences: list[list[str]], batch: int = 64) -> list[list[Span]]:
        """Typed spans for each tokenised sentence (its first 200 words)."""
        keys = [tuple(s[:200]) for s in sentences]
        out: list[list[Span]] = [self._seen.get(k, []) for k in keys]
        order = sorted((i for i, k in enumerate(keys) if k and k not in self._seen), key=lambda i: len(keys[i]))
        if len(self._seen) + len(order) > 200_000:
            self._seen.clear()
        for b in range(0, len(order), batch):
            idx = order[b:b + batch]
            x = self._inputs([keys[i] for i in idx])
            lengths = np.array([len(keys[i]) for i in idx])
            logits = self.net(x, lengths, projected=True)
            top = logits.max(axis=-1, keepdims=True)
            logp = logits - top - np.log(np.exp(logits - top).sum(axis=-1, keepdims=True))
            for i, path in zip(idx, viterbi_batch(logp, lengths)):
                out[i] = self._seen[keys[i]] = [Span(a, e, t) for a, e, t in spans_from_tags(path)]
        return out

    def tag_text(self, texts: list[str]) -> list[list[tuple[int, int, str, str]]]:
        """(char start, char end, type, surface) for each text."""
        toks = [tokenize(t) for t in texts]
        res = []
        for text, tk, spans in zip(texts, toks, self.tag([[w for w, _, _ in t] for t in toks])):
            res.append([(tk[s.start][1], tk[s.end - 1][2], s.type, text[tk[s.start][1]:tk[s.end - 1][2]]) for s in spans])
        return res


def _pad(mats: list[np.ndarray]) -> np.ndarray:
    n = max(len(m) for m in mats)
    x = np.zeros((len(mats), n, mats[0].shape[1]), dtype=np.float32)
    for i, m in enumerate(mats):
        x[i, :len(m)] = m
    return x


@lru_cache(maxsize=1)
def load(path: Path = WEIGHTS) -> MentionTagger:
    """The committed tagger, loaded once per process."""
    if not path.exists():
        raise FileNotFoundError(f"{path}: mention tagger weights missing; run `make models` to train them")
    with np.load(path) as weights:
        return MentionTagger(BiLstm(dict(weights)))


# --- training -------------------------------------------------------------------------------------

def doc_sentences(doc: dict) -> Iterable[tuple[list[str], list[int]]]:
    """(words, gold tag ids) for each sentence of a SciREX doc."""
    words = doc["words"]
    tags = [0] * len(words)
    for a, b, t in sorted(doc["ner"], key=lambda x: x[1] - x[0], reverse=True):
        if t in TYPES and all(tags[i] == 0 for i in range(a, b)):
            tags[a] = TAGS.index(f"B-{t}")
            for i in range(a + 1, b):
                tags[i] = TAGS.index(f"I-{t}")
    for s, e in doc["sentences"]:
        if e > s:
            yield words[s:e][:200], tags[s:e][:200]


def train(docs: list[dict], seed: int = 0, epochs: int = 6, log=print, max_steps: int | None = None) -> tuple[Any, dict]:
    """Train on docs not in the dev tenth; pick the epoch by dev mention F1. Returns (net, card)."""
    import torch

    torch.manual_seed(seed)
    rng = np.random.default_rng(seed)
    t0 = time.time()
    vectors = WordVectors()
    train_docs = [d for d in docs if not is_dev_doc(d["doc_id"])]
    dev_docs = [d for d in docs if is_dev_doc(d["doc_id"])] or train_docs[:1]
    data = [(vectors(w), np.array(t)) for d in train_docs for w, t in doc_sentences(d)]
    net = _net()
    opt = torch.optim.Adam(net.parameters(), lr=2e-3)
    weight = torch.ones(len(TAGS))
    weight[0] = 0.5  # mentions are a minority of tokens; O is cheaper to get wrong
    lossf = torch.nn.CrossEntropyLoss(weight=weight, ignore_index=-1)
    best, best_state, history, steps = -1.0, None, [], 0
    order = sorted(range(len(data)), key=lambda i: len(data[i][0]))
    batches = [order[i:i + 32] for i in range(0, len(order), 32)]
    for epoch in range(epochs):
        net.train()
        total = 0.0
        for bi in rng.permutation(len(batches)):
            idx = batches[bi]
            x = torch.from_numpy(_pad([data[i][0] for i in idx]))
            y = torch.full(x.shape[:2], -1, dtype=torch.long)
            for r, i in enumerate(idx):
                y[r, :len(data[i][1])] = torch.from_numpy(data[i][1])
            opt.zero_grad()
            loss = lossf(net(x).reshape(-1, len(TAGS)), y.reshape(-1))
            loss.backward()
            torch.nn.utils.clip_grad_norm_(net.parameters(), 5.0)
            opt.step()
            total += loss.item()
            steps += 1
            if max_steps and steps >= max_steps:
                break
        f1 = mention_f1(MentionTagger(BiLstm(_numpy_state(net)), vectors), dev_docs)["f1"]  # as it will tag
        history.append({"epoch": epoch + 1, "loss": round(total / max(1, len(batches)), 4), "dev_f1": f1})
        log(f"mention tagger epoch {epoch + 1}: loss {history[-1]['loss']}, dev mention F1 {f1}")
        if f1 > best:
            best, best_state = f1, {k: v.detach().clone() for k, v in net.state_dict().items()}
        if max_steps and steps >= max_steps:
            break
    net.load_state_dict(best_state)
    card = {"model": "mention_tagger", "data": "scirex/train_docs.jsonl.gz", "seed": seed,
            "split": "papers with sha256(doc_id) % 10 == 0 held out to pick the epoch",
            "train_papers": len(train_docs), "dev_papers": len(dev_docs), "train_sentences": len(data),
            "dev_mention_f1": best, "epochs": history, "training_seconds": round(time.time() - t0, 1)}
    return net.eval(), card


def mention_f1(tagger: MentionTagger, docs: list[dict]) -> dict[str, float]:
    tp = n_pred = n_gold = 0
    for d in docs:
        sents = list(doc_sentences(d))
        offsets = [s for s, e in d["sentences"] if e > s]
        pred = set()
        for off, spans in zip(offsets, tagger.tag([w for w, _ in sents])):
            pred |= {(off + s.start, off + s.end, s.type) for s in spans}
        gold = {(a, b, t) for a, b, t in d["ner"]}
        tp, n_pred, n_gold = tp + len(pred & gold), n_pred + len(pred), n_gold + len(gold)
    p, r = tp / max(1, n_pred), tp / max(1, n_gold)
    return {"precision": round(p, 4), "recall": round(r, 4), "f1": round(2 * p * r / (p + r), 4) if p + r else 0.0}


def save(net: Any, path: Path = WEIGHTS) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("wb") as fh:  # a file object: numpy would add ".npz" to another suffix
        np.savez(fh, **{k: v.astype(np.float16) for k, v in _numpy_state(net).items()})
    load.cache_clear()


def read_scirex(path: Path, limit: int | None = None) -> list[dict]:
    import gzip
    import json

    with gzip.open(path, "rt") as fh:
        docs = [json.loads(line) for line in fh]
    return docs[:limit] if limit else docs


def train_from_shared(data_dir: Path, out: Path = WEIGHTS, seed: int = 0, epochs: int = 6, limit: int | None = None,
                      max_steps: int | None = None, log=print) -> dict[str, Any]:
    """Train on SciREX train_docs (only), save the weights, return the model card."""
    net, card = train(read_scirex(data_dir / "scirex" / "train_docs.jsonl.gz", limit), seed=seed, epochs=epochs,
                      log=log, max_steps=max_steps)
    save(net, out)
    return card | {"weights": out.name, "weights_bytes": out.stat().st_size}
