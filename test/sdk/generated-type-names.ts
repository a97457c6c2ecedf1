import { readFileSync } from 'node:fs';
import ts from 'typescript';

// What the names check of the generated clients reads from their output: the names the
// generators gave their types, and the pattern of a name made up for a schema that has none.

/** Names a generator makes up when a schema has none: the thing the names check exists to prevent. */
export const MADE_UP_NAME = /^(InlineResponse|InlineObject|AnonymousSchema|Schema\d)|[_-]?\d+$/;

/** Names of the type aliases and interfaces a generated file exports. */
export function exportedTypeNames(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest);
  return source.statements
    .filter((s): s is ts.TypeAliasDeclaration | ts.InterfaceDeclaration =>
      (ts.isTypeAliasDeclaration(s) || ts.isInterfaceDeclaration(s))
      && (ts.getModifiers(s) ?? []).some((m) => m.kind === ts.SyntaxKind.ExportKeyword))
    .map((s) => s.name.text);
}

/** Property names of `components.schemas` in openapi-typescript's output. */
export function openapiTypescriptSchemaNames(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest);
  const components = source.statements.find((s): s is ts.InterfaceDeclaration => ts.isInterfaceDeclaration(s) && s.name.text === 'components');
  const schemas = components?.members.find((m) => m.name?.getText(source) === 'schemas');
  if (!schemas || !ts.isPropertySignature(schemas) || !schemas.type || !ts.isTypeLiteralNode(schemas.type)) return [];
  return schemas.type.members.map((m) => m.name!.getText(source).replace(/^["']|["']$/g, ''));
}
