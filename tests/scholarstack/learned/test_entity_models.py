"""The learned entity models: the SciREX mention tagger and the document entity model."""

import gzip
import json

import numpy as np
import pytest

from scholarstack.learned import doc_entities, mention_tagger
from scholarstack.learned.mention_tagger import (
    TAGS,
    spans_from_tags,
    tokenize,
    viterbi,
    viterbi_batch,
)
from tests.conftest import need_shared


def test_viterbi_never_starts_a_mention_inside():
    # Scores that prefer I-Task right after O: decoding must not produce a dangling I-.
    logp = np.full((3, len(TAGS)), -5.0)
    logp[0, TAGS.index("O")] = 0
    logp[1, TAGS.index("I-Task")] = 0
    logp[1, TAGS.index("B-Task")] = -1
    logp[2, TAGS.index("I-Task")] = 0
    path = viterbi(logp)
    assert [TAGS[j] for j in path] == ["O", "B-Task", "I-Task"]
    assert spans_from_tags(path) == [(1, 3, "Task")]


def test_batched_viterbi_decodes_each_row_over_its_own_length():
    # Padding carries random scores: a row's path must be the one it gets decoded alone.
    rng = np.random.default_rng(0)
    lengths = np.array([1, 7, 4, 12])
    logp = np.log(rng.dirichlet(np.ones(len(TAGS)), size=(4, 12)))
    paths = viterbi_batch(logp, lengths)
    assert [len(p) for p in paths] == lengths.tolist()
    assert paths == [viterbi(logp[i, :n]) for i, n in enumerate(lengths)]
    # Row-by-row decoding, the reference the batch replaced, computed independently here.
    allowed = np.where(mention_tagger.ALLOWED, 0.0, -1e9)
    for i, n in enumerate(lengths):
        score = logp[i, 0] + np.where(mention_tagger.START_OK, 0.0, -1e9)
        paths_so_far = [[j] for j in range(len(TAGS))]
        for t in range(1, n):
            cand = score[:, None] + allowed
            prev = cand.argmax(axis=0)
            score = cand.max(axis=0) + logp[i, t]
            paths_so_far = [paths_so_far[prev[j]] + [j] for j in range(len(TAGS))]
        best = paths_so_far[int(score.argmax())]
        assert paths[i] == best


def test_word_vectors_read_minilms_own_word_pieces_unpadded():
    """The tagger reads MiniLM's tokenizer and embedding table from the packaged files: a word is
    its own word pieces (the file's padding to 128 for the encoder is off), each row the model's."""
    tok, table = mention_tagger._static_table()
    assert [e.ids for e in tok.encode_batch(["Treebank", "TnT", ""], add_special_tokens=False)] == [[3392, 9299], [24048], []]
    assert table.shape == (30522, 384) and table.dtype == np.float32
    vec = mention_tagger.WordVectors()(["Treebank"])[0]
    assert np.allclose(vec[:384], table[[3392, 9299]].mean(axis=0))


def test_committed_tagger_finds_typed_mentions_in_real_sentences():
    tagger = mention_tagger.load()
    [found] = tagger.tag_text(["We evaluate conditional random fields on the CoNLL 2003 named entity recognition task "
                               "and report F1 scores."])
    by_type = {t: s for _, _, t, s in found}
    assert "conditional random fields" in by_type.get("Method", "")
    assert "entity recognition" in by_type.get("Task", "")
    assert by_type.get("Metric", "").startswith("F1")
    assert tokenize("ResNet-50 reaches 76.1%")[:3] == [("ResNet", 0, 6), ("-", 6, 7), ("50", 7, 9)]


def test_a_sentences_tags_do_not_depend_on_its_batch():
    net = mention_tagger.load().net
    words = [[w for w, _, _ in tokenize(t)] for t in (
        "We train a CRF tagger on CoNLL 2003 and report F1.",
        ("The BERT model, fine-tuned on SQuAD with a span head, reaches 88.5 F1 and outperforms BiDAF and the ELMo "
         "baseline on the development set by far."))]
    short, long = words
    alone = mention_tagger.MentionTagger(net).tag([short])
    padded = mention_tagger.MentionTagger(net).tag([long, short])  # fresh taggers: nothing remembered
    assert alone[0] == padded[1] and alone[0]


def test_the_numpy_forward_pass_is_the_trained_torch_networks():
    """Tagging runs the network in numpy; its logits are torch's, row by row over each row's own
    length (packed), from the first layer's projections as from input rows."""
    torch = pytest.importorskip("torch")
    torch.manual_seed(0)
    net = mention_tagger._net().eval()
    lstm = mention_tagger.BiLstm(mention_tagger._numpy_state(net))
    rng = np.random.default_rng(0)
    lengths = np.array([5, 1, 9, 3])
    x = rng.normal(size=(4, 9, mention_tagger.EMB_DIM + mention_tagger.N_SHAPE)).astype(np.float32)
    x[np.arange(9)[None, :] >= lengths[:, None]] = 0.0
    with torch.no_grad():
        expected = net(torch.from_numpy(x), torch.from_numpy(lengths)).numpy()
    valid = np.arange(9)[None, :] < lengths[:, None]
    got = lstm(x, lengths)
    assert np.abs(got - expected)[valid].max() < 1e-4
    projected = lstm(lstm.project(x.reshape(36, -1)).reshape(4, 9, -1), lengths, projected=True)
    assert np.abs(projected - got)[valid].max() < 1e-5


def test_tagger_trains_on_a_tiny_slice(tmp_path):
    path = need_shared("scirex", "train_docs.jsonl.gz")
    card = mention_tagger.train_from_shared(path.parent.parent, out=tmp_path / "t.npz", epochs=1, limit=3, max_steps=3,
                                            log=lambda _: None)
    assert card["train_papers"] >= 1 and card["train_sentences"] > 0 and (tmp_path / "t.npz").exists()
    assert mention_tagger.load(tmp_path / "t.npz").tag([["We", "train", "a", "CRF", "."]])  # what training saved tags
    assert 0.0 <= card["dev_mention_f1"] <= 1.0 and card["epochs"][0]["epoch"] == 1
    mention_tagger.load.cache_clear()  # the test weights were loaded by path only; keep the default clean


def test_doc_model_trains_and_finds_salient_entities_of_a_real_paper(tmp_path):
    path = need_shared("scirex", "docs.jsonl.gz")
    card = doc_entities.train_from_shared(path.parent.parent, out=tmp_path / "d.json", limit=12, log=lambda _: None)
    assert card["salience_examples"] > 0 and 0 < card["salience_threshold"] < 1
    with gzip.open(path, "rt") as fh:
        doc = json.loads(fh.readline())  # the evaluation file: never trained on by the committed model
    tdoc, offsets = doc_entities.scirex_doc(doc, mention_tagger.load())
    clusters, salient, pairs = doc_entities.load().analyse(tdoc)
    names = {clusters[i].key for i in salient}
    assert names and len(salient) < len(clusters)
    gold = {g for g in doc_entities.gold_match(clusters, offsets, doc) if g}
    assert gold, "some predicted clusters match gold clusters"
    assert pairs and all(clusters[m].type == "Method" and clusters[d].type == "Material" for m, d, _ in pairs)


@pytest.mark.parametrize("junk", ["Tagging: average pseconds per token tokenizer lexicon Viterbi total 604 388",
                                  "93.9 94.3 94.0 94.7 95.9 95.9 Table 2 results 12 13"])
def test_junk_yields_no_result(junk):
    from scholarstack.l1.offline import extract_facts
    from scholarstack.ingest.hygiene import sentence_kind
    from scholarstack.models import SourceMap
    from scholarstack.models.source import Sentence

    sm = SourceMap(paper_key="P", title="A tagger", sentences=[
        Sentence(sid=0, text="A tagger", section="title"),
        Sentence(sid=1, text=junk, section="4 Results", kind=sentence_kind(junk))])
    assert extract_facts(sm) == []
