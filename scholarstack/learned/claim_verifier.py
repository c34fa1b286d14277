"""A learned claim verifier: (claim, candidate sentences) → SciFact label and rationale sentences.

Trained on SciFact's `claims_train.jsonl` with its corpus, split by claim (a fifth held out for
development, chosen by a hash of the claim id, so every run splits alike). Three small logistic
models over frozen all-MiniLM-L6-v2 vectors plus lexical cues:
1. rationale: is this sentence evidence for the claim? (u·v, |u−v|, cosine, word overlap, cues)
2. contradiction: given a rationale sentence, does it contradict the claim? (the lexical cues
   only — negation, direction, number, comparative and antonym cues: "increases" against
   "reduces", "99.5%" against "96.7%", "faster" against "slower", "scarce" against "expanded",
   "increases the risk" against "HR 0.16"; with the vectors too it did no better, cross-validated
   on the training claims, stance AUC 0.665 against 0.670 for the cues alone)
3. label: SUPPORT / CONTRADICT / NOT ENOUGH INFO from the paper-level summary of 1 and 2 (best and
   mean rationale scores, contradiction scores of the best sentences, similarity), trained on
   out-of-fold predictions of 1 and 2 so it learns how they behave on unseen claims.

Weights are plain arrays in JSON (a few KB): prediction is numpy only, and the file is committed.
"""

from __future__ import annotations

import hashlib
import json
import re
import time
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np

LABELS = ("SUPPORT", "CONTRADICT", "NOT ENOUGH INFO")
WEIGHTS = Path(__file__).parent / "weights" / "claim_verifier.json"
NEG = re.compile(r"\b(not|no|never|cannot|fails?|failed|unable|lacks?|absence|absent|neither|nor|without|none)\b", re.I)
DOWN = re.compile(r"\b(reduc\w*|decreas\w*|lower\w*|less|inhibit\w*|suppress\w*|impair\w*|attenuat\w*|block\w*|prevent\w*|"
                  r"protect\w*|negative\w*|loss|diminish\w*)\b", re.I)
UP = re.compile(r"\b(increas\w*|higher|more|promot\w*|enhanc\w*|activat\w*|induc\w*|elevat\w*|improv\w*|positive\w*|gain|"
                r"augment\w*|stimulat\w*|risk)\b", re.I)
WORD = re.compile(r"[a-z0-9]+")
N_SUMMARY = 15


def is_dev_claim(claim_id: Any) -> bool:
    """The development fifth of SciFact's training claims: never trained on, measured by `eval claims`."""
    return int(hashlib.sha256(str(claim_id).encode()).hexdigest(), 16) % 5 == 0


NUMBER = re.compile(r"\d+(?:\.\d+)?")
# Comparatives whose opposites vectors barely tell apart ("faster" against "slower").
OPPOSITES = [(re.compile(r"\b(faster|quicker|shorter)\b", re.I), re.compile(r"\b(slower|longer)\b", re.I)),
             (re.compile(r"\b(better|superior|outperform\w*)\b", re.I), re.compile(r"\b(worse|inferior|underperform\w*)\b", re.I))]
N_CUES = 14
# Word pairs whose swap turns a finding into its contradiction (SciFact's contradicted claims are
# often a finding with one word reversed).
ANTONYMS = [("high", "low"), ("higher", "lower"), ("increase", "decrease"), ("increases", "decreases"), ("increased", "decreased"),
            ("more", "less"), ("more", "fewer"), ("greater", "lower"), ("greater", "smaller"), ("larger", "smaller"),
            ("enhance", "reduce"), ("enhances", "reduces"), ("enhanced", "reduced"), ("activate", "inhibit"), ("activates", "inhibits"),
            ("promote", "suppress"), ("promotes", "suppresses"), ("positive", "negative"), ("positively", "negatively"),
            ("gain", "loss"), ("up", "down"), ("upregulated", "downregulated"), ("upregulates", "downregulates"),
            ("rise", "fall"), ("early", "late"), ("present", "absent"), ("presence", "absence"), ("effective", "ineffective"),
            ("efficient", "inefficient"), ("sufficient", "insufficient"), ("beneficial", "harmful"), ("safe", "unsafe"),
            ("improves", "worsens"), ("improved", "worsened"), ("abundant", "scarce"), ("expanded", "scarce"), ("common", "rare"),
            ("required", "dispensable"), ("necessary", "dispensable"), ("direct", "indirect"), ("directly", "indirectly"),
            ("increase", "reduction"), ("increase", "decline"), ("most", "least"), ("major", "minor")]
OPPOSITE_WORDS: dict[str, set[str]] = {}
for _a, _b in ANTONYMS:
    OPPOSITE_WORDS.setdefault(_a, set()).add(_b)
    OPPOSITE_WORDS.setdefault(_b, set()).add(_a)
RATIO = re.compile(r"\b(?:HR|OR|RR|aOR|aHR|IRR|hazard ratio|odds ratio|relative risk|risk ratio|rate ratio)\b[^0-9.;]{0,25}?(\d+\.\d+)", re.I)
RISK = re.compile(r"\brisk\b", re.I)
N_STANCE = 4


def _direction(text: str) -> int:
    """+1 up, -1 down, 0 neither or as many of each; a negation flips it. "risk" alone is no
    direction ("a lower risk" is down)."""
    text = RISK.sub(" ", text)
    down, up = len(DOWN.findall(text)), len(UP.findall(text))
    sign = (up > down) - (down > up)
    return -sign if NEG.search(text) else sign


def _ratio_side(text: str) -> int:
    """A reported ratio's side of 1: below 1 is a reduction ("HR 0.16")."""
    m = RATIO.search(text)
    return 0 if not m else (float(m.group(1)) > 1) - (float(m.group(1)) < 1)


def stance_cues(claim: str, sentence: str) -> list[float]:
    """Cues for contradiction alone (the rationale model does not read them): the claim's direction
    times the sentence's, a claim word whose opposite the sentence writes instead, a negated claim,
    and the claim's direction times the side of 1 a reported ratio lies on."""
    cw, sw = set(WORD.findall(claim.lower())), set(WORD.findall(sentence.lower()))
    swap = any(w not in sw and (OPPOSITE_WORDS[w] & sw) - cw for w in cw & OPPOSITE_WORDS.keys())
    direction = _direction(claim)
    return [float(direction * _direction(sentence)), float(swap), float(bool(NEG.search(claim))),
            float(direction * _ratio_side(sentence))]


def cues(claim: str, sentence: str, cos: float) -> list[float]:
    """Lexical cues: overlap, negation, direction, numbers (the claim's "99.5%" against the sentence's
    "96.7%") and opposite comparatives. Order matters: `summary` reads some by position."""
    cw, sw = set(WORD.findall(claim.lower())), set(WORD.findall(sentence.lower()))
    c_down, s_down, c_up, s_up = (bool(r.search(t)) for r, t in ((DOWN, claim), (DOWN, sentence), (UP, claim), (UP, sentence)))
    cn, sn = set(NUMBER.findall(claim)), set(NUMBER.findall(sentence))
    both = bool(cn and sn)
    opposite = [float(bool(a.search(claim) and b.search(sentence)) or bool(b.search(claim) and a.search(sentence))) for a, b in OPPOSITES]
    return [cos, len(cw & sw) / max(1, len(cw)), float(bool(NEG.search(claim)) != bool(NEG.search(sentence))),
            float(c_down), float(s_down), float(c_up), float(s_up), float(c_down and s_up), float(c_up and s_down),
            float(both and cn <= sn), float(both and not cn & sn), float(bool(cn) and not sn), *opposite]


def pair_features(cv: np.ndarray, sv: np.ndarray, claim: str, sentence: str) -> np.ndarray:
    """u·v, |u−v|, the N_CUES cues, then the N_STANCE stance cues."""
    return np.concatenate([cv * sv, np.abs(cv - sv), cues(claim, sentence, float(cv @ sv)),
                           stance_cues(claim, sentence)]).astype(np.float32)


def rationale_columns(feats: np.ndarray) -> np.ndarray:
    return feats[:, :-N_STANCE]


def contradiction_columns(feats: np.ndarray) -> np.ndarray:
    return feats[:, -(N_CUES + N_STANCE):]


def _sigmoid(x: np.ndarray) -> np.ndarray:
    return 1.0 / (1.0 + np.exp(-x))


@dataclass
class Verdict:
    label: str
    rationale: list[int]  # indices into the candidate sentences, best first
    probabilities: dict[str, float]


class ClaimVerifier:
    def __init__(self, weights: dict[str, Any]):
        self.weights = weights
        self.card = weights.get("card", {})
        self._r = (np.array(weights["rationale"]["coef"], dtype=np.float32), float(weights["rationale"]["intercept"]))
        self._c = (np.array(weights["contradict"]["coef"], dtype=np.float32), float(weights["contradict"]["intercept"]))
        self._l = (np.array(weights["label"]["coef"], dtype=np.float32), np.array(weights["label"]["intercept"], dtype=np.float32))
        self._classes = list(weights["label"]["classes"])

    @classmethod
    def load(cls, path: str | Path = WEIGHTS) -> ClaimVerifier:
        return cls(json.loads(Path(path).read_text()))

    def save(self, path: str | Path = WEIGHTS) -> Path:
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(self.weights, separators=(",", ":")))
        return path

    def scores(self, feats: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(rationale probability, contradiction probability) per sentence."""
        return (_sigmoid(rationale_columns(feats) @ self._r[0] + self._r[1]),
                _sigmoid(contradiction_columns(feats) @ self._c[0] + self._c[1]))

    def verdict(self, feats: np.ndarray) -> Verdict:
        if len(feats) == 0:
            return Verdict("NOT ENOUGH INFO", [], {"NOT ENOUGH INFO": 1.0})
        p_r, p_c = self.scores(feats)
        logits = summary(feats, p_r, p_c) @ self._l[0].T + self._l[1]
        probs = np.exp(logits - logits.max())
        probs /= probs.sum()
        label = self._classes[int(np.argmax(probs))]
        order = np.argsort(-p_r)
        rationale = [] if label == "NOT ENOUGH INFO" else [int(i) for i in order[:2] if p_r[i] >= 0.5] or [int(order[0])]
        return Verdict(label, rationale, {c: round(float(p), 4) for c, p in zip(self._classes, probs)})

    def predict(self, claim: str, sentences: list[str], embedder) -> Verdict:
        if not sentences:
            return self.verdict(np.zeros((0, 0), dtype=np.float32))
        vecs = embedder.encode([claim] + sentences)
        feats = np.stack([pair_features(vecs[0], v, claim, s) for v, s in zip(vecs[1:], sentences)])
        return self.verdict(feats)


def summary(feats: np.ndarray, p_r: np.ndarray, p_c: np.ndarray) -> np.ndarray:
    """A paper's evidence for a claim in N_SUMMARY numbers (what the label model reads)."""
    order = np.argsort(-p_r)
    top = order[:2]
    cos_col = feats.shape[1] - N_CUES - N_STANCE  # the first cue: cosine
    stance = feats.shape[1] - N_STANCE
    best = feats[order[0]]
    return np.array([p_r[order[0]], p_r[order[1]] if len(order) > 1 else 0.0, p_r.mean(), p_c[top[0]], p_c[top].mean(),
                     feats[:, cos_col].max(), feats[:, cos_col].mean(), best[cos_col + 1], best[cos_col + 2],
                     best[cos_col + 8], best[cos_col + 7], feats[top, stance].min(), feats[top, stance + 1].max(),
                     best[stance + 2], feats[top, stance + 3].min()], dtype=np.float32)


@lru_cache(maxsize=1)
def default_verifier() -> ClaimVerifier | None:
    """The committed model, loaded once per process; None when its weights are absent."""
    return ClaimVerifier.load() if WEIGHTS.exists() else None


# -- training ----------------------------------------------------------------------------------
@dataclass
class Example:
    claim_id: Any
    claim: str
    sentences: list[str]
    label: str
    rationale: set[int]


def load_examples(claims_path: Path, corpus_path: Path, limit: int | None = None) -> list[Example]:
    import gzip

    claims = [json.loads(line) for line in Path(claims_path).read_text().splitlines() if line.strip()]
    if limit is not None:
        claims = claims[:limit]
    wanted = {d for c in claims for d in c.get("cited_doc_ids", [])}
    docs = {}
    with gzip.open(corpus_path, "rt", encoding="utf-8") as fh:
        for line in fh:
            d = json.loads(line)
            if d["doc_id"] in wanted:
                docs[d["doc_id"]] = d["abstract"]
    out = []
    for c in claims:
        for doc in c.get("cited_doc_ids", []):
            if doc in docs and docs[doc]:
                ev = c.get("evidence", {}).get(str(doc), [])
                out.append(Example(c["id"], c["claim"], docs[doc], ev[0]["label"] if ev else "NOT ENOUGH INFO",
                                   {s for e in ev for s in e["sentences"]}))
    return out


def _fit(X: np.ndarray, y: np.ndarray, seed: int, c: float = 0.5):
    from sklearn.linear_model import LogisticRegression

    return LogisticRegression(C=c, max_iter=3000, class_weight="balanced", random_state=seed).fit(X, y)


def _fit_sentence_models(feats: list[np.ndarray], examples: list[Example], seed: int):
    X = rationale_columns(np.concatenate(feats))
    y = np.concatenate([[int(j in ex.rationale) for j in range(len(f))] for f, ex in zip(feats, examples)])
    with_r = [(f, ex) for f, ex in zip(feats, examples) if ex.rationale]
    Xc = np.concatenate([contradiction_columns(f[sorted(ex.rationale)]) for f, ex in with_r])
    yc = np.concatenate([[int(ex.label == "CONTRADICT")] * len(ex.rationale) for _, ex in with_r])
    return _fit(X, y, seed), _fit(Xc, yc, seed)


def train(examples: list[Example], embedder, seed: int = 0, folds: int = 5) -> tuple[ClaimVerifier, dict[str, Any]]:
    """Train on the non-development claims, measure on the development ones; returns (model, card)."""
    from sklearn.metrics import f1_score
    from sklearn.model_selection import GroupKFold

    started = time.perf_counter()
    texts = sorted({ex.claim for ex in examples} | {s for ex in examples for s in ex.sentences})
    vec = dict(zip(texts, embedder.encode(texts)))
    feats = [np.stack([pair_features(vec[ex.claim], vec[s], ex.claim, s) for s in ex.sentences]) for ex in examples]
    train_idx = [i for i, ex in enumerate(examples) if not is_dev_claim(ex.claim_id)]
    dev_idx = [i for i, ex in enumerate(examples) if is_dev_claim(ex.claim_id)]
    groups = np.array([str(examples[i].claim_id) for i in train_idx])
    summaries = np.zeros((len(examples), N_SUMMARY), dtype=np.float32)
    n_folds = max(2, min(folds, len(set(groups))))
    for fold_train, fold_test in GroupKFold(n_folds).split(train_idx, groups=groups):
        part = [train_idx[j] for j in fold_train]
        r, c = _fit_sentence_models([feats[i] for i in part], [examples[i] for i in part], seed)
        for j in fold_test:
            i = train_idx[j]
            p_r, p_c = r.predict_proba(rationale_columns(feats[i]))[:, 1], c.predict_proba(contradiction_columns(feats[i]))[:, 1]
            summaries[i] = summary(feats[i], p_r, p_c)
    r, c = _fit_sentence_models([feats[i] for i in train_idx], [examples[i] for i in train_idx], seed)
    labels = np.array([ex.label for ex in examples])
    lab = _fit(summaries[train_idx], labels[train_idx], seed, c=1.0)
    weights = {
        "rationale": {"coef": r.coef_[0].round(6).tolist(), "intercept": float(r.intercept_[0])},
        "contradict": {"coef": c.coef_[0].round(6).tolist(), "intercept": float(c.intercept_[0])},
        "label": {"classes": lab.classes_.tolist(), "coef": lab.coef_.round(6).tolist(), "intercept": lab.intercept_.round(6).tolist()},
    }
    model = ClaimVerifier(weights)
    preds = [model.verdict(feats[i]).label for i in dev_idx]
    gold = [labels[i] for i in dev_idx]
    card = {
        "model": "claim verifier: 3 logistic models over all-MiniLM-L6-v2 pair features, lexical and stance cues",
        "data": "SciFact claims_train.jsonl + corpus.jsonl.gz (CC BY 4.0 / ODC-By)",
        "split": "by claim id: sha256(id) % 5 == 0 is development (never trained on); the rest trains",
        "train_pairs": len(train_idx), "dev_pairs": len(dev_idx), "seed": seed, "embedder": getattr(embedder, "name", "?"),
        "dev_macro_f1": round(float(f1_score(gold, preds, labels=list(LABELS), average="macro", zero_division=0)), 4) if dev_idx else None,
        "dev_accuracy": round(float(np.mean(np.array(preds) == np.array(gold))), 4) if dev_idx else None,
        "training_seconds": round(time.perf_counter() - started, 1),
    }
    model.weights["card"] = card
    model.card = card
    return model, card


def train_from_shared(data_dir: Path, embedder, out: Path = WEIGHTS, seed: int = 0, limit: int | None = None) -> dict[str, Any]:
    """Train on ../shared/data/scifact and write the weights (what the `claim_verifier` asset and
    `make models` run)."""
    claims, corpus = data_dir / "scifact" / "claims_train.jsonl", data_dir / "scifact" / "corpus.jsonl.gz"
    for path in (claims, corpus):
        if not path.exists():
            raise FileNotFoundError(f"{path} is missing: the claim verifier trains on ../shared/data/scifact")
    model, card = train(load_examples(claims, corpus, limit), embedder, seed=seed)
    model.save(out)
    default_verifier.cache_clear()
    return card | {"weights": str(out), "weights_bytes": out.stat().st_size}
