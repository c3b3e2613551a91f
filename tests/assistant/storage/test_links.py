"""Table links in the database, on SQLite and PostgreSQL: one token per table, kept, granting that table
only, replaced on demand; unknown tables and tokens are refused or grant nothing."""

from __future__ import annotations

import re
import threading

import pytest

from assistant.hall import open_hall, start_tournament
from assistant.storage import Storage, StorageError
from assistant.storage.links import GameTable, TableLinks, TournamentTable

PLAYERS = ["Ann", "Bob", "Cid", "Dee", "Eve", "Fay", "Gus", "Hal"]


@pytest.fixture
def links(db_url: str) -> TableLinks:
    storage = Storage(db_url)
    storage.create_game("Table 1", "standard", ["Ann", "Ben"])
    storage.create_game("Table 2", "standard", ["Cy", "Dee"])
    start_tournament(open_hall(db_url), "Cup", PLAYERS, table_size=4, seed="s1")
    return TableLinks(storage.db)


def test_each_table_has_its_own_unguessable_token_that_grants_it_only(links: TableLinks) -> None:
    tokens = {
        GameTable(1): links.game_token(1),
        GameTable(2): links.game_token(2),
        TournamentTable("Cup", 1): links.table_token("Cup", 1),
        TournamentTable("Cup", 2): links.table_token("Cup", 2),
    }
    assert len(set(tokens.values())) == 4
    for grant, token in tokens.items():
        assert re.fullmatch(r"[A-Za-z0-9_-]{43}", token)  # 256 random bits, URL-safe
        assert links.grant(token) == grant
    assert links.game_token(1) == tokens[GameTable(1)]  # the same link every time it is shown
    assert links.table_token("Cup", 2) == tokens[TournamentTable("Cup", 2)]


def test_a_new_link_replaces_the_old_one(links: TableLinks) -> None:
    old_game, old_table = links.game_token(1), links.table_token("Cup", 1)
    new_game, new_table = links.renew_game_token(1), links.renew_table_token("Cup", 1)
    assert links.grant(old_game) is None and links.grant(old_table) is None
    assert links.grant(new_game) == GameTable(1) and links.grant(new_table) == TournamentTable("Cup", 1)
    assert links.game_token(1) == new_game


@pytest.mark.parametrize(
    "token", ["", "x", "not-a-token-but-long-enough-to-be-looked-up-0123", "' OR 1=1 --" * 5]
)
def test_a_token_that_is_not_a_tables_grants_nothing(links: TableLinks, token: str) -> None:
    links.game_token(1)
    assert links.grant(token) is None


def test_links_of_tables_that_do_not_exist_are_refused(links: TableLinks) -> None:
    with pytest.raises(StorageError, match="no game with id 9"):
        links.game_token(9)
    with pytest.raises(StorageError, match="no tournament called 'Nope'"):
        links.table_token("Nope", 1)
    with pytest.raises(StorageError, match="has tables 1 to 2, not 3"):
        links.table_token("Cup", 3)


def test_two_director_tabs_asking_at_once_get_one_link(links: TableLinks) -> None:
    got: list[str] = []
    threads = [threading.Thread(target=lambda: got.append(links.table_token("Cup", 2))) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(got) == 4 and len(set(got)) == 1
