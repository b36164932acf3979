"""`python -m wirebench_worker.stacks.dieexec PARENT_PID ARGV...`: asks the kernel to kill
this process when its parent dies (PR_SET_PDEATHSIG, kept across exec), then execs ARGV.
The worker starts its server processes through it rather than with a preexec_fn, which
is unsafe in a process with threads (grpcio's)."""

import os
import sys

from wirebench_worker import proc

proc.die_with_parent()
if os.getppid() != int(sys.argv[1]):
    sys.exit(1)  # the parent died before the signal was asked for
os.execv(sys.argv[2], sys.argv[2:])
