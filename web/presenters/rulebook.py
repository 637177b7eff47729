"""The players' rules (``docs/rules.<language>.md``) and the organiser's guide
(``docs/organiser.<language>.md``) as sanitised HTML sections, and
rule ids (``R-CON-3``) in any HTML turned into links to their section.

The Markdown is rendered with markdown-it-py (raw HTML off) and cleaned with nh3 (tags and
attributes allow-listed, no ``style``: the page CSP allows no inline styles). A heading that
starts with a rule id gets that id, lower-cased, as its anchor (``### R-CON-3 Modifiers`` ->
``id="r-con-3"``); other headings get a slug of their text. The rendered document is cached per
language for the process's life: the files change only on deploy."""

import html
import re
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache, lru_cache
from pathlib import Path

import nh3
from markdown_it import MarkdownIt

DOCS = Path(__file__).resolve().parents[2] / "docs"
LANGUAGES = ("en", "de")
RULE_ID = re.compile(r"\bR-[A-Z]{2,5}(?:-\d{1,3})?\b")
HEADING_ID = re.compile(r"^(R-[A-Z]{2,5}(?:-\d{1,3})?)\b")
TAG = re.compile(r"(<[^>]*>)")
SKIP_TAGS = {"a", "h1", "h2", "h3", "h4", "h5", "h6"}  # no links inside links or headings

ALLOWED_TAGS = {"h1", "h2", "h3", "h4", "p", "ul", "ol", "li", "strong", "em", "code", "pre",
                "blockquote", "table", "thead", "tbody", "tr", "th", "td", "a", "br", "hr"}
ALLOWED_ATTRIBUTES = {"h1": {"id"}, "h2": {"id"}, "h3": {"id"}, "h4": {"id"}, "a": {"href"},
                      "ol": {"start"}}


@dataclass(frozen=True)
class Section:
    anchor: str
    level: int  # 2: a family of rules (R-CON), 3: one rule (R-CON-3) or a sub-topic
    title: str
    html: str  # the heading and the text below it, sanitised, rule ids not yet linked
    text: str  # lower-cased plain text, for the search


@dataclass(frozen=True)
class RuleBook:
    title: str
    intro: str  # sanitised HTML before the first section
    sections: tuple[Section, ...]

    @property
    def anchors(self) -> frozenset[str]:
        return frozenset(s.anchor for s in self.sections)


def slug(text: str) -> str:
    plain = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode().lower()
    return re.sub(r"[^a-z0-9]+", "-", plain).strip("-") or "section"


def anchor_for(heading: str) -> str:
    found = HEADING_ID.match(heading.strip())
    return found.group(1).lower() if found else slug(heading)


def sanitise(fragment: str) -> str:
    return nh3.clean(fragment, tags=ALLOWED_TAGS, attributes=ALLOWED_ATTRIBUTES,
                     url_schemes={"http", "https", "mailto"}, link_rel=None)


def _parser() -> MarkdownIt:
    return MarkdownIt("commonmark", {"html": False}).enable("table")


def _plain(tokens) -> str:
    parts = [t.content for t in tokens if t.type in ("inline", "code_block", "fence")]
    return re.sub(r"[*`]", "", " ".join(parts)).lower()


def render_markdown(source: str) -> RuleBook:
    """The document split at its level-2 and level-3 headings, each part rendered and
    sanitised on its own."""
    md = _parser()
    tokens = md.parse(source)
    starts = [i for i, t in enumerate(tokens)
              if t.type == "heading_open" and t.tag in ("h2", "h3") and t.level == 0]
    title, intro_end = "", starts[0] if starts else len(tokens)
    for i, token in enumerate(tokens[:intro_end]):
        if token.type == "heading_open" and token.tag == "h1":
            title = tokens[i + 1].content
    intro_tokens = tokens[:intro_end]
    if title:  # the page shows the title itself
        first = next(i for i, t in enumerate(intro_tokens) if t.tag == "h1")
        intro_tokens = intro_tokens[:first] + intro_tokens[first + 3:]
    intro = sanitise(md.renderer.render(intro_tokens, md.options, {}))
    sections = []
    for n, start in enumerate(starts):
        end = starts[n + 1] if n + 1 < len(starts) else len(tokens)
        part = tokens[start:end]
        heading = part[1].content
        part[0].attrSet("id", anchor_for(heading))
        sections.append(Section(
            anchor=anchor_for(heading), level=int(part[0].tag[1]),
            title=re.sub(r"[*`]", "", heading),
            html=sanitise(md.renderer.render(part, md.options, {})), text=_plain(part)))
    return RuleBook(title=title, intro=intro, sections=tuple(sections))


DOCUMENTS = ("rules", "organiser")  # docs/<name>.<language>.md


@cache
def document(name: str, language: str) -> RuleBook:
    """``docs/<name>.<language>.md`` rendered (``en`` for a language without its own file)."""
    if name not in DOCUMENTS:
        raise ValueError(f"unknown document {name!r}")
    language = language if language in LANGUAGES else LANGUAGES[0]
    return render_markdown((DOCS / f"{name}.{language}.md").read_text(encoding="utf-8"))


def rulebook(language: str) -> RuleBook:
    """The players' rules in ``language``."""
    return document("rules", language)


def contents(book: RuleBook) -> list[dict]:
    """The contents list: each level-2 section with the level-3 sections under it."""
    entries: list[dict] = []
    for section in book.sections:
        entry = {"anchor": section.anchor, "title": section.title, "children": []}
        if section.level == 2 or not entries:
            entries.append(entry)
        else:
            entries[-1]["children"].append(entry)
    return entries


@lru_cache(maxsize=1)
def known_anchors() -> frozenset[str]:
    """Anchors present in every language: only those are linked."""
    books = [rulebook(language).anchors for language in LANGUAGES]
    return frozenset.intersection(*books)


def _map_text(fragment: str, change: Callable[[str], str], skip=SKIP_TAGS) -> str:
    """``change`` applied to the text between tags, outside the ``skip`` elements."""
    out, skipping = [], []
    for piece in TAG.split(fragment):
        if piece.startswith("<"):
            name = re.match(r"</?\s*([a-zA-Z0-9]+)", piece)
            tag = name.group(1).lower() if name else ""
            if tag in skip and not piece.endswith("/>"):
                if piece.startswith("</"):
                    if skipping:
                        skipping.pop()
                else:
                    skipping.append(tag)
            out.append(piece)
        else:
            out.append(piece if skipping else change(piece))
    return "".join(out)


def link_rule_ids(fragment: str, href: Callable[[str], str | None]) -> str:
    """Every rule id in the text of the (escaped, safe) HTML ``fragment`` for which ``href``
    gives an address becomes a link to it."""
    def link(match: re.Match) -> str:
        target = href(match.group(0))
        if not target:
            return match.group(0)
        return f'<a class="rule-link" href="{html.escape(target)}">{match.group(0)}</a>'
    return _map_text(fragment, lambda text: RULE_ID.sub(link, text))


def highlight(fragment: str, words: list[str]) -> str:
    """Each of ``words`` in the text of ``fragment`` marked with ``<mark>``."""
    wanted = sorted({re.escape(w) for w in words if w}, key=len, reverse=True)
    if not wanted:
        return fragment
    pattern = re.compile("(" + "|".join(wanted) + ")", re.IGNORECASE)

    def mark(text: str) -> str:  # on the unescaped text, so no entity is cut apart
        pieces = pattern.split(html.unescape(text))
        return "".join(f"<mark>{html.escape(p, quote=False)}</mark>" if i % 2
                       else html.escape(p, quote=False) for i, p in enumerate(pieces))
    return _map_text(fragment, mark, skip={"a"})


def search(book: RuleBook, query: str) -> tuple[list[str], list[Section]]:
    """The query's words and the sections containing all of them (title or text)."""
    words = query.lower().split()[:10]
    found = [s for s in book.sections if words and all(w in s.text for w in words)]
    return words, found
