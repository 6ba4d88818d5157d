"""An HTML view of coreference clusters, in the spirit of displaCy.

    from neuralcoref import render
    html = render(doc)                 # a whole page, self-contained
    Path("clusters.html").write_text(html, encoding="utf8")

Every mention is a ``<span class="nc-mention" data-cluster="i">`` where ``i`` is
the cluster's id (``Cluster.i``, its position in ``doc._.coref_clusters`` and in the
JSON of ``resolve --json``); nested mentions are nested elements, and a mention that
crosses another one is split into fragments sharing its ``data-mention``. Hovering a
mention (or a cluster of the legend) highlights every mention of its cluster and
shows the cluster's main mention. The page loads nothing: CSS and JS are inline and
its Content-Security-Policy forbids any other resource.
"""
from __future__ import annotations

from html import escape
from typing import TYPE_CHECKING, Iterable, List, Optional, Sequence, Union

if TYPE_CHECKING:
    from spacy.tokens import Doc

# spaCy is imported when rendering, not here: the package exports ``render`` and
# importing the package stays cheap.

#: Golden-angle hues: neighbouring cluster ids get well separated colours.
_HUE_START, _HUE_STEP = 210.0, 137.508

_CSS = """
.nc-doc{font-family:-apple-system,"Segoe UI",Roboto,Helvetica,Arial,sans-serif;
  max-width:60em;margin:0 auto 2em;padding:1em 1.5em;border:1px solid #e4e4e4;
  border-radius:.5em;background:#fff;color:#222}
.nc-info{min-height:1.4em;margin-bottom:.6em;padding:.3em .6em;border-radius:.3em;
  background:#f4f4f6;color:#555;font-size:.9em}
.nc-info b{color:#111}
.nc-text{white-space:pre-wrap;line-height:2.7;font-size:17px}
.nc-mention{padding:.2em .25em;border:1.5px solid var(--nc-c);border-radius:.4em;
  background:color-mix(in srgb,var(--nc-c) 16%,transparent);cursor:pointer;
  -webkit-box-decoration-break:clone;box-decoration-break:clone;
  transition:background-color .1s,border-color .1s}
.nc-mention .nc-mention{padding:.05em .15em}
.nc-mention.nc-main{border-width:2.5px}
.nc-mention::after{content:attr(data-cluster);margin-left:.25em;padding:0 .35em;
  border-radius:.6em;background:var(--nc-c);color:#fff;font-size:.6em;font-weight:700;
  vertical-align:.15em}
.nc-mention.nc-frag::after{content:none}
.nc-doc.nc-hover .nc-mention:not(.nc-active){border-color:color-mix(in srgb,var(--nc-c) 30%,#ddd);
  background:transparent}
.nc-doc.nc-hover .nc-mention:not(.nc-active)::after{background:color-mix(in srgb,var(--nc-c) 30%,#ccc)}
.nc-mention.nc-active{background:color-mix(in srgb,var(--nc-c) 42%,transparent);
  box-shadow:0 0 0 1.5px var(--nc-c)}
.nc-legend{display:flex;flex-wrap:wrap;gap:.4em;margin:1em 0 0;padding:0;list-style:none;
  font-size:.85em}
.nc-legend li{padding:.15em .55em;border:1.5px solid var(--nc-c);border-radius:1em;
  background:color-mix(in srgb,var(--nc-c) 12%,transparent);cursor:pointer}
.nc-legend li.nc-active{background:color-mix(in srgb,var(--nc-c) 42%,transparent)}
.nc-legend .nc-id{font-weight:700;color:var(--nc-c);margin-right:.3em}
.nc-empty{color:#888;font-size:.85em;margin-top:1em}
"""

# Event delegation on the document: the innermost element with a data-cluster
# under the pointer picks the cluster; textContent (never innerHTML) shows texts.
_JS = """
(function () {
  function clear(box) {
    box.classList.remove("nc-hover");
    box.querySelectorAll(".nc-active").forEach(function (el) { el.classList.remove("nc-active"); });
    var info = box.querySelector(".nc-info");
    info.textContent = info.getAttribute("data-idle");
  }
  function show(box, id) {
    clear(box);
    box.classList.add("nc-hover");
    var members = box.querySelectorAll('[data-cluster="' + id + '"]');
    members.forEach(function (el) { el.classList.add("nc-active"); });
    var item = box.querySelector('.nc-legend [data-cluster="' + id + '"]');
    var info = box.querySelector(".nc-info");
    info.textContent = "";
    var parts = ["Cluster " + id + " \\u00b7 main mention: ", item.getAttribute("data-main"),
                 " \\u00b7 " + item.getAttribute("data-count") + " mentions"];
    parts.forEach(function (text, k) {
      var node = k === 1 ? document.createElement("b") : document.createTextNode(text);
      if (k === 1) node.textContent = text;
      info.appendChild(node);
    });
  }
  document.addEventListener("mouseover", function (ev) {
    var target = ev.target instanceof Element ? ev.target : null;
    var el = target && target.closest("[data-cluster]");
    var box = target && target.closest(".nc-doc");
    document.querySelectorAll(".nc-doc.nc-hover").forEach(function (other) {
      if (other !== box || !el) clear(other);
    });
    if (el && box) show(box, el.getAttribute("data-cluster"));
  });
})();
"""

_IDLE = "Hover a mention to see its cluster."


def cluster_color(i: int) -> str:
    """The default colour of cluster ``i`` (a CSS colour)."""
    return f"hsl({(_HUE_START + i * _HUE_STEP) % 360:.0f} 68% 42%)"


class _Open:
    """An opening tag, written once we know whether the mention ends in it."""

    def __init__(self, cluster: int, mention: int, main: bool, color: str, title: str):
        self.cluster, self.mention, self.main = cluster, mention, main
        self.color, self.title = color, title
        self.final = False

    def __str__(self) -> str:
        classes = "nc-mention" + (" nc-main" if self.main else "") + ("" if self.final else " nc-frag")
        return (f'<span class="{classes}" data-cluster="{self.cluster}" '
                f'data-mention="{self.mention}" style="--nc-c:{escape(self.color)}" '
                f'title="{escape(self.title)}">')


def _doc_html(doc: Doc, k: int, colors: Optional[Sequence[str]], legend: bool) -> str:
    from ..extensions import get_clusters

    clusters = get_clusters(doc)
    color = [colors[c.i % len(colors)] if colors else cluster_color(c.i) for c in clusters]
    # (start, end, cluster, is main): longest first, so that nesting needs no fragments.
    mentions = sorted(
        ((m.start, m.end, c.i, (m.start, m.end) == (c.main.start, c.main.end))
         for c in clusters for m in c.mentions),
        key=lambda m: (m[0], -m[1], m[2]))
    # A linked cluster (neuralcoref_linker) names its entity too.
    titles = [f"Cluster {c.i} · main mention: {c.main.text}" + (f" · entity: {c.kb_id}" if c.kb_id else "")
              for c in clusters]
    parts: List[Union[str, _Open]] = []
    stack: List[_Open] = []
    ends = {}
    next_mention = 0
    for token in doc:
        while next_mention < len(mentions) and mentions[next_mention][0] == token.i:
            start, end, c, main = mentions[next_mention]
            tag = _Open(c, next_mention, main, color[c], titles[c])
            ends[next_mention] = end
            stack.append(tag)
            parts.append(tag)
            next_mention += 1
        parts.append(escape(token.text))
        # Close what ends here; a crossing mention still open above one that ends
        # is closed as a fragment and reopened after it.
        if any(ends[tag.mention] == token.i + 1 for tag in stack):
            reopen: List[_Open] = []
            while any(ends[tag.mention] == token.i + 1 for tag in stack):
                tag = stack.pop()
                parts.append("</span>")
                if ends[tag.mention] == token.i + 1:
                    tag.final = True
                else:
                    reopen.append(tag)
            for old in reversed(reopen):
                tag = _Open(old.cluster, old.mention, old.main, old.color, old.title)
                stack.append(tag)
                parts.append(tag)
        parts.append(escape(token.whitespace_))
    # No newline inside .nc-text: its whitespace is shown as written.
    html = ['<div class="nc-doc" data-doc="%d">' % k,
            f'<div class="nc-info" data-idle="{_IDLE}">{_IDLE}</div>',
            '<div class="nc-text">' + "".join(map(str, parts)) + "</div>"]
    if legend and clusters:
        html.append('<ol class="nc-legend">')
        for c in clusters:
            html.append(
                f'<li data-cluster="{c.i}" data-main="{escape(c.main.text)}" '
                f'data-count="{len(c)}" style="--nc-c:{escape(color[c.i])}">'
                f'<span class="nc-id">{c.i}</span>{escape(c.main.text)} '
                f'<small>×{len(c)}</small></li>')
        html.append("</ol>")
    elif legend:
        html.append('<div class="nc-empty">No coreference clusters.</div>')
    elif clusters:
        # The hover box reads main mentions from the legend: keep it, hidden.
        html.append('<ol class="nc-legend" hidden>' + "".join(
            f'<li data-cluster="{c.i}" data-main="{escape(c.main.text)}" data-count="{len(c)}"></li>'
            for c in clusters) + "</ol>")
    html.append("</div>")
    return "\n".join(html)


def render(docs: Union[Doc, Iterable[Doc]], *, page: bool = True, title: str = "neuralcoref",
           colors: Optional[Sequence[str]] = None, legend: bool = True) -> str:
    """Render the coreference clusters of one or more Docs as HTML.

    docs (Doc | Iterable[Doc]): Docs processed by the neuralcoref component (any Doc
        whose ``doc.spans`` hold clusters; a Doc without clusters shows its text).
    page (bool): a whole HTML page; False gives a fragment (style, Docs and script)
        to embed in a page of your own or to show in Jupyter with
        ``IPython.display.HTML``.
    title (str): the page's title.
    colors (Sequence[str] | None): CSS colours by cluster id (cycled); by default
        evenly spread hues.
    legend (bool): list the clusters (id, main mention, size) under each Doc.
    RETURNS (str): the HTML, with no external resource.
    """
    from spacy.tokens import Doc

    if isinstance(docs, Doc):
        docs = [docs]
    body = "\n".join(_doc_html(doc, k, colors, legend) for k, doc in enumerate(docs))
    fragment = f'<style>{_CSS}</style>\n{body}\n<script>{_JS}</script>'
    if not page:
        return fragment
    return (
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
        "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
        "style-src 'unsafe-inline'; script-src 'unsafe-inline'\">\n"
        "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
        f"<title>{escape(title)}</title>\n</head>\n"
        "<body style=\"margin:0;padding:1.5em;background:#fafafa\">\n"
        f"{fragment}\n</body>\n</html>\n"
    )
