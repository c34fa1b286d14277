"""Building L2 (domain organisation) from L1: mentions, canonical entities with aliases,
the taxonomy and category assignments, typed relations. The schemas are in `models/l2.py`; the
asset is `assets/l2.py` (`l2_organisation`); provenance still names the step `organise.*`."""
