// Markdown to DOM nodes, safely: every piece of text becomes a text node and never markup, links keep only
// http, https and mailto addresses, and images become links (an output does not make the page fetch anything).
// Covers what workflow outputs use: headings, paragraphs with line breaks, emphasis, code, lists, quotes,
// tables, rules and links.
(function () {
  'use strict';

  const SAFE_PROTOCOLS = ['http:', 'https:', 'mailto:'];

  function safeUrl(text) {
    try {
      const url = new URL(text, window.location.href);
      return SAFE_PROTOCOLS.includes(url.protocol) ? url.href : null;
    } catch (e) {
      return null;
    }
  }

  function el(tag, children) {
    const node = document.createElement(tag);
    (children || []).forEach((child) => node.appendChild(child));
    return node;
  }

  function link(href, children) {
    const url = safeUrl(href);
    if (!url) {
      return children;
    }
    const a = el('a', children);
    a.href = url;
    a.target = '_blank';
    a.rel = 'noopener noreferrer nofollow';
    return [a];
  }

  // Inline rules, tried at each position; the earliest match wins, then the first rule listed.
  const INLINE = [
    { re: /`([^`\n]+)`/, make: (m) => [textElement('code', m[1])] },
    { re: /!\[([^\]\n]*)\]\(([^)\s]+)(?:\s+"[^"\n]*")?\)/,
      make: (m) => link(m[2], [document.createTextNode(m[1] ? m[1] + ' (image)' : 'image')]) },
    { re: /\[([^\]\n]+)\]\(([^)\s]+)(?:\s+"[^"\n]*")?\)/, make: (m) => link(m[2], inline(m[1])) },
    { re: /\*\*(?=\S)([\s\S]*?\S)\*\*/, make: (m) => [el('strong', inline(m[1]))] },
    { re: /__(?=\S)([\s\S]*?\S)__/, make: (m) => [el('strong', inline(m[1]))] },
    { re: /~~(?=\S)([\s\S]*?\S)~~/, make: (m) => [el('del', inline(m[1]))] },
    { re: /\*(?=[^\s*])([^*\n]*?[^\s*])\*/, make: (m) => [el('em', inline(m[1]))] },
    { re: /(^|[^\w])_(?=[^\s_])([^_\n]*?[^\s_])_(?!\w)/, lead: 1, make: (m) => [el('em', inline(m[2]))] },
    { re: /https?:\/\/[^\s<>()"']*[^\s<>()"'.,;:!?]/, make: (m) => link(m[0], [document.createTextNode(m[0])]) },
    { re: /\n/, make: () => [document.createElement('br')] },
  ];

  function textElement(tag, text) {
    const node = document.createElement(tag);
    node.textContent = text;
    return node;
  }

  function inline(text) {
    const nodes = [];
    let rest = text;
    while (rest.length > 0) {
      let best = null;
      for (const rule of INLINE) {
        const m = rule.re.exec(rest);
        if (!m) {
          continue;
        }
        const lead = rule.lead ? m[rule.lead].length : 0;
        const start = m.index + lead;
        if (!best || start < best.start) {
          best = { rule, m, start, end: m.index + m[0].length };
        }
      }
      if (!best) {
        nodes.push(document.createTextNode(rest));
        break;
      }
      if (best.start > 0) {
        nodes.push(document.createTextNode(rest.slice(0, best.start)));
      }
      best.rule.make(best.m).forEach((node) => nodes.push(node));
      rest = rest.slice(best.end);
    }
    return nodes;
  }

  const HEADING = /^(#{1,6})\s+(.*?)\s*#*\s*$/;
  const FENCE = /^\s*(```|~~~)\s*([\w+-]*)\s*$/;
  const RULE = /^\s*([-*_])(\s*\1){2,}\s*$/;
  const BULLET = /^\s*[-*+]\s+(.*)$/;
  const NUMBERED = /^\s*(\d{1,9})[.)]\s+(.*)$/;
  const QUOTE = /^\s*>\s?(.*)$/;
  const TABLE_SEPARATOR = /^\s*\|?\s*:?-{2,}:?\s*(\|\s*:?-{2,}:?\s*)*\|?\s*$/;

  function cells(line) {
    let body = line.trim();
    if (body.startsWith('|')) body = body.slice(1);
    if (body.endsWith('|')) body = body.slice(0, -1);
    return body.split('|').map((cell) => cell.trim());
  }

  function blocks(text) {
    const lines = text.replace(/\r\n?/g, '\n').split('\n');
    const out = [];
    let i = 0;
    while (i < lines.length) {
      const line = lines[i];
      if (line.trim() === '') {
        i++;
        continue;
      }
      const fence = FENCE.exec(line);
      if (fence) {
        const code = [];
        i++;
        while (i < lines.length && !lines[i].trim().startsWith(fence[1])) {
          code.push(lines[i++]);
        }
        i++;
        const codeNode = textElement('code', code.join('\n'));
        if (fence[2]) codeNode.className = 'language-' + fence[2];
        out.push(el('pre', [codeNode]));
        continue;
      }
      const heading = HEADING.exec(line);
      if (heading) {
        const level = Math.min(6, heading[1].length + 2);
        out.push(el('h' + level, inline(heading[2])));
        i++;
        continue;
      }
      if (RULE.test(line)) {
        out.push(document.createElement('hr'));
        i++;
        continue;
      }
      if (QUOTE.test(line)) {
        const quoted = [];
        while (i < lines.length && QUOTE.test(lines[i])) {
          quoted.push(QUOTE.exec(lines[i++])[1]);
        }
        out.push(el('blockquote', blocks(quoted.join('\n'))));
        continue;
      }
      if (BULLET.test(line) || NUMBERED.test(line)) {
        const numbered = !BULLET.test(line);
        const pattern = numbered ? NUMBERED : BULLET;
        const list = document.createElement(numbered ? 'ol' : 'ul');
        if (numbered && NUMBERED.exec(line)[1] !== '1') list.start = Number(NUMBERED.exec(line)[1]);
        while (i < lines.length && pattern.test(lines[i])) {
          const m = pattern.exec(lines[i++]);
          list.appendChild(el('li', inline(numbered ? m[2] : m[1])));
        }
        out.push(list);
        continue;
      }
      if (line.includes('|') && i + 1 < lines.length && TABLE_SEPARATOR.test(lines[i + 1])) {
        const head = el('tr', cells(line).map((cell) => el('th', inline(cell))));
        const rows = [];
        i += 2;
        while (i < lines.length && lines[i].includes('|') && lines[i].trim() !== '') {
          rows.push(el('tr', cells(lines[i++]).map((cell) => el('td', inline(cell)))));
        }
        out.push(el('table', [el('thead', [head]), el('tbody', rows)]));
        continue;
      }
      const paragraph = [];
      while (i < lines.length && lines[i].trim() !== '' && !FENCE.test(lines[i]) && !HEADING.test(lines[i])
          && !QUOTE.test(lines[i]) && !BULLET.test(lines[i]) && !NUMBERED.test(lines[i]) && !RULE.test(lines[i])) {
        paragraph.push(lines[i++]);
      }
      out.push(el('p', inline(paragraph.join('\n'))));
    }
    return out;
  }

  /** Replaces the container's content with the markdown, rendered. */
  function render(text, container) {
    container.replaceChildren(...blocks(String(text)));
  }

  window.HexaflowMarkdown = { render, safeUrl };
})();
