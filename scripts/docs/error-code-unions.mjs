// Every error code the packages can raise, read from their sources with the TypeScript
// compiler: each exported type alias named `…Code` that is a union of string literals,
// each exported `…CodeSchema = z.enum([...])`, and each exported `…_CODES` object of
// numbers (the MCP adapter's JSON-RPC codes). The error-code page is checked against it.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';

const root = join(import.meta.dirname, '..', '..');

function sourceFiles(directory) {
  return readdirSync(directory, { withFileTypes: true, recursive: true })
    .filter(
      (entry) =>
        entry.isFile() &&
        entry.name.endsWith('.ts') &&
        !/\.test(-d)?\.ts$/.test(entry.name) &&
        !entry.name.endsWith('.d.ts'),
    )
    .map((entry) => join(entry.parentPath ?? entry.path, entry.name))
    .filter((file) => !/__fixtures__|test-support|testing/.test(relative(directory, file)));
}

const exported = (node) =>
  node.modifiers?.some((modifier) => modifier.kind === ts.SyntaxKind.ExportKeyword) ?? false;

function literalUnion(type) {
  const members = ts.isUnionTypeNode(type) ? type.types : [type];
  const codes = [];
  for (const member of members) {
    if (!ts.isLiteralTypeNode(member) || !ts.isStringLiteral(member.literal)) return undefined;
    codes.push(member.literal.text);
  }
  return codes;
}

/** The packages under packages/ (published or not), each with its code unions. */
export function errorCodeUnions() {
  const unions = [];
  for (const name of readdirSync(join(root, 'packages')).sort()) {
    const directory = join(root, 'packages', name);
    let manifest;
    try {
      manifest = JSON.parse(readFileSync(join(directory, 'package.json'), 'utf8'));
    } catch {
      continue;
    }
    for (const file of sourceFiles(join(directory, 'src'))) {
      const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest);
      for (const statement of source.statements) {
        if (!exported(statement)) continue;
        if (ts.isTypeAliasDeclaration(statement) && statement.name.text.endsWith('Code')) {
          const codes = literalUnion(statement.type);
          if (codes) unions.push({ package: manifest.name, name: statement.name.text, codes });
        }
        if (!ts.isVariableStatement(statement)) continue;
        for (const declaration of statement.declarationList.declarations) {
          const id = declaration.name.getText?.(source) ?? '';
          let init = declaration.initializer;
          while (init && (ts.isAsExpression(init) || ts.isSatisfiesExpression?.(init)))
            init = init.expression;
          if (!init) continue;
          if (id.endsWith('CodeSchema') && ts.isCallExpression(init)) {
            const [list] = init.arguments;
            if (list && ts.isArrayLiteralExpression(list))
              unions.push({
                package: manifest.name,
                name: id,
                codes: list.elements.filter(ts.isStringLiteral).map((element) => element.text),
              });
          }
          if (id.endsWith('_CODES') && ts.isObjectLiteralExpression(init))
            unions.push({
              package: manifest.name,
              name: id,
              codes: init.properties
                .filter(ts.isPropertyAssignment)
                .map((property) => property.initializer.getText(source)),
            });
        }
      }
    }
  }
  return unions;
}

/**
 * The codes the error-code page documents, by the union named in each section's heading
 * (`` ## `ProviderErrorCode` ``): the first cell of each table row, unquoted.
 */
export function documentedCodes(markdown) {
  const sections = new Map();
  let current;
  for (const line of markdown.split('\n')) {
    const heading = /^#{2,3} `([A-Za-z_]+)`/.exec(line);
    if (heading) {
      current = heading[1];
      sections.set(current, []);
      continue;
    }
    const row = /^\| `([^`]+)` \|/.exec(line);
    if (row && current) sections.get(current).push(row[1]);
  }
  return sections;
}

/** Problems between the page and the sources: missing, extra or unknown codes. */
export function compareErrorCodes(markdown, unions = errorCodeUnions()) {
  const documented = documentedCodes(markdown);
  const problems = [];
  for (const union of unions) {
    const listed = documented.get(union.name);
    if (!listed) {
      problems.push(`${union.package} ${union.name} has no section on the error-code page`);
      continue;
    }
    for (const code of union.codes)
      if (!listed.includes(code)) problems.push(`${union.name}: ${code} is not documented`);
    for (const code of listed)
      if (!union.codes.includes(code))
        problems.push(`${union.name}: the page lists ${code}, which the code does not raise`);
  }
  for (const name of documented.keys())
    if (!unions.some((union) => union.name === name))
      problems.push(`the page has a section for ${name}, which no package defines`);
  return problems;
}
