// Every store method answers a promise (src/store/README.md). A call whose promise is dropped
// still compiles, and on a network database the write it starts races the next one; a promise
// tested as a condition is always true. This walks the type-checked program (src, test, bench,
// scripts) and fails on a call of a method of a store interface (src/store/interfaces/) whose
// promise is neither awaited, returned, chained, handed to Promise.all (or a sibling) or to
// expect(...).resolves/.rejects, nor explicitly dropped with `void`.
// Usage: node scripts/check-store-awaits.mjs [DIR]   (DIR: the project, its tsconfig.json; default
// this repository. Exit code 1 and one line per finding when any.)
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const root = path.resolve(process.argv[2] ?? fileURLToPath(new URL('..', import.meta.url))) + path.sep;
const INTERFACES = path.join(root, 'src', 'store', 'interfaces') + path.sep;

const config = ts.readConfigFile(path.join(root, 'tsconfig.json'), ts.sys.readFile);
const parsed = ts.parseJsonConfigFileContent(config.config, ts.sys, root);
const program = ts.createProgram(parsed.fileNames, parsed.options);
const checker = program.getTypeChecker();

/** The call is of a method declared by a store interface, and answers a promise (not a stream of rows). */
function isStoreCall(call) {
  const callee = call.expression;
  if (!ts.isPropertyAccessExpression(callee)) return false;
  const declaration = checker.getSymbolAtLocation(callee.name)?.declarations?.[0];
  if (declaration === undefined || !ts.isMethodSignature(declaration) || !declaration.getSourceFile().fileName.startsWith(INTERFACES)) return false;
  return checker.getTypeAtLocation(call).getProperty('then') !== undefined;
}

const COMBINATORS = /^Promise\.(all|allSettled|race|any)$/;

/** Where the promise goes: somewhere that waits for it or passes it on, or somewhere it is lost. */
function consumed(node) {
  const parent = node.parent;
  if (ts.isParenthesizedExpression(parent)) return consumed(parent);
  if (ts.isAwaitExpression(parent) || ts.isReturnStatement(parent) || ts.isVoidExpression(parent)) return true;
  if (ts.isArrowFunction(parent) && parent.body === node) return true;
  if (ts.isPropertyAccessExpression(parent) && parent.expression === node) return ['then', 'catch', 'finally'].includes(parent.name.text);
  if (ts.isArrayLiteralExpression(parent)) {
    const call = parent.parent;
    return ts.isCallExpression(call) && COMBINATORS.test(call.expression.getText());
  }
  if (ts.isCallExpression(parent) && parent.arguments.includes(node)) {
    if (COMBINATORS.test(parent.expression.getText())) return true;
    // expect(promise).resolves / .rejects
    if (parent.expression.getText() === 'expect') return ts.isPropertyAccessExpression(parent.parent) && ['resolves', 'rejects'].includes(parent.parent.name.text);
    // Handed to a function that takes a promise (a helper that awaits it): the type says so.
    const signature = checker.getResolvedSignature(parent);
    const index = parent.arguments.indexOf(node);
    const parameter = signature?.parameters[Math.min(index, (signature?.parameters.length ?? 1) - 1)];
    const type = parameter && checker.getTypeOfSymbolAtLocation(parameter, parent);
    return type !== undefined && (checker.typeToString(type).includes('Promise') || (type.flags & ts.TypeFlags.Any) !== 0);
  }
  // Kept in a variable: the type checker refuses its use as a value; a dropped variable is the compiler's unused check.
  if (ts.isVariableDeclaration(parent) && parent.initializer === node) return true;
  return false;
}

const findings = [];
for (const file of program.getSourceFiles()) {
  if (file.isDeclarationFile || !file.fileName.startsWith(root) || file.fileName.includes(`${path.sep}node_modules${path.sep}`)) continue;
  const visit = (node) => {
    if (ts.isCallExpression(node) && isStoreCall(node) && !consumed(node)) {
      const { line } = file.getLineAndCharacterOfPosition(node.getStart());
      findings.push(`${path.relative(root, file.fileName)}:${line + 1}: the promise of ${node.expression.getText()}() is not awaited`);
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
}
for (const finding of findings) console.error(finding);
if (findings.length > 0) process.exit(1);
console.log(`every store call is awaited (${program.getSourceFiles().filter((f) => !f.isDeclarationFile && f.fileName.startsWith(root)).length} files)`);
