// Preloaded (node --import) into a CLI process a test stops with SIGINT: if the process is still
// alive a second after the signal (a server stops in milliseconds), it says on stderr what keeps
// it alive (process.getActiveResourcesInfo(): sockets, servers, timers) so the test can fail
// naming the cause. The timer is unref'd: it never keeps the process alive itself.
const LINE = 'exit-watch: still running 1 s after SIGINT, kept alive by';
process.once('SIGINT', () => {
  setTimeout(() => {
    const kept = process.getActiveResourcesInfo().filter((r) => r !== 'TTYWrap');
    process.stderr.write(`${LINE} ${JSON.stringify(kept)}\n`);
  }, 1_000).unref();
});
