"""Building L1 (source-grounded facts) from a paper's sentence map: the offline and openai
extraction backends, result tuples and study types. The schemas are in `models/l1.py`; the asset
that runs this is `assets/l1.py` (`l1_facts`); provenance still names the step `extract.*`."""
