// Loaded as a classic script before any module: records Content-Security-Policy violations from
// the very start, and gives the test a promise to wait on (window.__done) that the page's module
// settles with window.__finish(outcome). No inline script anywhere, so a strict CSP can apply.
(function () {
  var violations = [];
  document.addEventListener(
    'securitypolicyviolation',
    function (e) {
      violations.push({
        directive: e.effectiveDirective || e.violatedDirective,
        blockedURI: e.blockedURI,
        sample: e.sample,
        sourceFile: e.sourceFile,
        line: e.lineNumber,
      });
    },
    true,
  );
  window.__violations = violations;
  window.__done = new Promise(function (resolve) {
    window.__finish = resolve;
  });
})();
