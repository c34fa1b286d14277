"""The store on PostgreSQL: a directory remembers its database, stores keep apart in one database,
and a wrong URL or a missing store is a clear error."""

from __future__ import annotations

import pytest

from scholarstack.models import Sentence, SourceMap
from scholarstack.store import Store, StoreError, register


def _paper(key: str) -> SourceMap:
    return SourceMap(paper_key=key, title=f"Paper {key}", sentences=[Sentence(sid=1, text="TnT reaches 96.7% accuracy.")])


def test_directory_remembers_its_database_and_stores_keep_apart(postgres, tmp_path, monkeypatch):
    monkeypatch.delenv("SCHOLARSTACK_STORE_URL", raising=False)
    a = Store(tmp_path / "a", url=postgres)
    b = Store(tmp_path / "b", url=postgres)
    assert a.postgres and a.schema != b.schema and "***" in a.location  # the password stays out of messages
    register(a, _paper("P1"))
    register(b, _paper("P2"))
    again = Store(tmp_path / "a")  # no URL, no variable: the directory knows
    assert again.postgres and again.current_ids("paper") == {"P1"} and b.current_ids("paper") == {"P2"}
    assert not (tmp_path / "a" / "store.duckdb").exists()
    assert again.status()["tables"].endswith(a.schema)


def test_a_contradicting_url_or_a_missing_store_is_a_clear_error(postgres, tmp_path, monkeypatch):
    Store(tmp_path / "a", url=postgres)
    other = postgres.rsplit("/", 1)[0] + "/elsewhere"
    with pytest.raises(StoreError, match="lives in"):
        Store(tmp_path / "a", url=other)
    monkeypatch.setenv("SCHOLARSTACK_STORE_URL", postgres)
    with pytest.raises(StoreError, match="no store at"):
        Store(tmp_path / "never-made", read_only=True)


def test_an_existing_duckdb_store_stays_on_duckdb(postgres, tmp_path, monkeypatch):
    monkeypatch.delenv("SCHOLARSTACK_STORE_URL", raising=False)
    register(Store(tmp_path / "s"), _paper("P1"))
    monkeypatch.setenv("SCHOLARSTACK_STORE_URL", postgres)
    s = Store(tmp_path / "s")
    assert not s.postgres and s.current_ids("paper") == {"P1"}


def test_an_unreachable_server_names_the_store(tmp_path):
    with pytest.raises(StoreError, match="cannot open store postgresql://u:\\*\\*\\*@127.0.0.1:1/x"):
        Store(tmp_path / "s", url="postgresql://u:secret@127.0.0.1:1/x")
    assert not (tmp_path / "s" / "store.url").exists()  # a mistyped URL is not remembered


def test_percent_signs_and_placeholders_reach_postgres_as_written(postgres, tmp_path):
    s = Store(tmp_path / "s", url=postgres)
    assert s.query("SELECT '96.7%' LIKE '%\\%'") == [(True,)]  # no parameters: the text as written
    assert s.query("SELECT ? || '%'", ["96.7"]) == [("96.7%",)]
