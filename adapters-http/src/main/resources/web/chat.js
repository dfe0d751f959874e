// The chat page of a chatflow. Like the workflow page it talks to the app's /v1 API through client.js, and the
// conversations it lists are this browser's (its user id). An answer streams as Dify's `message` frames and is
// rendered as markdown by markdown.js, as text and never as markup.
(function () {
  'use strict';

  const code = document.body.dataset.siteCode;
  const $ = (id) => document.getElementById(id);
  const page = window.HexaflowPage;
  const { OFFLINE, KINDS, KIND_WORDS, PageError, readJson } = page;

  /** Past messages read at a time: Dify's most. */
  const HISTORY_PAGE = 100;

  const state = {
    // The server's answer for the page's token may name another id than the one kept: read it each time.
    get user() { return page.userId(); },
    earliest: null,
    parameters: {},
    fields: [],
    upload: null,
    attachments: [],
    conversationId: null,
    turn: null,
  };

  function searchOf(params) {
    return '?' + Object.keys(params).map((k) => encodeURIComponent(k) + '=' + encodeURIComponent(params[k]))
      .join('&');
  }

  // ---- errors in words

  function labelOf(variable) {
    const field = state.fields.find((f) => f.variable === variable);
    return '“' + (field ? field.label : variable) + '”';
  }

  function inputWords(message) {
    let m = /^(\S+) is required in input form$/.exec(message);
    if (m) return 'Please fill in ' + labelOf(m[1]) + '.';
    m = /^(\S+) in input form must be less than (\d+) characters$/.exec(message);
    if (m) return labelOf(m[1]) + ' can be at most ' + m[2] + ' characters long.';
    m = /^Run failed: (.*)$/.exec(message);
    if (m) return 'The chatflow failed: ' + m[1];
    return message;
  }

  function inWords(status, body) {
    return page.errorWords(status, body, inputWords);
  }

  const client = page.connect(code, inWords);
  const { api, postJson, expectOk } = client;

  function notice(words) {
    $('notice').textContent = words;
    $('notice').hidden = !words;
  }

  function chatError(words) {
    $('chat-error').textContent = words;
    $('chat-error').hidden = !words;
  }

  function text(tag, className, content) {
    const node = document.createElement(tag);
    if (className) node.className = className;
    node.textContent = content;
    return node;
  }

  function button(words, className, onClick) {
    const b = text('button', className, words);
    b.type = 'button';
    b.addEventListener('click', onClick);
    return b;
  }

  // ---- the app

  async function load() {
    try {
      const [site, parameters] = await Promise.all([
        api('/site').then(expectOk),
        api('/parameters').then(expectOk),
      ]);
      state.parameters = parameters || {};
      page.showSite(site, '💬');
      buildInputs(state.parameters.user_input_form || []);
      setUpUploads(state.parameters.file_upload);
      newConversation();
      $('send-button').disabled = false;
      await loadConversations();
    } catch (e) {
      notice(e instanceof PageError ? e.message : OFFLINE);
    }
  }

  // ---- the start form: a chatflow's inputs, given once when a conversation starts

  function buildInputs(items) {
    const container = $('fields');
    container.replaceChildren();
    state.fields = [];
    items.forEach((item, index) => {
      const type = Object.keys(item)[0];
      const spec = Object.assign({ type }, item[type]);
      // Files in the start form are not asked for here: the message box takes the conversation's files.
      if (!spec.variable || spec.hide === true || type === 'file' || type === 'file-list') return;
      const field = { variable: spec.variable, label: spec.label || spec.variable, type, spec,
        required: spec.required === true };
      const id = 'field-' + index;
      const wrapper = text('div', 'field field-' + type, '');
      const label = text('label', '', field.label);
      label.htmlFor = id;
      if (field.required) {
        const mark = text('span', 'required', '*');
        mark.setAttribute('aria-hidden', 'true');
        label.appendChild(mark);
        label.appendChild(text('span', 'visually-hidden', ' (required)'));
      }
      let control;
      if (type === 'paragraph') {
        control = document.createElement('textarea');
        control.rows = 3;
      } else if (type === 'select') {
        control = document.createElement('select');
        control.appendChild(new Option(field.required ? 'Choose one' : '(none)', ''));
        (spec.options || []).forEach((value) => control.appendChild(new Option(String(value), String(value))));
      } else {
        control = document.createElement('input');
        control.type = type === 'number' ? 'number' : type === 'checkbox' ? 'checkbox' : 'text';
      }
      control.id = id;
      if (field.required) control.setAttribute('aria-required', 'true');
      if (Number(spec.max_length) > 0 && (type === 'text-input' || type === 'paragraph')) {
        control.maxLength = Number(spec.max_length);
      }
      if (spec.default !== undefined && spec.default !== null) {
        if (type === 'checkbox') control.checked = spec.default === true || spec.default === 'true';
        else control.value = String(spec.default);
      }
      field.control = control;
      field.error = text('p', 'field-error', '');
      field.error.id = id + '-error';
      field.error.hidden = true;
      control.setAttribute('aria-describedby', field.error.id);
      control.addEventListener('input', () => {
        if (!state.conversationId && !state.turn) showWelcome(true);
      });
      wrapper.append(label, control, field.error);
      container.appendChild(wrapper);
      state.fields.push(field);
    });
  }

  /** The start form's values, or null after saying at each field what to mend. */
  function collectInputs() {
    const inputs = {};
    let first = null;
    state.fields.forEach((field) => {
      const control = field.control;
      let message = '';
      if (field.type === 'checkbox') {
        inputs[field.variable] = control.checked;
      } else if (control.value.trim() === '') {
        if (field.required) message = 'Please fill in ' + field.label + '.';
      } else if (field.type === 'number') {
        inputs[field.variable] = Number(control.value);
      } else {
        inputs[field.variable] = control.value;
      }
      field.error.textContent = message;
      field.error.hidden = !message;
      if (message) {
        control.setAttribute('aria-invalid', 'true');
        first = first || field;
      } else {
        control.removeAttribute('aria-invalid');
      }
    });
    if (first) {
      first.control.focus();
      return null;
    }
    return inputs;
  }

  // ---- files for the message, where the app takes them

  function setUpUploads(config) {
    const upload = config || {};
    const image = upload.image || {};
    const methods = upload.allowed_file_upload_methods || image.transfer_methods || ['local_file'];
    const enabled = (upload.enabled === true || image.enabled === true) && methods.includes('local_file');
    $('attach').hidden = !enabled;
    if (!enabled) return;
    const kinds = upload.enabled === true && Array.isArray(upload.allowed_file_types)
      && upload.allowed_file_types.length > 0 ? upload.allowed_file_types : ['image'];
    const extensions = (upload.allowed_file_extensions || []).map((e) => String(e).replace(/^\./, '')
      .toLowerCase());
    state.upload = { kinds, extensions,
      max: Number(upload.enabled === true ? upload.number_limits : image.number_limits) || 0 };
    const accept = [];
    kinds.forEach((kind) => accept.push(...(kind === 'custom' ? extensions : KINDS[kind] || [])));
    $('attach-input').accept = kinds.includes('custom') && extensions.length === 0 ? ''
      : accept.map((e) => '.' + e).join(',');
    $('attach-hint').textContent = 'Takes ' + kinds.map((k) => KIND_WORDS[k] || k).join(', ')
      + (state.upload.max > 0 ? ', up to ' + state.upload.max + ' at a time.' : '.');
  }

  function kindOf(extension) {
    return Object.keys(KINDS).find((kind) => KINDS[kind].includes(extension)) || 'custom';
  }

  /** Whether a file may go with the message, and its kind: a message for the person, or the kind. */
  function fileCheck(file) {
    const extension = (/\.([^.]+)$/.exec(file.name || '') || [])[1];
    const ext = extension ? extension.toLowerCase() : '';
    const { kinds, extensions } = state.upload;
    let kind = kindOf(ext);
    if (!kinds.includes(kind)) {
      if (kinds.includes('custom') && (extensions.length === 0 || extensions.includes(ext))) {
        kind = 'custom';
      } else {
        return { error: 'This chat takes ' + kinds.map((k) => KIND_WORDS[k] || k).join(', ') + '; '
            + (file.name || 'this file') + ' is not one.' };
      }
    }
    const limits = state.parameters.system_parameters || {};
    const limitMb = Number(limits[kind === 'custom' || kind === 'document' ? 'file_size_limit'
      : kind + '_file_size_limit']) || 0;
    if (limitMb > 0 && file.size > limitMb * 1024 * 1024) {
      return { error: file.name + ' is larger than ' + limitMb + ' MB, the limit for ' + KIND_WORDS[kind] + '.' };
    }
    return { kind };
  }

  function chooseFiles() {
    const input = $('attach-input');
    Array.from(input.files || []).forEach((file) => {
      if (state.upload.max > 0 && state.attachments.length >= state.upload.max) {
        chatError('A message takes at most ' + state.upload.max + ' files.');
        return;
      }
      const entry = { name: file.name, state: 'uploading', id: null, kind: null };
      const row = text('li', 'file', '');
      row.appendChild(text('span', 'file-name', entry.name));
      entry.status = text('span', 'file-state', 'Uploading…');
      row.appendChild(entry.status);
      const remove = button('Remove', 'small secondary', () => {
        state.attachments = state.attachments.filter((other) => other !== entry);
        row.remove();
        input.focus();
      });
      remove.setAttribute('aria-label', 'Remove ' + entry.name);
      row.appendChild(remove);
      entry.row = row;
      $('attachments').appendChild(row);
      state.attachments.push(entry);
      const check = fileCheck(file);
      if (check.error) {
        markFile(entry, 'failed', check.error);
        return;
      }
      entry.kind = check.kind;
      client.upload(file, state.user).then((id) => {
        entry.id = id;
        markFile(entry, 'uploaded', 'Uploaded');
      }, (e) => markFile(entry, 'failed', e instanceof PageError ? e.message : OFFLINE));
    });
    input.value = '';
  }

  function markFile(entry, status, words) {
    entry.state = status;
    entry.row.className = 'file ' + status;
    entry.status.textContent = words;
  }

  function clearAttachments() {
    state.attachments = [];
    $('attachments').replaceChildren();
  }

  // ---- messages on the page

  function userBubble(query, fileNames, into) {
    const item = text('li', 'message user', '');
    item.appendChild(text('span', 'visually-hidden', 'You: '));
    item.appendChild(text('p', 'message-text', query));
    if (fileNames.length > 0) {
      const list = text('ul', 'message-files', '');
      fileNames.forEach((name) => list.appendChild(text('li', '', name)));
      item.appendChild(list);
    }
    (into || $('messages')).appendChild(item);
    return item;
  }

  function answerBubble(into) {
    const item = text('li', 'message assistant', '');
    item.appendChild(text('span', 'visually-hidden', 'Answer: '));
    const body = text('div', 'message-body markdown', '');
    item.appendChild(body);
    (into || $('messages')).appendChild(item);
    return { item, body };
  }

  function fileLink(url, name) {
    const href = url ? window.HexaflowMarkdown.safeUrl(url) : null;
    if (!href) return text('span', '', name || 'file');
    const a = text('a', '', name || 'file');
    a.href = href;
    a.target = '_blank';
    a.rel = 'noopener noreferrer nofollow';
    return a;
  }

  function addAnswerFile(bubble, url, name) {
    let list = bubble.item.querySelector('.message-files');
    if (!list) {
      list = text('ul', 'message-files', '');
      bubble.item.insertBefore(list, bubble.body.nextSibling);
    }
    const entry = document.createElement('li');
    entry.appendChild(fileLink(url, name));
    list.appendChild(entry);
  }

  /** Like and dislike under an answer: each a toggle, pressed for the rating the message has. */
  function feedbackButtons(bubble, messageId, rating) {
    const row = text('div', 'feedback', '');
    const like = button('Like', 'small secondary', () => rate('like'));
    const dislike = button('Dislike', 'small secondary', () => rate('dislike'));
    const show = (value) => {
      like.setAttribute('aria-pressed', String(value === 'like'));
      dislike.setAttribute('aria-pressed', String(value === 'dislike'));
    };
    let current = rating || null;
    show(current);
    async function rate(choice) {
      const next = current === choice ? null : choice;
      try {
        await expectOk(await postJson('/messages/' + encodeURIComponent(messageId) + '/feedbacks',
          { rating: next, user: state.user }));
        current = next;
        show(current);
      } catch (e) {
        chatError(e instanceof PageError ? e.message : OFFLINE);
      }
    }
    row.append(like, dislike);
    bubble.item.appendChild(row);
  }

  function suggestionList(list, questions) {
    list.replaceChildren();
    questions.filter((q) => typeof q === 'string' && q.trim()).forEach((question) => {
      const entry = document.createElement('li');
      entry.appendChild(button(question, 'suggestion secondary', () => send(question)));
      list.appendChild(entry);
    });
    list.hidden = list.children.length === 0;
  }

  function showWelcome(shown) {
    const opening = state.parameters.opening_statement;
    const starters = state.parameters.suggested_questions || [];
    $('welcome').hidden = !shown || (!opening && starters.length === 0);
    if (!shown) return;
    // As Dify's web app does, {{name}} in the opening statement shows the start form's value once it has one.
    const filled = (opening || '').replace(/\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}/g, (whole, name) => {
      const field = state.fields.find((f) => f.variable === name);
      return field && field.type !== 'checkbox' && field.control.value ? field.control.value : whole;
    });
    window.HexaflowMarkdown.render(filled, $('opening'));
    $('opening').hidden = !opening;
    suggestionList($('starters'), starters);
  }

  function scrollToEnd() {
    const last = $('messages').lastElementChild;
    if (last && last.scrollIntoView) last.scrollIntoView({ block: 'end' });
  }

  // ---- a turn: one message and its streamed answer

  function setAnswering(answering) {
    $('send-button').disabled = answering;
    $('send-button').textContent = answering ? 'Answering…' : 'Send';
    const stop = $('stop-button');
    const hadFocus = document.activeElement === stop;
    stop.hidden = !answering;
    stop.removeAttribute('aria-disabled');
    stop.textContent = 'Stop';
    $('messages').setAttribute('aria-busy', String(answering));
    $('conversations-panel').setAttribute('aria-busy', String(answering));
    if (hadFocus && !answering) $('message-input').focus();
  }

  function status(words, kind) {
    $('chat-status').textContent = words;
    $('chat-status').className = 'run-status' + (kind ? ' ' + kind : '');
  }

  async function send(words) {
    if (state.turn) return;
    const query = String(words).trim();
    chatError('');
    notice('');
    if (!query) {
      chatError('Please type a message first.');
      $('message-input').focus();
      return;
    }
    if (state.attachments.some((entry) => entry.state === 'uploading')) {
      chatError('Please wait until the files have uploaded.');
      return;
    }
    const starting = !state.conversationId;
    const inputs = starting ? collectInputs() : {};
    if (!inputs) return;
    const ready = state.attachments.filter((entry) => entry.state === 'uploaded');
    const files = ready.map((entry) => ({ type: entry.kind, transfer_method: 'local_file',
      upload_file_id: entry.id }));
    const turn = { taskId: null, text: '', messageId: null, ended: false, stopAsked: false, stopSent: false,
      failed: null, stopped: false, renderQueued: false, conversationId: state.conversationId };
    state.turn = turn;
    showWelcome(false);
    $('suggested').hidden = true;
    $('inputs-panel').hidden = true;
    userBubble(query, ready.map((entry) => entry.name));
    turn.bubble = answerBubble();
    turn.bubble.item.classList.add('pending');
    $('message-input').value = '';
    clearAttachments();
    setAnswering(true);
    status('Thinking…');
    scrollToEnd();
    try {
      const response = await postJson('/chat-messages', { inputs, query, response_mode: 'streaming',
        conversation_id: state.conversationId || '', user: state.user, files });
      if (!response.ok) {
        const message = inWords(response.status, await readJson(response));
        turn.bubble.item.previousElementSibling.remove();
        turn.bubble.item.remove();
        $('message-input').value = query;
        $('inputs-panel').hidden = !starting || state.fields.length === 0;
        showWelcome(starting && $('messages').children.length === 0);
        chatError(message);
        status('');
        return;
      }
      await page.readStream(response, (event) => onEvent(event, turn));
      finishTurn(turn, starting);
    } catch (e) {
      turn.failed = e instanceof PageError ? e.message : OFFLINE;
      finishTurn(turn, starting);
    } finally {
      if (state.turn === turn) {
        state.turn = null;
        setAnswering(false);
      }
    }
  }

  function finishTurn(turn, starting) {
    const bubble = turn.bubble;
    bubble.item.classList.remove('pending');
    window.HexaflowMarkdown.render(turn.text, bubble.body);
    if (turn.failed) {
      bubble.item.classList.add('failed');
      bubble.item.appendChild(text('p', 'message-error', turn.failed));
      status('The answer failed.', 'failed');
    } else if (turn.stopped) {
      bubble.item.appendChild(text('p', 'message-note', 'Stopped.'));
      status('Stopped.', 'failed');
    } else if (turn.paused) {
      if (turn.form && turn.form.form_token) bubble.item.appendChild(inlineForm(turn.form, turn.conversationId));
      status('Waiting for an answer to the form.');
    } else if (!turn.ended) {
      bubble.item.appendChild(text('p', 'message-error',
        'The connection was lost before the answer ended. It may still be written on the server.'));
      status('The connection was lost.', 'failed');
    } else {
      status('');
    }
    if (turn.messageId && !turn.failed && !turn.paused) {
      feedbackButtons(bubble, turn.messageId, null);
      const after = state.parameters.suggested_questions_after_answer;
      if (after && after.enabled === true && !turn.stopped) suggestAfter(turn.conversationId, turn.messageId);
    }
    if (starting && turn.conversationId) state.conversationId = turn.conversationId;
    // Listed again after every turn: a conversation moves to the top, and a new one gets its name.
    if (turn.conversationId) loadConversations();
    scrollToEnd();
  }

  async function suggestAfter(conversationId, messageId) {
    try {
      const response = await api('/messages/' + encodeURIComponent(messageId) + '/suggested'
        + searchOf({ user: state.user }));
      const body = await readJson(response);
      // Suggestions are a help, not the answer: when they cannot be had the page just shows none.
      if (response.ok && body && Array.isArray(body.data) && !state.turn
          && state.conversationId === conversationId) {
        suggestionList($('suggested'), body.data);
      }
    } catch (e) {
      $('suggested').hidden = true;
    }
  }

  function onEvent(event, turn) {
    if (event.conversation_id && !turn.conversationId) turn.conversationId = event.conversation_id;
    if (event.task_id && !turn.taskId) {
      turn.taskId = event.task_id;
      if (turn.stopAsked) stop();
    }
    switch (event.event) {
      case 'workflow_started':
        status('Answering…');
        break;
      case 'message':
        turn.text += event.answer || '';
        queueRender(turn);
        break;
      case 'message_replace':
        turn.text = event.answer || '';
        queueRender(turn);
        break;
      case 'message_file':
        addAnswerFile(turn.bubble, event.url, event.type === 'image' ? 'Image' : 'File');
        break;
      case 'workflow_finished': {
        const data = event.data || {};
        if (data.status === 'stopped') turn.stopped = true;
        if (data.status === 'failed' && !turn.failed) {
          turn.failed = 'The chatflow failed: ' + (data.error || 'no reason was given') + '.';
        }
        break;
      }
      case 'message_end':
        turn.messageId = event.id || event.message_id;
        turn.ended = true;
        break;
      case 'human_input_required':
        turn.form = event.data || null;
        break;
      case 'workflow_paused':
        // The turn waits for a person: the stream ends here, and the form's answer lets the answer go on.
        turn.messageId = event.message_id || turn.messageId;
        turn.paused = true;
        turn.ended = true;
        break;
      case 'error':
        turn.ended = true;
        turn.failed = inWords(event.status || 400, event);
        break;
      default:
        break;
    }
  }

  function queueRender(turn) {
    if (turn.renderQueued) return;
    turn.renderQueued = true;
    window.requestAnimationFrame(() => {
      turn.renderQueued = false;
      window.HexaflowMarkdown.render(turn.text, turn.bubble.body);
      status('Answering…');
    });
  }

  async function stop() {
    const turn = state.turn;
    if (!turn || turn.stopSent) return;
    turn.stopAsked = true;
    $('stop-button').setAttribute('aria-disabled', 'true');
    $('stop-button').textContent = 'Stopping…';
    if (!turn.taskId) return; // sent once the answer has said its task
    turn.stopSent = true;
    try {
      await expectOk(await postJson('/chat-messages/' + encodeURIComponent(turn.taskId) + '/stop',
        { user: state.user }));
    } catch (e) {
      status(e instanceof PageError ? e.message : OFFLINE, 'failed');
    }
  }

  // ---- the browser's conversations

  async function loadConversations() {
    try {
      const body = await expectOk(await api('/conversations' + searchOf({ user: state.user, limit: 100,
        sort_by: '-updated_at' })));
      showConversations(body.data || []);
    } catch (e) {
      // The list is a help beside the chat: when it cannot be had, the panel says so and the chat goes on.
      $('conversations').replaceChildren();
      $('no-conversations').textContent = 'Your conversations could not be loaded: '
        + (e instanceof PageError ? e.message : OFFLINE);
      $('no-conversations').hidden = false;
    }
  }

  function showConversations(conversations) {
    const list = $('conversations');
    list.replaceChildren();
    conversations.forEach((conversation) => list.appendChild(conversationRow(conversation)));
    $('no-conversations').textContent = 'No conversations yet.';
    $('no-conversations').hidden = conversations.length > 0;
  }

  function conversationRow(conversation) {
    const row = text('li', 'conversation', '');
    row.dataset.id = conversation.id;
    const name = conversation.name || 'New conversation';
    const open = button(name, 'conversation-open', () => openConversation(conversation.id));
    if (conversation.id === state.conversationId) open.setAttribute('aria-current', 'true');
    const rename = button('Rename', 'small secondary', () => renameForm(row, conversation));
    rename.setAttribute('aria-label', 'Rename ' + name);
    const remove = button('Delete', 'small danger', () => {
      if (remove.dataset.confirm !== 'yes') {
        // A second press deletes: one slip of a finger does not lose a conversation.
        remove.dataset.confirm = 'yes';
        remove.textContent = 'Delete for good?';
        remove.setAttribute('aria-label', 'Press again to delete ' + name);
        return;
      }
      deleteConversation(conversation.id);
    });
    remove.setAttribute('aria-label', 'Delete ' + name);
    remove.addEventListener('blur', () => {
      remove.dataset.confirm = '';
      remove.textContent = 'Delete';
      remove.setAttribute('aria-label', 'Delete ' + name);
    });
    const actions = text('span', 'conversation-actions', '');
    actions.append(rename, remove);
    row.append(open, actions);
    return row;
  }

  function renameForm(row, conversation) {
    const form = text('form', 'rename-form', '');
    const input = document.createElement('input');
    input.type = 'text';
    input.value = conversation.name || '';
    input.maxLength = 100;
    input.setAttribute('aria-label', 'New name');
    const save = text('button', 'small primary', 'Save');
    save.type = 'submit';
    const cancel = button('Cancel', 'small secondary', () => restore());
    form.append(input, save, cancel);
    const shown = Array.from(row.children);
    shown.forEach((child) => { child.hidden = true; });
    row.appendChild(form);
    input.focus();
    input.select();
    function restore() {
      form.remove();
      shown.forEach((child) => { child.hidden = false; });
      row.querySelector('.conversation-open').focus();
    }
    input.addEventListener('keydown', (event) => {
      if (event.key === 'Escape') {
        event.preventDefault();
        restore();
      }
    });
    form.addEventListener('submit', async (event) => {
      event.preventDefault();
      const name = input.value.trim();
      if (!name) {
        input.setAttribute('aria-invalid', 'true');
        return;
      }
      try {
        const body = await expectOk(await postJson('/conversations/' + encodeURIComponent(conversation.id)
          + '/name', { name, auto_generate: false, user: state.user }));
        const renamed = conversationRow(Object.assign({}, conversation, { name: (body && body.name) || name }));
        row.replaceWith(renamed);
        renamed.querySelector('.conversation-open').focus();
      } catch (e) {
        notice(e instanceof PageError ? e.message : OFFLINE);
      }
    });
  }

  async function deleteConversation(id) {
    try {
      const response = await api('/conversations/' + encodeURIComponent(id), { method: 'DELETE',
        headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ user: state.user }) });
      if (!response.ok) await expectOk(response);
      if (state.conversationId === id) newConversation();
      await loadConversations();
      $('new-conversation').focus();
    } catch (e) {
      notice(e instanceof PageError ? e.message : OFFLINE);
    }
  }

  function markCurrent() {
    Array.from($('conversations').children).forEach((row) => {
      const open = row.querySelector('.conversation-open');
      if (row.dataset.id === state.conversationId) open.setAttribute('aria-current', 'true');
      else open.removeAttribute('aria-current');
    });
  }

  function newConversation() {
    if (state.turn) return;
    state.conversationId = null;
    state.earliest = null;
    $('earlier-button').hidden = true;
    $('messages').replaceChildren();
    $('suggested').hidden = true;
    status('');
    chatError('');
    $('inputs-panel').hidden = state.fields.length === 0;
    showWelcome(true);
    markCurrent();
    closeMenu();
  }

  /** One page of a conversation's history, oldest first, as Dify pages it: backwards from {@code firstId}. */
  // ---- a form the answer waits on (a human-input node): answered here, by its token, as its own page does

  const FORM_FIELD = /\{\{#\$output\.([a-zA-Z_][a-zA-Z0-9_]{0,29})#\}\}/g;
  const FORM_STATES = {
    human_input_form_submitted: 'This form has already been answered.',
    human_input_form_expired: 'This form has expired and can no longer be answered.',
    not_found: 'This form no longer exists.',
  };

  /** The form as a card in the answer: its content as text, a field per input, a button per action. */
  function inlineForm(form, conversationId) {
    const card = text('form', 'inline-form', '');
    card.setAttribute('aria-label', form.node_title || 'A form');
    card.appendChild(text('p', 'inline-form-content', String(form.form_content || '').replace(FORM_FIELD,
      (whole, name) => '[' + name + ']')));
    const fields = {};
    (form.inputs || []).forEach((input) => {
      const name = input.output_variable_name;
      const label = text('label', 'inline-form-field', name + ' ');
      let field;
      if (input.type === 'select') {
        field = document.createElement('select');
        const options = input.option_source && Array.isArray(input.option_source.value)
          ? input.option_source.value : [];
        options.forEach((option) => field.append(new Option(String(option), String(option))));
      } else {
        field = document.createElement(input.type === 'paragraph' ? 'textarea' : 'input');
      }
      field.name = name;
      const defaults = form.resolved_default_values || {};
      if (defaults[name] !== undefined) field.value = defaults[name];
      label.appendChild(field);
      card.appendChild(label);
      fields[name] = field;
    });
    const said = text('p', 'message-note', '');
    said.setAttribute('role', 'status');
    const actions = text('div', 'inline-form-actions', '');
    (form.actions || []).forEach((action) => actions.appendChild(button(action.title || action.id,
      action.button_style === 'primary' ? 'primary' : 'quiet', () => answerForm(form, action.id, fields, card, said,
        conversationId))));
    card.appendChild(actions);
    card.appendChild(said);
    card.addEventListener('submit', (event) => event.preventDefault());
    return card;
  }

  async function answerForm(form, actionId, fields, card, said, conversationId) {
    const inputs = {};
    Object.keys(fields).forEach((name) => { inputs[name] = fields[name].value; });
    card.querySelectorAll('button').forEach((b) => { b.disabled = true; });
    try {
      const response = await fetch('/api/form/human_input/' + encodeURIComponent(form.form_token), {
        method: 'POST', headers: { 'Content-Type': 'application/json' }, credentials: 'omit',
        body: JSON.stringify({ inputs, action: actionId }) });
      const body = await readJson(response);
      if (!response.ok) {
        said.textContent = FORM_STATES[body && body.code] || inWords(response.status, body || {});
        card.querySelectorAll('button').forEach((b) => { b.disabled = !!FORM_STATES[body && body.code]; });
        return;
      }
      said.textContent = 'Your answer was sent. The rest of the answer follows.';
      status('Answering…');
      await awaitTurnEnd(conversationId);
    } catch (e) {
      said.textContent = OFFLINE;
      card.querySelectorAll('button').forEach((b) => { b.disabled = false; });
    }
  }

  /** Reads the conversation again until its last answer no longer waits, then shows it whole. */
  async function awaitTurnEnd(conversationId) {
    for (let i = 0; i < 60; i++) {
      await new Promise((resolve) => window.setTimeout(resolve, 500));
      const body = await history(conversationId, null);
      const last = (body.data || [])[(body.data || []).length - 1];
      if (last && last.status !== 'paused') {
        if (state.conversationId === conversationId && !state.turn) openConversation(conversationId);
        return;
      }
    }
    status('The answer is still being written; open the conversation again to see it.');
  }

  async function history(id, firstId) {
    const params = { conversation_id: id, user: state.user, limit: HISTORY_PAGE };
    if (firstId) params.first_id = firstId;
    return expectOk(await api('/messages' + searchOf(params)));
  }

  /** A page of past messages, each its query and its answer with the feedback it has, into {@code into}. */
  function showHistory(messages, into) {
    messages.forEach((message) => {
      const files = message.message_files || [];
      userBubble(message.query || '', files.filter((f) => f.belongs_to !== 'assistant')
        .map((f) => f.filename || f.type || 'file'), into);
      const bubble = answerBubble(into);
      window.HexaflowMarkdown.render(message.answer || '', bubble.body);
      files.filter((f) => f.belongs_to === 'assistant').forEach((f) => addAnswerFile(bubble, f.url, f.filename));
      if (message.status === 'error' && message.error) {
        bubble.item.appendChild(text('p', 'message-error', message.error));
      }
      if (message.status === 'paused') {
        bubble.item.appendChild(text('p', 'message-note', 'Waiting for a form to be answered.'));
      }
      feedbackButtons(bubble, message.id, message.feedback && message.feedback.rating);
    });
  }

  function earlierFrom(body) {
    const data = body.data || [];
    state.earliest = body.has_more && data.length > 0 ? data[0].id : null;
    $('earlier-button').hidden = !state.earliest;
  }

  async function openConversation(id) {
    if (state.turn) return;
    try {
      const body = await history(id, null);
      state.conversationId = id;
      $('messages').replaceChildren();
      $('suggested').hidden = true;
      $('inputs-panel').hidden = true;
      showWelcome(false);
      status('');
      chatError('');
      showHistory(body.data || [], $('messages'));
      earlierFrom(body);
      markCurrent();
      closeMenu();
      scrollToEnd();
      $('message-input').focus();
    } catch (e) {
      notice(e instanceof PageError ? e.message : OFFLINE);
      if (e instanceof PageError) loadConversations();
    }
  }

  async function showEarlier() {
    const id = state.conversationId;
    if (!id || !state.earliest) return;
    try {
      const body = await history(id, state.earliest);
      if (state.conversationId !== id) return;
      const older = document.createDocumentFragment();
      showHistory(body.data || [], older);
      $('messages').prepend(older);
      earlierFrom(body);
      if ($('earlier-button').hidden) $('message-input').focus();
    } catch (e) {
      notice(e instanceof PageError ? e.message : OFFLINE);
    }
  }

  // ---- the conversations as a menu at phone width

  function toggleMenu() {
    const open = !document.body.classList.contains('conversations-open');
    document.body.classList.toggle('conversations-open', open);
    $('conversations-toggle').setAttribute('aria-expanded', String(open));
    if (open) $('new-conversation').focus();
  }

  function closeMenu() {
    if (!document.body.classList.contains('conversations-open')) return;
    document.body.classList.remove('conversations-open');
    $('conversations-toggle').setAttribute('aria-expanded', 'false');
  }

  $('chat-form').addEventListener('submit', (event) => {
    event.preventDefault();
    send($('message-input').value);
  });
  $('message-input').addEventListener('keydown', (event) => {
    if (event.key === 'Enter' && !event.shiftKey && !event.isComposing) {
      event.preventDefault();
      if (!state.turn) send($('message-input').value);
    } else if (event.key === 'Escape' && state.turn) {
      event.preventDefault();
      stop();
    }
  });
  $('stop-button').addEventListener('click', stop);
  $('earlier-button').addEventListener('click', showEarlier);
  $('attach-input').addEventListener('change', chooseFiles);
  $('new-conversation').addEventListener('click', () => {
    newConversation();
    $('message-input').focus();
  });
  $('conversations-toggle').addEventListener('click', toggleMenu);
  $('conversations-panel').addEventListener('keydown', (event) => {
    if (event.key === 'Escape' && document.body.classList.contains('conversations-open')) {
      closeMenu();
      $('conversations-toggle').focus();
    }
  });
  load();
})();
