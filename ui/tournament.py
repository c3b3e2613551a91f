"""The Tournament screen. The director: players, the raffle, the tables with the link and QR code each
table's device opens, live standings, the next round, and any table's games. A table's device: opened from
its table's link (which carries the table's token, `assistant.storage.links`), it records that table's
games and nothing else; the writes go through `assistant.access.GuardedHall`, which checks the role again
in the server at every press.

The logic is `assistant.hall` (plain functions the CLI shares); this module only moves values between
widgets, session state and those functions.
"""

from __future__ import annotations

import io
import re
import uuid
from collections.abc import Callable, Mapping
from dataclasses import dataclass

import segno
import streamlit as st

from assistant.access import Access, AccessDenied, GuardedHall
from assistant.errors import InputError
from assistant.hall import (
    DEFAULT_PRESET,
    next_round,
    open_hall,
    record_table_game,
    standings,
    start_tournament,
)
from assistant.names import strip_controls
from assistant.rules import PRESETS
from assistant.scoring import FailedOpening
from assistant.storage import Game, Storage, StorageError, StorageUnavailable
from assistant.storage.links import GameTable, TableLinks, TournamentTable
from assistant.storage.tournaments import GameConflict, Tournament, TournamentStore
from assistant.tournament import TableLink, TournamentError, parse_players, tournament_name
from ui import access as access_ui
from ui import helpers

VIEWS = ("Director", "My table")
NO_FAILED_OPENING = "opened"
FAILED_OPENINGS = {
    NO_FAILED_OPENING: "opened (or the rules have no penalty)",
    FailedOpening.COULD_NOT.value: "never opened, could not (100)",
    FailedOpening.CHOSE_NOT.value: "never opened, chose not to (200)",
}
STANDINGS_REFRESH_S = 5

SESSION_DEFAULTS = {
    "tournament_view": VIEWS[0],
    "tournament_error": None,
    "tournament_notice": None,
    "game_key": None,  # the idempotency key of the game being entered: the same until it is confirmed
}


@st.cache_resource
def open_hall_at(url: str) -> TournamentStore:
    return open_hall(url)


# A tournament table's game ----------------------------------------------------------------------------------
#
# A table's link opens every screen of a club game (Table, Turn, Referee, Round, Setup) for the game of its
# table in the current round: one game per tournament, round and table, found by its name and its seated
# players, and made by the server the first time the table's link opens it. Its link records that game and
# nothing else (`TableGameAccess`); the Round screen records each round at the tournament table too.

TABLE_GAME = re.compile(r"^(?P<tournament>.+) · round (?P<round>[0-9]+) · table (?P<table>[0-9]+)$")


@dataclass(frozen=True)
class TablePlace:
    """Where a game is played in a tournament: its round and its table."""

    tournament: str
    round: int
    table: int

    @property
    def game_name(self) -> str:
        """The name of this table's game: `Cup · round 2 · table 3`."""
        return strip_controls(f"{self.tournament} · round {self.round} · table {self.table}")


@dataclass(frozen=True)
class TableGameAccess(Access):
    """A tournament table's link, recording its own table's game of the current round (`grant`, as that
    game's own link would) and nothing else; it is still named as the tournament's table."""

    table: TournamentTable | None = None

    @property
    def role(self) -> str:
        return f"the table of {self.table}"


def seated_at(hall: TournamentStore, place: TablePlace) -> tuple[str, ...] | None:
    """The players at `place` (its round's seating), or None where there is no such table."""
    try:
        tables = hall.tables(place.tournament, place.round)
    except StorageError:
        return None
    return tables[place.table - 1] if 1 <= place.table <= len(tables) else None


def find_table_game(storage: Storage, place: TablePlace, seated: tuple[str, ...]) -> int | None:
    """The id of `place`'s game: the first game of that name with exactly those players in that order."""
    players = [strip_controls(name) for name in seated]
    for game_id, name in sorted(storage.list_games()):  # the first made wins if two tabs made one at once
        if name == place.game_name and [p.name for p in storage.load_game(game_id).players] == players:
            return game_id
    return None


def current_place(hall: TournamentStore, grant: TournamentTable) -> TablePlace:
    """The grant's table in the tournament's current round.

    Raises:
        StorageError: no such tournament.
    """
    return TablePlace(grant.tournament, hall.load(grant.tournament).current_round, grant.table)


def game_access(access: Access, storage: Storage, hall: TournamentStore) -> Access:
    """The access the game screens write with, asked again at every write: a tournament table's link
    records its own table's game of the current round, as a game's link records its game; every other
    access as it is. A link replaced, or a new round started, stops the old game's writes at once."""
    grant = access.grant
    if access.director or not isinstance(grant, TournamentTable):
        return access
    try:
        place = current_place(hall, grant)
        seated = seated_at(hall, place)
        game_id = None if seated is None else find_table_game(storage, place, seated)
    except StorageError:
        return access
    if game_id is None:
        return access
    return TableGameAccess(director=False, grant=GameTable(game_id), table=grant)


def open_table_game(storage: Storage, hall: TournamentStore, access: Access) -> Game | None:
    """The game of this session's tournament table in the current round, made the first time its link
    opens it; None for any other session, or a table the round does not have.

    Raises:
        StorageError: the database did not answer.
    """
    grant = access.grant
    if access.director or not isinstance(grant, TournamentTable):
        return None
    access.check_table(grant.tournament, grant.table, "open its table's game")
    place = current_place(hall, grant)
    seated = seated_at(hall, place)
    if seated is None:
        return None
    game_id = find_table_game(storage, place, seated)
    if game_id is None:
        # Made by the server for the table its link grants, with the tournament's players and rules.
        preset = hall.load(place.tournament).preset
        storage.create_game(place.game_name, preset, list(seated), camera="camera")
        game_id = find_table_game(storage, place, seated)
    return None if game_id is None else storage.load_game(game_id)


def place_of(hall: TournamentStore, game: Game) -> TablePlace | None:
    """Where `game` is played in a tournament (a tournament table's game), or None for a club game."""
    found = TABLE_GAME.match(game.name)
    if found is None:
        return None
    place = TablePlace(found["tournament"], int(found["round"]), int(found["table"]))
    seated = seated_at(hall, place)
    if seated is None or [p.name for p in game.players] != [strip_controls(name) for name in seated]:
        return None
    return place


RoundRecorder = Callable[[int, int, Mapping[str, str], Mapping[str, FailedOpening]], str]


def round_recorder(db: Storage, links: TableLinks, place: TablePlace) -> RoundRecorder:
    """Records a round of `place`'s game as that table's next game in the tournament (checked in the
    server like the Tournament screen's form): `record(game_id, number, racks, failed_openings)` returns
    what was done. The same round sent again counts once (its key is the game's and the round's).

    Raises (from `record`):
        InputError, StorageError: AccessDenied, GameConflict, StorageUnavailable included.
    """
    hall = GuardedHall(open_hall_at(db.url), lambda: access_ui.current_access(links))

    def record(
        game_id: int, number: int, racks: Mapping[str, str], failed: Mapping[str, FailedOpening]
    ) -> str:
        game = record_table_game(
            hall,
            place.tournament,
            place.table,
            racks,
            failed,
            request_key=f"game-{game_id}-round-{number}",
            round_number=place.round,
        )
        again = " (it had already arrived)" if game.replayed else ""
        return f"{place.tournament}: game {game.table_game} at table {place.table} recorded{again}."

    return record


def follow_link() -> None:
    """A tab opened from a table's link (`?tournament=...&table=...&key=...`) starts on that table, once."""
    if st.query_params.get("tournament") and not st.session_state.get("link_followed"):
        st.session_state.link_followed = True
        st.session_state.screen = "Tournament"
        st.session_state.tournament_view = "My table"


def keep_typed_racks() -> None:
    """Racks typed but not confirmed survive a run that cannot draw the form (the server is down):
    Streamlit forgets a widget's value on a run without it, but not a value stored back like this."""
    for key in [k for k in st.session_state if str(k).startswith(("hall_rack_", "hall_failed_"))]:
        st.session_state[key] = st.session_state[key]


def show(db: Storage, access: Access, links: TableLinks) -> None:
    """The screen for this session's role: the director sees both views, a table or a viewer its table's."""
    for key, value in SESSION_DEFAULTS.items():
        st.session_state.setdefault(key, value)
    keep_typed_racks()
    # Every write asks the role again, in the server, at the press (a replaced link stops working at once).
    hall = GuardedHall(open_hall_at(db.url), lambda: access_ui.current_access(links))
    if access.director:
        view = st.radio("View", VIEWS, key="tournament_view", horizontal=True, label_visibility="collapsed")
    else:
        view = VIEWS[1]
    try:
        if view == "Director":
            director_ui(hall, links)
        else:
            table_ui(hall, access)
    except StorageUnavailable as error:
        st.error(f"{error}")


# The director -----------------------------------------------------------------------------------------------


def director_ui(hall: TournamentStore, links: TableLinks) -> None:
    names = hall.names()
    if names:
        chosen = st.selectbox("Tournament", names, key="tournament_choice")
    else:
        chosen = None
    new_tournament_ui(hall)
    messages_ui()
    if chosen is None:
        return
    tournament = hall.load(chosen)
    seating = (
        f"drawn by raffle, seed `{tournament.seed}`"
        if tournament.seating == "raffle"
        else "seated by standings"
    )
    st.markdown(
        f"**{tournament.name}**: round {tournament.current_round}, {seating}; "
        f"{len(tournament.players)} players, {tournament.preset} rules"
    )
    tables_ui(tournament, links)
    live_standings_ui(hall, tournament.name)
    next_round_ui(hall, tournament)


def new_tournament_ui(hall: TournamentStore) -> None:
    with st.expander("New tournament", expanded=not hall.names()):
        with st.form("new_tournament"):
            st.text_input("Name", key="new_tournament_name")
            st.text_area("Players, comma-separated or one per line", key="new_tournament_players")
            st.number_input("Players per table", min_value=2, max_value=6, value=4, key="new_tournament_size")
            st.text_input("Raffle seed (empty: a new one)", key="new_tournament_seed")
            st.selectbox(
                "Rules", list(PRESETS), index=list(PRESETS).index(DEFAULT_PRESET), key="new_tournament_rules"
            )
            st.form_submit_button("Draw the tables", type="primary", on_click=on_new_tournament, args=(hall,))


def on_new_tournament(hall: TournamentStore) -> None:
    state = st.session_state
    _clear_messages()
    try:
        players = parse_players(state.new_tournament_players.replace("\n", ",").split(","))
        tournament = start_tournament(
            hall,
            tournament_name(state.new_tournament_name),
            players,
            int(state.new_tournament_size),
            state.new_tournament_seed.strip() or None,
            state.new_tournament_rules,
        )
    except (InputError, StorageError) as error:  # AccessDenied included: only the director starts one
        state.tournament_error = f"Tournament not created: {error}"
        return
    state.tournament_choice = tournament.name
    state.tournament_notice = (
        f"{tournament.name}: {len(tournament.tables)} tables drawn (seed {tournament.seed})."
    )


def tables_ui(tournament: Tournament, links: TableLinks) -> None:
    """Each table's link and QR code: the table's token in it, so only that table's device records there."""
    base = st.text_input(
        "App address for the tables' links",
        value=access_ui.app_address(),
        key="hall_address",
        help="This computer's address on its network, as the tables' devices reach it.",
    )
    for number, seated in enumerate(tournament.tables, start=1):
        link = table_url(base, tournament.name, number, links.table_token(tournament.name, number))
        with st.container(border=True):
            left, right = st.columns([3, 1])
            left.markdown(f"**Table {number}**: {', '.join(seated)}")
            left.code(link, language=None)
            left.button(
                "New link",
                key=f"renew_table_{number}",
                help="The old link (a lost phone's) stops working at once; hand out the new one.",
                on_click=on_renew_link,
                args=(links, tournament.name, number),
            )
            right.image(qr_png(link), caption=f"Table {number}", width=120)
    st.caption("Each link records only its own table's games. Keep them to hand out, table by table.")


def table_url(base: str, tournament: str, table: int, token: str) -> str:
    """Table `table`'s link: the tournament, the table number and the table's token."""
    return helpers.table_link(
        base, {"tournament": tournament, "table": str(table), access_ui.LINK_PARAM: token}
    )


def on_renew_link(links: TableLinks, tournament: str, table: int) -> None:
    _clear_messages()
    state = st.session_state
    try:
        access_ui.current_access(links).check_director("replace a table's link")
        links.renew_table_token(tournament, table)
    except StorageError as error:
        state.tournament_error = f"No new link: {error}"
        return
    state.tournament_notice = f"Table {table} has a new link: its old one no longer records anything."


def qr_png(text: str) -> bytes:
    """A QR code of `text`, as PNG bytes."""
    buffer = io.BytesIO()
    segno.make(text, error="m").save(buffer, kind="png", scale=4, border=2)
    return buffer.getvalue()


@st.fragment(run_every=STANDINGS_REFRESH_S)
def live_standings_ui(hall: TournamentStore, name: str) -> None:
    try:
        games, rows = standings(hall, name)
    except StorageError as error:
        st.warning(f"Standings not refreshed: {error}")
        return
    st.markdown(f"**Standings** after {games} game{'s' * (games != 1)} (most games won, then score; live)")
    st.dataframe(
        [
            {"place": place, "player": r.name, "games won": r.games_won, "score": r.score, "games": r.games}
            for place, r in enumerate(rows, start=1)
        ],
        hide_index=True,
    )


def next_round_ui(hall: TournamentStore, tournament: Tournament) -> None:
    with st.form("next_round"):
        st.markdown(f"**Round {tournament.current_round + 1}**")
        st.radio(
            "Seat the players",
            ["standings", "raffle"],
            format_func={"standings": "by the standings", "raffle": "by a new raffle"}.get,
            horizontal=True,
            key="next_round_by",
        )
        st.text_input("Raffle seed (empty: a new one)", key="next_round_seed")
        st.form_submit_button(
            f"Start round {tournament.current_round + 1}",
            on_click=on_next_round,
            args=(hall, tournament.name),
        )


def on_next_round(hall: TournamentStore, name: str) -> None:
    _clear_messages()
    state = st.session_state
    try:
        tournament = next_round(hall, name, state.next_round_by, state.next_round_seed.strip() or None)
    except (InputError, StorageError) as error:
        state.tournament_error = f"No new round: {error}"
        return
    state.tournament_notice = f"Round {tournament.current_round} seated ({tournament.seating})."


# A table's device -------------------------------------------------------------------------------------------


def joined_table() -> TableLink | None:
    try:
        return TableLink.from_query({k: st.query_params.get(k, "") for k in ("tournament", "table")})
    except TournamentError:
        return None


def table_ui(hall: TournamentStore, access: Access) -> None:
    """A table's games. The director may open any table (the join form); a table's device records only at
    the table its link grants, and a viewer is told to open a table's link."""
    link = joined_table()
    grant = access.grant if isinstance(access.grant, TournamentTable) else None
    if access.director:
        join_ui(hall, link)
    elif grant is not None and link is None:
        link = TableLink(grant.tournament, grant.table)
    messages_ui()
    if not access.director:
        if grant is None:
            st.info(
                "To record a table's games, open that table's link: the director has each table's link and "
                "QR code on the Tournament screen."
            )
            return
        if link != TableLink(grant.tournament, grant.table):
            st.error(
                f"This device holds the link of {grant}: it records only there, not at "
                f"{link.tournament}, table {link.table}. That table's own link is with the director."
            )
            return
    if link is None:
        return
    try:
        tournament = hall.load(link.tournament)
    except StorageError as error:
        st.error(f"{error}")
        return
    if not 1 <= link.table <= len(tournament.tables):
        st.error(f"{tournament.name} has tables 1 to {len(tournament.tables)}, not {link.table}.")
        return
    seated = tournament.tables[link.table - 1]
    played = hall.games(tournament.name, tournament.current_round, link.table)
    next_game = len(played) + 1
    st.markdown(
        f"**{tournament.name}, table {link.table}**, round {tournament.current_round}: {', '.join(seated)}"
    )
    if not access.director:
        st.caption(
            "Or record each game on the Round screen, with photos of the racks: this table's game there "
            "counts here too. Table, Turn and Referee judge its turns."
        )
    if played:
        st.dataframe([{"game": g.table_game, **g.points} for g in played], hide_index=True, key="table_games")
    if st.session_state.game_key is None:
        st.session_state.game_key = uuid.uuid4().hex
    with st.form("table_game"):
        st.markdown(f"**Game {next_game}** at this table: the racks left at the end (empty: went out)")
        for player in seated:
            left, right = st.columns([2, 1])
            left.text_input(player, key=f"hall_rack_{player}", placeholder="e.g. r5 k12 J")
            right.selectbox(
                "Opening", list(FAILED_OPENINGS), format_func=FAILED_OPENINGS.get, key=f"hall_failed_{player}"
            )
        st.form_submit_button(
            f"Record game {next_game}",
            type="primary",
            on_click=on_record_game,
            args=(hall, tournament, link.table, next_game),
        )


def join_ui(hall: TournamentStore, link: TableLink | None) -> None:
    with st.expander("Join a table", expanded=link is None):
        with st.form("join_table"):
            st.text_input("Tournament", value=link.tournament if link else "", key="join_tournament")
            st.number_input("Table", min_value=1, value=link.table if link else 1, key="join_table_number")
            st.form_submit_button("Join", on_click=on_join)


def on_join() -> None:
    _clear_messages()
    state = st.session_state
    try:
        link = TableLink.from_query(
            {"tournament": state.join_tournament, "table": str(state.join_table_number)}
        )
    except TournamentError as error:
        state.tournament_error = f"Not joined: {error}"
        return
    st.query_params["tournament"] = link.tournament
    st.query_params["table"] = str(link.table)
    state.game_key = None


def on_record_game(hall: TournamentStore, tournament: Tournament, table: int, table_game: int) -> None:
    _clear_messages()
    state = st.session_state
    seated = tournament.tables[table - 1]
    racks = {player: state.get(f"hall_rack_{player}", "") for player in seated}
    failed = {
        player: FailedOpening(state[f"hall_failed_{player}"])
        for player in seated
        if state.get(f"hall_failed_{player}", NO_FAILED_OPENING) != NO_FAILED_OPENING
    }
    try:
        game = record_table_game(
            hall, tournament.name, table, racks, failed, state.game_key, table_game, tournament.current_round
        )
    except StorageUnavailable as error:
        # The key stays: pressing Record again records this game once, whether or not it arrived.
        state.tournament_error = f"Not confirmed: {error} The racks are still here; press Record again."
        return
    except GameConflict as error:
        state.tournament_error = f"{error}"
        state.game_key = None
        return
    except AccessDenied as error:  # the link was replaced since the page was drawn: the racks stay
        state.tournament_error = f"Game not recorded: {error}. Ask the director for the table's new link."
        return
    except (InputError, StorageError) as error:
        state.tournament_error = f"Game not recorded: {error}"
        return
    again = " (it had already arrived)" if game.replayed else ""
    scores = ", ".join(f"{s.player} {s.score:+d}" for s in game.scores)
    state.tournament_notice = f"Game {game.table_game} at table {table} recorded{again}: {scores}."
    state.game_key = None
    for player in seated:
        state[f"hall_rack_{player}"] = ""
        state[f"hall_failed_{player}"] = NO_FAILED_OPENING


def messages_ui() -> None:
    if st.session_state.tournament_notice:
        st.success(st.session_state.tournament_notice)
    if st.session_state.tournament_error:
        st.error(st.session_state.tournament_error)


def _clear_messages() -> None:
    st.session_state.tournament_error = None
    st.session_state.tournament_notice = None
