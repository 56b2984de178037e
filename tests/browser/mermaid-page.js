// The Mermaid page (driven by tests/browser/mermaid.test.mjs): loads mermaid's ESM bundle from
// node_modules through the test server (no CDN, no network), then offers window.__mermaid for
// page.evaluate to parse and render Mermaid texts. Settles window.__done (page-setup.js) with
// { ok, value: { version } } once mermaid is loaded, or { ok: false, error }.
const BUNDLE = '/node_modules/mermaid/dist/mermaid.esm.min.mjs';

function describeError(e) {
  return String(e?.message ?? e).slice(0, 2000);
}

/**
 * The text a person sees in a rendered SVG: every text node outside <style>, as DOM text (entities
 * decoded). Mermaid serializes its HTML labels as HTML (`<br>`), so the SVG is parsed as HTML, as a
 * page that inlines it would.
 */
function visibleText(svg) {
  const doc = new DOMParser().parseFromString(`<!doctype html><body>${svg}`, 'text/html');
  const root = doc.body.firstElementChild;
  if (root?.localName !== 'svg') throw new Error('mermaid.render gave no <svg>');
  for (const style of root.querySelectorAll('style')) style.remove();
  const texts = [];
  const walker = doc.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) texts.push(node.data);
  return texts;
}

try {
  const { default: mermaid } = await import(BUNDLE);
  mermaid.initialize({ startOnLoad: false, securityLevel: 'strict', flowchart: { htmlLabels: true } });
  let renders = 0;
  window.__mermaid = {
    /** [{ ok, type } | { ok: false, error }] for each text, in order. */
    async parseAll(texts) {
      const out = [];
      for (const text of texts) {
        try {
          const result = await mermaid.parse(text);
          out.push({ ok: true, type: result?.diagramType ?? null });
        } catch (e) {
          out.push({ ok: false, error: describeError(e) });
        }
      }
      return out;
    },
    /** [{ ok, texts, svgBytes } | { ok: false, error }]: each text rendered to SVG, and what it shows. */
    async renderAll(texts) {
      const out = [];
      for (const text of texts) {
        try {
          const { svg } = await mermaid.render(`render-${renders++}`, text);
          out.push({ ok: true, texts: visibleText(svg), svgBytes: svg.length });
        } catch (e) {
          out.push({ ok: false, error: describeError(e) });
        }
      }
      return out;
    },
  };
  window.__finish({ ok: true, value: { version: mermaid.version ?? null } });
} catch (e) {
  window.__finish({ ok: false, error: describeError(e) });
}
