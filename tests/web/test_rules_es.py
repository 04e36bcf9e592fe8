"""The rules page in Spanish: docs/RULES.es.md for Spanish readers, docs/RULES.md for everyone else, and a
structural check that the translation keeps every section, heading, action code and flag of the original."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client

from tests.web.test_spanish import english_left

pytestmark = pytest.mark.django_db

DOCS = Path(settings.BASE_DIR) / "docs"
ENGLISH = (DOCS / "RULES.md").read_text(encoding="utf-8")
SPANISH = (DOCS / "RULES.es.md").read_text(encoding="utf-8")

ES_TITLE = "Las reglas del Tute 2, el Tute 4 y la Pocha"
ES_SENTENCE = "La baraja española tiene 40 cartas en cuatro palos"
EN_TITLE = "The rules of Tute 2, Tute 4 and Pocha"
EN_SENTENCE = "The Spanish deck has 40 cards in four suits"


def _headings(text: str, level: str) -> list[str]:
    return re.findall(rf"^{level} (.*)$", text, flags=re.MULTILINE)


def _code_spans(text: str) -> set[str]:
    text = re.sub(r"^```.*?^```", "", text, flags=re.MULTILINE | re.DOTALL)
    return set(re.findall(r"`([^`\n]+)`", text))


def test_rules_page_in_spanish_shows_the_spanish_translation(client: Client) -> None:
    # when: a Spanish reader opens the rules page
    response = client.get("/rules/", HTTP_ACCEPT_LANGUAGE="es")
    html = response.content.decode()
    # then: it shows RULES.es.md, marked as Spanish, and not the English document
    assert response.status_code == 200
    assert ES_TITLE in html and ES_SENTENCE in html
    assert EN_TITLE not in html and EN_SENTENCE not in html
    assert '<article class="rules" lang="es">' in html
    # and: no sentence of the site's catalogue is left in English on it
    assert english_left(html) == []


def test_rules_page_in_english_shows_the_english_rules(client: Client) -> None:
    response = client.get("/rules/", HTTP_ACCEPT_LANGUAGE="en")
    html = response.content.decode()
    assert response.status_code == 200
    assert EN_TITLE in html and EN_SENTENCE in html
    assert ES_TITLE not in html and ES_SENTENCE not in html
    assert '<article class="rules" lang="en">' in html


def test_rules_page_follows_the_language_cookie(client: Client) -> None:
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "es"
    assert ES_SENTENCE in client.get("/rules/").content.decode()
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    assert EN_SENTENCE in client.get("/rules/").content.decode()


def test_docs_rules_stays_english(client: Client) -> None:
    html = client.get("/docs/rules/", HTTP_ACCEPT_LANGUAGE="es").content.decode()
    assert EN_SENTENCE in html


def test_the_translation_keeps_every_heading_and_section_number() -> None:
    for level in ("#", "##", "###"):
        assert len(_headings(SPANISH, level)) == len(_headings(ENGLISH, level)), level
    numbers = [re.match(r"(\d+)\.", h) for h in _headings(ENGLISH, "##")]
    es_numbers = [re.match(r"(\d+)\.", h) for h in _headings(SPANISH, "##")]
    assert [m and m.group(1) for m in numbers] == [m and m.group(1) for m in es_numbers]


def test_the_translation_keeps_every_action_code_flag_and_code_span() -> None:
    english = _code_spans(ENGLISH)
    spanish = _code_spans(SPANISH)
    # every action code (`play:<card>`, `sing:tute`, `bid:N`, `first_lead: "mano"`, ...) is kept verbatim
    actions = {span for span in english if re.match(r"[a-z_]+:", span)}
    assert {"play:<card>", "exchange:<card>", "sing:<suit>", "sing:tute", "bid:<n>"} <= actions
    assert actions - spanish == set()
    # and so is every other code span: flag names, values, JSON fields, paths
    assert english - spanish == set()
    # and the tables keep their rows
    assert SPANISH.count("\n| `") == ENGLISH.count("\n| `")
    # and the JSON example is the same
    assert re.findall(r"```json\n.*?```", SPANISH, flags=re.DOTALL) == re.findall(
        r"```json\n.*?```", ENGLISH, flags=re.DOTALL
    )
