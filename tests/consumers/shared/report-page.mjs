// For the browser fixtures: imported first by a page's module, so it runs before the rest of the
// app. It gives the test a promise to wait on (window.__done, see tests/browser/harness.mjs
// runPage), records Content-Security-Policy violations, and `settle(fn)` settles the promise
// with fn's result, or its error, plus the violations seen.
const violations = [];
document.addEventListener('securitypolicyviolation', (e) => {
  violations.push({ directive: e.effectiveDirective || e.violatedDirective, blockedURI: e.blockedURI, sample: e.sample });
}, true);
let finish;
window.__done = new Promise((resolve) => {
  finish = resolve;
});

export async function settle(fn) {
  try {
    finish({ ok: true, value: await fn(), violations });
  } catch (error) {
    finish({ ok: false, error: String(error?.stack ?? error), violations });
  }
}
