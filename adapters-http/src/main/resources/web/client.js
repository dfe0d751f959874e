// What the workflow page and the chat page share. Each uses the app's /v1 API as any client does, with a
// short-lived token that the page asks this server for (POST /apps/{code}/token) and renews when it is refused;
// each browser keeps its own user id in local storage, and its token acts for that user alone. Here too: errors
// in words, the app's header and footer, file kinds as Dify tells them, and server-sent events read from fetch's
// body as they come.
(function () {
  'use strict';

  const $ = (id) => document.getElementById(id);
  const USER_KEY = 'hexaflow.user';
  const OFFLINE = 'The server cannot be reached. Check your connection and try again.';

  // File kinds as Dify tells them by extension; anything else is "custom".
  const KINDS = {
    image: ['jpg', 'jpeg', 'png', 'webp', 'gif', 'svg'],
    video: ['mp4', 'mov', 'mpeg', 'webm'],
    audio: ['mp3', 'm4a', 'wav', 'amr', 'mpga'],
    document: ['txt', 'markdown', 'md', 'mdx', 'pdf', 'html', 'htm', 'xlsx', 'xls', 'docx', 'csv', 'vtt',
      'properties', 'doc', 'eml', 'msg', 'pptx', 'xml', 'epub', 'ppt', 'json'],
  };
  const KIND_WORDS = { image: 'images', video: 'videos', audio: 'audio files', document: 'documents',
    custom: 'other files' };

  /** A failure already put in words for the person at the page. */
  class PageError extends Error {}

  function randomHex(bytes) {
    const values = new Uint8Array(bytes);
    window.crypto.getRandomValues(values);
    return Array.from(values, (b) => b.toString(16).padStart(2, '0')).join('');
  }

  const WEB_USER = /^web-[0-9a-f]{32}$/;
  let user = null;

  /**
   * This browser's user id: kept in local storage, and the one user the page's token acts for. An id of another
   * form (from an older page) is replaced: the server hands tokens for this form only.
   */
  function userId() {
    if (user) return user;
    try {
      user = window.localStorage.getItem(USER_KEY);
    } catch (e) {
      user = null; // Storage is blocked: one id for this visit.
    }
    if (!user || !WEB_USER.test(user)) {
      keepUser('web-' + randomHex(16));
    }
    return user;
  }

  /** Keeps the id the server bound the page's token to. */
  function keepUser(id) {
    user = id;
    try {
      window.localStorage.setItem(USER_KEY, id);
    } catch (e) {
      // Storage is blocked: the id lasts this visit.
    }
  }

  async function readJson(response) {
    try {
      return await response.json();
    } catch (e) {
      return null;
    }
  }

  /**
   * The server's refusal in words. {@code inputWords} puts an invalid_param message in the page's own terms (the
   * form's labels in place of variable names).
   */
  function errorWords(status, body, inputWords) {
    const errorCode = body && body.code;
    const message = body && typeof body.message === 'string' ? body.message : '';
    switch (errorCode) {
      case 'invalid_param':
        return inputWords ? inputWords(message) : message;
      case 'file_too_large':
        return 'This file is too large to upload here.';
      case 'unsupported_file_type':
        return 'Files of this kind cannot be used here.';
      case 'too_many_requests':
      case 'rate_limit_error':
        if (/^Too many uploads/.test(message)) return message;
        return 'Too many runs are going on right now. Please try again in a moment.';
      case 'app_unavailable':
        return 'This app is not ready to run. Please tell the person who runs it.';
      case 'provider_not_initialize':
        return 'This app needs a model that is not set up on the server. Please tell the person who runs it.';
      case 'completion_request_error':
        return 'The model could not answer: ' + (message.replace(/^Run failed: /, '') || 'no reason was given')
          + (/[.!?]$/.test(message) ? '' : '.');
      case 'conversation_completed':
        return 'This conversation has ended. Please start a new one.';
      case 'not_chat_app':
      case 'not_workflow_app':
        return 'This page is out of date for its app. Please reload it.';
      case 'not_found':
        if (/^Conversation Not Exists/.test(message)) return 'This conversation is not here any more.';
        if (/^Message Not Exists/.test(message)) return 'This message is not here any more.';
        return 'This page is not available any more: its address may be wrong, or it was turned off.';
      case 'forbidden':
      case 'unauthorized':
        return message || 'This page may not do that.';
      default:
        break;
    }
    if (status === 413) return 'This file is too large to upload here.';
    if (status >= 500) return 'Something went wrong on the server. Please try again in a moment.';
    return message || 'The request was refused (HTTP ' + status + ').';
  }

  /** The /v1 API of the page's app, for this browser; a refusal is thrown as a PageError in {@code inWords}. */
  function connect(code, inWords) {
    let token = null;
    let tokenEnds = 0;

    async function bearer(renew) {
      if (!renew && token && Date.now() / 1000 < tokenEnds - 30) {
        return token;
      }
      let response;
      try {
        response = await fetch('/apps/' + encodeURIComponent(code) + '/token', { method: 'POST',
          headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ user: userId() }) });
      } catch (e) {
        throw new PageError(OFFLINE);
      }
      const body = await readJson(response);
      if (!response.ok) {
        throw new PageError(inWords(response.status, body));
      }
      token = body.access_token;
      tokenEnds = body.expires_at;
      if (body.user && body.user !== user) {
        keepUser(body.user);
      }
      return token;
    }

    /** A request to the app's /v1 API; a refused token is renewed once and the request sent again. */
    async function api(path, options, renewed) {
      const headers = Object.assign({}, options && options.headers,
        { Authorization: 'Bearer ' + await bearer(Boolean(renewed)) });
      let response;
      try {
        response = await fetch('/v1' + path, Object.assign({}, options, { headers }));
      } catch (e) {
        throw new PageError(OFFLINE);
      }
      if (response.status === 401 && !renewed) {
        return api(path, options, true);
      }
      return response;
    }

    function postJson(path, body, method) {
      return api(path, { method: method || 'POST', headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify(body) });
    }

    async function expectOk(response) {
      const body = await readJson(response);
      if (!response.ok) {
        throw new PageError(inWords(response.status, body));
      }
      return body;
    }

    async function upload(file, user) {
      const form = new FormData();
      form.append('file', file, file.name);
      form.append('user', user);
      return (await expectOk(await api('/files/upload', { method: 'POST', body: form }))).id;
    }

    return { api, postJson, expectOk, upload };
  }

  /** An icon's address, if it is an image the page may show: https, this server, or a data URL of an image. */
  function iconUrl(text) {
    if (/^data:image\/[a-z0-9.+-]+[;,]/i.test(text)) return text;
    const url = window.HexaflowMarkdown.safeUrl(text);
    return url && (url.startsWith('https:') || url.startsWith(window.location.origin + '/')) ? url : null;
  }

  /** The app's title, description and icon in the header, its disclaimer, copyright and policy in the footer. */
  function showSite(site, defaultIcon) {
    if (site.title) {
      $('app-title').textContent = site.title;
      document.title = site.title;
    }
    const description = $('app-description');
    description.textContent = site.description || '';
    description.hidden = !site.description;
    const icon = $('app-icon');
    const imageUrl = site.icon_type === 'image' && site.icon_url ? iconUrl(site.icon_url) : null;
    if (imageUrl) {
      const img = document.createElement('img');
      img.src = imageUrl;
      img.alt = '';
      icon.replaceChildren(img);
    } else {
      icon.textContent = site.icon_type === 'emoji' && site.icon ? site.icon : defaultIcon;
    }
    if (site.icon_background && /^#[0-9a-fA-F]{3,8}$/.test(site.icon_background)) {
      icon.style.background = site.icon_background;
    }
    const disclaimer = $('disclaimer');
    disclaimer.textContent = site.custom_disclaimer || '';
    disclaimer.hidden = !site.custom_disclaimer;
    const copyright = $('copyright');
    copyright.textContent = site.copyright ? '© ' + site.copyright : '';
    copyright.hidden = !site.copyright;
    const privacy = $('privacy');
    const policy = site.privacy_policy ? window.HexaflowMarkdown.safeUrl(site.privacy_policy) : null;
    if (policy) {
      privacy.href = policy;
    }
    privacy.hidden = !policy;
  }

  function onFrame(frame, onEvent) {
    const data = frame.split(/\r?\n/).filter((line) => line.startsWith('data:'))
      .map((line) => line.slice(5).replace(/^ /, '')).join('\n');
    if (!data) return; // a ping
    let event;
    try {
      event = JSON.parse(data);
    } catch (e) {
      return;
    }
    onEvent(event);
  }

  /** Reads server-sent events from the answer's body: frames end with a blank line; data lines carry JSON. */
  async function readStream(response, onEvent) {
    const reader = response.body.getReader();
    const decoder = new TextDecoder();
    let buffer = '';
    for (;;) {
      let chunk;
      try {
        chunk = await reader.read();
      } catch (e) {
        return;
      }
      if (chunk.done) break;
      buffer += decoder.decode(chunk.value, { stream: true });
      let end;
      while ((end = buffer.search(/\r?\n\r?\n/)) >= 0) {
        const frame = buffer.slice(0, end);
        buffer = buffer.slice(end).replace(/^\r?\n\r?\n/, '');
        onFrame(frame, onEvent);
      }
    }
    if (buffer.trim()) onFrame(buffer, onEvent);
  }

  window.HexaflowPage = { OFFLINE, KINDS, KIND_WORDS, PageError, userId, readJson, errorWords, connect, showSite,
    readStream };
})();
