"""Shared by the browser tests (Playwright for Python driving Debian's chromium, /usr/bin/chromium): the
browser's settings, a tab with its script errors collected, the phone and desktop sizes, the axe and
sideways-scroll check, signing up. The fixtures (``browser``, ``site``, ``page``, ``phone``, ``worker``)
are in tests/web/conftest.py."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
SCREENSHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"
PASSWORD = "s3cret-Baraja-40"


PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1200, "height": 900}


def _tab(browser: Any, viewport: dict[str, int]) -> Iterator[Any]:
    context = browser.new_context(viewport=viewport, locale="en-US")
    tab = context.new_page()
    tab.set_default_timeout(30_000)
    errors: list[str] = []
    tab.on("pageerror", lambda exc: errors.append(str(exc)))
    tab.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    tab.tute_errors = errors  # a test that provokes an error on purpose takes it off this list
    yield tab
    context.close()
    assert errors == [], f"JavaScript or console errors on the page: {errors}"


def assert_fits_and_accessible(page: Any, what: str) -> None:
    """No sideways scroll, and axe-core finds no WCAG violation in the page as it is now."""
    from axe_playwright_python.sync_playwright import Axe

    overflow = page.evaluate(
        "() => document.documentElement.scrollWidth - document.documentElement.clientWidth"
    )
    wide = page.evaluate(
        "() => [...document.querySelectorAll('body *')].filter(e => !e.closest('.table-scroll') &&"
        " e.getBoundingClientRect().right > document.documentElement.clientWidth + 1).slice(0, 5)"
        ".map(e => e.tagName + '#' + e.id + '.' + e.className)"
    )
    assert overflow <= 0, f"{what}: the page scrolls sideways by {overflow} px ({', '.join(wide)})"
    # The page at rest: a card still fading in (.played's deal-in animation) has a contrast of its own
    # for a quarter of a second, longer on a busy machine.
    page.evaluate("() => Promise.all(document.getAnimations().map((a) => a.finished))")
    results = Axe().run(page)
    assert results.violations_count == 0, f"{what}: {results.generate_report()}"


def shown_plies(page: Any, match_id: int) -> list[int]:
    """The plies the match page drew, in order (its own record, kept in sessionStorage)."""
    return list(page.evaluate(f"() => JSON.parse(sessionStorage.getItem('tute:shown:{match_id}') || '[]')"))


#: A highlighted card or action button the seat may play now.
LEGAL = "#live [data-action].legal:enabled"


def sign_up(page: Any, site: str, username: str) -> None:
    page.goto(f"{site}/signup/")
    page.fill("#id_username", username)
    page.fill("#id_email", f"{username}@example.com")
    page.fill("#id_password1", PASSWORD)
    page.fill("#id_password2", PASSWORD)
    page.click("#signup-form button[type=submit]")
    page.wait_for_url(f"{site}/")
    assert page.locator("header .me").inner_text() == username


LEGAL = "#live [data-action].legal:enabled"
