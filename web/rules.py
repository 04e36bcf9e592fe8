"""The project's own documents rendered for the site: docs/RULES.md (the rules page, with its Spanish
translation docs/RULES.es.md for Spanish readers) and the documents a bot author needs (docs/BOTS.md,
docs/API.md), each rendered once per process (the files ship with the code)."""

from __future__ import annotations

from functools import cache
from pathlib import Path

import markdown
from django.conf import settings
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language

DOCS = Path(settings.BASE_DIR) / "docs"
RULES_FILE = DOCS / "RULES.md"
#: The Spanish translation of RULES_FILE; the English file is the reference where they differ.
RULES_FILE_ES = DOCS / "RULES.es.md"
#: The documents /docs/<name>/ serves, by name: only these files, never a path from the request.
SITE_DOCS = {"bots": "BOTS.md", "api": "API.md", "rules": "RULES.md"}
EXAMPLE_BOT = Path(settings.BASE_DIR) / "client" / "examples" / "random_bot.py"


@cache
def _render(path: Path) -> SafeString:
    """A document of the project's own (no user input) as HTML, so its HTML is trusted."""
    text = path.read_text(encoding="utf-8")
    html = markdown.markdown(
        text, extensions=["tables", "toc", "sane_lists", "fenced_code"], output_format="html"
    )
    return mark_safe(html)


def rules_file() -> Path:
    """The rules in the active language: the Spanish translation for Spanish (when shipped), else English."""
    if (get_language() or "").lower().startswith("es") and RULES_FILE_ES.is_file():
        return RULES_FILE_ES
    return RULES_FILE


def rules_lang() -> str:
    """The language code of rules_file(), for the page's ``lang`` attribute."""
    return "es" if rules_file() == RULES_FILE_ES else "en"


def rules_html() -> SafeString:
    """The rules page's document as HTML, in the active language (see rules_file)."""
    return _render(rules_file())


def doc_html(name: str) -> SafeString | None:
    """docs/<SITE_DOCS[name]> as HTML, or None for a name not served."""
    file = SITE_DOCS.get(name)
    return None if file is None else _render(DOCS / file)


@cache
def example_bot() -> str:
    """The example bot's source, shown on the bots page."""
    return EXAMPLE_BOT.read_text(encoding="utf-8")
