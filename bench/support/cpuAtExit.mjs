// Loaded with `node --import` by bench/sizeAndStartup.ts: prints the process's CPU time (user +
// system, ms) on stderr at exit, a start-up figure that other processes on the machine disturb
// less than wall time does.
process.on('exit', () => {
  const { user, system } = process.cpuUsage();
  process.stderr.write(`\ncpu-ms ${(user + system) / 1000}\n`);
});
