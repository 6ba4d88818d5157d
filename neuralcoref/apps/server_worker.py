"""The REST server's worker processes: each loads the pipeline once and resolves
a batch of requests at a time (one ``nlp.pipe``); the server's process only
reads, checks and answers.

A batch that runs past its deadline, or whose clients all went away, is
dropped: its worker is told to stop (SIGUSR1, which raises in its Python code)
and keeps its pipeline; a worker that does not stop within a grace period (deep
in a C call such as spaCy's tokenizer, which holds the GIL) is killed and a
fresh one started in its place, so no text can stall the server or other
requests. Workers are started with ``spawn`` (forking a process that runs an
event loop and threads is unsafe) and die with the server: on Linux through the
kernel's parent-death signal, elsewhere when their pipe closes.
"""
from __future__ import annotations

import asyncio
import collections
import contextlib
import itertools
import json
import logging
import multiprocessing
import os
import pickle
import signal
import time
import warnings
from concurrent.futures import ThreadPoolExecutor
from typing import (TYPE_CHECKING, Any, Callable, Deque, Dict, Iterable, Iterator, List, NamedTuple,
                    Optional, Sequence, Set, Tuple)

from ..core.util.threads import one_blas_thread_per_worker
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
#: Seconds a worker told to drop its work has to answer before it is killed.
CANCEL_GRACE = 2.0
#: Seconds a free worker may wait for requests the server is still reading
#: (received, not yet checked), to take them in the same batch.
BATCH_LINGER = 0.005
#: What a worker resolves once before saying it is ready.
WARM_UP_TEXT = "Anna said she likes Paris."


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


def _tokenize(nlp: "Language", job: Job) -> Any:
    """The job's texts as Docs (tokenized only), or an error Reply when they pass
    the job's token limit (counted exactly here, before any parse)."""
    docs, n_tokens = [], 0
    for text in job.texts:
        docs.append(nlp.make_doc(text))
        n_tokens += len(docs[-1])
        if n_tokens > job.max_tokens:
            return ("error", 413, Errors.E322.format(n=f"at least {n_tokens}", limit=job.max_tokens))
    return docs


def _answer(docs: Iterable["Doc"], job: Job) -> Reply:
    """The job's answer from its processed Docs, within its response limit."""
    from .records import doc_record

    parts, size = [], 16
    too_big = ("error", 413, Errors.E323.format(limit=job.max_response_bytes))
    for doc in docs:
        if size + record_size_bound(doc) > job.max_response_bytes:
            return too_big
        parts.append(json.dumps(doc_record(doc), ensure_ascii=False, separators=(",", ":")).encode())
        size += len(parts[-1]) + 1
        if size > job.max_response_bytes:
            return too_big
    body = parts[0] if job.single else b'{"results":[' + b",".join(parts) + b"]}"
    return ("ok", body)


def _guarded(work: Callable[[], Reply]) -> Reply:
    """Run ``work``, turning an exception into a coded error Reply."""
    try:
        return work()
    except NeuralcorefError as err:
        return ("error", 422, str(err))
    except MemoryError:  # the worker's state is doubtful after this: replace it
        return ("error", 422, Errors.E330.format(reason="out of memory"), "replace")
    except Exception as err:  # a bug: answered with a coded 500, the worker lives on
        return ("error", 500, Errors.E332.format(error=quote(f"{type(err).__name__}: {err}")))


def run_job(nlp: "Language", job: Job, batch_size: int) -> Reply:
    """Resolve a job's texts with ``nlp``, within its token and response limits.

    nlp (Language): a pipeline with the neuralcoref component.
    job (Job): the texts and limits.
    batch_size (int): texts per ``nlp.pipe`` batch.
    RETURNS (Reply): ("ok", JSON body as UTF-8 bytes) or ("error", status, message).
    """
    def work() -> Reply:
        docs = _tokenize(nlp, job)
        if isinstance(docs, tuple):
            return docs
        return _answer(nlp.pipe(docs, batch_size=batch_size), job)

    return _guarded(work)


def run_jobs(nlp: "Language", jobs: Sequence[Job], batch_size: int) -> List[Reply]:
    """Resolve several jobs with one ``nlp.pipe`` over all their texts (the
    answers are those of :func:`run_job`, one job at a time); a job over its
    token limit is answered alone, and if the shared pipe fails, each job is
    run again on its own so that the failure stays with its job.

    RETURNS (List[Reply]): one reply per job, in order.
    """
    if len(jobs) == 1:
        return [run_job(nlp, jobs[0], batch_size)]
    replies: List[Optional[Reply]] = [None] * len(jobs)
    tokenized: List[Tuple[int, List["Doc"]]] = []
    for k, job in enumerate(jobs):
        docs = _guarded(lambda: _tokenize(nlp, job))  # noqa: B023 (called at once)
        if isinstance(docs, tuple):
            replies[k] = docs
        else:
            tokenized.append((k, docs))

    def work() -> Reply:
        processed = nlp.pipe((doc for _, docs in tokenized for doc in docs), batch_size=batch_size)
        for k, docs in tokenized:
            replies[k] = _answer(list(itertools.islice(processed, len(docs))), jobs[k])
        return ("ok", b"")

    shared = _guarded(work)
    if shared[0] != "ok":  # one job's text failed the pipeline: find which, alone
        for k, _ in tokenized:
            replies[k] = run_job(nlp, jobs[k], batch_size)
    return replies  # type: ignore[return-value]


class Cancelled(BaseException):
    """Raised in a worker by SIGUSR1 when the server drops its current batch
    (a BaseException, so that no ``except Exception`` of a pipeline swallows it)."""


#: The batch a worker runs now (0: none), and the one the server asks it to drop.
_RUNNING = [0]


def _cancel_handler(cancel: Any) -> Callable[[int, Any], None]:
    """SIGUSR1's handler in a worker: stop the running batch if it is the one
    the server wants dropped (a late signal, for a batch already answered, is
    ignored). Signal handlers run between Python bytecodes: in spaCy's Python
    code and ours at once, in a long C call (the tokenizer) only after it."""
    def handle(signum: int, frame: Any) -> None:
        if _RUNNING[0] and _RUNNING[0] == cancel.value:
            _RUNNING[0] = 0
            raise Cancelled()
    return handle


def _warm_up(nlp: "Language", batch_size: int) -> None:
    """Run the pipeline once, so that the first request does not pay for what
    loads on first use (measured: 7 s on a loaded machine, 40 ms after)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # e.g. a language check on the English text
        run_job(nlp, Job([WARM_UP_TEXT], True, 1_000, 1_000_000), batch_size)


def _limit_memory(extra_mb: int) -> None:
    """Bound the process's address space to what it uses now plus ``extra_mb``
    (Linux): an allocation beyond raises MemoryError instead of growing until
    the system kills something."""
    import resource

    pages = int(open("/proc/self/statm").read().split()[0])
    now = pages * os.sysconf("SC_PAGE_SIZE")
    resource.setrlimit(resource.RLIMIT_AS, (now + extra_mb * 1_000_000, resource.RLIM_INFINITY))


def worker_main(conn: "Connection", nlp_bytes: bytes, batch_size: int, max_length: int,
                parent_pid: int, memory_mb: Optional[int] = None, cancel: Any = None) -> None:
    """A worker process: load the pipeline, say "ready", then answer each
    (batch id, [Job, ...]) sent on ``conn`` with a list of Replies, or with
    ("cancelled",) when told to drop it, until ``conn`` is closed (or it ran
    out of memory). ``cancel`` (a shared int) names the batch to drop."""
    die_with_parent(parent_pid)
    # Ctrl-C reaches the whole process group; the server decides when workers stop.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGUSR1, _cancel_handler(cancel) if cancel is not None else signal.SIG_IGN)
    try:
        nlp = pickle.loads(nlp_bytes)
        # The server's --max-text-chars is the limit; spaCy's own would answer 500.
        nlp.max_length = max(nlp.max_length, max_length)
        one_blas_thread_per_worker()
        _warm_up(nlp, batch_size)
    except Exception as err:
        conn.send(("failed", quote(f"{type(err).__name__}: {err}", 500)))
        return
    del nlp_bytes
    if memory_mb is not None:
        _limit_memory(memory_mb)
    conn.send(("ready",))
    while True:
        try:
            message = conn.recv()
        except (EOFError, OSError):
            return
        if message is None:
            return
        batch_id, jobs = message
        try:
            _RUNNING[0] = batch_id
            replies: Any = run_jobs(nlp, jobs, batch_size)
        except Cancelled:
            replies = ("cancelled",)
        finally:
            _RUNNING[0] = 0
        conn.send(replies)
        if replies != ("cancelled",) and any(reply[-1] == "replace" for reply in replies):
            return


class _Worker:
    """A worker process, the server's end of its pipe, and the shared int that
    names the batch it is to drop."""

    def __init__(self, process: multiprocessing.process.BaseProcess, conn: "Connection", cancel: Any):
        self.process = process
        self.conn = conn
        self.cancel = cancel

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


class _Pending:
    """A request in the pool: its job, whether it is large, the future its
    answer is set on, and whether its client is gone."""

    def __init__(self, job: Job, heavy: bool, answer: "asyncio.Future"):
        self.job = job
        self.heavy = heavy
        self.answer = answer
        self.gone = False
        self.solo = heavy  # runs alone (large, or its shared batch ran past the deadline)
        self.since = time.monotonic()


class WorkerPool:
    """``size`` worker processes used from the server's event loop.

    Requests wait in one queue; a free worker takes the first, together with
    the small requests queued behind it (up to ``batch_size`` texts), and runs
    them through one ``nlp.pipe`` (waiting up to ``BATCH_LINGER`` seconds for
    requests the server is still reading, see :meth:`arriving`). Large requests (more than
    ``limits.heavy_tokens``) run alone and on at most ``size - 1`` workers at
    once, so that small ones always find a worker. A batch whose clients all
    left, or that runs past the deadline, is dropped: the worker is told to
    stop (SIGUSR1) and keeps its pipeline; only a worker that does not answer
    within ``CANCEL_GRACE`` seconds (deep in C code) is killed and replaced.

    nlp_bytes (bytes): the pickled pipeline each worker loads.
    size (int): number of workers.
    batch_size (int): texts per ``nlp.pipe`` batch, and per batch of requests.
    limits (ServerLimits): the server's limits (timeout, max_waiting...).
    """

    def __init__(self, nlp_bytes: bytes, size: int, batch_size: int, limits: ServerLimits):
        self.nlp_bytes = nlp_bytes
        self.size = size
        self.batch_size = batch_size
        self.limits = limits
        self.restarts = 0
        self.cancels = 0
        self.batches = 0
        self.batched = 0  # requests in those batches
        self._incoming = 0
        self._linger: Optional[asyncio.TimerHandle] = None
        self._context = multiprocessing.get_context("spawn")
        # One long-lived thread starts and reaps workers: the event loop never
        # blocks on them, and Linux's parent-death signal follows the thread
        # that started a process, so it must outlive its workers.
        self._starter = ThreadPoolExecutor(1, thread_name_prefix="neuralcoref-workers")
        self._workers: Set[_Worker] = set()
        self._idle: Optional[List[_Worker]] = None
        self._queue: Deque[_Pending] = collections.deque()
        self._heavy_running = 0
        self._batch_ids = itertools.count(1)
        self._tasks: Set["asyncio.Task"] = set()
        self._closing = False

    async def start(self) -> None:
        """Start the workers and wait until each has loaded the pipeline.

        RAISES (NeuralcorefError): E331 if one cannot start.
        """
        loop = asyncio.get_running_loop()
        self._idle = list(await loop.run_in_executor(self._starter, self._start_all))

    def status(self) -> Dict[str, Any]:
        """Workers in all, idle, requests waiting for one, workers replaced,
        batches dropped without replacing their worker, and requests per batch
        (for ``/health``)."""
        idle = len(self._idle) if self._idle is not None else 0
        per_batch = round(self.batched / self.batches, 2) if self.batches else 0.0
        return {"workers": self.size, "idle": idle, "waiting": len(self._queue),
                "restarts": self.restarts, "cancels": self.cancels, "requests_per_batch": per_batch}

    @contextlib.contextmanager
    def arriving(self) -> Iterator[None]:
        """Around the reading and checking of a request: a free worker waits a
        moment (``BATCH_LINGER``) for such requests, to batch them."""
        self._incoming += 1
        try:
            yield
        finally:
            self._incoming -= 1
            if self._incoming == 0 and self._idle is not None:
                self._dispatch()

    async def resolve(self, job: Job, disconnect: "asyncio.Future", heavy: bool = False) -> bytes:
        """Run a job on a free worker.

        job (Job): the texts and limits.
        disconnect (asyncio.Future): done when the client goes away.
        heavy (bool): a large request (see the class).
        RETURNS (bytes): the JSON body of the answer.
        RAISES (RequestError): a coded error for the client (limits, busy, deadline).
        RAISES (ClientGone): the client left; its work was dropped.
        """
        if self._idle is None:
            raise RequestError(503, Errors.E329.format(
                reason="its workers are not started: run the app with its lifespan"))
        if len(self._queue) >= self.limits.max_waiting:
            raise RequestError(503, Errors.E329.format(
                reason=f"{len(self._queue)} requests are waiting for a worker"), {"Retry-After": "1"})
        pending = _Pending(job, heavy, asyncio.get_running_loop().create_future())
        self._queue.append(pending)
        self._dispatch()
        # Waiting for a worker is bounded by --timeout, the work by as much again.
        wanted = {pending.answer, disconnect}
        done, _ = await asyncio.wait(wanted, timeout=self.limits.timeout, return_when=asyncio.FIRST_COMPLETED)
        if not done and pending in self._queue:
            self._queue.remove(pending)
            raise RequestError(503, Errors.E329.format(
                reason=f"no worker was free within {self.limits.timeout:g} s"), {"Retry-After": "5"})
        if not done:  # running: its batch answers by its deadline (and the grace to stop it)
            done, _ = await asyncio.wait(wanted, timeout=self.limits.timeout + CANCEL_GRACE + 1,
                                         return_when=asyncio.FIRST_COMPLETED)
        if pending.answer.done():
            reply = pending.answer.result()
            if reply[0] == "ok":
                return reply[1]
            raise RequestError(reply[1], reply[2])
        pending.gone = True
        if pending in self._queue:
            self._queue.remove(pending)
        if disconnect in done:
            raise ClientGone()
        raise RequestError(422, Errors.E324.format(limit=f"{self.limits.timeout:g}"))

    async def close(self) -> None:
        """Stop every worker (killed: a busy one would not listen)."""
        self._closing = True
        if self._linger is not None:
            self._linger.cancel()
        for task in list(self._tasks):
            task.cancel()
        for worker in list(self._workers):
            worker.process.kill()  # a worker still loading too, so the starter is free at once
        loop = asyncio.get_running_loop()
        for worker in list(self._workers):
            await loop.run_in_executor(self._starter, worker.stop)
        self._starter.shutdown(wait=True)
        for worker in list(self._workers):  # started while closing
            worker.stop()
        self._workers.clear()

    def _dispatch(self) -> None:
        """Hand queued requests to idle workers, as long as both remain."""
        while self._idle and self._queue:
            if self._lingers():
                return
            batch = self._next_batch()
            if not batch:
                return
            worker = self._idle.pop()
            self.batches += 1
            self.batched += len(batch)
            task = asyncio.ensure_future(self._run_batch(worker, batch))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    def _lingers(self) -> bool:
        """Whether to wait a moment for requests the server is reading, before
        a free worker takes a small batch (then a dispatch is scheduled)."""
        first = self._queue[0]
        if self._incoming == 0 or first.heavy or time.monotonic() - first.since >= BATCH_LINGER:
            return False
        if sum(len(p.job.texts) for p in self._queue) >= self.batch_size:
            return False
        if self._linger is None:
            self._linger = asyncio.get_running_loop().call_later(BATCH_LINGER, self._lingered)
        return True

    def _lingered(self) -> None:
        self._linger = None
        if not self._closing:
            self._dispatch()

    def _next_batch(self) -> List[_Pending]:
        """The first queued request that may run now, with the small requests
        queued behind it when it is small (up to ``batch_size`` texts)."""
        heavy_allowed = self.size == 1 or self._heavy_running < self.size - 1
        first = next((p for p in self._queue if heavy_allowed or not p.heavy), None)
        if first is None:
            return []
        self._queue.remove(first)
        batch = [first]
        if first.heavy:
            self._heavy_running += 1
        if first.solo:
            return batch
        n_texts = len(first.job.texts)
        for pending in list(self._queue):
            if not pending.solo and n_texts + len(pending.job.texts) <= self.batch_size:
                self._queue.remove(pending)
                batch.append(pending)
                n_texts += len(pending.job.texts)
        return batch

    async def _run_batch(self, worker: _Worker, batch: List[_Pending]) -> None:
        """Run a batch on a worker and set each request's answer; then give the
        worker back (or replace it) and dispatch again."""
        replace = False
        try:
            replies, replace = await self._exchange(worker, batch)
            for pending, reply in reversed(list(zip(batch, replies))):
                if reply == _RUN_ALONE and not pending.gone:
                    pending.solo = True  # which one was slow is unknown: each runs alone
                    self._queue.appendleft(pending)
                elif not pending.answer.done():
                    pending.answer.set_result(reply)
        except asyncio.CancelledError:  # the pool is closing
            raise
        finally:
            if batch[0].heavy:
                self._heavy_running -= 1
            if replace:
                self._replace(worker)
            elif not self._closing:
                self._idle.append(worker)
            if not self._closing:
                self._dispatch()

    async def _exchange(self, worker: _Worker, batch: List[_Pending]) -> Tuple[List[Reply], bool]:
        """Send a batch to a worker and wait for its replies, dropping the batch
        when every client left or the deadline passed. RETURNS (replies, whether
        the worker must be replaced)."""
        batch_id = next(self._batch_ids)
        try:
            worker.conn.send((batch_id, [p.job for p in batch]))
        except OSError:
            busy = ("error", 503, Errors.E329.format(reason="a worker stopped; it is being replaced"))
            return [busy] * len(batch), True
        deadline = time.monotonic() + self.limits.timeout
        while True:
            left = deadline - time.monotonic()
            if await self._readable(worker, min(left, 0.1)):
                replies = self._receive(worker)
                if replies is None:  # it died under the batch
                    return [_died(worker)] * len(batch), True
                if replies == ("cancelled",):
                    replies = [("error", 499, "cancelled")] * len(batch)
                return replies, any(reply[-1] == "replace" for reply in replies)
            timed_out = time.monotonic() >= deadline
            if timed_out or all(p.gone or p.answer.done() for p in batch):
                if timed_out:
                    logger.warning("A request ran past %g s: it is stopped.", self.limits.timeout)
                kept = await self._cancel(worker, batch_id)
                late = ("error", 422, Errors.E324.format(limit=f"{self.limits.timeout:g}"))
                return [late if len(batch) == 1 else _RUN_ALONE] * len(batch), not kept

    async def _readable(self, worker: _Worker, timeout: float) -> bool:
        """Wait up to ``timeout`` seconds for the worker's pipe to be readable."""
        if worker.conn.poll():
            return True
        loop = asyncio.get_running_loop()
        readable = loop.create_future()
        fd = worker.conn.fileno()
        loop.add_reader(fd, lambda: readable.done() or readable.set_result(None))
        try:
            await asyncio.wait_for(asyncio.shield(readable), max(timeout, 0))
            return True
        except asyncio.TimeoutError:
            return False
        finally:
            loop.remove_reader(fd)

    @staticmethod
    def _receive(worker: _Worker) -> Any:
        try:
            return worker.conn.recv()
        except (EOFError, OSError):
            return None

    async def _cancel(self, worker: _Worker, batch_id: int) -> bool:
        """Tell a worker to drop batch ``batch_id`` and wait ``CANCEL_GRACE``
        seconds for its reply (whatever it is: the batch may have just ended).
        RETURNS (bool): whether the worker answered and can be kept."""
        worker.cancel.value = batch_id
        try:
            os.kill(worker.process.pid, signal.SIGUSR1)
        except OSError:
            return False
        if await self._readable(worker, CANCEL_GRACE) and self._receive(worker) is not None:
            self.cancels += 1
            return True
        logger.warning("A worker (pid %d) did not stop its work within %g s: it is killed and "
                       "replaced.", worker.process.pid, CANCEL_GRACE)
        return False

    def _spawn(self) -> _Worker:
        parent_conn, child_conn = self._context.Pipe(duplex=True)
        cancel = self._context.RawValue("q", 0)
        process = self._context.Process(
            target=worker_main, name="neuralcoref-server-worker", daemon=True,
            args=(child_conn, self.nlp_bytes, self.batch_size, self.limits.max_text_chars, os.getpid(),
                  self.limits.worker_memory_mb, cancel))
        process.start()
        child_conn.close()
        worker = _Worker(process, parent_conn, cancel)
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
        """Kill a worker whose work is abandoned and start another in its place."""
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
            self._idle.append(worker)
            self._dispatch()


#: The reply that sends a request of a batch past its deadline back to the
#: queue, to run alone: a slow request must not cost the others their answer.
_RUN_ALONE: Reply = ("run alone",)


def _died(worker: _Worker) -> Reply:
    """The reply for a batch whose worker died under it (e.g. killed for memory)."""
    worker.process.join(1)
    code = worker.process.exitcode
    reason = f"exit code {code}" if code is not None else "its pipe broke"
    return ("error", 422, Errors.E330.format(reason=reason))
