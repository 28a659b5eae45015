"""Reading PGN files and auditing them on one core, on every core, or on a Dask cluster.

The files are cut into chunks of whole games. Each chunk is audited on its own (by the calling
process, by a pool of processes, or by the workers of a Dask cluster) and the findings are
yielded chunk by chunk in file order, so every way of running gives the same output in the same
order. At most a few chunks per worker are in flight: memory stays flat on files of any size.

For a pool of processes, a plain file is cut by bytes: the caller only looks for a game start
near each cut (a tag line after a blank line after movetext, a start whatever came before), and
each worker reads, splits and audits its part and counts its games; the caller numbers the
games as it yields the findings in order. Almost all the work is then done in the workers.

For a cluster, a plain file is sent as (path, byte offset, length): each worker reads its part
from a path every worker can see. A compressed file or standard input is read by the caller and
its games are sent as text.
"""

from __future__ import annotations

import bz2
import gzip
import io
import multiprocessing
import multiprocessing.context
import os
import re
import sys
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Executor, Future, ProcessPoolExecutor
from dataclasses import dataclass, replace
from typing import Any, BinaryIO, TextIO

from arbitro.audit.auditor import audit_text
from arbitro.audit.findings import Finding
from arbitro.editions import Edition

#: Games per chunk: big enough that shipping a chunk costs little next to auditing it.
CHUNK_GAMES = 100

#: Bytes of a plain file per chunk for a pool of processes, at most and at least: the chunks
#: shrink towards the end of the work, so that the workers finish together.
SPAN_BYTES = (1 << 19, 1 << 14)

COMPRESSED = (".gz", ".bz2", ".zst")


def open_binary(path: str) -> BinaryIO:
    """The bytes of ``path`` (``-`` is standard input), decompressed by its suffix."""
    if path == "-":
        return sys.stdin.buffer
    if path.endswith(".gz"):
        return gzip.open(path, "rb")  # type: ignore[return-value]
    if path.endswith(".bz2"):
        return bz2.open(path, "rb")  # type: ignore[return-value]
    if path.endswith(".zst"):
        import zstandard  # noqa: PLC0415 - only .zst files need it

        raw = open(path, "rb")  # noqa: SIM115 - closed with the reader that wraps it
        reader: BinaryIO = zstandard.ZstdDecompressor().stream_reader(raw, closefd=True)
        return reader
    return open(path, "rb")


def open_text(path: str) -> TextIO:
    return io.TextIOWrapper(open_binary(path), encoding="utf-8", errors="replace", newline=None)


class _Splitter:
    """Tells where games start: at a tag line that follows movetext. Inside a comment that
    spans lines, a tag line only starts a game after a blank line (a comment left open by a
    broken game must not swallow the games after it)."""

    __slots__ = ("blank", "in_comment", "in_moves")

    def __init__(self) -> None:
        self.in_moves = False
        self.in_comment = False
        self.blank = True

    def starts_game(self, line: str) -> bool:
        stripped = line.lstrip()
        is_tag = stripped.startswith("[") and (not self.in_comment or self.blank)
        starts = is_tag and self.in_moves
        self.blank = not stripped
        if starts:
            self.in_moves = False
            self.in_comment = False
        elif stripped and not is_tag:
            self.in_moves = True
        if "{" in line or "}" in line:
            for char in line:
                if char == "{":
                    self.in_comment = True
                elif char == "}":
                    self.in_comment = False
        return starts


def iter_games(lines: Iterable[str]) -> Iterator[str]:
    """The text of each game of a PGN stream (tags and movetext)."""
    current: list[str] = []
    splitter = _Splitter()
    for line in lines:
        if splitter.starts_game(line) and any(part.strip() for part in current):
            yield "".join(current)
            current = []
        current.append(line)
    if any(part.strip() for part in current):
        yield "".join(current)


@dataclass(frozen=True, slots=True)
class Chunk:
    """Games of one file: their texts, or a byte span of a plain file a worker reads itself."""

    file: str
    first: int  # 1-based index in the file of the first game
    edition: str | None
    texts: tuple[str, ...] = ()
    span: tuple[str, int, int] | None = None  # (path, offset, length)


def audit_chunk(chunk: Chunk) -> list[Finding]:
    """Audit every game of a chunk (runs in any process; a module-level function so that it
    can be shipped to other processes and to Dask workers)."""
    texts: Iterable[str] = chunk.texts
    if chunk.span is not None:
        path, offset, length = chunk.span
        with open(path, "rb") as handle:
            handle.seek(offset)
            data = handle.read(length).decode("utf-8", errors="replace")
        texts = iter_games(io.StringIO(data))
    edition = Edition.get(chunk.edition) if chunk.edition else None
    found: list[Finding] = []
    for offset, text in enumerate(texts):
        found.extend(audit_text(text, file=chunk.file, game=chunk.first + offset, edition=edition))
    return found


def span_games(path: str, offset: int, length: int) -> Iterator[str]:
    """The games of a byte span of a plain file that starts with a game, read the way
    :func:`open_text` reads the whole file: the same texts as the whole file's there."""
    with open(path, "rb") as handle:
        handle.seek(offset)
        data = handle.read(length)
    yield from iter_games(
        io.TextIOWrapper(io.BytesIO(data), encoding="utf-8", errors="replace", newline=None)
    )


def audit_span(
    path: str, offset: int, length: int, edition: str | None
) -> tuple[int, list[Finding]]:
    """Audit the games of a byte span (see :func:`span_games`): the number of games, and the
    findings, with the games numbered from 1 in the span."""
    chosen = Edition.get(edition) if edition else None
    found: list[Finding] = []
    count = 0
    for count, game in enumerate(span_games(path, offset, length), 1):
        found.extend(audit_text(game, file=path, game=count, edition=chosen))
    return count, found


# Where a game surely starts: a line that begins with "[" after a blank line, after a line that
# begins with a printable character other than "[" (movetext, so that _Splitter has seen moves
# and the blank line makes the tag line a tag even inside a comment). Only "\r\n" and "\n" end
# these lines, so that the lines of the text are the lines seen here.
_GAME_START = re.compile(rb"\n[!-Z\\-~][^\r\n]*\r?\n(?:\r?\n)+\[")


def _game_start(handle: BinaryIO, offset: int) -> int | None:
    """The offset of the first sure game start at or after ``offset`` (None: none)."""
    block = 1 << 16
    while True:
        handle.seek(max(0, offset - 1))
        data = handle.read(block)
        match = _GAME_START.search(data)
        if match is not None:
            return max(0, offset - 1) + match.end() - 1
        if len(data) < block:
            return None
        block *= 4


def _byte_spans(paths: list[str], jobs: int) -> Iterator[tuple[int, int, int]]:
    """(index of the file in ``paths``, offset, length) of parts of plain files, each starting
    with a game (or at the start of its file); smaller towards the end of all the work."""
    sizes = [os.path.getsize(path) for path in paths]
    left = sum(sizes)
    largest, smallest = SPAN_BYTES
    for index, (path, size) in enumerate(zip(paths, sizes, strict=True)):
        with open(path, "rb") as handle:
            start = 0
            while start < size:
                want = max(smallest, min(largest, left // (4 * jobs)))
                cut = _game_start(handle, start + want) if start + want < size else None
                end = size if cut is None else cut
                yield index, start, end - start
                left -= end - start
                start = end


def _text_chunks(path: str, edition: str | None) -> Iterator[tuple[Chunk, int]]:
    with open_text(path) as handle:
        batch: list[str] = []
        first = 1
        for text in iter_games(handle):
            batch.append(text)
            if len(batch) == CHUNK_GAMES:
                yield Chunk(path, first, edition, tuple(batch)), len(batch)
                first += len(batch)
                batch = []
        if batch:
            yield Chunk(path, first, edition, tuple(batch)), len(batch)


def _span_chunks(path: str, edition: str | None) -> Iterator[tuple[Chunk, int]]:
    """Byte spans of whole games of a plain file (the caller only finds the boundaries, with
    the same rule as :func:`iter_games`)."""
    absolute = os.path.abspath(path)
    splitter = _Splitter()
    with open(path, "rb") as handle:
        start = offset = games = 0
        first = 1
        seen_text = False
        for raw in handle:
            if splitter.starts_game(raw.decode("latin-1")) and seen_text:
                games += 1
                if games == CHUNK_GAMES:
                    yield Chunk(path, first, edition, span=(absolute, start, offset - start)), games
                    first += games
                    games = 0
                    start = offset
            seen_text = seen_text or bool(raw.strip())
            offset += len(raw)
        if offset > start and seen_text:
            yield Chunk(path, first, edition, span=(absolute, start, offset - start)), games + 1


def chunks(
    paths: Iterable[str], edition: str | None, *, spans: bool = False
) -> Iterator[tuple[Chunk, int]]:
    """The chunks of every file, in order, with the number of games in each."""
    for path in paths:
        if spans and path != "-" and not path.endswith(COMPRESSED):
            yield from _span_chunks(path, edition)
        else:
            yield from _text_chunks(path, edition)


Progress = Callable[[int], None]


def run(
    paths: Iterable[str],
    *,
    edition: str | None = None,
    jobs: int = 1,
    dask: str | Any | None = None,
    progress: Progress | None = None,
) -> Iterator[Finding]:
    """Audit the games of ``paths`` and yield the findings in file and game order.

    ``edition``: an edition id, or None for the one in force on each game's date. ``jobs``:
    processes on this machine (1: this process). ``dask``: the address of a Dask scheduler
    (or a ``dask.distributed.Client``), instead of ``jobs``. ``progress`` is called with the
    number of games of each chunk once it has been audited.
    """
    if edition is not None:
        Edition.get(edition)  # an unknown id fails here, before any work
    if dask is not None:
        yield from _run_dask(paths, edition, dask, progress)
        return
    if jobs <= 1:
        for chunk, count in chunks(paths, edition):
            yield from audit_chunk(chunk)
            if progress is not None:
                progress(count)
        return
    with ProcessPoolExecutor(jobs, mp_context=_worker_context()) as pool:
        names = list(paths)
        start = 0
        while start < len(names):
            # Plain files go by byte spans; compressed files and standard input as texts.
            end = start
            while end < len(names) and _plain(names[end]):
                end += 1
            if end > start:
                yield from _ordered_spans(pool, names[start:end], edition, jobs, progress)
            else:
                end = start + 1
                yield from _ordered(pool, chunks(names[start:end], edition), 2 * jobs, progress)
            start = end


def _worker_context() -> multiprocessing.context.BaseContext:
    """Workers started by a fork server: a forked copy of this process would also hold every
    file it has open, such as the write end of a named pipe that a thread of this process
    writes and this process reads, which then never ends."""
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload(["arbitro.audit.runner"])
    return context


def _plain(path: str) -> bool:
    """Whether ``path`` can be cut by bytes: a regular file, not compressed (a pipe or a
    device is read from its start, as a text)."""
    return path != "-" and not path.endswith(COMPRESSED) and os.path.isfile(path)


def _ordered_spans(
    pool: Executor, paths: list[str], edition: str | None, jobs: int, progress: Progress | None
) -> Iterator[Finding]:
    """Audit byte spans in the pool and yield their findings in order, numbering the games of
    each file. A span costs nothing to ship: many may wait, so a slow one holds no worker up."""
    pending: deque[tuple[Future[tuple[int, list[Finding]]], int]] = deque()
    before = [0] * len(paths)  # games of each file in the spans settled so far

    def settle() -> Iterator[Finding]:
        future, index = pending.popleft()
        count, found = future.result()
        offset = before[index]
        before[index] += count
        if progress is not None:
            progress(count)
        for finding in found:
            yield replace(finding, game=finding.game + offset) if offset else finding

    for index, start, length in _byte_spans(paths, jobs):
        pending.append((pool.submit(audit_span, paths[index], start, length, edition), index))
        if len(pending) >= 16 * jobs:
            yield from settle()
    while pending:
        yield from settle()


def _ordered(
    pool: Executor,
    work: Iterator[tuple[Chunk, int]],
    window: int,
    progress: Progress | None,
) -> Iterator[Finding]:
    pending: deque[tuple[Future[list[Finding]], int]] = deque()
    for chunk, count in work:
        pending.append((pool.submit(audit_chunk, chunk), count))
        if len(pending) >= window:
            yield from _settle(pending.popleft(), progress)
    while pending:
        yield from _settle(pending.popleft(), progress)


def _settle(item: tuple[Any, int], progress: Progress | None) -> list[Finding]:
    future, count = item
    result: list[Finding] = future.result()
    if progress is not None:
        progress(count)
    return result


def _run_dask(
    paths: Iterable[str], edition: str | None, dask: str | Any, progress: Progress | None
) -> Iterator[Finding]:
    try:
        from dask.distributed import Client  # noqa: PLC0415 - the optional extra 'cluster'
    except ImportError:
        raise RuntimeError(
            "--dask needs dask.distributed: pip install 'arbitro[cluster]'"
        ) from None
    client = dask if isinstance(dask, Client) else Client(dask)  # type: ignore[no-untyped-call]
    try:
        pending: deque[tuple[Any, int]] = deque()
        window = 4 * max(1, len(client.scheduler_info().get("workers", {})))
        for chunk, count in chunks(paths, edition, spans=True):
            pending.append((client.submit(audit_chunk, chunk, pure=False), count))
            if len(pending) >= window:
                yield from _settle(pending.popleft(), progress)
        while pending:
            yield from _settle(pending.popleft(), progress)
    finally:
        if client is not dask:
            client.close()  # type: ignore[no-untyped-call]
