// `npm run typecheck` and `npm run lint` over one TypeScript program: the type-aware linter would
// otherwise parse and bind the whole project (everything tsconfig.json includes) a second time.
//   node scripts/typecheck-and-lint.mjs FILE...   type-checks the project as `tsc --noEmit -p
//                                                 tsconfig.json` does, then lints FILE... with
//                                                 eslint.config.js (files it ignores are skipped)
// Same compiler options, same files, same rules as the two gates; only the program is shared
// (typescript-eslint's `parserOptions.programs` in place of its project service). Exit status 1
// when either reports an error or the linter a warning (as `--max-warnings 0`).
import path from 'node:path';
import ts from 'typescript';
import { ESLint } from 'eslint';
import { root } from './run-tool.mjs';

const files = process.argv.slice(2);
if (files.length === 0) {
  console.error('typecheck-and-lint: name the files to lint');
  process.exit(2);
}

const host = {
  getCanonicalFileName: (name) => name,
  getCurrentDirectory: () => root,
  getNewLine: () => ts.sys.newLine,
};
let configError;
const config = ts.getParsedCommandLineOfConfigFile(path.join(root, 'tsconfig.json'), {}, {
  ...ts.sys,
  onUnRecoverableConfigFileDiagnostic: (diagnostic) => { configError = diagnostic; },
});
if (config === undefined) {
  console.error(ts.formatDiagnosticsWithColorAndContext([configError], host));
  process.exit(1);
}
const program = ts.createProgram({ rootNames: config.fileNames, options: config.options, projectReferences: config.projectReferences });
const diagnostics = [...config.errors, ...ts.getPreEmitDiagnostics(program)];
if (diagnostics.length > 0) console.error(ts.formatDiagnosticsWithColorAndContext(diagnostics, host));
const typeErrors = diagnostics.filter((d) => d.category === ts.DiagnosticCategory.Error).length;
console.log(`typecheck: ${typeErrors} error(s) in ${config.fileNames.length} files`);

const eslint = new ESLint({
  cwd: root,
  warnIgnored: false,
  overrideConfig: { languageOptions: { parserOptions: { projectService: false, programs: [program] } } },
});
const results = await eslint.lintFiles(files);
const formatted = await (await eslint.loadFormatter('stylish')).format(results);
if (formatted) console.log(formatted);
const lintProblems = results.reduce((n, r) => n + r.errorCount + r.warningCount, 0);
console.log(`lint: ${lintProblems} problem(s) in ${results.length} files`);
process.exit(typeErrors > 0 || lintProblems > 0 ? 1 : 0);
