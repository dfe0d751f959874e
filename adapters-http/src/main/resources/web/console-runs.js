// The apps and the runs list. The list follows its filters in the address (so it can be linked and reloaded),
// pages by the cursor the admin API answers, and refreshes its rows while the tab is visible.
'use strict';

(() => {
  const {el, show, api, time, seconds, statusBadge, poll, go} = HF;
  const STATUSES = ['running', 'paused', 'succeeded', 'partial-succeeded', 'failed', 'stopped'];
  const CHAT_MODES = ['advanced-chat', 'chat', 'agent-chat'];

  function definition(pairs) {
    return el('dl', {class: 'facts'}, pairs.map(([term, value]) => [el('dt', {text: term}), el('dd', {}, value)]));
  }

  async function keysOf(app) {
    const keys = (await api('GET', `/admin/apps/${encodeURIComponent(app.app_id)}/keys`)).data;
    if (!keys.length) return el('p', {class: 'muted', text: 'No key: issue one with the admin API.'});
    return el('ul', {class: 'plain'}, keys.map(key => el('li', {},
      el('code', {text: `app-…${key.hint}`}), ` issued ${time(key.created_at)}, `,
      key.last_used_at ? `last used ${time(key.last_used_at)}` : 'never used')));
  }

  /** The app's limits, read-only: set them with PUT /admin/apps/{app_id}/limits or hexaflow apps limits. */
  async function limitsOf(app) {
    const shown = await api('GET', `/admin/apps/${encodeURIComponent(app.app_id)}/limits`);
    const limits = shown.limits;
    const rate = r => r ? `${r.per_minute} a minute, bursts of ${r.burst}` : 'no limit';
    const count = n => n ? String(n) : 'no limit';
    const budgets = limits.budgets.map(b => el('li', {text: `${b.scope.replace('_', ' ')}: ${b.amount} `
      + `${b.measure === 'price' ? 'in price' : 'tokens'} a ${b.period}`}));
    return [el('p', {class: 'muted', text: shown.own ? 'Its own.'
      : "The server's defaults (HEXAFLOW_LIMIT_*): it has none of its own."}),
      definition([['Rate per key', rate(limits.rate_per_key)], ['Rate per end user', rate(limits.rate_per_end_user)],
        ['Runs at once', count(limits.active_runs)], ['Per end user', count(limits.active_runs_per_end_user)],
        ['Queued runs', count(limits.queued_runs)],
        ['Budgets', budgets.length ? el('ul', {class: 'plain'}, budgets) : 'none'],
        ['Crossing a budget', limits.on_crossing], ['Time zone', limits.time_zone]])];
  }

  async function appSection(app) {
    const id = encodeURIComponent(app.app_id);
    const heading = `app-${app.app_id}`;
    const page = app.enable_site
      ? el('span', {}, 'on: ', el('a', {href: `/apps/${encodeURIComponent(app.site_code)}`}, `/apps/${app.site_code}`))
      : 'off';
    const links = [el('a', {href: `#/runs?app_id=${id}`}, 'Runs'),
      el('a', {href: `#/apps/${id}/deliveries`}, 'Webhook deliveries')];
    if (CHAT_MODES.includes(app.mode)) links.splice(1, 0, el('a', {href: `#/apps/${id}/conversations`}, 'Conversations'));
    if (app.mode === 'workflow') links.push(el('a', {href: `#/apps/${id}/triggers`}, 'Triggers'));
    return el('section', {class: 'panel', 'aria-labelledby': heading},
      el('h2', {id: heading, text: app.name}),
      definition([['Mode', app.mode], ['Published version', app.version || '—'],
        ['Workflow id', el('code', {text: app.workflow_id || '—'})], ['Web page', page],
        ['Imported', time(app.created_at)], ['Webhook', app.callback_url || 'none']]),
      el('h3', {text: 'Keys'}), await keysOf(app),
      el('h3', {text: 'Limits'}), await limitsOf(app),
      el('h3', {text: 'Import warnings'}),
      app.warnings && app.warnings.length ? el('ul', {class: 'warnings'}, app.warnings.map(w => el('li', {text: w})))
        : el('p', {class: 'muted', text: 'None.'}),
      el('p', {class: 'links'}, links));
  }

  function toolsSection(tools) {
    const bindings = tools.bindings.map(b => el('li', {}, el('code', {text: `${b.provider}/${b.tool}`}), ' → ',
      b.mcp ? `MCP ${b.mcp.server}/${b.mcp.tool}` : b.openapi ? `OpenAPI ${b.openapi.operation}` : `app ${b.app}`));
    return el('section', {class: 'panel', 'aria-labelledby': 'tools-heading'},
      el('h2', {id: 'tools-heading', text: 'Tools'}),
      el('p', {text: 'A tool an app waits on is named in its import warnings until a binding or server runs it.'}),
      definition([['Built-in', tools.builtin.join(', ') || 'none'],
        ['MCP servers', tools.servers.map(s => `${s.name} (${s.transport})`).join(', ') || 'none']]),
      el('h3', {text: 'Bindings'}),
      bindings.length ? el('ul', {class: 'plain'}, bindings) : el('p', {class: 'muted', text: 'None.'}));
  }

  HF.route(/^\/apps$/, async view => {
    const [apps, tools] = await Promise.all([api('GET', '/admin/apps'), api('GET', '/admin/tools')]);
    const sections = await Promise.all(apps.data.map(appSection));
    show(view, el('h1', {text: 'Apps'}),
      el('p', {class: 'muted', text: `${apps.data.length} apps. Versions before the published one are kept; `
        + 'export one with GET /admin/apps/{app_id}/dsl?workflow_id=.'}),
      sections, toolsSection(tools));
  });

  function field(id, label, control) {
    control.id = id;
    return el('div', {class: 'field'}, el('label', {for: id, text: label}), control);
  }

  function filterForm(query, apps) {
    const appSelect = el('select', {name: 'app_id'}, el('option', {value: '', text: 'Every app'}),
      apps.map(app => el('option', {value: app.app_id, text: app.name, selected: query.get('app_id') === app.app_id})));
    const status = el('select', {name: 'status'}, el('option', {value: '', text: 'Any status'}),
      STATUSES.map(s => el('option', {value: s, text: s, selected: query.get('status') === s})));
    const localTime = name => {
      const given = query.get(name);
      const input = el('input', {type: 'datetime-local', name, step: 1});
      if (given) input.value = toLocalInput(given);
      return input;
    };
    const form = el('form', {class: 'filters panel', 'aria-label': 'Filter the runs'},
      field('filter-app', 'App', appSelect), field('filter-status', 'Status', status),
      field('filter-user', 'End user', el('input', {name: 'user', value: query.get('user') || ''})),
      field('filter-keyword', 'Keyword', el('input', {name: 'keyword', type: 'search', value: query.get('keyword') || ''})),
      field('filter-after', 'Started after', localTime('created_at__after')),
      field('filter-before', 'Started before', localTime('created_at__before')),
      el('div', {class: 'actions'}, el('button', {type: 'submit', text: 'Filter'}),
        el('a', {href: '#/runs', class: 'button quiet', text: 'Clear'})));
    form.addEventListener('submit', event => {
      event.preventDefault();
      const next = new URLSearchParams();
      for (const [name, value] of new FormData(form)) {
        if (!value) continue;
        next.set(name, name.startsWith('created_at') ? new Date(value).toISOString() : value);
      }
      go('/runs', next);
    });
    return form;
  }

  function toLocalInput(iso) {
    const date = new Date(iso);
    if (Number.isNaN(date.getTime())) return '';
    return new Date(date.getTime() - date.getTimezoneOffset() * 60000).toISOString().slice(0, 19);
  }

  function runRow(run) {
    return el('tr', {},
      el('td', {}, el('a', {href: `#/runs/${encodeURIComponent(run.id)}`, text: time(run.created_at)})),
      el('td', {text: run.app.name}), el('td', {}, statusBadge(run.status)),
      el('td', {text: run.end_user.session_id}), el('td', {text: seconds(run.elapsed_time)}),
      el('td', {text: run.total_steps}),
      el('td', {class: 'error-cell', text: run.error || ''}));
  }

  function runsTable(page) {
    if (!page.data.length) return el('p', {class: 'muted', id: 'runs-empty', text: 'No run matches.'});
    return el('div', {class: 'table-scroll', role: 'region', 'aria-label': 'Runs', tabindex: 0},
      el('table', {id: 'runs-table'},
        el('thead', {}, el('tr', {}, ['Started', 'App', 'Status', 'End user', 'Time', 'Steps', 'Error']
          .map(h => el('th', {scope: 'col', text: h})))),
        el('tbody', {}, page.data.map(runRow))));
  }

  function pager(query, page) {
    const older = new URLSearchParams(query);
    older.set('cursor', page.next_cursor || '');
    const newest = new URLSearchParams(query);
    newest.delete('cursor');
    return el('nav', {class: 'pager', 'aria-label': 'Pages of runs'},
      query.get('cursor') ? el('a', {href: `#/runs?${newest}`, text: 'Newest runs'}) : null,
      page.has_more ? el('a', {href: `#/runs?${older}`, text: 'Older runs'}) : null);
  }

  HF.route(/^\/runs$/, async (view, _, query) => {
    const search = new URLSearchParams(query);
    search.set('limit', '20');
    const [apps, page] = await Promise.all([api('GET', '/admin/apps'), api('GET', `/admin/runs?${search}`)]);
    const results = el('div', {id: 'runs-results'}, runsTable(page), pager(query, page));
    show(view, el('h1', {text: 'Runs'}), filterForm(query, apps.data),
      el('h2', {class: 'visually-hidden', text: 'Results'}),
      el('p', {class: 'muted', text: 'Refreshed every few seconds while this tab is visible.'}), results);
    poll(async () => {
      if (results.contains(document.activeElement)) return; // never pull a row from under the keyboard
      const fresh = await api('GET', `/admin/runs?${search}`).catch(() => null);
      if (fresh) show(results, runsTable(fresh), pager(query, fresh));
    });
  });
})();
