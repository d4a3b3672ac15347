"""Screenshots of the table at every size and in every language, to look at (not a test).

    .venv/bin/python tools/screenshots.py [--sizes 390x844,1366x768] [--languages en,ja]

Starts a `dizhu serve` on loopback and, for each size and language, saves to
artifacts/screenshots/<size>-<language>-<state>.png: the start screen, the rules, the
puzzles' list, the table while bidding, the table in play, the menu, and the results of a
round (played by Auto), plus the duel table in play.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))
from page import served_chromium  # noqa: E402

OUT = ROOT / "artifacts" / "screenshots"
SIZES = ["360x640", "390x844", "844x390", "1366x768", "1920x1080"]
LOCALES = {"en": "en-US", "ja": "ja-JP", "zh-Hans": "zh-CN", "zh-Hant": "zh-TW"}


def shoot(browser, url: str, size: str, language: str) -> None:
    width, height = (int(n) for n in size.split("x"))
    phone = width < 900 or height < 500
    context = browser.new_context(viewport={"width": width, "height": height}, locale=LOCALES[language],
                                  device_scale_factor=2 if phone else 1, has_touch=phone)
    context.add_init_script("try { localStorage.setItem('dizhu.setting.speed', '0');"
                            " localStorage.setItem('dizhu.setting.coachSeen', 'true');"
                            " localStorage.setItem('dizhu.setting.autoInterval', '500'); } catch (e) {}")
    page = context.new_page()

    def name(state: str) -> str:
        # Once the deal's cards have landed and every fade-in has ended (the landlord's news and
        # the bids came out half transparent when only the hand was waited for); the endless
        # pulses (a seat's last card, the thinking dots) are not waited for.
        # (a new round's hand is empty for a moment before its deal begins: wait for its cards too)
        page.wait_for_function("""() => { const hand = document.querySelector('#hand');
          return !hand || (!hand.classList.contains('deal')
            && (hand.querySelector('.card') || document.body.dataset.phase === 'over'
                || document.body.dataset.screen !== 'table')); }""")
        page.evaluate("""() => Promise.all(document.getAnimations()
          .filter((a) => a.effect && a.effect.getComputedTiming().iterations !== Infinity)
          .map((a) => a.finished.catch(() => null)))""")
        return str(OUT / f"{size}-{language}-{state}.png")

    page.goto(url)
    page.wait_for_selector("body[data-ready][data-screen=start]")
    page.screenshot(path=name("start"))
    # The screens whose styles and words load with their module: the rules and the puzzles' list.
    page.click("#start-rules-btn")
    page.wait_for_selector("#rules-dialog[open] #rules-about")
    page.screenshot(path=name("rules"))
    page.keyboard.press("Escape")
    page.click("#puzzles-btn")
    page.wait_for_selector("body[data-screen=puzzles][data-puzzle=list]")
    page.screenshot(path=name("puzzles"))
    page.click("#pz-back")
    page.wait_for_selector("body[data-screen=start]")
    page.check("input[name=variant][value=classic]")
    page.click("#start-btn")
    page.wait_for_selector("body[data-turn=me], body[data-phase=over]", timeout=60_000)
    if page.get_attribute("body", "data-phase") == "bidding":
        page.screenshot(path=name("bidding"))
        page.click("[data-ctl=bid-bid-3]" if page.is_visible("[data-ctl=bid-bid-3]") else "[data-ctl=bid-pass]")
    page.wait_for_selector("body[data-phase=playing][data-turn=me], body[data-phase=over]", timeout=60_000)
    page.screenshot(path=name("playing"))
    page.click("#menu-btn")
    page.screenshot(path=name("menu"))
    page.keyboard.press("Escape")
    if page.get_attribute("body", "data-phase") != "over":
        page.click("[data-ctl=auto]")
    page.wait_for_selector("#settle-dialog[open]", timeout=120_000)
    page.screenshot(path=name("results"))
    page.click("[data-ctl=view-table]")
    page.click("#menu-btn")
    page.click("#menu-home")
    page.check("input[name=variant][value=duel]")
    page.click("#start-btn")
    page.wait_for_selector("#confirm-dialog[open], body[data-turn=me]", timeout=60_000)
    if page.is_visible("#confirm-dialog[open]"):
        page.click("#confirm-yes")
    page.wait_for_selector("body[data-screen=table][data-turn=me], body[data-phase=over]", timeout=60_000)
    page.screenshot(path=name("duel"))
    context.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", default=",".join(SIZES))
    parser.add_argument("--languages", default=",".join(LOCALES))
    args = parser.parse_args()
    OUT.mkdir(parents=True, exist_ok=True)
    with served_chromium() as (browser, url):
        for size in args.sizes.split(","):
            for language in args.languages.split(","):
                shoot(browser, url, size, language)
                print(f"{size} {language}: done", flush=True)


if __name__ == "__main__":
    main()
