// The workflow web page: the app's form, a run streamed into its result and steps; for a text generator
// (data-mode "completion") the same form sends a completion message and streams its answer. What it shares with the chat
// page (the token, the user id, errors in words, the header, reading the stream) is in client.js.
(function () {
  'use strict';

  const code = document.body.dataset.siteCode;
  const textGenerator = document.body.dataset.mode === 'completion';
  const $ = (id) => document.getElementById(id);
  const page = window.HexaflowPage;
  const { OFFLINE, KINDS, KIND_WORDS, PageError, readJson } = page;

  const state = {
    // The server's answer for the page's token may name another id than the one kept: read it each time.
    get user() { return page.userId(); },
    site: null,
    fields: [],
    limits: {},
    run: null,
  };

  // ---- errors in words

  function labelOf(variable) {
    const field = state.fields.find((f) => f.variable === variable);
    return field ? '“' + field.label + '”' : '“' + variable + '”';
  }

  /** The server's message for a client mistake, with the form's labels in place of variable names. */
  function inputWords(message) {
    let m = /^(\S+) is required in input form$/.exec(message);
    if (m) return 'Please fill in ' + labelOf(m[1]) + '.';
    m = /^(\S+) in input form must be less than (\d+) characters$/.exec(message);
    if (m) return labelOf(m[1]) + ' can be at most ' + m[2] + ' characters long.';
    m = /^(\S+) in input form must be less than (\d+) files$/.exec(message);
    if (m) return labelOf(m[1]) + ' takes at most ' + m[2] + ' files.';
    m = /^(\S+) in input form must be one of the following: .*$/.exec(message);
    if (m) return 'Please choose one of the options for ' + labelOf(m[1]) + '.';
    m = /^(\S+) in input form must be a valid number$/.exec(message);
    if (m) return labelOf(m[1]) + ' must be a number.';
    m = /^(\S+?):? (.*)$/.exec(message);
    if (m && state.fields.some((f) => f.variable === m[1])) return labelOf(m[1]) + ': ' + m[2];
    return message;
  }

  function inWords(status, body) {
    return page.errorWords(status, body, inputWords);
  }

  const client = page.connect(code, inWords);
  const api = client.api;
  const expectOk = client.expectOk;

  function notice(text) {
    const box = $('notice');
    box.textContent = text;
    box.hidden = !text;
  }

  // ---- the app's site and form

  async function load() {
    try {
      const [site, parameters] = await Promise.all([
        api('/site').then((r) => expectOk(r)),
        api('/parameters').then((r) => expectOk(r)),
      ]);
      state.site = site;
      state.limits = parameters.system_parameters || {};
      page.showSite(site, '⚙️');
      buildForm(parameters.user_input_form || []);
      $('run-button').disabled = false;
    } catch (e) {
      $('fields').replaceChildren();
      notice(e instanceof PageError ? e.message : OFFLINE);
    }
  }

  function buildForm(items) {
    state.fields = [];
    const container = $('fields');
    container.replaceChildren();
    items.forEach((item, index) => {
      const type = Object.keys(item)[0];
      const spec = Object.assign({ type }, item[type]);
      if (!spec.variable || spec.hide === true) {
        return;
      }
      const field = makeField(spec, 'field-' + index);
      state.fields.push(field);
      container.appendChild(field.element);
    });
    if (state.fields.length === 0) {
      const none = document.createElement('p');
      none.className = 'muted';
      none.textContent = textGenerator ? 'This app takes no inputs.' : 'This workflow takes no inputs.';
      container.appendChild(none);
    }
  }

  function text(tag, className, content) {
    const node = document.createElement(tag);
    if (className) node.className = className;
    node.textContent = content;
    return node;
  }

  function makeField(spec, id) {
    const field = {
      variable: spec.variable,
      label: spec.label || spec.variable,
      type: spec.type,
      spec,
      required: spec.required === true,
      files: [],
    };
    const wrapper = document.createElement('div');
    wrapper.className = 'field field-' + spec.type;
    wrapper.dataset.variable = spec.variable;
    const label = document.createElement('label');
    label.htmlFor = id;
    label.appendChild(document.createTextNode(field.label));
    if (field.required) {
      const mark = text('span', 'required', '*');
      mark.setAttribute('aria-hidden', 'true');
      label.appendChild(mark);
      label.appendChild(text('span', 'visually-hidden', ' (required)'));
    }
    const described = [];
    const hints = [];
    if (spec.hint) hints.push(spec.hint);
    const maxLength = Number(spec.max_length) || 0;
    let control;
    switch (spec.type) {
      case 'paragraph':
        control = document.createElement('textarea');
        control.rows = 4;
        break;
      case 'select':
        control = document.createElement('select');
        control.appendChild(option('', field.required ? 'Choose one' : '(none)'));
        (spec.options || []).forEach((value) => control.appendChild(option(String(value), String(value))));
        break;
      case 'number':
        control = document.createElement('input');
        control.type = 'number';
        control.step = 'any';
        control.inputMode = 'decimal';
        break;
      case 'checkbox':
        control = document.createElement('input');
        control.type = 'checkbox';
        break;
      case 'file':
      case 'file-list':
        control = document.createElement('input');
        control.type = 'file';
        control.multiple = spec.type === 'file-list';
        control.accept = accepted(spec);
        hints.push(fileHint(spec));
        break;
      case 'json_object':
        control = document.createElement('textarea');
        control.rows = 4;
        control.spellcheck = false;
        hints.push('A JSON object, such as {"key": "value"}.');
        break;
      default:
        control = document.createElement('input');
        control.type = 'text';
    }
    control.id = id;
    control.name = spec.variable;
    if (field.required) control.setAttribute('aria-required', 'true');
    if ((spec.type === 'text-input' || spec.type === 'paragraph') && maxLength > 0) {
      control.maxLength = maxLength;
      hints.push('Up to ' + maxLength + ' characters.');
    }
    if (spec.placeholder && 'placeholder' in control && spec.type !== 'file' && spec.type !== 'file-list') {
      control.placeholder = spec.placeholder;
    }
    field.control = control;
    field.initial = initialValue(spec);
    setValue(field, field.initial);
    if (spec.type === 'checkbox') {
      const row = document.createElement('div');
      row.className = 'checkbox';
      row.appendChild(control);
      row.appendChild(label);
      wrapper.appendChild(row);
    } else {
      wrapper.appendChild(label);
      wrapper.appendChild(control);
    }
    if (hints.length > 0) {
      const hint = text('p', 'hint', hints.join(' '));
      hint.id = id + '-hint';
      described.push(hint.id);
      wrapper.appendChild(hint);
    }
    if (spec.type === 'file' || spec.type === 'file-list') {
      field.list = document.createElement('ul');
      field.list.className = 'files';
      field.list.setAttribute('aria-label', 'Files for ' + field.label);
      wrapper.appendChild(field.list);
      control.addEventListener('change', () => chooseFiles(field));
    }
    field.error = text('p', 'field-error', '');
    field.error.id = id + '-error';
    field.error.hidden = true;
    wrapper.appendChild(field.error);
    described.push(field.error.id);
    control.setAttribute('aria-describedby', described.join(' '));
    control.addEventListener('input', () => showFieldError(field, ''));
    field.element = wrapper;
    return field;
  }

  function option(value, label) {
    const node = document.createElement('option');
    node.value = value;
    node.textContent = label;
    return node;
  }

  function initialValue(spec) {
    const value = spec.default;
    if (value === undefined || value === null) return spec.type === 'checkbox' ? false : '';
    if (spec.type === 'checkbox') return value === true || value === 'true' || value === 1 || value === '1';
    return typeof value === 'object' ? '' : String(value);
  }

  function setValue(field, value) {
    if (field.type === 'checkbox') {
      field.control.checked = Boolean(value);
    } else if (field.type !== 'file' && field.type !== 'file-list') {
      field.control.value = value;
    }
  }

  // ---- files

  function extensionOf(name) {
    const dot = name.lastIndexOf('.');
    return dot < 0 ? '' : name.slice(dot + 1).toLowerCase();
  }

  function kindOf(extension) {
    return Object.keys(KINDS).find((kind) => KINDS[kind].includes(extension)) || 'custom';
  }

  function allowedKinds(spec) {
    return Array.isArray(spec.allowed_file_types) && spec.allowed_file_types.length > 0
      ? spec.allowed_file_types : null;
  }

  function customExtensions(spec) {
    return (spec.allowed_file_extensions || []).map((e) => String(e).replace(/^\./, '').toLowerCase());
  }

  function accepted(spec) {
    const kinds = allowedKinds(spec);
    if (!kinds) return '';
    const extensions = [];
    kinds.forEach((kind) => {
      if (kind === 'custom') {
        extensions.push(...customExtensions(spec));
      } else {
        extensions.push(...(KINDS[kind] || []));
      }
    });
    if (kinds.includes('custom') && customExtensions(spec).length === 0) return '';
    return extensions.map((e) => '.' + e).join(',');
  }

  function fileHint(spec) {
    const kinds = allowedKinds(spec);
    const what = kinds ? kinds.map((k) => KIND_WORDS[k] || k).join(', ') : 'files';
    const count = spec.type === 'file-list' && Number(spec.max_length) > 0
      ? ' Up to ' + Number(spec.max_length) + ' files.' : '';
    return 'Upload ' + what + ' from this device.' + count;
  }

  /** Whether a file may go in the field, and what it is sent as: a message for the person, or its kind. */
  function fileCheck(field, file) {
    const extension = extensionOf(file.name);
    const kinds = allowedKinds(field.spec);
    let kind = kindOf(extension);
    if (kinds && kinds.includes('custom')) {
      const extensions = customExtensions(field.spec);
      if (extensions.length > 0 && !extensions.includes(extension) && !kinds.includes(kind)) {
        return { error: 'Files of type .' + (extension || '?') + ' cannot be used here.' };
      }
      kind = kinds.includes(kind) ? kind : 'custom';
    } else if (kinds && !kinds.includes(kind)) {
      return { error: 'This field takes ' + kinds.map((k) => KIND_WORDS[k] || k).join(', ') + '; '
          + (file.name || 'this file') + ' is not one.' };
    }
    const limitMb = Number(state.limits[kind === 'custom' || kind === 'document' ? 'file_size_limit'
      : kind + '_file_size_limit']) || 0;
    if (limitMb > 0 && file.size > limitMb * 1024 * 1024) {
      return { error: file.name + ' is larger than ' + limitMb + ' MB, the limit for ' + KIND_WORDS[kind] + '.' };
    }
    return { kind };
  }

  function chooseFiles(field) {
    const chosen = Array.from(field.control.files || []);
    if (field.type === 'file') {
      field.files.forEach((entry) => entry.row.remove());
      field.files = [];
    }
    const max = field.type === 'file-list' ? Number(field.spec.max_length) || 0 : 1;
    showFieldError(field, '');
    chosen.forEach((file) => {
      if (max > 0 && field.files.length >= max) {
        showFieldError(field, field.label + ' takes at most ' + max + (max === 1 ? ' file.' : ' files.'));
        return;
      }
      const entry = { name: file.name, state: 'uploading', id: null, kind: null };
      entry.row = fileRow(field, entry);
      field.files.push(entry);
      const check = fileCheck(field, file);
      if (check.error) {
        markFile(entry, 'failed', check.error);
        return;
      }
      entry.kind = check.kind;
      upload(file).then((id) => {
        entry.id = id;
        markFile(entry, 'uploaded', 'Uploaded');
      }, (e) => markFile(entry, 'failed', e.message));
    });
    field.control.value = '';
  }

  function fileRow(field, entry) {
    const row = document.createElement('li');
    row.className = 'file';
    row.appendChild(text('span', 'file-name', entry.name));
    entry.status = text('span', 'file-state', 'Uploading…');
    row.appendChild(entry.status);
    const remove = text('button', 'small secondary', 'Remove');
    remove.type = 'button';
    remove.setAttribute('aria-label', 'Remove ' + entry.name);
    remove.addEventListener('click', () => {
      field.files = field.files.filter((other) => other !== entry);
      row.remove();
      field.control.focus();
    });
    row.appendChild(remove);
    field.list.appendChild(row);
    return row;
  }

  function markFile(entry, status, words) {
    entry.state = status;
    entry.row.className = 'file ' + status;
    entry.status.textContent = words;
  }

  function upload(file) {
    return client.upload(file, state.user);
  }

  // ---- the run

  function showFieldError(field, message) {
    field.error.textContent = message;
    field.error.hidden = !message;
    if (message) {
      field.control.setAttribute('aria-invalid', 'true');
    } else {
      field.control.removeAttribute('aria-invalid');
    }
  }

  function fileValue(entry) {
    return { type: entry.kind, transfer_method: 'local_file', upload_file_id: entry.id };
  }

  /** The inputs as the API takes them, or null after showing what to mend at each field. */
  function collectInputs() {
    const inputs = {};
    let first = null;
    const fail = (field, message) => {
      showFieldError(field, message);
      first = first || field;
    };
    state.fields.forEach((field) => {
      showFieldError(field, '');
      const control = field.control;
      switch (field.type) {
        case 'checkbox':
          inputs[field.variable] = control.checked;
          break;
        case 'number': {
          const value = control.value.trim();
          if (value === '') {
            if (control.validity && control.validity.badInput) fail(field, field.label + ' must be a number.');
            else if (field.required) fail(field, 'Please fill in ' + field.label + '.');
          } else {
            inputs[field.variable] = Number(value);
          }
          break;
        }
        case 'file':
        case 'file-list': {
          if (field.files.some((entry) => entry.state === 'uploading')) {
            fail(field, 'Please wait until the files have uploaded.');
            break;
          }
          const ready = field.files.filter((entry) => entry.state === 'uploaded');
          if (ready.length === 0) {
            if (field.required) fail(field, 'Please add a file to ' + field.label + '.');
          } else {
            inputs[field.variable] = field.type === 'file' ? fileValue(ready[0]) : ready.map(fileValue);
          }
          break;
        }
        case 'json_object': {
          const value = control.value.trim();
          if (value === '') {
            if (field.required) fail(field, 'Please fill in ' + field.label + '.');
            break;
          }
          try {
            const parsed = JSON.parse(value);
            if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error();
            inputs[field.variable] = parsed;
          } catch (e) {
            fail(field, field.label + ' must be a JSON object, such as {"key": "value"}.');
          }
          break;
        }
        case 'select':
          if (control.value === '') {
            if (field.required) fail(field, 'Please choose one of the options for ' + field.label + '.');
          } else {
            inputs[field.variable] = control.value;
          }
          break;
        default:
          if (field.required && control.value.trim() === '') {
            fail(field, 'Please fill in ' + field.label + '.');
          } else {
            inputs[field.variable] = control.value;
          }
      }
    });
    if (first) {
      first.control.focus();
      return null;
    }
    return inputs;
  }

  /**
   * Running, Run is disabled and Stop shown, and back. Focus on the button that goes away moves to the one that
   * comes, so that someone on the keyboard can stop what they started, and start again, without looking for it.
   */
  function setRunning(running) {
    const from = running ? $('run-button') : $('stop-button');
    const hadFocus = document.activeElement === from;
    $('run-button').disabled = running;
    $('run-button').textContent = running ? 'Running…' : 'Run';
    $('stop-button').hidden = !running;
    $('stop-button').removeAttribute('aria-disabled');
    $('stop-button').textContent = 'Stop';
    $('result').setAttribute('aria-busy', String(running));
    if (hadFocus) {
      (running ? $('stop-button') : $('run-button')).focus();
    }
  }

  function status(words, kind) {
    const line = $('run-status');
    line.textContent = words;
    line.className = 'run-status' + (kind ? ' ' + kind : '');
  }

  function formError(message) {
    $('form-error').textContent = message;
    $('form-error').hidden = !message;
  }

  async function startRun(event) {
    event.preventDefault();
    if (state.run) return;
    formError('');
    notice('');
    const inputs = collectInputs();
    if (!inputs) return;
    const run = { taskId: null, text: '', streamed: false, steps: new Map(), ended: false, stopAsked: false,
      stopSent: false, renderQueued: false };
    state.run = run;
    $('result-panel').hidden = false;
    $('result').replaceChildren();
    $('outputs').hidden = true;
    $('steps').replaceChildren();
    $('steps-panel').hidden = textGenerator || !(state.site && state.site.show_workflow_steps);
    setRunning(true);
    status('Starting…');
    try {
      const response = await api(textGenerator ? '/completion-messages' : '/workflows/run', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ inputs, response_mode: 'streaming', user: state.user }),
      });
      if (!response.ok) {
        const message = inWords(response.status, await readJson(response));
        status(textGenerator ? 'The answer did not start.' : 'The workflow did not start.', 'failed');
        formError(message);
        $('result-panel').hidden = true;
        return;
      }
      await page.readStream(response, (event) => (textGenerator ? onMessageEvent : onEvent)(event, run));
      if (!run.ended) {
        status('The connection was lost before the run ended. It may still finish on the server.', 'failed');
      }
    } catch (e) {
      status(e instanceof PageError ? e.message : OFFLINE, 'failed');
    } finally {
      endRun(run);
    }
  }

  /** The run is over for the page once it says it ended, even while the server is still closing the stream. */
  function endRun(run) {
    if (state.run !== run) return;
    state.run = null;
    setRunning(false);
  }

  function onEvent(event, run) {
    const data = event.data || {};
    switch (event.event) {
      case 'workflow_started':
        run.taskId = event.task_id;
        status('Running…');
        if (run.stopAsked) stopRun();
        break;
      case 'node_started':
        stepStarted(run, data);
        break;
      case 'node_finished':
        stepFinished(run, data);
        break;
      case 'text_chunk':
        run.text += data.text || '';
        run.streamed = true;
        queueRender(run);
        break;
      case 'workflow_finished':
        run.ended = true;
        finished(run, data);
        endRun(run);
        break;
      case 'error':
        run.ended = true;
        status(inWords(event.status || 400, event), 'failed');
        endRun(run);
        break;
      default:
        break;
    }
  }

  /** A text generator's stream: its answer in message events, ended by message_end (a stop too) or error. */
  function onMessageEvent(event, run) {
    switch (event.event) {
      case 'message':
        if (!run.taskId) {
          run.taskId = event.task_id;
          status('Running…');
          if (run.stopAsked) stopRun();
        }
        run.text += event.answer || '';
        run.streamed = true;
        queueRender(run);
        break;
      case 'message_replace':
        run.text = event.answer || '';
        queueRender(run);
        break;
      case 'message_end':
        run.ended = true;
        window.HexaflowMarkdown.render(run.text, $('result'));
        status(run.stopSent ? 'Stopped.' : 'Finished.', run.stopSent ? 'failed' : 'succeeded');
        endRun(run);
        break;
      case 'error':
        run.ended = true;
        status(inWords(event.status || 400, event), 'failed');
        endRun(run);
        break;
      default:
        if (!run.taskId && event.task_id) {
          run.taskId = event.task_id;
          if (run.stopAsked) stopRun();
        }
        break;
    }
  }

  function queueRender(run) {
    if (run.renderQueued) return;
    run.renderQueued = true;
    window.requestAnimationFrame(() => {
      run.renderQueued = false;
      window.HexaflowMarkdown.render(run.text, $('result'));
    });
  }

  function seconds(value) {
    const number = Number(value) || 0;
    return number < 10 ? number.toFixed(2) + ' s' : number.toFixed(1) + ' s';
  }

  function stepStarted(run, data) {
    const row = document.createElement('li');
    row.className = 'step running';
    row.appendChild(text('span', 'step-mark', ''));
    row.firstChild.setAttribute('aria-hidden', 'true');
    row.appendChild(text('span', 'step-title', data.title || data.node_type || 'Step'));
    const time = text('span', 'step-time', 'running');
    row.appendChild(time);
    run.steps.set(data.id, { row, time });
    $('steps').appendChild(row);
  }

  function stepFinished(run, data) {
    let step = run.steps.get(data.id);
    if (!step) {
      stepStarted(run, data);
      step = run.steps.get(data.id);
    }
    const result = data.status || 'succeeded';
    step.row.className = 'step ' + result;
    const words = { succeeded: 'done', failed: 'failed', exception: 'failed', stopped: 'stopped' }[result]
      || result;
    step.time.textContent = words + ' · ' + seconds(data.elapsed_time);
    if (data.error) {
      step.row.appendChild(text('span', 'step-error', data.error));
    }
  }

  function finished(run, data) {
    if (run.renderQueued || run.streamed) {
      window.HexaflowMarkdown.render(run.text, $('result'));
    }
    const outputs = data.outputs || {};
    if (!run.streamed) {
      showOutputs(outputs);
    }
    if (data.status === 'succeeded' && Object.keys(outputs).length > 0) {
      $('outputs-json').textContent = JSON.stringify(outputs, null, 2);
      $('outputs').hidden = false;
    }
    const took = ' in ' + seconds(data.elapsed_time);
    switch (data.status) {
      case 'succeeded':
        status('Finished' + took + '.', 'succeeded');
        break;
      case 'partial-succeeded':
        status('Finished' + took + ', with some steps failing.', 'succeeded');
        break;
      case 'stopped':
        status('Stopped' + took + '.', 'failed');
        break;
      default:
        status('The workflow failed: ' + (data.error || 'no reason was given') + '.', 'failed');
    }
  }

  function isFile(value) {
    return value && typeof value === 'object' && !Array.isArray(value)
      && (value.dify_model_identity === '__dify__file__' || (value.url && value.filename));
  }

  function fileLink(file) {
    const href = file.url ? window.HexaflowMarkdown.safeUrl(file.url) : null;
    const name = file.filename || 'file';
    if (!href) return text('span', '', name);
    const a = text('a', '', name);
    a.href = href;
    a.target = '_blank';
    a.rel = 'noopener noreferrer nofollow';
    return a;
  }

  function outputNode(value) {
    if (typeof value === 'string') {
      const box = document.createElement('div');
      window.HexaflowMarkdown.render(value, box);
      return box;
    }
    if (isFile(value)) {
      const p = document.createElement('p');
      p.appendChild(fileLink(value));
      return p;
    }
    if (Array.isArray(value) && value.length > 0 && value.every(isFile)) {
      const list = document.createElement('ul');
      value.forEach((file) => {
        const item = document.createElement('li');
        item.appendChild(fileLink(file));
        list.appendChild(item);
      });
      return list;
    }
    return text('pre', '', JSON.stringify(value, null, 2));
  }

  function showOutputs(outputs) {
    const result = $('result');
    const names = Object.keys(outputs);
    if (names.length === 1 && typeof outputs[names[0]] === 'string') {
      window.HexaflowMarkdown.render(outputs[names[0]], result);
      return;
    }
    result.replaceChildren();
    names.forEach((name) => {
      result.appendChild(text('h3', 'output-name', name));
      result.appendChild(outputNode(outputs[name]));
    });
  }

  async function stopRun() {
    const run = state.run;
    if (!run || run.stopSent) return;
    run.stopAsked = true;
    // Marked, not disabled: a disabled button loses the keyboard's focus.
    $('stop-button').setAttribute('aria-disabled', 'true');
    $('stop-button').textContent = 'Stopping…';
    if (!run.taskId) return; // asked again once the run has said its task
    run.stopSent = true;
    try {
      const stopPath = textGenerator ? '/completion-messages/' + encodeURIComponent(run.taskId) + '/stop'
        : '/workflows/tasks/' + encodeURIComponent(run.taskId) + '/stop';
      const response = await api(stopPath, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ user: state.user }),
      });
      if (!response.ok) {
        status(inWords(response.status, await readJson(response)), 'failed');
      }
    } catch (e) {
      status(e instanceof PageError ? e.message : OFFLINE, 'failed');
    }
  }

  function clearForm() {
    state.fields.forEach((field) => {
      setValue(field, field.initial);
      showFieldError(field, '');
      if (field.list) {
        field.files = [];
        field.list.replaceChildren();
      }
    });
    formError('');
  }

  $('run-form').addEventListener('submit', startRun);
  $('stop-button').addEventListener('click', stopRun);
  $('clear-button').addEventListener('click', clearForm);
  load();
})();
