// The console's core: building elements, calling the admin API with the session cookie, signing in and out, and
// choosing the view from the address's hash. Views live in the other console-*.js files and register here.
// Everything shown comes from end users or operators, so text is only ever set with textContent.
'use strict';

const HF = (() => {
  const routes = [];
  let timers = [];

  /** An element with attributes (`class`, `text`, `on*` handlers, others as attributes) and children. */
  function el(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [name, value] of Object.entries(attrs || {})) {
      if (value === null || value === undefined || value === false) continue;
      if (name === 'text') node.textContent = String(value);
      else if (name === 'class') node.className = value;
      else if (name.startsWith('on')) node.addEventListener(name.slice(2), value);
      else node.setAttribute(name, value === true ? '' : String(value));
    }
    for (const child of children.flat(Infinity)) {
      if (child === null || child === undefined || child === false) continue;
      node.append(child instanceof Node ? child : document.createTextNode(String(child)));
    }
    return node;
  }

  /** Replaces what `node` shows with `children`: arrays flattened, nothing shown for null or false. */
  function show(node, ...children) {
    node.replaceChildren(...children.flat(Infinity).filter(c => c !== null && c !== undefined && c !== false)
      .map(c => (c instanceof Node ? c : document.createTextNode(String(c)))));
  }

  class SignedOut extends Error {}

  /** Calls the admin API; a change carries the header that shows it comes from this page (the CSRF defence). */
  async function api(method, path, body) {
    const headers = {'Accept': 'application/json'};
    if (method !== 'GET') headers['X-Hexaflow-Console'] = '1';
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    const response = await fetch(path, {method, headers, credentials: 'same-origin', cache: 'no-store',
      body: body === undefined ? undefined : JSON.stringify(body)});
    if (response.status === 401) {
      showSignIn();
      throw new SignedOut('signed out');
    }
    const answer = await response.json().catch(() => ({}));
    if (!response.ok) {
      throw new Error(answer.message || `The server answered ${response.status}.`);
    }
    return answer;
  }

  /** Unix seconds as local date and time. */
  function time(seconds) {
    if (seconds === null || seconds === undefined) return '—';
    return new Date(seconds * 1000).toLocaleString(undefined, {dateStyle: 'medium', timeStyle: 'medium'});
  }

  function seconds(value) {
    return value === null || value === undefined ? '—' : `${Number(value).toFixed(2)} s`;
  }

  /** A value shown as indented JSON, as text. */
  function json(value) {
    return el('pre', {class: 'json'}, JSON.stringify(value === undefined ? null : value, null, 2));
  }

  function statusBadge(status) {
    return el('span', {class: `badge status-${status || 'unknown'}`}, status || 'unknown');
  }

  function announce(text) {
    document.getElementById('announce').textContent = text;
  }

  /** A view's error, said in words where the view was. */
  function failed(view, error) {
    if (error instanceof SignedOut) return;
    show(view, el('h1', {text: 'Something went wrong'}),
      el('p', {class: 'error', role: 'alert', text: error.message}));
  }

  /** Calls `task` every few seconds while the tab is visible, until the view changes. */
  function poll(task, everyMillis) {
    timers.push(setInterval(() => {
      if (document.visibilityState === 'visible') task();
    }, everyMillis || 4000));
  }

  /** The hash as a path and its query: `#/runs?status=failed` is `/runs` and {status: 'failed'}. */
  function location() {
    const hash = window.location.hash.replace(/^#/, '') || '/apps';
    const [path, query] = hash.split('?');
    return {path, query: new URLSearchParams(query || '')};
  }

  function go(path, query) {
    const text = query && [...query.keys()].length ? `${path}?${query}` : path;
    if (window.location.hash !== `#${text}`) window.location.hash = text;
  }

  function route(pattern, render) {
    routes.push({pattern, render});
  }

  function render() {
    timers.forEach(clearInterval);
    timers = [];
    const {path, query} = location();
    const view = document.getElementById('view');
    document.getElementById('sign-in').hidden = true;
    document.getElementById('console-nav').hidden = false;
    for (const link of document.querySelectorAll('#console-nav a')) {
      const current = path.startsWith(`/${link.dataset.view}`);
      if (current) link.setAttribute('aria-current', 'page');
      else link.removeAttribute('aria-current');
    }
    for (const {pattern, render: draw} of routes) {
      const match = path.match(pattern);
      if (match) {
        show(view, el('p', {class: 'muted', text: 'Loading…'}));
        Promise.resolve(draw(view, match.slice(1).map(decodeURIComponent), query)).catch(e => failed(view, e));
        return;
      }
    }
    show(view, el('h1', {text: 'Not found'}), el('p', {}, 'No such page. ', el('a', {href: '#/apps'},
      'See the apps.')));
  }

  function showSignIn() {
    timers.forEach(clearInterval);
    timers = [];
    document.getElementById('view').replaceChildren();
    document.getElementById('console-nav').hidden = true;
    document.getElementById('sign-in').hidden = false;
    document.getElementById('token').focus();
  }

  async function signIn(event) {
    event.preventDefault();
    const input = document.getElementById('token');
    const error = document.getElementById('sign-in-error');
    error.textContent = '';
    if (!input.value.trim()) {
      error.textContent = 'Please give the admin token.';
      input.setAttribute('aria-invalid', 'true');
      input.focus();
      return;
    }
    const response = await fetch('/console/session', {method: 'POST', credentials: 'same-origin',
      headers: {'Content-Type': 'application/json'}, body: JSON.stringify({token: input.value.trim()})});
    input.value = '';
    if (!response.ok) {
      error.textContent = response.status === 401 ? 'That is not the admin token.'
        : `The server answered ${response.status}.`;
      input.setAttribute('aria-invalid', 'true');
      input.focus();
      return;
    }
    input.removeAttribute('aria-invalid');
    announce('Signed in.');
    render();
    document.getElementById('main').focus();
  }

  async function signOut() {
    await fetch('/console/session', {method: 'DELETE', credentials: 'same-origin',
      headers: {'X-Hexaflow-Console': '1'}});
    announce('Signed out.');
    showSignIn();
  }

  function start() {
    document.getElementById('sign-in-form').addEventListener('submit', signIn);
    document.getElementById('sign-out').addEventListener('click', signOut);
    window.addEventListener('hashchange', () => {
      render();
      document.getElementById('main').focus({preventScroll: true});
    });
    render();
  }

  document.addEventListener('DOMContentLoaded', start);

  return {el, show, api, time, seconds, json, statusBadge, announce, poll, location, go, route, failed};
})();
