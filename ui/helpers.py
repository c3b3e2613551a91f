"""What the app's screens show beyond the rules engine: doubtful tiles to check, set labels, put-back
instructions for an illegal turn, the turn timer, and the rows of the turn, round and standings tables.

Pure functions over the table text (`assistant.slots`), a photo's reading (`vision.photos`) and stored
records (`assistant.storage`); the screens in `ui/` only move their results into widgets.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from assistant.errors import InputError
from assistant.scoring import Ledger, RoundResult
from assistant.server_settings import server_setting
from assistant.slots import Slot
from assistant.storage import DB_ENV_VAR, StorageError, default_db_path, is_url
from assistant.storage.database import to_url
from assistant.tiles import ALL_FACES, JOKER, Tile, format_tiles

if TYPE_CHECKING:
    from assistant.rules import Rules
    from assistant.sets import SetVerdict
    from vision.photos import Doubt, PhotoReading
    from vision.placed import Layout

TILE_CHOICES: tuple[Tile, ...] = (*ALL_FACES, JOKER)
DB_SECRET = "db"


VIEW_ONLY = "Viewing only: open the table's link or sign in as the director to record."
"""Said where a viewer would otherwise find the buttons that record (a viewer changes nothing)."""


def may_write(access: Any, game_id: int) -> bool:
    """Whether a session with `access` (`assistant.access.Access`; None: no roles, as in a bare test) may
    record in the game: the director, or the game's table. The server checks again at every write."""
    return access is None or bool(access.may_record_game(game_id))


# The server's settings --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class DatabaseSetting:
    """Where the app keeps its games (a file path, or a database URL such as a tournament hall's
    PostgreSQL), and which setting said so (shown when the database cannot be used)."""

    target: str
    source: str

    @property
    def display(self) -> str:
        """The target as shown on the page: a URL's password hidden."""
        if not is_url(self.target):
            return self.target
        try:
            return to_url(self.target).render_as_string(hide_password=True)
        except StorageError:
            return self.target.split("://", 1)[0] + "://…"


def db_target_of(value: str) -> str:
    """A database URL as given, or a file path with `~` expanded."""
    value = value.strip()
    return value if is_url(value) else str(Path(value).expanduser())


def database_setting(
    argv: Sequence[str], environ: Mapping[str, str], secrets: Mapping[str, Any]
) -> DatabaseSetting:
    """The database from the server's own settings, first found wins: `--db` after `streamlit run app.py --`,
    the RUMMI_DB environment variable, Streamlit's secret `db`, else the user's data folder.

    Raises:
        InputError: `--db` without a value.
    """
    found = server_setting(
        argv, environ, secrets, "--db", DB_ENV_VAR, DB_SECRET, "--db PATH-OR-URL", empty_option_is_unset=True
    )
    if found is not None:
        return DatabaseSetting(db_target_of(found[0]), found[1])
    return DatabaseSetting(str(default_db_path(environ)), "the default")


SCREEN_LONG_SIDE = 1600
"""The photo as shown is at most this many pixels long: a 12 MP frame costs seconds to send, and no screen
shows more."""


def fit_for_screen(image: Any, long_side: int = SCREEN_LONG_SIDE) -> Any:
    """`image` (an array) scaled down so its longer side is at most `long_side`; smaller ones as they are."""
    import cv2

    height, width = image.shape[:2]
    scale = long_side / max(height, width)
    if scale >= 1.0:
        return image
    return cv2.resize(image, (round(width * scale), round(height * scale)), interpolation=cv2.INTER_AREA)


LIVE_SHOWN_WIDTH = 720
"""A live picture sent back to the browser is at most this wide (the camera column is about as wide): a
smaller picture is drawn and encoded sooner by the stream's thread, which shares the cores with the reader."""


def shown_size(image: Any, width: int = LIVE_SHOWN_WIDTH) -> Any:
    """`image` (an array) made at most `width` wide (never enlarged). By width, where `fit_for_screen` bounds
    the long side: the camera column is as wide whatever the camera's shape; bilinear, as it runs for every
    frame."""
    import cv2

    if image.shape[1] <= width:
        return image
    height = round(image.shape[0] * width / image.shape[1])
    return cv2.resize(image, (width, height), interpolation=cv2.INTER_LINEAR)


def shown_rgb(frame_bgr: Any) -> Any:
    """A camera frame (BGR) as a live screen shows it drawn on nothing: `shown_size`, in RGB."""
    import cv2

    return cv2.cvtColor(shown_size(frame_bgr), cv2.COLOR_BGR2RGB)


def photo_may_replace_table(stored_layout: str, stored_photo: str, photo_key: str, chosen: bool) -> bool:
    """Whether a photo this tab sees may be read: always when the player just chose its source; otherwise
    (a fresh tab, a reload, the example shown by default) only over a table never filled, or to show the
    stored table's own photo again (`stored_photo == photo_key`, whose corrections are then kept)."""
    if chosen:
        return True
    never_filled = not stored_layout.strip() and not stored_photo
    return never_filled or stored_photo == photo_key


def same_shape(sets: Sequence[Sequence[Slot]], layout: Layout) -> bool:
    """The text still has the photo's sets, tile for tile in place (so the photo's boxes still apply)."""
    return [len(tiles) for tiles in sets] == [len(tiles) for tiles in layout.table]


def picture_note(same_shape: bool, edited_here: bool) -> str:
    """What the photo's caption adds when the table stored no longer has the photo's sets: the player's own
    edit (typed, or a tile removed), or a change made elsewhere (an illegal turn put back, another tab)."""
    if same_shape:
        return ""
    if edited_here:
        return " · the layout was edited: boxes show the photo as read"
    return " · the table was changed since (a turn put back, or another tab): boxes show the photo as read"


def doubts(reading: PhotoReading | None, sets: Sequence[Sequence[Slot]]) -> list[Doubt]:
    """Doubtful tiles of the photo that nobody has changed yet (a changed tile counts as checked)."""
    if reading is None or not same_shape(sets, reading.layout):
        return []
    return [d for d in reading.doubted() if sets[d.set_index][d.position] == d.read]


def choices_for(
    reading: PhotoReading | None, layout_shape_ok: bool, set_index: int, position: int
) -> list[Tile]:
    """Readings to offer first for one tile: the correction's suggestion, then the classifier's runners-up,
    never the reading being fixed."""
    if reading is None or not layout_shape_ok:
        return []
    return reading.likely(reading.layout.table[set_index][position])


def set_label(verdict: SetVerdict) -> str:
    """`red 5-6-7 · 18 points` for a valid set, the reason for an invalid one."""
    if verdict.valid:
        readings = getattr(verdict, "readings", ()) or ()
        described = readings[0].describe() if readings else (verdict.kind or "set")
        jokers = [str(j) for j in verdict.jokers if j is not None]
        joker_text = f" · joker as {', '.join(jokers)}" if jokers else ""
        return f"{described} · {verdict.value} points{joker_text}"
    reasons = [str(getattr(r, "text", r)) for r in verdict.reasons]
    if not reasons:
        return "not a valid set"
    # A badly misread set can break many rules at once; the first says enough on a phone.
    return reasons[0] + (f" (+{len(reasons) - 1} more)" if len(reasons) > 1 else "")


# Turns -----------------------------------------------------------------------------------------------------


def added_tiles(before: Sequence[Sequence[Tile]], after: Sequence[Sequence[Tile]]) -> list[Tile]:
    """Tiles on the table after the turn that were not there before (from a rack), in table order."""
    added = Counter(t for s in after for t in s) - Counter(t for s in before for t in s)
    in_order = []
    for tile in (t for s in after for t in s):
        if added[tile]:
            added[tile] -= 1
            in_order.append(tile)
    return in_order


@dataclass(frozen=True)
class PutBack:
    """How to undo an illegal turn: tiles back to the rack, the sets to rebuild, the sets to take apart."""

    to_rack: tuple[Tile, ...]
    rebuild: tuple[tuple[Tile, ...], ...]
    take_apart: tuple[tuple[Tile, ...], ...]

    def lines(self) -> list[str]:
        out = []
        if self.to_rack:
            out.append(f"Take back to the rack: {format_tiles(self.to_rack)}")
        for tiles in self.take_apart:
            out.append(f"Take apart: {format_tiles(tiles)}")
        for tiles in self.rebuild:
            out.append(f"Put back as it was: {format_tiles(tiles)}")
        if not out:
            out.append("The table is already as it was.")
        return out


def put_back(before: Sequence[Sequence[Tile]], after: Sequence[Sequence[Tile]]) -> PutBack:
    """Instructions that turn the table `after` back into the agreed table `before`."""
    before_sets = Counter(tuple(s) for s in before)
    after_sets = Counter(tuple(s) for s in after)
    rebuild = [s for s in (before_sets - after_sets).elements()]
    take_apart = [s for s in (after_sets - before_sets).elements()]
    return PutBack(tuple(added_tiles(before, after)), tuple(rebuild), tuple(take_apart))


def time_used(started_at: float, ended_at: float) -> float:
    return max(0.0, ended_at - started_at)


@dataclass(frozen=True)
class JudgedTurn:
    """A turn's verdict with the preset's turn timer applied on top of the rules engine's."""

    legal: bool
    reasons: tuple[str, ...]
    penalty_tiles: int


def judge_time(verdict: Any, started_at: float, ended_at: float, rules: Rules) -> JudgedTurn:
    """Over the time limit, the turn fails like an invalid move: table restored, penalty tiles drawn
    (004_*.txt: 1-minute turns, 3 penalty tiles; 002_*.txt likewise)."""
    reasons = [str(getattr(reason, "text", reason)) for reason in verdict.reasons]
    used = time_used(started_at, ended_at)
    late = rules.turn_seconds is not None and used > rules.turn_seconds
    if late:
        reasons.append(f"time is up: {used:.0f} s used, {rules.turn_seconds} s allowed")
    legal = bool(verdict.legal) and not late
    penalty = 0 if legal else (verdict.penalty_tiles or rules.failed_move_penalty_tiles)
    return JudgedTurn(legal, tuple(reasons), penalty)


def new_set_indexes(agreed: Sequence[Sequence[Slot]], now: Sequence[Sequence[Slot]]) -> list[int]:
    """Indexes of the sets on the table now that were not on the agreed table (in the same form)."""
    remaining = Counter(tuple(s) for s in agreed)
    new = []
    for index, tiles in enumerate(now):
        key = tuple(tiles)
        if remaining[key]:
            remaining[key] -= 1
        else:
            new.append(index)
    return new


@dataclass(frozen=True)
class MeldMetric:
    """The opening meld check's figure for `st.metric`: the value, a few words, their colour and arrow."""

    value: str
    delta: str
    color: str
    arrow: str


def meld_metric(meld: Any) -> MeldMetric:
    """`45 / 30` and `enough` (green, up) only for a legal opening meld; a meld with an invalid set shows no
    total at all (000_*.txt section 3: the meld is valid sets only), one short of the threshold how short."""
    if not meld.valid:
        broken = sum(not verdict.valid for verdict in meld.sets)
        if broken:
            delta = "a set breaks the rules" if broken == 1 else f"{broken} sets break the rules"
        else:
            delta = meld.problems[0] if meld.problems else "not a valid opening meld"
        return MeldMetric("not valid", delta, "red", "off")
    total = f"{meld.value} / {meld.threshold}"
    if meld.accepted:
        return MeldMetric(total, "enough", "green", "up")
    return MeldMetric(total, f"{meld.threshold - meld.value} short", "red", "down")


def meld_lines(meld: Any) -> list[str]:
    """One line per set of an opening meld: its value, and what each joker counts as."""
    lines = []
    # The table's problems restate each invalid set's reason as `set N (tiles): reason`: shown once, above.
    restated = tuple(f"set {n} (" for n, verdict in enumerate(meld.sets, start=1) if not verdict.valid)
    for verdict in meld.sets:
        if not verdict.valid:
            lines.append(f":red[:material/cancel:] {format_tiles(verdict.tiles)}: {verdict.reason}")
            continue
        jokers = [j for j in verdict.jokers if j is not None]
        counted = "; ".join(f"joker counts as {j} ({j.number} points)" for j in jokers)
        lines.append(
            f":green[:material/check_circle:] {format_tiles(verdict.tiles)} = {verdict.value} points"
            + (f" · {counted}" if counted else "")
        )
    lines.extend(
        f":red[:material/cancel:] {problem}" for problem in meld.problems if not problem.startswith(restated)
    )
    return lines


def turn_rows(turns: Sequence[Any], names: dict[int, str]) -> list[dict[str, Any]]:
    return [
        {
            "turn": t.number,
            "player": names.get(t.seat, "?"),
            "legal": "yes" if t.legal else "no",
            "action": t.action,
            "played": t.played,
            "seconds": round(time_used(t.started_at, t.ended_at)),
            "why not": "; ".join(t.reasons),
        }
        for t in reversed(turns)
    ]


def round_preview_rows(result: Any) -> list[dict[str, Any]]:
    return [
        {
            "player": name,
            "rack value": result.rack_values[name],
            "score": result.scores[name],
            "won": "yes" if name in result.winners else "",
        }
        for name in result.scores
    ]


def ledger_of(rounds: Sequence[Any], names: Sequence[str], rules: Rules) -> Any:
    """The match ledger rebuilt from stored rounds (`storage.RoundRecord`)."""
    ledger = Ledger(players=tuple(names), rules=rules)
    for record in rounds:
        ledger.rounds.append(
            RoundResult(
                blocked=record.blocked,
                winners=tuple(s.name for s in record.scores if s.winner),
                rack_values={s.name: s.rack_value for s in record.scores},
                scores={s.name: s.score for s in record.scores},
            )
        )
    return ledger


def standings_rows(rounds: Sequence[Any], names: Sequence[str], rules: Rules) -> list[dict[str, Any]]:
    """Best first under the match's ranking (total, or games won); the leaders, tied or not, are all first."""
    ledger = ledger_of(rounds, names, rules)
    leaders = set(ledger.leaders())
    return [
        {"place": 1 if name in leaders else index, "player": name, "total": total, "games won": wins}
        for index, (name, total, wins) in enumerate(ledger.standings(), start=1)
    ]


def round_rows(rounds: Sequence[Any], names: Sequence[str]) -> list[dict[str, Any]]:
    """One row per round: its number, whether it was blocked, and each player's score."""
    rows = []
    for record in rounds:
        scores = {score.name: score.score for score in record.scores}
        rows.append(
            {
                "round": record.number,
                "blocked": "yes" if record.blocked else "",
                **{n: scores.get(n, 0) for n in names},
            }
        )
    return rows


def running_totals(rounds: Sequence[Any], names: Sequence[str]) -> dict[str, list[int]]:
    """Cumulative score of each player after each round, with a `round` column for the chart's x axis."""
    totals = dict.fromkeys(names, 0)
    series: dict[str, list[int]] = {"round": [], **{name: [] for name in names}}
    for record in rounds:
        series["round"].append(record.number)
        for score in record.scores:
            totals[score.name] = totals.get(score.name, 0) + score.score
        for name in names:
            series[name].append(totals[name])
    return series


def running_total_rows(rounds: Sequence[Any], names: Sequence[str]) -> list[dict[str, Any]]:
    """The running totals in long form (`round`, `player`, `total`), one row per player per round."""
    series = running_totals(rounds, names)
    return [
        {"round": number, "player": name, "total": series[name][index]}
        for index, number in enumerate(series["round"])
        for name in names
    ]


# Racks at the end of a round -------------------------------------------------------------------------------


def parse_rack(text: str) -> list[Slot]:
    """A rack's tiles as typed or read (`?` for a tile not read yet).

    Raises:
        NotationError: a token is unreadable.
    """
    from assistant.slots import parse_slots

    return [slot for tiles in parse_slots(text.replace("|", " ")) for slot in tiles]


def counted(count: int, noun: str) -> str:
    """`1 tile`, `2 tiles`, `0 points`."""
    return f"{count} {noun}" if count == 1 else f"{count} {noun}s"


def format_rack(rack: Sequence[Slot]) -> str:
    from assistant.slots import format_slots

    return format_slots([rack]) if rack else ""


def replace_in_rack(text: str, position: int, tile: Tile | None) -> str:
    """The rack with one tile replaced, or removed when `tile` is None.

    Raises:
        InputError: there is no such tile.
    """
    rack = parse_rack(text)
    if not 0 <= position < len(rack):
        raise InputError(f"there is no tile {position + 1} on this rack")
    if tile is None:
        del rack[position]
    else:
        rack[position] = tile
    return format_rack(rack)


def racks_still_to_enter(racks: Mapping[str, Sequence[Slot]]) -> str | None:
    """What is missing before a round can be scored, or None: every rack in, at most one blank (the player
    who went out), every tile read. Several blanks mean racks not entered yet, not several winners."""
    blank = [name for name, rack in racks.items() if not rack]
    unread = [name for name, rack in racks.items() if any(t is None for t in rack)]
    if unread:
        return f"Tap the unread tiles (?) of {', '.join(unread)} and pick what they are."
    if len(blank) == len(racks):
        return "Type (or read from photos) what is left on each rack; leave the winner's blank."
    if len(blank) > 1:
        return f"Still to enter: {', '.join(blank)} (leave only the winner's rack blank)."
    return None


def assign_racks(count: int, seats: Sequence[int], first_seat: int) -> tuple[list[int], int]:
    """The seats of `count` racks read in order, from `first_seat` round the table; and how many racks
    were left over (more racks than players)."""
    start = list(seats).index(first_seat) if first_seat in seats else 0
    order = [seats[(start + k) % len(seats)] for k in range(len(seats))]
    return order[:count], max(0, count - len(seats))


def rack_likely(reading: Any, text: str, position: int) -> list[Tile]:
    """The reader's other readings for one rack tile, while the rack still has the photo's tiles in place."""
    if reading is None or len(parse_rack(text)) != len(reading.tiles) or position >= len(reading.likely):
        return []
    current = parse_rack(text)[position]
    return [t for t in reading.likely[position] if t != current]


def round_recorded_notice(number: int, result: Any) -> str:
    """`Round 2 recorded: Ann went out (+38); Ben -38.`"""
    winners = ", ".join(result.winners)
    how = "won the blocked round" if result.blocked else "went out"
    scores = "; ".join(f"{name} {score:+d}" for name, score in result.scores.items())
    return f"Round {number} recorded: {winners} {how}. Scores: {scores}."


def round_summary(record: Any) -> str:
    """`Ann +38, Ben -38` of a stored round."""
    return ", ".join(f"{s.name} {s.score:+d}" for s in record.scores)


def games_rows(entries: Sequence[tuple[Any, Sequence[Any], Rules]]) -> list[dict[str, Any]]:
    """One row per game (`storage.Game`, its rounds, its rules): rules, rounds played, each player's total,
    and who leads."""
    rows = []
    for game, rounds, rules in entries:
        names = [p.name for p in game.players]
        try:
            ledger = ledger_of(rounds, names, rules)
            standings = ledger.standings()
            totals = " · ".join(f"{name} {total:+d}" for name, total, _ in standings)
            leaders = " and ".join(ledger.leaders()) if rounds else ""
        except InputError as error:  # a game whose players do not fit its rules any more
            totals, leaders = f"cannot be scored: {error}", ""
        rows.append(
            {
                "game": game.name,
                "rules": rules.label,
                "rounds": len(rounds),
                "totals": totals,
                "leading": leaders,
            }
        )
    return rows


# Opening the app on a phone ---------------------------------------------------------------------------------


def phone_url(https: bool, address: str, port: int) -> str:
    """The address a phone on the same network opens."""
    return f"{'https' if https else 'http'}://{address}:{port}"


def table_link(base: str, params: dict[str, str]) -> str:
    """The link a table's device opens: the app at `base` with `params` (its table and its token)."""
    from urllib.parse import urlencode

    return f"{base.rstrip('/')}/?{urlencode(params)}"


def camera_blocked(page_url: str) -> bool:
    """Whether a browser on this page refuses the camera: it allows it only on https or on localhost."""
    from urllib.parse import urlsplit

    parts = urlsplit(page_url)
    return parts.scheme == "http" and parts.hostname not in ("localhost", "127.0.0.1", "::1")


def qr_png(text: str, scale: int = 6) -> bytes:
    """A QR code of `text` as PNG bytes (segno: pure Python, nothing downloaded)."""
    import io

    import segno

    out = io.BytesIO()
    segno.make(text, error="m").save(out, kind="png", scale=scale, border=2)
    return out.getvalue()
