"""Writing tasks on the views: paper summaries, related-work sections and literature reviews,
every sentence citing the sentences or objects it rests on (see models.writing)."""
