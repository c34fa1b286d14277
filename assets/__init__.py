"""Software-defined assets, one module a layer. Thin: read inputs, call the core, return metadata."""
