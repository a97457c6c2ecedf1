// Preloaded into a benchmark server (`node --import .../profile-window.mjs`) when
// BENCH_CPU_PROFILE names a file: the first SIGUSR2 starts V8's sampling profiler, the second stops
// it and writes the profile there, so the profile covers the measured load only, not the start-up
// or the warm-up. Plain JavaScript so it loads before tsx, into any checkout's server.
import { renameSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';

const file = process.env.BENCH_CPU_PROFILE;
if (file) {
  const session = new Session();
  session.connect();
  let running = false;
  process.on('SIGUSR2', () => {
    const step = running
      ? session.post('Profiler.stop').then(({ profile }) => {
        // Written whole, then renamed: the file appears complete or not at all.
        writeFileSync(`${file}.part`, JSON.stringify(profile));
        renameSync(`${file}.part`, file);
      })
      : session.post('Profiler.enable')
        .then(() => session.post('Profiler.setSamplingInterval', { interval: 200 }))
        .then(() => session.post('Profiler.start'));
    running = !running;
    step.catch((error) => {
      process.stderr.write(`profile-window: ${error}\n`);
      process.exit(1);
    });
  });
}
