"""Contrast measured on the rendered pixels, not on the style sheet: for every piece of text in
view, the screenshot's pixels under it give its background (their most common colour) and its
ink (the pixels that stand out most from it), and WCAG's ratio between them must reach 4.5
(3 for large text: 24 px, or 18.7 px bold). The site has one theme (dark, the green table).

What the style sheet cannot tell: text over a gradient, a translucent panel, a backdrop, a
dimmed (not disabled) control, an anti-aliased thin font at a small size.
"""

from __future__ import annotations

import base64

import pytest

from .e2e_support import Table

SIZES = {"desktop": {"width": 1366, "height": 768}, "phone": {"width": 390, "height": 844}}

# In the page: every text node in view and on top, with its box and what it needs.
TEXTS = """() => {
  const modal = [...document.querySelectorAll('dialog[open]')].pop();
  const out = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const el = node.parentElement;
    // Punctuation alone (the "." after a hint's cards) is too few pixels to tell; its sentence is measured.
    if (!/[\\p{L}\\p{N}]/u.test(node.data) || !el || el.closest('script, style, option, .sr-only, svg.defs')) continue;
    if (modal ? !modal.contains(el) : el.closest('dialog')) continue;
    // Inactive controls are exempt (WCAG 1.4.3).
    if (el.closest('button:disabled, [aria-disabled=true]')) continue;
    const style = getComputedStyle(el);
    if (style.visibility === 'hidden') continue;
    const range = document.createRange();
    range.selectNodeContents(node);
    const r = range.getBoundingClientRect();
    const box = [Math.max(0, r.left), Math.max(0, r.top), Math.min(innerWidth, r.right), Math.min(innerHeight, r.bottom)];
    // Only the part a scroller shows (a paragraph half under the rules' bottom edge measured the edge).
    for (let p = el; p; p = p.parentElement) {
      const st = getComputedStyle(p);
      if (!/(auto|scroll|hidden)/.test(st.overflowX + st.overflowY)) continue;
      const q = p.getBoundingClientRect();
      box[0] = Math.max(box[0], q.left); box[1] = Math.max(box[1], q.top);
      box[2] = Math.min(box[2], q.right); box[3] = Math.min(box[3], q.bottom);
    }
    if (box[2] - box[0] < 3 || box[3] - box[1] < 3) continue;
    // On top where it is drawn (not under a dialog, a card or the news).
    const hit = document.elementFromPoint((box[0] + box[2]) / 2, (box[1] + box[3]) / 2);
    if (!hit || !(hit === el || el.contains(hit) || hit.contains(el))) continue;
    const size = parseFloat(style.fontSize);
    const large = size >= 24 || (size >= 18.66 && Number(style.fontWeight) >= 700);
    out.push({text: node.data.trim().slice(0, 40), where: el.id || el.className || el.tagName,
              box: box.map((v) => Math.round(v * 4) / 4), need: large ? 3 : 4.5, size});
  }
  return out;
}"""

# In the page, on the screenshot's PNG: each text's ratio, background (the most common colour
# under it) against ink (near the top of the pixels that stand out, past a few stray ones).
RATIOS = """async ([png, texts]) => {
  const bytes = Uint8Array.from(atob(png), (c) => c.charCodeAt(0));
  const bitmap = await createImageBitmap(new Blob([bytes], {type: 'image/png'}));
  const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
  const context = canvas.getContext('2d');
  context.drawImage(bitmap, 0, 0);
  const {data, width} = context.getImageData(0, 0, bitmap.width, bitmap.height);
  const scale = bitmap.width / innerWidth;
  const channel = (c) => { c /= 255; return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4; };
  const luminance = (i) => 0.2126 * channel(data[i]) + 0.7152 * channel(data[i + 1]) + 0.0722 * channel(data[i + 2]);
  const ratio = (a, b) => (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
  return texts.map(({box}) => {
    const [x0, y0, x1, y1] = box.map((v) => Math.round(v * scale));
    const counts = new Map();
    for (let y = y0; y < y1; y += 1) for (let x = x0; x < x1; x += 1) {
      const i = (y * width + x) * 4;
      const key = ((data[i] >> 3) << 10) | ((data[i + 1] >> 3) << 5) | (data[i + 2] >> 3);
      const seen = counts.get(key);
      if (seen) seen.n += 1; else counts.set(key, {n: 1, i});
    }
    let background = null;
    for (const entry of counts.values()) if (!background || entry.n > background.n) background = entry;
    const bg = luminance(background.i);
    const ink = [];
    for (let y = y0; y < y1; y += 1) for (let x = x0; x < x1; x += 1) {
      const c = ratio(bg, luminance((y * width + x) * 4));
      if (c > 1.2) ink.push(c);
    }
    if (ink.length < 4) return null;
    ink.sort((a, b) => b - a);
    return Math.round(ink[Math.min(ink.length - 1, Math.max(2, Math.floor(ink.length * 0.05)))] * 100) / 100;
  });
}"""


def low_contrast(table: Table, state: str) -> list[str]:
    page = table.page
    # Still frames only: a text fading in is not yet its colour; and the same boxes before and
    # after the screenshot, or the page moved under it.
    for _ in range(10):
        page.evaluate("""() => Promise.all(document.getAnimations()
          .filter((a) => a.effect && a.effect.getComputedTiming().iterations !== Infinity)
          .map((a) => a.finished.catch(() => null)))""")
        before = page.evaluate(TEXTS)
        shot = table.shot(f"contrast-{page.viewport_size['width']}-{state.split(',')[0].replace(' ', '-')}")
        if page.evaluate(TEXTS) == before:
            break
        page.wait_for_timeout(200)
    else:
        raise AssertionError(f"{state}: the page never stood still")
    assert before, f"{state}: no text measured"
    ratios = page.evaluate(RATIOS, [base64.b64encode(shot.read_bytes()).decode(), before])
    return [f"{state}: {t['text']!r} at {t['where']} {r}:1 < {t['need']} ({t['size']}px)"
            for t, r in zip(before, ratios) if r is not None and r < t["need"]]


@pytest.mark.parametrize("size", sorted(SIZES))
def test_text_contrast_on_rendered_pixels(make_table, size):
    table = make_table(SIZES[size]).open()
    page = table.page
    bad = low_contrast(table, "start")
    page.check("input[name=variant][value=duel]")  # the selected option's description
    bad += low_contrast(table, "start, duel chosen")
    table.start("classic")
    table.wait_turn_or_over()
    bad += low_contrast(table, f"table {page.get_attribute('body', 'data-phase')}")
    table.to_my_play_turn()
    page.click("#counter-btn")  # the counter, with its zero counts
    page.click("[data-ctl=hint]")
    table.wait("#status.hint")
    bad += low_contrast(table, "playing, counter, hint")
    page.click("#menu-btn")
    table.wait("#menu-dialog[open]")
    bad += low_contrast(table, "menu")
    page.click("#menu-log")
    table.wait("#log-dialog[open] #log-body p")
    bad += low_contrast(table, "log")
    page.keyboard.press("Escape")
    page.click("#rules-btn")
    table.wait("#rules-dialog[open]")
    bad += low_contrast(table, "rules")
    page.keyboard.press("Escape")
    page.keyboard.press("Escape")  # the hint's selection
    if size == "desktop":  # a whole round: once (the results sheet is the same at both sizes but for its width)
        table.play_round("classic")
        bad += low_contrast(table, "results")
    assert bad == [], "\n".join(bad)
