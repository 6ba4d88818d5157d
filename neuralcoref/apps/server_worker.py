"""The REST server's worker processes: each loads the pipeline once and resolves
one request at a time; the server's process only reads, checks and answers.

A request that runs past its deadline, or whose client goes away, costs its own
worker: the process is killed and a fresh one started in its place, so no text
(spaCy's tokenizer is quadratic on some, and holds the GIL) can stall the server
or other requests. Workers are started with ``spawn`` (forking a process that
runs an event loop and threads is unsafe) and die with the server: on Linux
through the kernel's parent-death signal, elsewhere when their pipe closes.
"""
from __future__ import annotations

import asyncio
import json
import logging
import multiprocessing
import os
import pickle
import signal
import time
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING, Any, Dict, List, NamedTuple, Optional, Set, Tuple

from ..core.threads import one_blas_thread_per_worker
from ..errors import Errors, NeuralcorefError, quote
from .server_limits import RequestError, ServerLimits
from .workers import die_with_parent

if TYPE_CHECKING:
    from multiprocessing.connection import Connection

    from spacy.language import Language
    from spacy.tokens import Doc

logger = logging.getLogger("neuralcoref.server")

#: Characters a span record adds besides its text: {"start":N,"end":N,"text":""},
#: with room for long offsets, JSON escapes aside.
_SPAN_OVERHEAD = 48
#: Characters a replacement may add besides its main mention: "'s", an elided
#: word written out ("qu'" -> "que "), a space.
_REPLACEMENT_EXTRA = 4
#: Seconds to wait for a worker to load the pipeline.
START_TIMEOUT = 300.0


class Job(NamedTuple):
    """One request for a worker: the texts, whether the answer is one record
    (``{"text": ...}``) or a list, and the limits the worker enforces."""
    texts: List[str]
    single: bool
    max_tokens: int
    max_response_bytes: int


#: A worker's answer: ("ok", body) or ("error", http_status, coded_message), with
#: "replace" after the message when the worker exits after answering.
Reply = Tuple[Any, ...]


class ClientGone(Exception):
    """The client disconnected before its answer was ready; its work was dropped."""


def record_size_bound(doc: "Doc") -> int:
    """An upper bound on the characters of ``doc_record(doc)`` as JSON (escapes
    aside), read from the clusters' offsets without building the resolved text,
    which can be far larger than the Doc (a long main mention replacing
    thousands of pronouns)."""
    from ..extensions import get_clusters

    bound = len(doc.text) + 32
    for cluster in get_clusters(doc):
        main_chars = cluster.main.end_char - cluster.main.start_char
        replaces = cluster.main.root.pos_ != "PRON"  # nothing is replaced by a pronoun
        bound += main_chars + _SPAN_OVERHEAD
        for mention in cluster.mentions:
            bound += mention.end_char - mention.start_char + _SPAN_OVERHEAD
            if replaces:
                bound += main_chars + _REPLACEMENT_EXTRA
    return bound


def run_job(nlp: "Language", job: Job, batch_size: int) -> Reply:
    """Resolve a job's texts with ``nlp``, within its token and response limits.

    nlp (Language): a pipeline with the neuralcoref component.
    job (Job): the texts and limits.
    batch_size (int): texts per ``nlp.pipe`` batch.
    RETURNS (Reply): ("ok", JSON body as UTF-8 bytes) or ("error", status, message).
    """
    from .records import doc_record

    try:
        docs, n_tokens = [], 0
        for text in job.texts:
            docs.append(nlp.make_doc(text))
            n_tokens += len(docs[-1])
            if n_tokens > job.max_tokens:
                return ("error", 413, Errors.E322.format(n=f"at least {n_tokens}", limit=job.max_tokens))
        parts, size = [], 16
        too_big = ("error", 413, Errors.E323.format(limit=job.max_response_bytes))
        for doc in nlp.pipe(docs, batch_size=batch_size):
            if size + record_size_bound(doc) > job.max_response_bytes:
                return too_big
            parts.append(json.dumps(doc_record(doc), ensure_ascii=False, separators=(",", ":")).encode())
            size += len(parts[-1]) + 1
            if size > job.max_response_bytes:
                return too_big
    except NeuralcorefError as err:
        return ("error", 422, str(err))
    except MemoryError:  # the worker's state is doubtful after this: replace it
        return ("error", 422, Errors.E330.format(reason="out of memory"), "replace")
    except Exception as err:  # a bug: answered with a coded 500, the worker lives on
        return ("error", 500, Errors.E332.format(error=quote(f"{type(err).__name__}: {err}")))
    body = parts[0] if job.single else b'{"results":[' + b",".join(parts) + b"]}"
    return ("ok", body)


def _limit_memory(extra_mb: int) -> None:
    """Bound the process's address space to what it uses now plus ``extra_mb``
    (Linux): an allocation beyond raises MemoryError instead of growing until
    the system kills something."""
    import resource

    pages = int(open("/proc/self/statm").read().split()[0])
    now = pages * os.sysconf("SC_PAGE_SIZE")
    resource.setrlimit(resource.RLIMIT_AS, (now + extra_mb * 1_000_000, resource.RLIM_INFINITY))


def worker_main(conn: "Connection", nlp_bytes: bytes, batch_size: int, max_length: int,
                parent_pid: int, memory_mb: Optional[int] = None) -> None:
    """A worker process: load the pipeline, say "ready", then answer each Job
    sent on ``conn`` until it is closed (or it ran out of memory)."""
    die_with_parent(parent_pid)
    # Ctrl-C reaches the whole process group; the server decides when workers stop.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        nlp = pickle.loads(nlp_bytes)
        # The server's --max-text-chars is the limit; spaCy's own would answer 500.
        nlp.max_length = max(nlp.max_length, max_length)
    except Exception as err:
        conn.send(("failed", quote(f"{type(err).__name__}: {err}", 500)))
        return
    del nlp_bytes
    one_blas_thread_per_worker()
    if memory_mb is not None:
        _limit_memory(memory_mb)
    conn.send(("ready",))
    while True:
        try:
            job = conn.recv()
        except (EOFError, OSError):
            return
        if job is None:
            return
        reply = run_job(nlp, job, batch_size)
        conn.send(reply)
        if reply[-1] == "replace":
            return


class _Worker:
    """A worker process and the server's end of its pipe."""

    def __init__(self, process: multiprocessing.process.BaseProcess, conn: "Connection"):
        self.process = process
        self.conn = conn

    def wait_ready(self, timeout: float) -> Optional[str]:
        """Block until the worker has loaded the pipeline: None, or why it failed."""
        try:
            if not self.conn.poll(timeout):
                return f"it did not load the pipeline within {timeout:.0f} s"
            message = self.conn.recv()
        except (EOFError, OSError):
            self.process.join(5)
            return f"it exited with code {self.process.exitcode}"
        return None if message == ("ready",) else message[1]

    def stop(self) -> None:
        """Kill the process (it may be deep in C code) and reap it."""
        self.process.kill()
        self.process.join()
        self.conn.close()


class WorkerPool:
    """``size`` worker processes, each resolving one Job at a time, used from the
    server's event loop; a worker that overruns or loses its client is replaced.

    nlp_bytes (bytes): the pickled pipeline each worker loads.
    size (int): number of workers.
    batch_size (int): texts per ``nlp.pipe`` batch.
    limits (ServerLimits): the server's limits (timeout, max_waiting...).
    """

    def __init__(self, nlp_bytes: bytes, size: int, batch_size: int, limits: ServerLimits):
        self.nlp_bytes = nlp_bytes
        self.size = size
        self.batch_size = batch_size
        self.limits = limits
        self.restarts = 0
        self._context = multiprocessing.get_context("spawn")
        # One long-lived thread starts and reaps workers: the event loop never
        # blocks on them, and Linux's parent-death signal follows the thread
        # that started a process, so it must outlive its workers.
        self._starter = ThreadPoolExecutor(1, thread_name_prefix="neuralcoref-workers")
        self._workers: Set[_Worker] = set()
        self._idle: Optional[asyncio.Queue] = None
        self._waiting = 0
        self._closing = False

    async def start(self) -> None:
        """Start the workers and wait until each has loaded the pipeline.

        RAISES (NeuralcorefError): E331 if one cannot start.
        """
        self._idle = asyncio.Queue()
        loop = asyncio.get_running_loop()
        for worker in await loop.run_in_executor(self._starter, self._start_all):
            self._idle.put_nowait(worker)

    def status(self) -> Dict[str, int]:
        """Workers in all, idle, and requests waiting for one (for ``/health``)."""
        idle = self._idle.qsize() if self._idle is not None else 0
        return {"workers": self.size, "idle": idle, "waiting": self._waiting, "restarts": self.restarts}

    async def resolve(self, job: Job, disconnect: "asyncio.Future") -> bytes:
        """Run a job on a free worker.

        job (Job): the texts and limits.
        disconnect (asyncio.Future): done when the client goes away.
        RETURNS (bytes): the JSON body of the answer.
        RAISES (RequestError): a coded error for the client (limits, busy, deadline).
        RAISES (ClientGone): the client left; its work was dropped.
        """
        worker = await self._acquire(disconnect)
        if disconnect.done():  # gone while waiting: the worker is still clean
            self._idle.put_nowait(worker)
            raise ClientGone()
        try:
            reply = await self._run(worker, job, disconnect)
        except BaseException:
            self._replace(worker)
            raise
        if reply[-1] == "replace":
            self._replace(worker)
        else:
            self._idle.put_nowait(worker)
        if reply[0] == "ok":
            return reply[1]
        raise RequestError(reply[1], reply[2])

    async def close(self) -> None:
        """Stop every worker (killed: a busy one would not listen)."""
        self._closing = True
        for worker in list(self._workers):
            worker.process.kill()  # a worker still loading too, so the starter is free at once
        loop = asyncio.get_running_loop()
        for worker in list(self._workers):
            await loop.run_in_executor(self._starter, worker.stop)
        self._starter.shutdown(wait=True)
        for worker in list(self._workers):  # started while closing
            worker.stop()
        self._workers.clear()

    def _spawn(self) -> _Worker:
        parent_conn, child_conn = self._context.Pipe(duplex=True)
        process = self._context.Process(
            target=worker_main, name="neuralcoref-server-worker", daemon=True,
            args=(child_conn, self.nlp_bytes, self.batch_size, self.limits.max_text_chars, os.getpid(),
                  self.limits.worker_memory_mb))
        process.start()
        child_conn.close()
        worker = _Worker(process, parent_conn)
        self._workers.add(worker)
        return worker

    def _start_all(self) -> List[_Worker]:
        workers = [self._spawn() for _ in range(self.size)]
        for worker in workers:
            reason = worker.wait_ready(START_TIMEOUT)
            if reason is not None:
                for other in workers:
                    other.stop()
                    self._workers.discard(other)
                raise NeuralcorefError(Errors.E331.format(reason=reason))
        return workers

    def _start_one(self) -> Optional[_Worker]:
        """Start a replacement, trying again (1 s, 2 s... up to 30 s apart) while
        it fails; None once the pool is closing."""
        delay = 1.0
        while not self._closing:
            worker = self._spawn()
            reason = worker.wait_ready(START_TIMEOUT)
            if reason is None:
                return worker
            worker.stop()
            self._workers.discard(worker)
            if self._closing:
                break
            logger.error(Errors.E331.format(reason=reason))
            time.sleep(delay)
            delay = min(delay * 2, 30.0)
        return None

    def _replace(self, worker: _Worker) -> None:
        """Kill a worker whose job is abandoned and start another in its place."""
        self._workers.discard(worker)
        worker.process.kill()  # now, not when the starter thread gets to it
        if self._closing:
            return
        self.restarts += 1
        loop = asyncio.get_running_loop()
        loop.run_in_executor(self._starter, worker.stop)
        replacement = loop.run_in_executor(self._starter, self._start_one)
        replacement.add_done_callback(self._replaced)

    def _replaced(self, future: "asyncio.Future") -> None:
        worker = None if future.cancelled() or future.exception() else future.result()
        if worker is None:
            return
        if self._closing:
            self._starter.submit(worker.stop)
        else:
            self._idle.put_nowait(worker)

    async def _acquire(self, disconnect: "asyncio.Future") -> _Worker:
        if self._idle is None:
            raise RequestError(503, Errors.E329.format(
                reason="its workers are not started: run the app with its lifespan"))
        if self._waiting >= self.limits.max_waiting:
            raise RequestError(503, Errors.E329.format(
                reason=f"{self._waiting} requests are waiting for a worker"), {"Retry-After": "1"})
        self._waiting += 1
        get = asyncio.ensure_future(self._idle.get())
        try:
            done, _ = await asyncio.wait({get, disconnect}, timeout=self.limits.timeout,
                                         return_when=asyncio.FIRST_COMPLETED)
        finally:
            self._waiting -= 1
            if not get.done():
                get.cancel()  # the queue keeps its item for the next getter
        if get in done:
            return get.result()
        if disconnect in done:
            raise ClientGone()
        raise RequestError(503, Errors.E329.format(
            reason=f"no worker was free within {self.limits.timeout:g} s"), {"Retry-After": "5"})

    async def _run(self, worker: _Worker, job: Job, disconnect: "asyncio.Future") -> Reply:
        loop = asyncio.get_running_loop()
        try:
            worker.conn.send(job)
        except OSError:
            raise RequestError(503, Errors.E329.format(reason="a worker stopped; it is being replaced"),
                               {"Retry-After": "5"}) from None
        readable = loop.create_future()
        fd = worker.conn.fileno()
        loop.add_reader(fd, lambda: readable.done() or readable.set_result(None))
        try:
            done, _ = await asyncio.wait({readable, disconnect}, timeout=self.limits.timeout,
                                         return_when=asyncio.FIRST_COMPLETED)
        finally:
            loop.remove_reader(fd)
        if readable in done:
            try:
                return worker.conn.recv()
            except (EOFError, OSError):
                worker.process.join(1)
                code = worker.process.exitcode
                reason = f"exit code {code}" if code is not None else "its pipe broke"
                raise RequestError(422, Errors.E330.format(reason=reason)) from None
        if disconnect in done:
            raise ClientGone()
        logger.warning("A request ran past %g s: its worker (pid %d) is killed and replaced.",
                       self.limits.timeout, worker.process.pid)
        raise RequestError(422, Errors.E324.format(limit=f"{self.limits.timeout:g}"))
