"""wirebench's Python worker: Python stacks behind the control API
(control/controlpb/control.proto), as workers/rust and workers/java serve it."""

VERSION = "0.1.0"
