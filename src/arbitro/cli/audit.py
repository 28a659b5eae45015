"""``arbitro audit``: check PGN databases against the Laws in force when each game was played."""

from __future__ import annotations

import argparse
import csv
import json
import os
import sys
import time
from collections import Counter
from collections.abc import Iterator
from typing import Any

from rich.console import Console
from rich.progress import Progress, SpinnerColumn, TextColumn, TimeElapsedColumn
from rich.table import Table

from arbitro.audit.findings import CODES, KEYS, Finding
from arbitro.audit.runner import run
from arbitro.editions import Edition

#: Columns of the CSV output: the common keys, then every code-specific one.
CSV_COLUMNS = (*KEYS, "termination", "expected", "recorded", "claimant", "move")
#: Findings listed in the table format (the summary counts them all).
TABLE_ROWS = 25


def register(commands: Any) -> None:
    parser = commands.add_parser(
        "audit",
        help="check PGN databases against the Laws (wrong results, missed claims, ...)",
        description=(
            "Replay every game of the PGN files through the Laws engine, under the edition in "
            "force on the game's date (or --edition), and report illegal moves, moves after "
            "the end, wrong results (a loss on time against a side whose opponent could not "
            "checkmate is a draw), claimable threefold repetitions and fifty-move draws, and "
            "games that cannot be read. FILE may be '-' (standard input) or end in .gz, .bz2 "
            "or .zst."
        ),
    )
    parser.add_argument("files", nargs="+", metavar="FILE")
    parser.add_argument(
        "--edition",
        default="auto",
        help="an edition id, or 'auto' for the one in force on each game's date (default)",
    )
    parser.add_argument(
        "--format",
        choices=("table", "jsonl", "csv"),
        default=None,
        help="table (default on a terminal), jsonl (default otherwise) or csv",
    )
    parser.add_argument(
        "--jobs",
        type=int,
        default=os.cpu_count() or 1,
        help="processes to use (default: all cores)",
    )
    parser.add_argument(
        "--dask", default=None, metavar="ADDRESS", help="run on a Dask cluster (scheduler address)"
    )
    parser.add_argument(
        "--summary",
        action="store_true",
        help="print the count per code at the end (on standard error for jsonl and csv)",
    )
    parser.set_defaults(run=run_audit)


def run_audit(args: argparse.Namespace) -> int:
    edition = None if args.edition == "auto" else args.edition
    if edition is not None:
        Edition.get(edition)  # an unknown edition stops here, with the known ones listed
    if args.jobs < 1:
        print("arbitro: --jobs must be at least 1", file=sys.stderr)
        return 2
    missing = [path for path in args.files if path != "-" and not os.path.isfile(path)]
    if missing:
        print(f"arbitro: no such file: {missing[0]}", file=sys.stderr)
        return 2
    if args.files.count("-") > 1:
        print("arbitro: standard input can be read only once", file=sys.stderr)
        return 2
    fmt = args.format or ("table" if sys.stdout.isatty() else "jsonl")
    err = Console(stderr=True)
    counts: Counter[str] = Counter()
    games = 0
    began = time.monotonic()
    show = err.is_terminal
    with Progress(
        SpinnerColumn(),
        TextColumn("{task.completed:,} games"),
        TextColumn("{task.fields[rate]:,.0f} games/s"),
        TimeElapsedColumn(),
        console=err,
        transient=True,
        disable=not show,
    ) as progress:
        task = progress.add_task("audit", total=None, rate=0.0)

        def advance(count: int) -> None:
            nonlocal games
            games += count
            elapsed = max(time.monotonic() - began, 1e-9)
            progress.update(task, advance=count, rate=games / elapsed)

        try:
            findings = run(
                args.files,
                edition=edition,
                jobs=args.jobs,
                dask=args.dask,
                progress=advance,
            )
            rows = _write(findings, fmt, counts)
        except RuntimeError as error:
            print(f"arbitro: {error}", file=sys.stderr)
            return 2
    if fmt == "table":
        _table(rows, counts, games, Console())
    if args.summary and fmt != "table":  # the table format always ends with the summary
        _summary(counts, games, err)
    return 0


def _write(findings: Iterator[Finding], fmt: str, counts: Counter[str]) -> list[Finding]:
    """Write jsonl or csv as the findings come; keep the first ones for the table format."""
    kept: list[Finding] = []
    writer = None
    if fmt == "csv":
        writer = csv.DictWriter(sys.stdout, CSV_COLUMNS, extrasaction="ignore")
        writer.writeheader()
    for finding in findings:
        counts[finding.code] += 1
        if fmt == "jsonl":
            sys.stdout.write(json.dumps(finding.to_dict(), ensure_ascii=False) + "\n")
        elif writer is not None:
            writer.writerow(finding.to_dict())
        elif len(kept) < TABLE_ROWS:
            kept.append(finding)
    sys.stdout.flush()
    return kept


def _table(rows: list[Finding], counts: Counter[str], games: int, console: Console) -> None:
    if not rows:
        _summary(counts, games, console)
        return
    table = Table(title=f"First {len(rows)} findings", title_justify="left")
    for name in ("file", "game", "ply", "code", "article", "detail"):
        table.add_column(name, overflow="fold")
    for finding in rows:
        table.add_row(
            os.path.basename(finding.file),
            str(finding.game),
            "" if finding.ply is None else str(finding.ply),
            finding.code,
            f"{finding.article} ({finding.edition})" if finding.article else finding.edition,
            finding.detail,
        )
    console.print(table)
    _summary(counts, games, console)


def _summary(counts: Counter[str], games: int, console: Console) -> None:
    table = Table(title=f"{games:,} games audited", title_justify="left")
    table.add_column("code")
    table.add_column("severity")
    table.add_column("findings", justify="right")
    table.add_column("meaning")
    for code, (severity, meaning) in CODES.items():
        table.add_row(code, severity, f"{counts.get(code, 0):,}", meaning)
    console.print(table)
