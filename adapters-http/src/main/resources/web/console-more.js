// The rest of the console: a chat app's conversations and messages, knowledge bases and their documents, an app's
// webhook deliveries (with redeliver) and triggers (switched on and off), the forms paused runs wait on, and the
// server's health, readiness, store and instances.
'use strict';

(() => {
  const {el, show, api, time, statusBadge, announce} = HF;

  function table(label, headings, rows) {
    return el('div', {class: 'table-scroll', role: 'region', 'aria-label': label, tabindex: 0},
      el('table', {}, el('thead', {}, el('tr', {}, headings.map(h => el('th', {scope: 'col', text: h})))),
        el('tbody', {}, rows)));
  }

  async function appName(appId) {
    const apps = await api('GET', '/admin/apps');
    const app = apps.data.find(a => a.app_id === appId);
    return app ? app.name : appId;
  }

  HF.route(/^\/apps\/([^/]+)\/conversations$/, async (view, [appId], query) => {
    const id = encodeURIComponent(appId);
    const search = new URLSearchParams({limit: '20'});
    if (query.get('last_id')) search.set('last_id', query.get('last_id'));
    const [name, page] = await Promise.all([appName(appId),
      api('GET', `/admin/apps/${id}/conversations?${search}`)]);
    const rows = page.data.map(c => el('tr', {},
      el('td', {}, el('a', {href: `#/apps/${id}/conversations/${encodeURIComponent(c.id)}`, text: c.name || c.id})),
      el('td', {text: c.end_user_id}), el('td', {text: c.status}), el('td', {text: time(c.updated_at)})));
    const last = page.data[page.data.length - 1];
    show(view, el('p', {}, el('a', {href: '#/apps', text: '← Apps'})),
      el('h1', {text: `Conversations of ${name}`}),
      rows.length ? table('Conversations', ['Conversation', 'End user', 'Status', 'Last message'], rows)
        : el('p', {class: 'muted', text: 'No conversation yet.'}),
      page.has_more && last ? el('p', {}, el('a', {href: `#/apps/${id}/conversations?last_id=${encodeURIComponent(
        last.id)}`, text: 'Older conversations'})) : null);
  });

  HF.route(/^\/apps\/([^/]+)\/conversations\/([^/]+)$/, async (view, [appId, conversationId]) => {
    const id = encodeURIComponent(appId);
    const page = await api('GET', `/admin/apps/${id}/conversations/${encodeURIComponent(conversationId)}/messages`
      + '?limit=100');
    const messages = page.data.map(m => el('li', {class: 'panel message'},
      el('h2', {text: time(m.created_at)}),
      el('p', {class: 'query'}, el('strong', {text: 'Asked: '}), m.query),
      el('p', {class: 'answer'}, el('strong', {text: 'Answered: '}), m.answer),
      m.error ? el('p', {class: 'error', text: m.error}) : null,
      el('p', {class: 'muted'}, statusBadge(m.status), ' ', m.workflow_run_id
        ? el('a', {href: `#/runs/${encodeURIComponent(m.workflow_run_id)}`, text: 'Its run'}) : 'No run kept.')));
    show(view, el('p', {}, el('a', {href: `#/apps/${id}/conversations`, text: '← Conversations'})),
      el('h1', {text: 'Messages'}),
      page.has_more ? el('p', {class: 'muted', text: 'The newest 100 messages.'}) : null,
      messages.length ? el('ol', {class: 'plain'}, messages) : el('p', {class: 'muted', text: 'No message.'}));
  });

  async function showDocuments(base, holder, button) {
    button.disabled = true;
    const documents = (await api('GET', `/admin/knowledge/bases/${encodeURIComponent(base.id)}/documents`)).data;
    show(holder, documents.length ? table(`Documents of ${base.name}`,
      ['Document', 'Indexing', 'Words', 'Error'], documents.map(d => el('tr', {}, el('td', {text: d.name}),
        el('td', {}, statusBadge(d.indexing_status)), el('td', {text: d.word_count}),
        el('td', {class: 'error-cell', text: d.error || ''}))))
      : el('p', {class: 'muted', text: 'No document.'}));
    button.hidden = true;
  }

  HF.route(/^\/knowledge$/, async view => {
    const bases = (await api('GET', '/admin/knowledge/bases')).data;
    const sections = bases.map(base => {
      const heading = `base-${base.id}`;
      const holder = el('div', {});
      const button = el('button', {type: 'button', class: 'quiet', text: 'Show its documents'});
      button.addEventListener('click', () => showDocuments(base, holder, button).catch(e => {
        show(holder, el('p', {class: 'error', text: e.message}));
      }));
      return el('section', {class: 'panel', 'aria-labelledby': heading}, el('h2', {id: heading, text: base.name}),
        el('p', {text: base.description || ''}),
        el('dl', {class: 'facts'}, el('dt', {text: 'Id'}), el('dd', {}, el('code', {text: base.id})),
          el('dt', {text: 'Indexing'}), el('dd', {text: base.indexing_technique}),
          el('dt', {text: 'Search'}), el('dd', {text: base.search_method + (base.keyword_only ? ' (keywords only)'
            : '')}), el('dt', {text: 'Created'}), el('dd', {text: time(base.created_at)})),
        button, holder);
    });
    show(view, el('h1', {text: 'Knowledge bases'}),
      sections.length ? sections : el('p', {class: 'muted', text: 'No knowledge base.'}));
  });

  function delivery(appId, d, onRedelivered) {
    const redeliver = el('button', {type: 'button', class: 'quiet', disabled: d.state === 'pending',
      text: 'Redeliver'});
    redeliver.addEventListener('click', async () => {
      const answer = await api('POST', `/admin/apps/${encodeURIComponent(appId)}/deliveries/${encodeURIComponent(
        d.id)}/redeliver`).catch(e => e);
      announce(answer instanceof Error ? answer.message : 'Due again now.');
      if (!(answer instanceof Error)) onRedelivered();
    });
    const attempts = d.attempts.map(a => el('tr', {}, el('td', {text: a.number}), el('td', {text: time(
      a.attempted_at)}), el('td', {text: a.status_code === null ? '—' : a.status_code}),
    el('td', {text: `${a.elapsed_ms} ms`}), el('td', {class: 'error-cell', text: a.error || ''})));
    return el('li', {class: 'panel'},
      el('h2', {}, statusBadge(d.state), ' ', el('a', {href: `#/runs/${encodeURIComponent(d.workflow_run_id)}`,
        text: `run of ${time(d.created_at)}`})),
      el('p', {}, el('code', {text: d.url})),
      d.next_attempt_at ? el('p', {class: 'muted', text: `Next attempt ${time(d.next_attempt_at)}`}) : null,
      attempts.length ? table('Attempts', ['Attempt', 'When', 'HTTP status', 'Time', 'Error'], attempts)
        : el('p', {class: 'muted', text: 'Not attempted yet.'}),
      redeliver);
  }

  HF.route(/^\/apps\/([^/]+)\/deliveries$/, async function draw(view, [appId], query) {
    const page = Math.max(1, Number(query.get('page')) || 1);
    const [name, list] = await Promise.all([appName(appId), api('GET', `/admin/apps/${encodeURIComponent(appId)}`
      + `/deliveries?page=${page}&limit=20`)]);
    const again = () => draw(view, [appId], query);
    show(view, el('p', {}, el('a', {href: '#/apps', text: '← Apps'})),
      el('h1', {text: `Webhook deliveries of ${name}`}),
      el('p', {class: 'muted', text: `${list.total} deliveries.`}),
      list.data.length ? el('ul', {class: 'plain'}, list.data.map(d => delivery(appId, d, again)))
        : el('p', {class: 'muted', text: 'No delivery.'}),
      list.has_more ? el('p', {}, el('a', {href: `#/apps/${encodeURIComponent(appId)}/deliveries?page=${page + 1}`,
        text: 'Older deliveries'})) : null);
  });

  /** Where a trigger is called, or when its schedule fires next; a webhook's secret is never in the answer. */
  function triggerFacts(t) {
    const auth = t.auth_kind === 'none' ? 'none: anyone with the URL'
      : t.auth_kind + (t.auth_header && t.auth_kind !== 'bearer' ? ` (header ${t.auth_header})` : '');
    const facts = [['Kind', t.kind], ['State', statusBadge(t.enabled ? 'on' : 'off')]];
    if (t.kind === 'schedule') {
      facts.push(['Schedule', el('span', {}, el('code', {text: t.cron}), ` in ${t.timezone}`)],
        ['Next fire times', t.next_fires.length ? el('ul', {class: 'plain'}, t.next_fires.map(at => el('li', {},
          time(at)))) : 'none while it is off'],
        ['Missed ticks', t.missed_ticks === 'run_once' ? 'run once after a start' : 'skipped']);
    } else {
      facts.push(['URL path', el('code', {text: t.url_path})], ['Authentication', auth]);
    }
    return el('dl', {class: 'facts'}, facts.map(([term, value]) => [el('dt', {text: term}), el('dd', {}, value)]));
  }

  function trigger(appId, t, redraw) {
    const heading = `trigger-${t.node_id}`;
    const plugin = t.kind === 'plugin';
    const action = t.enabled ? (plugin ? 'Unbind' : 'Turn off') : (plugin ? 'Bind' : 'Turn on');
    const button = el('button', {type: 'button', class: 'quiet', id: `switch-${t.node_id}`, text: action});
    button.addEventListener('click', async () => {
      button.disabled = true;
      const path = `/admin/apps/${encodeURIComponent(appId)}/triggers/${encodeURIComponent(t.node_id)}/`
        + (t.enabled ? 'disable' : 'enable');
      const answer = await api('POST', path).catch(e => e);
      announce(answer instanceof Error ? answer.message : `${t.title || t.node_id} is ${answer.enabled
        ? (plugin ? 'bound' : 'on') : (plugin ? 'unbound' : 'off')}.`);
      await redraw();
      const again = document.getElementById(`switch-${t.node_id}`);
      if (again) again.focus();
    });
    return el('section', {class: 'panel', 'aria-labelledby': heading},
      el('h2', {id: heading}, t.title || t.node_id, ' ', el('code', {text: t.node_id})),
      triggerFacts(t), button);
  }

  // An app's triggers (schedules, webhooks, plugin triggers), each switched on and off here.
  HF.route(/^\/apps\/([^/]+)\/triggers$/, async (view, [appId]) => {
    const draw = async () => {
      const [name, list] = await Promise.all([appName(appId), api('GET', `/admin/apps/${encodeURIComponent(appId)}`
        + '/triggers')]);
      show(view, el('p', {}, el('a', {href: '#/apps', text: '← Apps'})),
        el('h1', {text: `Triggers of ${name}`}),
        el('p', {class: 'muted', text: 'Webhooks are called at their URL path on this server; a plugin trigger takes '
          + 'events at its URL once bound. A webhook\'s secret and a new URL are set with the admin API or the '
          + 'command line (hexaflow triggers).'}),
        list.data.length ? list.data.map(t => trigger(appId, t, draw))
          : el('p', {class: 'muted', text: 'The published workflow has no trigger.'}));
    };
    await draw();
  });

  // The forms of paused runs, waiting for a person: each opens on its own page (the token is its credential).
  HF.route(/^\/forms$/, async view => {
    const forms = (await api('GET', '/admin/forms?limit=100')).data;
    const rows = forms.map(f => el('tr', {},
      el('td', {text: f.app_id}),
      el('td', {}, el('a', {href: `#/runs/${encodeURIComponent(f.workflow_run_id)}`, text: f.node_title || f.node_id})),
      el('td', {class: 'error-cell', text: f.form_content}),
      el('td', {text: time(f.expiration_time)}),
      el('td', {}, el('a', {href: `/form/${encodeURIComponent(f.form_token)}`, text: 'Open the form'}))));
    show(view, el('h1', {text: 'Waiting for a person'}),
      el('p', {class: 'muted', text: 'Runs paused at a human-input node, newest first. A run goes on once its form '
        + 'is answered, or takes its timeout branch when the form expires.'}),
      rows.length ? table('Waiting forms', ['App', 'Run, at', 'Form', 'Expires', 'Answer'], rows)
        : el('p', {class: 'muted', text: 'No run waits for a person.'}));
  });

  async function probe(path) {
    try {
      const response = await fetch(path, {cache: 'no-store'});
      return {code: response.status, body: await response.json().catch(() => ({}))};
    } catch (e) {
      return {code: 0, body: {status: 'unreachable', reason: e.message}};
    }
  }

  /** The instances serving the store, each with its lease (times in the store's milliseconds). */
  function instancesPanel(answer) {
    const rows = answer.instances.map(i => el('tr', {}, el('td', {text: i.id + (i.answering ? ' (this one)' : '')}),
      el('td', {text: i.origin ? `${i.machine || ''} ${i.origin}`.trim() : '—'}),
      el('td', {}, statusBadge(i.live ? 'live' : 'lapsed')), el('td', {text: time(i.renewed_at / 1000)}),
      el('td', {text: time(i.started_at / 1000)})));
    return el('section', {class: 'panel', 'aria-labelledby': 'instances-heading'},
      el('h2', {id: 'instances-heading', text: 'Store and instances'}),
      el('p', {}, 'Store: ', statusBadge(answer.store.status)),
      answer.store.reason ? el('p', {class: 'error', text: answer.store.reason}) : null,
      !answer.shared ? el('p', {class: 'muted', text: 'This server is alone on its H2 store: it holds no lease. '
        + 'Instances sharing a PostgreSQL store are listed here with their leases.'})
        : rows.length ? table('Instances and their leases', ['Instance', 'Serves at', 'Lease', 'Renewed',
          'Started'], rows) : el('p', {class: 'muted', text: 'No lease is kept yet.'}));
  }

  HF.route(/^\/health$/, async view => {
    const draw = async () => {
      const [health, ready, instances] = await Promise.all([probe('/health'), probe('/readyz'),
        api('GET', '/admin/instances')]);
      const row = (name, what, answer) => el('section', {class: 'panel', 'aria-labelledby': `probe-${name}`},
        el('h2', {id: `probe-${name}`, text: name}), el('p', {text: what}),
        el('p', {}, statusBadge(answer.body.status), ` HTTP ${answer.code}`),
        answer.body.reason ? el('p', {class: 'error', text: answer.body.reason}) : null);
      show(view, el('h1', {text: 'Health'}),
        row('/health', 'Liveness: whether the process serves.', health),
        row('/readyz', 'Readiness: whether it takes new work.', ready),
        instancesPanel(instances));
    };
    await draw();
    HF.poll(draw, 5000);
  });
})();
