"""Reads the ingest, index, retrieval and fidelity code needs, as `Store` methods (a mixin: the
SQL stays in the store package)."""

from __future__ import annotations

from .object_reads import LIVE
from .schema import marks, md5_within

FRONT = "(section IN ('title', 'abstract') OR sid <= 6)"  # a paper's front matter: its title and abstract, or its first seven sentences
PROSE = "is_current AND coalesce(kind, 'prose') = 'prose'"  # the current sentences views and indexes read (not captions, tables, …)


class CorpusReads:
    """Mixed into `Store`: uses its `query`, `connect`, `transaction`, `insert_rows`, `with_id_table`,
    `json_text`, `table_exists`, `raw_schema`, `get_rows` and `content_hashes`."""

    def names(self, ids) -> dict[str, str]:
        """id → name of these objects (an entity's name; the id where an object has none), for the
        text of the objects that refer to them."""
        ids = set(ids)
        return {oid: r["data"].get("name", oid) for oid, r in self.get_rows(ids).items()} if ids else {}

    def raw_papers(self) -> list[tuple[str, str, str]]:
        """(paper_id, content_hash, source) of every ingested record, by paper id."""
        if not self.table_exists(self.raw_schema, "papers"):
            return []
        return self.query(f"SELECT paper_id, content_hash, source FROM {self.raw_schema}.papers ORDER BY paper_id")

    def read_ahead(self, paper_ids: list[str]) -> None:
        """Read these papers' ingested records in one query, for `raw_record_json` to hand out next:
        reading one record alone costs a scan of the table's records (~50 ms a paper at 978 papers,
        growing with the corpus; ~3 ms a paper read 16 at a time)."""
        self._ahead = {}
        if paper_ids and self.table_exists(self.raw_schema, "papers"):
            rows = self.query(f"SELECT paper_id, content_hash, record FROM {self.raw_schema}.papers "
                              f"WHERE paper_id IN ({marks(paper_ids)})", paper_ids)
            self._ahead = {pid: (digest, record) for pid, digest, record in rows}

    def raw_record_json(self, paper_id: str) -> str | None:
        if not self.table_exists(self.raw_schema, "papers"):
            return None
        ahead = getattr(self, "_ahead", {}).pop(paper_id, None)
        # Read ahead, and not re-ingested since: its content hash is still the stored one.
        if ahead is not None and self.query(f"SELECT content_hash FROM {self.raw_schema}.papers WHERE paper_id = ?",
                                            [paper_id]) == [(ahead[0],)]:
            return ahead[1]
        rows = self.query(f"SELECT record FROM {self.raw_schema}.papers WHERE paper_id = ?", [paper_id])
        return rows[0][0] if rows else None

    def raw_years(self, ids: list[str] | None = None) -> list[tuple[str, int | None]]:
        """(paper_id, the year its record states or None) of every ingested record, or of `ids`."""
        if not self.table_exists(self.raw_schema, "papers"):
            return []
        with self.connect() as con:
            self.with_id_table(con, "_years", ids or [])
            where = "WHERE paper_id IN (SELECT id FROM _years)" if ids is not None else ""
            rows = self.query(f"SELECT paper_id, {self.json_text('record', 'year')} FROM {self.raw_schema}.papers {where}")
        return [(pid, int(y) if y and y.strip().lstrip("-").isdigit() else None) for pid, y in rows]

    def current_ids(self, kind: str) -> set[str]:
        return {r[0] for r in self.query("SELECT id FROM objects WHERE kind = ? AND lifecycle = 'current'", [kind])}

    def replace_citation_contexts(self, rows: list[tuple[str, str, str, str]]) -> None:
        """(context_id, cited_id, citing_id, text) rows, replacing stored ones with the same id."""
        with self.transaction() as con:
            self.with_id_table(con, "_ctx_ids", [r[0] for r in rows])
            con.execute("DELETE FROM citation_contexts WHERE context_id IN (SELECT id FROM _ctx_ids)").fetchall()
            self.insert_rows(con, "citation_contexts", ["context_id", "cited_id", "citing_id", "text"], rows)

    def citation_contexts(self) -> list[tuple[str, str, str]]:
        """(cited id, citing id, text) for every stored citation context."""
        return [tuple(r) for r in self.query("SELECT cited_id, citing_id, text FROM citation_contexts ORDER BY context_id")]

    def prose_sentences(self, front_only: bool = False) -> list[tuple[str, str, str]]:
        """(locator, paper_id, text) of every current prose sentence (what the sentence index holds);
        `front_only`: those of the title and abstract (or the first seven sentences)."""
        return self.query(f"SELECT locator, paper_id, text FROM sentences WHERE {PROSE}" + (f" AND {FRONT}" if front_only else ""))

    def index_keys(self, kinds: tuple[str, ...], front_only: bool = False,
                   buckets: tuple[int, int] | None = None) -> list[tuple[str, str, str, str]]:
        """(id or locator, kind, paper_id, content key) of what the vector index should hold, read
        without parsing any object: the content hash of each live object of `kinds` (besides
        sentences), the md5 of each current prose sentence's text (`front_only`: the front matter's).
        `buckets`: only the ids whose bucket is in that range (`schema.md5_within`: an index shard's)."""
        rows = []
        if "sentence" in kinds:
            cond, params = md5_within("locator", buckets)
            rows = [tuple(r) for r in self.query(f"SELECT locator, 'sentence', paper_id, md5(text) FROM sentences WHERE {PROSE}"
                                                 + (f" AND {FRONT}" if front_only else "") + cond, params)]
        return rows + [(oid, kind, paper, h) for oid, kind, paper, h, _ in
                       self.content_hashes([k for k in kinds if k != "sentence"], buckets=buckets)]

    def paper_texts(self) -> list[tuple[str, list[str], list[str]]]:
        """(paper_id, front matter sentences, body sentences) per paper with a current source map: the
        front is the title and abstract (or the first seven sentences), the body every prose, caption,
        table-row and heading sentence."""
        return self.query(f"SELECT paper_id, array_agg(text ORDER BY sid) FILTER (WHERE {FRONT}), "
                          "array_agg(text ORDER BY sid) FILTER (WHERE kind IN ('prose', 'caption', 'table_row', 'heading')) "
                          "FROM sentences WHERE is_current GROUP BY paper_id ORDER BY paper_id")

    def live_digest(self, kinds: tuple[str, ...]) -> str:
        """One md5 over the live objects of `kinds` (kind, id, content hash, verification, in id
        order), computed in the database: fetching ~150k rows to hash them took ~0.8 s at 978 papers."""
        row = "kind || ' ' || id || ' ' || coalesce(content_hash, '') || ' ' || coalesce(verification, '')"
        return self.query(f"SELECT md5(coalesce(string_agg({row}, ';' ORDER BY kind, id), '')) FROM objects "
                          f"WHERE kind IN ({marks(kinds)}) AND lifecycle IN ({marks(LIVE)})",
                          [*kinds, *LIVE])[0][0]

    def unresolved_evidence(self, kind: str) -> int:
        """Evidence locators of live objects of `kind` that name no current sentence."""
        return self.query("SELECT count(*) FROM evidence e JOIN objects o ON o.id = e.obj_id "
                          "LEFT JOIN sentences s ON s.locator = e.locator AND s.is_current "
                          "WHERE o.kind = ? AND o.lifecycle <> 'withdrawn' AND s.locator IS NULL", [kind])[0][0]

    def dangling_refs(self, kinds: tuple[str, ...]) -> int:
        """Citations from live objects of `kinds` to objects that are missing or withdrawn."""
        return self.query(
            "SELECT count(*) FROM refs r JOIN objects src ON src.id = r.src_id LEFT JOIN objects dst ON dst.id = r.dst_id "
            f"WHERE src.kind IN ({marks(kinds)}) AND src.lifecycle <> 'withdrawn' "
            "AND (dst.id IS NULL OR dst.lifecycle = 'withdrawn')", list(kinds))[0][0]

    def fidelity_counts(self) -> dict[str, int]:
        """Live facts, those whose every locator resolves to a current sentence, those verified, and
        the synthesis basis citations with how many reach a live object."""
        q = self.query
        live = "kind = 'fact' AND lifecycle <> 'withdrawn'"
        cites = q("SELECT count(*), count(d.id) FILTER (WHERE d.lifecycle <> 'withdrawn') FROM refs r JOIN objects s ON s.id = r.src_id "
                  "LEFT JOIN objects d ON d.id = r.dst_id WHERE s.kind = 'synthesis' AND s.lifecycle <> 'withdrawn'")[0]
        return {"facts": q(f"SELECT count(*) FROM objects WHERE {live}")[0][0],
                "resolving": q("SELECT count(*) FROM objects o WHERE o.kind = 'fact' AND o.lifecycle <> 'withdrawn' AND NOT EXISTS ("
                               "SELECT 1 FROM evidence e LEFT JOIN sentences s ON s.locator = e.locator AND s.is_current "
                               "WHERE e.obj_id = o.id AND s.locator IS NULL)")[0][0],
                "passed": q(f"SELECT count(*) FROM objects WHERE {live} AND verification = 'passed'")[0][0],
                "synthesis_citations": cites[0], "synthesis_citations_live": cites[1]}
