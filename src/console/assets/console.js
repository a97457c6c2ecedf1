// The console's only script, and an optional one: every page works without it. It adds copy
// buttons, confirmations before some writes, and submit buttons that disable themselves so a
// double click sends one request (each form also carries its own Idempotency-Key).
'use strict';

document.addEventListener('click', (event) => {
  const button = event.target instanceof Element ? event.target.closest('button[data-copy-target]') : null;
  if (!button) return;
  const source = document.getElementById(button.getAttribute('data-copy-target') || '');
  if (!source) return;
  const text = source.textContent || '';
  const done = () => {
    button.textContent = 'Copied';
    button.setAttribute('aria-live', 'polite');
  };
  if (navigator.clipboard && window.isSecureContext) {
    navigator.clipboard.writeText(text).then(done, () => selectText(source));
  } else {
    selectText(source);
  }
});

function selectText(element) {
  const range = document.createRange();
  range.selectNodeContents(element);
  const selection = window.getSelection();
  if (!selection) return;
  selection.removeAllRanges();
  selection.addRange(range);
}

document.addEventListener('submit', (event) => {
  const form = event.target;
  if (!(form instanceof HTMLFormElement)) return;
  const submitter = event.submitter instanceof HTMLElement ? event.submitter : form.querySelector('button[type="submit"]');
  const question = submitter ? submitter.getAttribute('data-confirm') : null;
  if (question && !window.confirm(question)) {
    event.preventDefault();
    return;
  }
  if (submitter && submitter.hasAttribute('data-disable-on-submit')) {
    // After the form's data is taken: a disabled button would not be sent otherwise.
    setTimeout(() => {
      submitter.setAttribute('disabled', '');
      submitter.setAttribute('aria-busy', 'true');
    }, 0);
  }
});

// Buttons that only work with this script are hidden without it.
for (const button of document.querySelectorAll('button[data-copy-target]')) button.hidden = false;
