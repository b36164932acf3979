"""`python -m wirebench_worker.stacks.dieexec PARENT_PID ARGV...`: the supervisor of a
server's process group. Started by the worker as the leader of a new session, it asks
the kernel for SIGTERM when the worker dies (PR_SET_PDEATHSIG), starts ARGV in its own
group, and on SIGTERM (the worker's death, or the worker stopping the server) kills the
whole group with SIGKILL: uvicorn's and granian's worker processes included, which
would outlive their master otherwise. A preexec_fn would not do: it is unsafe in a
process with threads (grpcio's). The worker leaves this process out of the server's
readings (proc.SUPERVISORS)."""

import os
import signal
import subprocess
import sys

from wirebench_worker import proc


def main() -> int:
    signal.signal(signal.SIGTERM, lambda *_: os.killpg(0, signal.SIGKILL))
    proc.die_with_parent(signal.SIGTERM)
    if os.getppid() != int(sys.argv[1]):
        return 1  # the parent died before the signal was asked for
    child = subprocess.Popen(sys.argv[2:])
    return child.wait()


sys.exit(main())
