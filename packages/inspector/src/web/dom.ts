/** Children a node can take: nodes, text, or nothing. */
export type Child = Node | string | number | false | null | undefined | Child[];

function append(parent: Node, child: Child): void {
  if (child === false || child === null || child === undefined) return;
  if (Array.isArray(child)) for (const item of child) append(parent, item);
  else
    parent.appendChild(typeof child === 'object' ? child : document.createTextNode(String(child)));
}

type Attributes = Record<string, string | number | boolean | EventListener | undefined>;

function setAttributes(element: Element, attributes: Attributes): void {
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === false) continue;
    if (typeof value === 'function') element.addEventListener(name.replace(/^on/, ''), value);
    else element.setAttribute(name, value === true ? '' : String(value));
  }
}

/** An HTML element: `h('a', { href: '/' }, 'Runs')`. Text is always text, never markup. */
export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attributes: Attributes = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  setAttributes(element, attributes);
  append(element, children);
  return element;
}

/** An SVG element. */
export function s<K extends keyof SVGElementTagNameMap>(
  tag: K,
  attributes: Attributes = {},
  ...children: Child[]
): SVGElementTagNameMap[K] {
  const element = document.createElementNS('http://www.w3.org/2000/svg', tag);
  setAttributes(element, attributes);
  append(element, children);
  return element;
}

/** Milliseconds for people: `840 ms`, `1.24 s`. */
export function ms(value: number | undefined): string {
  if (value === undefined) return '–';
  return value < 1000 ? `${Math.round(value)} ms` : `${(value / 1000).toFixed(2)} s`;
}

/** A value as pretty JSON (strings as they are). */
export function pretty(value: unknown): string {
  if (value === undefined) return '–';
  if (typeof value === 'string') return value;
  try {
    return JSON.stringify(value, null, 2);
  } catch {
    return String(value);
  }
}

/** Replaces `root`'s children (nothing, `false` and `null` are left out). */
export function fill(root: Element, ...children: Child[]): void {
  root.replaceChildren();
  append(root, children);
}
