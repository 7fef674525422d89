/**
 * CPU (user + system, ms) of a process tree read from /proc: the root process, its reaped
 * children (cutime, cstime) and its live children. The PostgreSQL server's CPU is its postmaster's tree.
 */
import { readdirSync, readFileSync } from 'node:fs';

export function treeCpuMs(root: number): number {
  const tick = 10; // ms per clock tick (USER_HZ 100)
  const stat = (pid: number) => {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return text.slice(text.lastIndexOf(')') + 2).split(' ');
  };
  const own = stat(root);
  // Fields after the name: state(0) ppid(1) … utime(11) stime(12) cutime(13) cstime(14).
  let ticks = Number(own[11]) + Number(own[12]) + Number(own[13]) + Number(own[14]);
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const f = stat(Number(entry));
      if (Number(f[1]) === root) ticks += Number(f[11]) + Number(f[12]);
    } catch {
      // gone meanwhile
    }
  }
  return ticks * tick;
}
