"""Entry point of the Python worker: `python workers/python/worker.py worker --listen ...`
(the launcher runs it with the venv's interpreter). Running this file puts its directory
first on sys.path, so the package is found wherever the driver's current directory is."""

import sys

from wirebench_worker.__main__ import main

sys.exit(main())
