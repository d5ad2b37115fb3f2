import type { ToolRegistry } from '../tools/tool-registry';
import { toolkitPrefix } from '../tools/toolkit';

const shown = 20;

/** What a model reads when it names a tool that does not exist: the names it could use. */
export function unknownToolMessage(registry: ToolRegistry, name: string): string {
  let names: string[];
  try {
    names = registry.list().map((spec) => spec.name);
  } catch {
    names = [];
  }
  const base = `No tool named "${name}"`;
  if (names.length === 0) return `${base}, and no tools are available.`;
  const prefix = toolkitPrefix(name);
  const siblings =
    prefix === undefined ? [] : names.filter((other) => toolkitPrefix(other) === prefix);
  if (siblings.length > 0) {
    return `${base}; the "${prefix}" tools are: ${list(siblings)}.`;
  }
  return `${base}; the available tools are: ${list(names)}.`;
}

function list(names: string[]): string {
  const sorted = [...names].sort();
  const head = sorted.slice(0, shown).join(', ');
  return sorted.length > shown ? `${head} (and ${sorted.length - shown} more)` : head;
}
