// Runs the programs named on the command line (file names in this folder, without `.ts`) at once
// in this one process, as a client team's service would hold several clients: each is a module
// whose top-level await makes its calls and prints its report line. One Node process and one
// TypeScript loader instead of one per program. A program that fails prints its error as its line
// and the process exits 1.
export {}; // a module, for its top-level await
await Promise.all(process.argv.slice(2).map(async (program) => {
  try {
    await import(`./${program}.ts`);
  } catch (err) {
    console.log(JSON.stringify({ program, failed: err instanceof Error ? err.stack : String(err) }));
    process.exitCode = 1;
  }
}));
