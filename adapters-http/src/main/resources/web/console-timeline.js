// One run whole: its status, inputs and outputs, stop and re-run, and a timeline with a bar per node execution.
// The API gives node times to the second (created_at) with each node's elapsed_time, so a bar starts at its
// second or when the node before it ended, whichever is later; bars that overlap (parallel branches) take rows of
// their own. Each bar is a button that opens the node's inputs, process data, outputs and error below.
'use strict';

(() => {
  const {el, show, api, time, seconds, json, statusBadge, announce, poll, go} = HF;
  const MIN_SHARE = 0.14;

  /** Each node execution with where its bar goes: start and end in seconds from the run's start, and a row. */
  function layout(run, executions) {
    const ends = new Map();
    const bars = executions.slice().sort((a, b) => a.index - b.index).map(node => {
      let start = Math.max(0, (node.created_at || run.created_at) - run.created_at);
      const before = ends.get(node.predecessor_node_id);
      if (before !== undefined && before > start) start = before;
      const end = start + Math.max(0, Number(node.elapsed_time) || 0);
      ends.set(node.node_id, end);
      return {node, start, end};
    });
    const total = Math.max(0.001, Number(run.elapsed_time) || 0, ...bars.map(b => b.end));
    // A bar is drawn at least a readable width (MIN_SHARE of the axis): a row takes the next bar only once
    // the last one's drawn end is passed, so that short bars never cover each other.
    const rows = [];
    for (const bar of bars.slice().sort((a, b) => a.start - b.start || a.node.index - b.node.index)) {
      let row = rows.findIndex(end => end <= bar.start + 1e-9);
      if (row < 0) row = rows.push(0) - 1;
      rows[row] = Math.max(bar.end, bar.start + total * MIN_SHARE);
      bar.row = row;
    }
    return {bars, rows: rows.length, total};
  }

  /** Which round of an iteration or loop a node execution ran in, if any. */
  function round(node) {
    const meta = node.execution_metadata || {};
    if (meta.iteration_id) return `round ${Number(meta.iteration_index) + 1} of iteration ${meta.iteration_id}`;
    if (meta.loop_id) return `round ${Number(meta.loop_index) + 1} of loop ${meta.loop_id}`;
    return null;
  }

  function describe(bar) {
    const node = bar.node;
    return [`${node.node_type}`, node.status, `${seconds(node.elapsed_time)}`, `from ${seconds(bar.start)}`,
      round(node)].filter(Boolean).join(', ');
  }

  function nodeDetail(bar) {
    const node = bar.node;
    const section = (title, value) => [el('h3', {text: title}), json(value)];
    return [el('h2', {id: 'node-heading', tabindex: -1, text: `Node: ${node.title}`}),
      el('dl', {class: 'facts'},
        el('dt', {text: 'Status'}), el('dd', {}, statusBadge(node.status)),
        el('dt', {text: 'Type'}), el('dd', {text: node.node_type}),
        el('dt', {text: 'Node id'}), el('dd', {}, el('code', {text: node.node_id})),
        el('dt', {text: 'Started'}), el('dd', {text: time(node.created_at)}),
        el('dt', {text: 'Time'}), el('dd', {text: seconds(node.elapsed_time)}),
        round(node) ? [el('dt', {text: 'Round'}), el('dd', {text: round(node)})] : null),
      node.error ? [el('h3', {text: 'Error'}), el('p', {class: 'error node-error', text: node.error})] : null,
      section('Inputs', node.inputs), section('Process data', node.process_data), section('Outputs', node.outputs)];
  }

  function axis(total) {
    return el('div', {class: 'timeline-axis', 'aria-hidden': 'true'}, [0, 0.25, 0.5, 0.75, 1].map(part => {
      const tick = el('span', {text: seconds(total * part)});
      tick.style.setProperty('left', `${part * 100}%`);
      return tick;
    }));
  }

  function timeline(run, executions, detail) {
    const {bars, rows, total} = layout(run, executions);
    const lanes = Array.from({length: rows}, () => el('div', {class: 'timeline-row', role: 'listitem'}));
    for (const bar of bars) {
      const button = el('button', {type: 'button', class: `bar status-${bar.node.status}`
        + (round(bar.node) ? ' in-round' : ''), 'aria-controls': 'node-detail', 'aria-expanded': 'false',
      'data-node-id': bar.node.node_id},
      el('span', {class: 'bar-title', text: bar.node.title}),
      el('span', {class: 'visually-hidden', text: `: ${describe(bar)}`}));
      button.title = `${bar.node.title}: ${describe(bar)}`;
      button.style.setProperty('left', `${(bar.start / total) * 100}%`);
      button.style.setProperty('width', `${((bar.end - bar.start) / total) * 100}%`);
      button.addEventListener('click', () => {
        for (const other of document.querySelectorAll('.timeline .bar')) other.setAttribute('aria-expanded', 'false');
        button.setAttribute('aria-expanded', 'true');
        detail.hidden = false;
        show(detail, nodeDetail(bar));
        announce(`Showing ${bar.node.title}.`);
      });
      lanes[bar.row].append(button);
    }
    return el('div', {class: 'timeline', role: 'region', 'aria-label': 'Timeline, scrolls sideways', tabindex: 0},
      el('div', {class: 'timeline-inner'}, axis(total),
        el('div', {role: 'list', 'aria-label': 'Node executions by row; parallel branches on rows of their own'},
          lanes)));
  }

  function facts(run) {
    const pairs = [['Status', statusBadge(run.status)], ['App', el('a', {href: `#/runs?app_id=${encodeURIComponent(
      run.app.id)}`, text: run.app.name})], ['Version', run.version || '—'], ['Run id', el('code', {text: run.id})],
    ['End user', run.end_user.session_id], ['Started', time(run.created_at)], ['Finished', time(run.finished_at)],
    ['Time', seconds(run.elapsed_time)], ['Steps', run.total_steps], ['Tokens', run.total_tokens]];
    if (run.trace_id) pairs.push(['Trace id', el('code', {text: run.trace_id})]);
    return el('dl', {class: 'facts'}, pairs.map(([term, value]) => [el('dt', {text: term}), el('dd', {}, value)]));
  }

  function actions(run) {
    const message = el('p', {class: 'muted', role: 'status', id: 'run-action-status'});
    const stop = el('button', {type: 'button', id: 'stop-run', disabled: run.status !== 'running', text: 'Stop'});
    stop.addEventListener('click', async () => {
      const answer = await api('POST', `/admin/runs/${encodeURIComponent(run.id)}/stop`).catch(e => e);
      message.textContent = answer instanceof Error ? answer.message
        : answer.stopped ? 'Stopped.' : 'It had already ended.';
    });
    const chat = ['advanced-chat', 'chat', 'agent-chat'].includes(run.app.mode);
    const rerun = el('button', {type: 'button', id: 'rerun', disabled: chat, text: 'Run again'});
    rerun.addEventListener('click', async () => {
      const answer = await api('POST', `/admin/runs/${encodeURIComponent(run.id)}/rerun`, {version: 'same'})
        .catch(e => e);
      if (answer instanceof Error) message.textContent = answer.message;
      else go(`/runs/${encodeURIComponent(answer.workflow_run_id)}`);
    });
    return el('div', {class: 'actions'}, stop, rerun,
      chat ? el('span', {class: 'muted', text: 'A chat turn runs again only in its conversation.'}) : null, message);
  }

  async function draw(view, runId) {
    const run = await api('GET', `/admin/runs/${encodeURIComponent(runId)}`);
    const detail = el('section', {id: 'node-detail', class: 'panel', 'aria-labelledby': 'node-heading',
      hidden: true});
    const heading = `Run of ${run.app.name}`;
    show(view, el('p', {}, el('a', {href: '#/runs', text: '← Runs'})),
      el('h1', {text: heading}), facts(run), actions(run),
      run.error ? el('p', {class: 'error', id: 'run-error', text: run.error}) : null,
      el('h2', {text: 'Timeline'}),
      run.node_executions.length ? timeline(run, run.node_executions, detail)
        : el('p', {class: 'muted', text: 'No node has run.'}),
      el('p', {class: 'muted', text: 'Choose a bar to see that node\'s inputs, outputs and error.'}),
      detail,
      el('h2', {text: 'Inputs'}), json(run.inputs),
      el('h2', {text: 'Outputs'}), json(run.outputs),
      el('details', {}, el('summary', {text: `Its stream's ${run.events.length} events`}),
        json(run.events.map(e => e.data))));
    return run;
  }

  HF.route(/^\/runs\/([^/]+)$/, async (view, [runId]) => {
    const run = await draw(view, runId);
    if (run.status === 'running') {
      let ended = false;
      poll(async () => {
        if (ended || !document.getElementById('node-detail').hidden) return; // keep what the operator opened
        const fresh = await draw(view, runId).catch(() => null);
        if (fresh && fresh.status !== 'running') {
          ended = true;
          announce(`The run ended ${fresh.status}.`);
        }
      }, 3000);
    }
  });
})();
