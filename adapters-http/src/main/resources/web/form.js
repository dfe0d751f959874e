// A paused run's form on a page of its own (the link its mail carries): the form's content as text, each
// {{#$output.name#}} replaced by its field, one button per action, and what became of it (recorded, already
// answered, expired). It reads and answers the form by its token alone: GET|POST /api/form/human_input/{token}.
(function () {
  'use strict';

  const token = document.body.dataset.formToken;
  const url = '/api/form/human_input/' + encodeURIComponent(token);
  const $ = (id) => document.getElementById(id);
  const FIELD = /\{\{#\$output\.([a-zA-Z_][a-zA-Z0-9_]{0,29})#\}\}/g;
  const STATES = {
    human_input_form_submitted: 'This form has already been answered. Thank you.',
    human_input_form_expired: 'This form has expired and can no longer be answered.',
    not_found: 'This form does not exist. If someone gave you this link, ask them for a new one.',
    web_form_rate_limit_exceeded: 'Too many answers were sent from here. Please wait a minute and try again.',
  };

  function showState(text) {
    $('form-state').textContent = text;
    $('form-state').hidden = false;
    $('answer-form').hidden = true;
  }

  function showError(text) {
    $('form-error').textContent = text;
    $('form-error').hidden = !text;
  }

  async function call(method, body) {
    const response = await fetch(url, {
      method,
      headers: body ? { 'Content-Type': 'application/json' } : {},
      body: body ? JSON.stringify(body) : undefined,
      credentials: 'omit',
    });
    let json = null;
    try { json = await response.json(); } catch (e) { json = null; }
    return { ok: response.ok, status: response.status, body: json || {} };
  }

  /** The input of one of the form's fields, with its default; a file field cannot be answered here. */
  function widget(input, defaults) {
    const name = input.output_variable_name;
    const value = defaults[name] !== undefined ? defaults[name]
      : (input.default && input.default.type === 'constant' ? String(input.default.value || '') : '');
    let element;
    if (input.type === 'paragraph') {
      element = document.createElement('textarea');
      element.value = value;
    } else if (input.type === 'select') {
      element = document.createElement('select');
      const source = input.option_source || {};
      const options = Array.isArray(source.value) ? source.value : (Array.isArray(input.options) ? input.options : []);
      element.append(new Option('Choose…', ''));
      options.forEach((option) => element.append(new Option(String(option), String(option))));
      element.value = options.map(String).includes(value) ? value : '';
    } else if (input.type === 'text_input' || input.type === 'text-input') {
      element = document.createElement('input');
      element.type = 'text';
      element.value = value;
    } else {
      element = document.createElement('span');
      element.className = 'hint';
      element.textContent = '(a file input: not supported on this page)';
      return element;
    }
    element.name = name;
    element.id = 'field-' + name;
    element.setAttribute('aria-label', name);
    element.dataset.field = name;
    return element;
  }

  /** The content as text, split on its fields; a field the content never names is added after it. */
  function render(form) {
    const box = $('form-content');
    box.replaceChildren();
    const inputs = new Map((form.inputs || []).map((input) => [input.output_variable_name, input]));
    const shown = new Set();
    const content = form.form_content || '';
    let last = 0;
    for (const match of content.matchAll(FIELD)) {
      box.append(document.createTextNode(content.slice(last, match.index)));
      const input = inputs.get(match[1]);
      box.append(input ? widget(input, form.resolved_default_values || {}) : document.createTextNode(match[0]));
      shown.add(match[1]);
      last = match.index + match[0].length;
    }
    box.append(document.createTextNode(content.slice(last)));
    inputs.forEach((input, name) => {
      if (!shown.has(name)) {
        const label = document.createElement('label');
        label.className = 'field';
        label.append(document.createTextNode(name), widget(input, form.resolved_default_values || {}));
        box.append(label);
      }
    });
    const actions = $('form-actions');
    actions.replaceChildren();
    (form.user_actions || []).forEach((action) => {
      const button = document.createElement('button');
      button.type = 'button';
      button.textContent = action.title || action.id;
      button.className = action.button_style === 'primary' ? 'primary' : 'secondary';
      button.dataset.action = action.id;
      button.addEventListener('click', () => answer(action.id));
      actions.append(button);
    });
    if (form.expiration_time) {
      $('form-expiry').textContent = 'Open until ' + new Date(form.expiration_time * 1000).toLocaleString() + '.';
    }
    $('answer-form').hidden = false;
  }

  async function answer(action) {
    const inputs = {};
    document.querySelectorAll('[data-field]').forEach((element) => { inputs[element.dataset.field] = element.value; });
    const buttons = document.querySelectorAll('#form-actions button');
    buttons.forEach((button) => { button.disabled = true; });
    showError('');
    try {
      const result = await call('POST', { inputs, action });
      if (result.ok) {
        showState('Your answer is recorded. Thank you. (Submission ID: ' + token + ')');
      } else if (STATES[result.body.code] && result.body.code !== 'web_form_rate_limit_exceeded') {
        showState(STATES[result.body.code]);
      } else {
        showError(STATES[result.body.code] || result.body.message || 'The answer was not taken (' + result.status + ').');
      }
    } catch (e) {
      showError('The server cannot be reached. Check your connection and try again.');
    } finally {
      buttons.forEach((button) => { button.disabled = false; });
    }
  }

  async function load() {
    try {
      const result = await call('GET');
      if (result.ok) {
        render(result.body);
      } else {
        showState(STATES[result.body.code] || result.body.message || 'The form could not be read.');
      }
    } catch (e) {
      showState('The server cannot be reached. Check your connection and reload the page.');
    }
  }

  load();
}());
