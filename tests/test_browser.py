"""The replay viewer in a real headless browser: the system Chromium driven by Playwright.

The page is opened from a file:// URL; it must draw the board (an SVG with every
clearing), screenshot to a real picture, step on ← → Home End PageUp PageDown and its
buttons, show exactly what ``render_svg`` draws, log no console error and make no
request.  Needs `pip install "rootlaw[browser]"` and Chromium (Debian: `apt-get install
chromium`; elsewhere point ROOTLAW_CHROMIUM at it); Playwright's own browser download is
never used.  In CI (CI set) a missing browser fails the test; elsewhere it is skipped.
"""

from __future__ import annotations

import os
import shutil
import struct
import time
from pathlib import Path

import pytest

from rootlaw.runtime import Game
from rootlaw.runtime.cli import main
from rootlaw.runtime.game import base_bundle
from rootlaw.runtime.log import replay_log
from rootlaw.runtime.render import render_svg

GOLDEN = Path(__file__).resolve().parent / "golden"
LAUNCH_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
               "--disable-component-update", "--disable-sync", "--no-first-run"]


def chromium() -> str | None:
    for candidate in (os.environ.get("ROOTLAW_CHROMIUM"), shutil.which("chromium"),
                      shutil.which("chromium-browser"), "/usr/bin/chromium"):
        if candidate and Path(candidate).is_file():
            return candidate
    return None


def unavailable(reason: str):
    if os.environ.get("CI"):
        pytest.fail(f"CI must run the browser test: {reason}")
    pytest.skip(reason)


@pytest.fixture(scope="module")
def browser():
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        unavailable('Playwright is not installed (pip install "rootlaw[browser]")')
    exe = chromium()
    if exe is None:
        unavailable("no Chromium found (apt-get install chromium, or set ROOTLAW_CHROMIUM)")
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=exe, args=LAUNCH_ARGS)
        yield b
        b.close()


def png_size(path: Path) -> tuple[int, int]:
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    assert data[12:16] == b"IHDR"
    return struct.unpack(">II", data[16:24])


def test_the_replay_viewer_steps_through_a_game_in_chromium(browser, tmp_path):
    started = time.perf_counter()
    log = GOLDEN / "marquise-eyrie-seed7.jsonl"
    html = tmp_path / "replay.html"
    assert main(["replay", str(log), "--html", str(html)]) == 0
    final = replay_log(log, base_bundle())
    n = len(final.history)

    page = browser.new_page(viewport={"width": 1440, "height": 900})
    problems: list[str] = []
    requests: list[str] = []
    page.on("console", lambda m: problems.append(f"console {m.type}: {m.text}")
            if m.type in ("error", "warning") else None)
    page.on("pageerror", lambda e: problems.append(f"page error: {e}"))
    page.on("request", lambda r: requests.append(r.url))
    page.goto(html.as_uri())
    page.wait_for_selector("#board svg")

    # A board: the map's twelve clearings, each numbered, and the pieces of position 0.
    board = page.locator("#board svg")
    assert board.locator("g.clearing").count() == len(final.bundle.map.clearings) == 12
    assert board.locator("g.label text").all_text_contents() == [str(i) for i in range(1, 13)]
    assert page.evaluate("rootlawReplay.position") == 0
    assert page.evaluate("rootlawReplay.positions") == n

    shot = tmp_path / "replay.png"
    page.screenshot(path=str(shot))
    assert png_size(shot) == (1440, 900)
    assert shot.stat().st_size > 40_000, "a real picture, not a blank page"

    # → steps one decision: the board changes, and it is what render_svg draws there.
    before = page.inner_html("#board")
    page.keyboard.press("ArrowRight")
    assert page.evaluate("rootlawReplay.position") == 1
    after = page.inner_html("#board")
    assert after != before
    g = Game(final.factions, final.seed)
    g.apply(final.history[0])
    assert page.evaluate("rootlawReplay.svgAt(1)") == render_svg(g)
    assert "position 1 / " in page.inner_text("#counter")
    page.keyboard.press("ArrowLeft")
    assert page.evaluate("rootlawReplay.position") == 0
    assert page.inner_html("#board") == before

    # Turns, ends and buttons.
    page.keyboard.press("PageDown")
    k = page.evaluate("rootlawReplay.position")
    assert 0 < k < n
    page.keyboard.press("PageDown")
    assert page.evaluate("rootlawReplay.position") > k
    page.keyboard.press("PageUp")
    assert page.evaluate("rootlawReplay.position") == k
    page.keyboard.press("End")
    assert page.evaluate("rootlawReplay.position") == n
    winner = final.bundle.faction(final.winner_faction).name
    assert f"{winner} wins" in page.inner_text("#board")
    assert f"{winner} wins" in page.inner_text("#now")
    last = page.locator("#log li").nth(n - 1)
    assert last.evaluate("e => { const r = e.getBoundingClientRect(), "
                         "p = e.parentElement.getBoundingClientRect(); "
                         "return r.top >= p.top && r.bottom <= p.bottom + 1; }"), \
        "at the end the log shows its last decision"
    page.click("#prev")
    assert page.evaluate("rootlawReplay.position") == n - 1
    assert page.locator("#log li.next").count() == 1
    page.keyboard.press("Home")
    assert page.evaluate("rootlawReplay.position") == 0
    page.click("#log li:nth-child(5)")
    assert page.evaluate("rootlawReplay.position") == 4

    assert problems == []
    assert requests == [html.as_uri()], "the page itself is the only thing loaded"
    page.close()
    # How long this takes is reported, never asserted (no timed tests).
    print(f"browser test: {time.perf_counter() - started:.1f}s")
