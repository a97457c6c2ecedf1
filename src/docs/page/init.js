// Starts Redoc on the docs copy of the contract. A separate file (not an inline script) so the
// page's Content-Security-Policy can forbid inline scripts.
(function () {
  var el = document.getElementById('reference');
  var fonts = 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif';
  var mono = 'ui-monospace, SFMono-Regular, Menlo, Consolas, "Liberation Mono", monospace';
  window.Redoc.init(el.getAttribute('data-spec-url'), {
    // The download button offers the published contract, not the docs copy.
    downloadDefinitionUrl: '/openapi.json',
    downloadFileName: 'openapi.json',
    expandResponses: '200',
    jsonSampleExpandLevel: 3,
    requiredPropsFirst: true,
    showWebhookVerb: true,
    hideHostname: false,
    pathInMiddlePanel: true,
    theme: {
      typography: { fontFamily: fonts, headings: { fontFamily: fonts }, code: { fontFamily: mono } },
    },
  }, el, function (err) {
    if (err) {
      el.setAttribute('data-render-error', String(err && err.message || err));
      return;
    }
    document.body.setAttribute('data-rendered', 'true');
  });
})();
