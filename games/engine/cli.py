"""``python -m games.engine``: replay and verify game records, and play bot games, from the command line."""

from __future__ import annotations

import argparse
import json
import random
import secrets
import sys
from collections.abc import Callable, Iterator, Sequence
from typing import Any, TextIO

from .records import RecordError, export_record, load_record, replay_steps
from .rules import Rules, RulesError
from .state import State
from .table import IllegalAction
from .verify import Verified, verify_document


def _error(step: int | None, action: str | None, reason: str, steps: list[dict[str, Any]]) -> dict[str, Any]:
    return {"error": {"step": step, "action": action, "reason": reason}, "steps": steps}


def replay_line(data: object) -> tuple[dict[str, Any], bool]:
    """The output line for one parsed record, and whether it replayed cleanly."""
    try:
        record = load_record(data)
    except RecordError as exc:
        return _error(None, None, f"invalid record: {exc}", []), False
    steps: list[dict[str, Any]] = []
    state = record.initial_state()
    try:
        for step in replay_steps(record):
            steps.append({"seat": step.seat, "legal": list(step.legal), "action": step.action})
            state = step.after
    except IllegalAction as exc:
        index = len(steps)
        return _error(index, record.actions[index], exc.reason, steps), False
    result = state.result()
    line = {
        "steps": steps,
        "next": {"seat": state.current_player(), "legal": list(state.legal_actions())},
        "result": result.to_dict() if result else None,
    }
    return line, True


def _documents(name: str, text: str) -> Iterator[object]:
    """Records in a file: one JSON document (an object or a list of them), or JSON Lines."""
    try:
        whole = json.loads(text)
    except json.JSONDecodeError:
        pass
    else:
        yield from whole if isinstance(whole, list) else [whole]
        return
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            yield json.loads(line)
        except json.JSONDecodeError as exc:
            yield _Unreadable(f"{name} line {number}: not JSON ({exc.msg} at column {exc.colno})")


class _Unreadable:
    def __init__(self, reason: str) -> None:
        self.reason = reason


def command_replay(files: Sequence[str], out: TextIO, stdin: TextIO) -> int:
    failed = False
    for name in files:
        if name == "-":
            text = stdin.read()
        else:
            try:
                with open(name, encoding="utf-8") as handle:
                    text = handle.read()
            except (OSError, UnicodeDecodeError) as exc:
                out.write(json.dumps(_error(None, None, f"cannot read {name}: {exc}", [])) + "\n")
                failed = True
                continue
        for document in _documents("standard input" if name == "-" else name, text):
            if isinstance(document, _Unreadable):
                line, ok = _error(None, None, document.reason, []), False
            else:
                line, ok = replay_line(document)
            out.write(json.dumps(line) + "\n")
            failed |= not ok
    return 1 if failed else 0


def record_url(url: str) -> str:
    """The record API's address for ``url``: a record address as it is, or a match's address (API or
    website: ``.../matches/{id}/...``) turned into ``{origin}/api/v1/matches/{id}/record/``."""
    from urllib.parse import urlsplit

    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise ValueError(f"not an http(s) address: {url!r}")
    if parts.path.rstrip("/").endswith("/record"):
        return url
    segments = [p for p in parts.path.split("/") if p]
    for index, segment in enumerate(segments[:-1]):
        if segment == "matches" and segments[index + 1].isdigit():
            return f"{parts.scheme}://{parts.netloc}/api/v1/matches/{segments[index + 1]}/record/"
    raise ValueError(f"no match id in {url!r}: give .../matches/<id>/ or its record's address")


def fetch_json(url: str, timeout: float = 30.0) -> object:
    """GET ``url`` as JSON; a ValueError says why not (status, network, not JSON)."""
    import urllib.error
    import urllib.request

    request = urllib.request.Request(url, headers={"Accept": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            body = response.read()
    except urllib.error.HTTPError as exc:
        detail = exc.read()[:300].decode("utf-8", "replace")
        raise ValueError(f"{url} answered {exc.code}: {detail}") from None
    except (urllib.error.URLError, OSError) as exc:
        raise ValueError(f"cannot fetch {url}: {exc}") from None
    try:
        return json.loads(body)
    except json.JSONDecodeError:
        raise ValueError(f"{url} did not answer JSON") from None


def _write_verified(verified: Verified, out: TextIO, as_json: bool) -> None:
    if as_json:
        out.write(json.dumps(verified.to_dict()) + "\n")
        return
    out.write(f"{verified.label}: {'verified' if verified.ok else 'FAILED'}\n")
    for check in verified.checks:
        out.write(f"  {'ok  ' if check.ok else 'FAIL'} {check.name}: {check.detail}\n")


def command_verify(args: argparse.Namespace, out: TextIO, stdin: TextIO) -> int:
    """Check every record read (JSON Lines on stdin, or one match's records fetched): exit 1 when any
    check fails or nothing was checked, 2 when the input cannot be read."""
    documents: list[object] = []
    if args.match:
        try:
            documents.append(fetch_json(record_url(args.match)))
        except ValueError as exc:
            print(f"error: {exc}", file=sys.stderr)
            return 2
    else:
        documents.extend(_documents("standard input", stdin.read()))
    results: list[Verified] = []
    for document in documents:
        if isinstance(document, _Unreadable):
            failed = Verified("input")
            failed.add("json", False, document.reason)
            results.append(failed)
        else:
            results.extend(verify_document(document))
    for number, verified in enumerate(results, start=1):
        if verified.label == "record":
            verified.label = f"record {number}"
        _write_verified(verified, out, args.json)
    bad = sum(not v.ok for v in results)
    summary = f"{len(results)} record(s) checked, {len(results) - bad} verified, {bad} failed"
    if args.json:
        out.write(
            json.dumps({"summary": {"records": len(results), "verified": len(results) - bad, "failed": bad}})
            + "\n"
        )
    else:
        out.write(summary + "\n")
    return 0 if results and not bad else 1


BotChooser = Callable[..., str]


def play_games(
    *,
    rules: Rules,
    bots: Sequence[BotChooser],
    seeds: Sequence[str],
) -> Iterator[tuple[str, int, State]]:
    """Play one game per seed with bots seated in order (repeated to fill the seats)."""
    n = rules.players
    for number, seed in enumerate(seeds):
        dealer = number % n
        state = State.new(rules, dealer=dealer, seed=seed)
        rng = random.Random(f"{seed}:bots")
        while not state.is_terminal():
            seat = state.current_player()
            assert seat is not None
            legal = state.legal_actions()
            action = bots[seat % len(bots)](state.view(seat), legal, rng)
            state = state.apply(action)
        yield seed, dealer, state


#: The entry-point group (pyproject.toml) where the bots' package names its ``get_bot(name)``: the engine
#: never imports the bots (they import the engine); the command line finds them where they are installed.
BOTS_ENTRY_POINTS = "tute_arena.bots"


def installed_bots() -> Callable[[str], Any]:
    """The installed bots' ``get_bot(name) -> bot`` (the ``house`` entry point of ``tute_arena.bots``)."""
    from importlib.metadata import entry_points

    found = entry_points(group=BOTS_ENTRY_POINTS, name="house")
    if not found:
        raise SystemExit(f"no bots are installed (entry point group {BOTS_ENTRY_POINTS!r}): pip install -e .")
    get_bot: Callable[[str], Any] = next(iter(found)).load()
    return get_bot


def command_play(args: argparse.Namespace, out: TextIO) -> int:
    get_bot = installed_bots()

    options: dict[str, Any] = {}
    if args.options:
        options.update(json.loads(args.options))
    for item in args.option or []:
        key, _, value = item.partition("=")
        try:
            options[key] = json.loads(value)
        except json.JSONDecodeError:
            options[key] = value
    rules = Rules.build(args.game, args.players, options)
    names = [name.strip() for name in args.bots.split(",") if name.strip()]
    bots = [get_bot(name) for name in names]
    base = args.seed if args.seed is not None else secrets.token_hex(8)
    seeds = [base] if args.games == 1 else [f"{base}-{i}" for i in range(args.games)]
    seat_names = [names[s % len(names)] for s in range(rules.players)]
    wins = [0.0] * rules.players
    totals = [0] * rules.players
    sides = 0
    for seed, _dealer, state in play_games(rules=rules, bots=bots, seeds=seeds):
        result = state.result()
        assert result is not None
        for seat, share in enumerate(state.returns()):
            wins[seat] += share
        if args.summary:
            out.write(json.dumps({"seed": seed, **result.to_dict()}) + "\n")
        else:
            out.write(json.dumps(export_record(state, seed=seed)) + "\n")
        sides = len(result.scores)
        for side, score in enumerate(result.scores):
            totals[side] += score
    if args.summary:
        summary = {
            "games": args.games,
            "game": rules.game,
            "seats": seat_names,
            "wins": wins,
            "average_scores": [round(t / args.games, 2) for t in totals[:sides]],
        }
        out.write(json.dumps({"summary": summary}) + "\n")
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m games.engine", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    rep = sub.add_parser("replay", help="replay game records, one JSON line out per record")
    rep.add_argument("files", nargs="+", metavar="FILE", help="record files; - reads JSON Lines from stdin")
    ver = sub.add_parser(
        "verify",
        help="check finished games' deals (docs/RULES.md 11): commitment, seeds, every card, the actions",
        description="Reads records as JSON Lines on standard input (bare records, the record API's answer "
        "or its entries), or fetches a finished match's records with --match; prints each check made and "
        "exits 1 if any fails.",
    )
    ver.add_argument("--match", metavar="URL", help="a match's address (API, record or website page)")
    ver.add_argument("--json", action="store_true", help="one JSON line per record instead of text")
    play = sub.add_parser("play", help="play bot games and print their records (or a summary)")
    play.add_argument("--game", required=True, choices=("tute2", "tute4", "pocha"))
    play.add_argument("--players", type=int, default=None, help="Pocha: 2 to 6 (default 4)")
    play.add_argument("--seed", default=None, help="deal seed; with --games K, game i uses SEED-i")
    play.add_argument("--bots", default="random", help="bot per seat, comma-separated, repeated to fill")
    play.add_argument("--games", type=int, default=1)
    play.add_argument("--options", default=None, help='rules flags as JSON, e.g. {"deck48": true}')
    play.add_argument("--option", action="append", metavar="FLAG=VALUE", help="one rules flag (JSON value)")
    play.add_argument("--summary", action="store_true", help="print results and a summary, not records")
    return parser


def main(argv: Sequence[str] | None = None, out: TextIO | None = None, stdin: TextIO | None = None) -> int:
    args = build_parser().parse_args(argv)
    out = out or sys.stdout
    if args.command == "replay":
        return command_replay(args.files, out, stdin or sys.stdin)
    if args.command == "verify":
        return command_verify(args, out, stdin or sys.stdin)
    if args.games < 1:
        print("--games must be at least 1", file=sys.stderr)
        return 2
    try:
        return command_play(args, out)
    except (RulesError, KeyError, ValueError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
