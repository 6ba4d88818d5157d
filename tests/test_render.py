"""The HTML view: markup on hand-built Docs, then the page in a real (headless) browser."""
import json
import struct
from html.parser import HTMLParser
from typing import Dict, List, Optional, Tuple

import pytest
from spacy.tokens import Doc

import neuralcoref
from browser import DEMO_TEXT, Browser, find_browser
from neuralcoref.apps.render import cluster_color, render
from neuralcoref.extensions import get_clusters, set_clusters

WORDS = ["My", "sister", "has", "a", "dog", ".", "She", "loves", "him", "."]
# "My sister" holds "My", a mention of another cluster.
CLUSTERS = [[(0, 2), (6, 7)], [(3, 5), (8, 9)], [(0, 1)]]
MAINS = [(0, 2), (3, 5), (0, 1)]
EVIL = ['<script>window.__pwned=1</script>', '"><img src=x onerror=alert(1)>', "&amp;", "'x'"]


class Element:
    def __init__(self, tag: str, attrs: Dict[str, Optional[str]], parent: Optional["Element"]):
        self.tag, self.attrs, self.parent = tag, attrs, parent
        self.children: List[object] = []

    @property
    def text(self) -> str:
        return "".join(c if isinstance(c, str) else c.text for c in self.children)

    def iter(self):
        yield self
        for child in self.children:
            if isinstance(child, Element):
                yield from child.iter()

    def classes(self) -> List[str]:
        return (self.attrs.get("class") or "").split()


class TreeBuilder(HTMLParser):
    """A strict tree of the markup: unbalanced tags fail the test."""

    VOID = {"meta", "br", "img", "link", "input"}

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.root = self.current = Element("#root", {}, None)

    def handle_starttag(self, tag, attrs):
        element = Element(tag, dict(attrs), self.current)
        self.current.children.append(element)
        if tag not in self.VOID:
            self.current = element

    def handle_endtag(self, tag):
        assert self.current.tag == tag, f"</{tag}> closes <{self.current.tag}>"
        self.current = self.current.parent

    def handle_data(self, data):
        self.current.children.append(data)


def parse(html: str) -> Element:
    builder = TreeBuilder()
    builder.feed(html)
    builder.close()
    assert builder.current is builder.root, "unclosed elements"
    return builder.root


def mentions(tree: Element) -> List[Element]:
    return [e for e in tree.iter() if "nc-mention" in e.classes()]


def mention_spans(tree: Element) -> Dict[Tuple[int, str], str]:
    """{(cluster, mention id): text}, fragments of a mention joined."""
    found: Dict[Tuple[int, str], str] = {}
    for element in mentions(tree):
        key = (int(element.attrs["data-cluster"]), element.attrs["data-mention"])
        found[key] = found.get(key, "") + element.text
    return found


def text_of(tree: Element, k: int = 0) -> str:
    (box,) = [e for e in tree.iter() if "nc-text" in e.classes()][k:k + 1]
    return box.text


@pytest.fixture
def doc(en_vocab) -> Doc:
    doc = Doc(en_vocab, words=WORDS)
    set_clusters(doc, CLUSTERS, MAINS)
    return doc


def test_render_is_exported():
    assert neuralcoref.render is render


def test_render_page_is_self_contained(doc):
    html = render(doc, title="Clusters & <more>")
    assert html.startswith("<!DOCTYPE html>")
    assert "<title>Clusters &amp; &lt;more&gt;</title>" in html
    assert "default-src 'none'" in html  # the page may load nothing
    for outside in ("http://", "https://", "//cdn", "<link", "src=", "@import", "url("):
        assert outside not in html
    tree = parse(html)
    assert [e.tag for e in tree.iter() if e.tag in ("style", "script")] == ["style", "script"]


def test_render_mentions_carry_cluster_ids(doc):
    tree = parse(render(doc))
    expected = sorted((c.i, m.text) for c in get_clusters(doc) for m in c)
    assert sorted((c, text) for (c, _), text in mention_spans(tree).items()) == expected
    assert text_of(tree) == doc.text
    for element in mentions(tree):
        cluster = int(element.attrs["data-cluster"])
        assert f"--nc-c:{cluster_color(cluster)}" in element.attrs["style"]
        assert element.attrs["title"] == f"Cluster {cluster} · main mention: {MAINS_TEXT[cluster]}"
    mains = [e for e in mentions(tree) if "nc-main" in e.classes()]
    assert sorted((e.attrs["data-cluster"], e.text) for e in mains) == [
        ("0", "My sister"), ("1", "a dog"), ("2", "My")]


MAINS_TEXT = ["My sister", "a dog", "My"]


def test_render_nested_mentions_are_nested_elements(doc):
    tree = parse(render(doc))
    (outer,) = [e for e in mentions(tree) if e.text == "My sister"]
    inner = [e for e in outer.iter() if e is not outer and "nc-mention" in e.classes()]
    assert [(e.attrs["data-cluster"], e.text) for e in inner] == [("2", "My")]
    assert not any("nc-frag" in e.classes() for e in mentions(tree))


def test_render_crossing_mentions_become_fragments(en_vocab):
    doc = Doc(en_vocab, words=["a", "b", "c", "d", "e"])
    set_clusters(doc, [[(0, 3)], [(1, 4)]], [(0, 3), (1, 4)])  # "a b c" crosses "b c d"
    tree = parse(render(doc))
    assert mention_spans(tree) == {(0, "0"): "a b c", (1, "1"): "b c d"}
    parts = [(e.attrs["data-mention"], e.text, "nc-frag" in e.classes()) for e in mentions(tree)]
    assert parts == [("0", "a b c", False), ("1", "b c", True), ("1", " d", False)]
    assert text_of(tree) == doc.text


def test_render_escapes_text(en_vocab):
    doc = Doc(en_vocab, words=EVIL + ["said", "it", "."])
    set_clusters(doc, [[(0, 2), (5, 6)], [(2, 3)]], [(0, 2), (2, 3)])
    html = render(doc, title=EVIL[0])
    assert "<script>window" not in html and "<img" not in html
    tree = parse(html)
    assert [e.tag for e in tree.iter() if e.tag in ("script", "img")] == ["script"]
    assert text_of(tree) == doc.text
    (legend_item,) = [e for e in tree.iter() if e.tag == "li" and e.attrs["data-cluster"] == "0"]
    assert legend_item.attrs["data-main"] == " ".join(EVIL[:2])
    assert sorted(mention_spans(tree).values()) == sorted([" ".join(EVIL[:2]), "&amp;", "it"])


def test_render_several_docs_and_options(doc, en_vocab):
    plain = Doc(en_vocab, words=["No", "clusters", "here", "\n", "!"])
    html = render([doc, plain], page=False, colors=["red", "#00f"], legend=False)
    assert not html.startswith("<!DOCTYPE") and html.startswith("<style>")
    tree = parse(html)
    boxes = [e for e in tree.iter() if "nc-doc" in e.classes()]
    assert [b.attrs["data-doc"] for b in boxes] == ["0", "1"]
    assert text_of(tree, 1) == plain.text and not mentions(boxes[1])
    styles = {e.attrs["data-cluster"]: e.attrs["style"] for e in mentions(tree)}
    assert styles == {"0": "--nc-c:red", "1": "--nc-c:#00f", "2": "--nc-c:red"}
    assert "No coreference clusters." not in html  # no legend asked for
    assert "No coreference clusters." in render(plain)


def test_render_pipeline_doc(nlp_coref):
    doc = nlp_coref(DEMO_TEXT)
    tree = parse(render(doc))
    assert text_of(tree) == DEMO_TEXT
    expected = sorted((c.i, m.text) for c in doc._.coref_clusters for m in c)
    assert len(expected) >= 6
    assert sorted((c, t) for (c, _), t in mention_spans(tree).items()) == expected


# In a browser ---------------------------------------------------------------

@pytest.fixture(scope="module")
def browser():
    pytest.importorskip("websocket", reason="websocket-client is not installed")
    executable = find_browser()
    if executable is None:
        pytest.skip("chromium is not installed (apt-get install chromium): "
                    "the HTML view is not tested in a browser")
    with Browser(executable, width=900, height=600) as browser:
        yield browser


MENTIONS_JS = """[...document.querySelectorAll('.nc-doc[data-doc="0"] .nc-mention')].map(e => ({
  cluster: e.dataset.cluster, mention: e.dataset.mention, text: e.textContent,
  active: e.classList.contains('nc-active'),
  border: getComputedStyle(e).borderTopColor, background: getComputedStyle(e).backgroundColor,
  visible: e.getClientRects().length > 0}))"""


def png_size(path) -> Tuple[int, int]:
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    return struct.unpack(">II", data[16:24])


def test_render_browser_highlights_and_hover(browser, nlp_coref, tmp_path):
    doc = nlp_coref(DEMO_TEXT)
    clusters = doc._.coref_clusters
    page = tmp_path / "view.html"
    page.write_text(render(doc), encoding="utf8")
    browser.open(page)
    assert browser.requests() == [page.resolve().as_uri()]  # nothing else loaded

    shown = browser.eval(MENTIONS_JS)
    expected = sorted((str(c.i), m.text) for c in clusters for m in c)
    assert sorted((m["cluster"], m["text"]) for m in shown) == expected
    for m in shown:
        assert m["visible"] and not m["active"]
        assert m["background"] not in ("rgba(0, 0, 0, 0)", "transparent")
    colour = {m["cluster"]: m["border"] for m in shown}
    assert len(set(colour.values())) == len(clusters)  # a colour per cluster
    assert browser.eval("document.querySelector('.nc-text').textContent") == DEMO_TEXT

    # Hovering a mention highlights its cluster, and only it; the innermost wins.
    nested = {m["mention"] for m in browser.eval(
        "[...document.querySelectorAll('.nc-mention .nc-mention')].map(e => ({mention: e.dataset.mention}))")}
    assert nested, "the demo text needs a nested mention"
    by_id = {str(c.i): c for c in clusters}
    for mention in sorted({m["mention"] for m in shown}, key=int):
        browser.hover(f'.nc-mention[data-mention="{mention}"]')
        after = browser.eval(MENTIONS_JS)
        (cluster_id,) = {m["cluster"] for m in after if m["mention"] == mention}
        cluster = by_id[cluster_id]
        assert sorted(m["text"] for m in after if m["active"]) == sorted(m.text for m in cluster)
        assert {m["cluster"] for m in after if m["active"]} == {str(cluster.i)}
        assert all(m["background"] != a["background"] for m, a in zip(shown, after) if a["active"])
        info = browser.eval("document.querySelector('.nc-info').textContent")
        assert info == f"Cluster {cluster.i} · main mention: {cluster.main.text} · {len(cluster)} mentions"
    browser.hover(".nc-info")  # off the mentions: nothing highlighted
    assert not any(m["active"] for m in browser.eval(MENTIONS_JS))

    png = browser.screenshot(tmp_path / "view.png", selector=".nc-doc")
    width, height = png_size(png)
    assert width > 300 and height > 100


def test_render_browser_runs_no_injected_code(browser, en_vocab, tmp_path):
    doc = Doc(en_vocab, words=EVIL + ["said", "it", "."])
    set_clusters(doc, [[(0, 2), (5, 6)]], [(0, 2)])
    page = tmp_path / "evil.html"
    page.write_text(render(doc, title=EVIL[0]), encoding="utf8")
    browser.open(page)
    assert browser.eval("window.__pwned === undefined")
    assert browser.eval("document.querySelectorAll('script, img').length") == 1
    assert browser.eval("document.querySelector('.nc-text').textContent") == doc.text
    assert browser.eval("document.title") == EVIL[0]
    browser.hover('.nc-mention[data-cluster="0"]')
    assert browser.eval("document.querySelector('.nc-info b').textContent") == " ".join(EVIL[:2])
    assert json.loads(json.dumps(browser.requests())) == [page.resolve().as_uri()]
