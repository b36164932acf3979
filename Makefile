# wirebench: build, test and regenerate.
GO ?= go
BIN := bin/wirebench

.PHONY: build run test fuzz vet check-generate deploy-check generate demo bench-codecs tools peers clean java java-tested jvm-stacks test-java test-java-unit rust test-rust test-rust-unit rust-generate python test-python test-python-unit python-generate node test-node test-node-unit

build:
	$(GO) build -o $(BIN) ./cmd/wirebench

# The main job of the README: the default suite (quick), a table on the terminal and
# reports in runs/<time>/.
run: build
	$(BIN) run

# The test command of the README and of CI: vet, the generated-code check, the JVM
# worker's jars and its own tests (JUnit, in the one Maven pass that builds the jars:
# java-tested) and the Rust worker's binary (when a JDK and Maven, or cargo, are
# present; their Go interop tests skip without them), the Python worker's venv (when a
# Python 3.11+ is present) and the Node worker's packages (Node 20+), every Go test, the
# deploy checks, the Rust, Python and Node workers' own tests, then the fuzz tests (20 s
# each). With CI=true whatever would be skipped for a missing tool fails instead
# (internal/testtool, scripts/missing.sh). 30 min per package: cmd/wirebench smokes
# every bundled suite (828 s in a run here on 2026-11-24, with other builds on the
# machine). scripts/test.sh schedules the tests for a 2-CPU machine: WAITING_TESTS,
# packages whose tests mostly wait rather than compute, then the deploy checks and the
# workers' own tests, in a lane of their own beside java-tested and then the other Go
# packages, LONG_TESTS (the longest) first. Where the time goes: docs/architecture.md,
# "The check".
WAITING_TESTS := ./stack/gofasthttp/ ./stack/instrument/ ./stack/gonethttpjson/ ./stack/rust/
LONG_TESTS := ./cmd/wirebench/ ./stack/jvm/ ./stack/python/ ./stack/node/ ./stack/outside/
test: vet check-generate rust python node
	GO=$(GO) MAKE=$(MAKE) WAITING_TESTS="$(WAITING_TESTS)" LONG_TESTS="$(LONG_TESTS)" bash scripts/test.sh
	@$(MAKE) --no-print-directory fuzz

vet:
	$(GO) vet ./...

# Fuzz tests, 20 s each (go test fuzzes one target of one package at a time; their
# seed corpora run with every `go test`): the journal's reader, which reads what a
# kill -9 leaves (runner/journal_test.go), and the instrument's HTTP/2 frame reader,
# which reads whatever a server sends (stack/instrument/h2read_fuzz_test.go), and
# netrpc-gob's message limit, which reads whatever a peer sends
# (protocol/netrpcgob/limit_test.go).
# scripts/fuzz.sh tells Go 1.26's end-of-fuzztime race (a bare "context deadline
# exceeded", no input written) from a finding.
fuzz:
	GO=$(GO) bash scripts/fuzz.sh FuzzReadJournal ./runner/ 20
	GO=$(GO) bash scripts/fuzz.sh FuzzFrameReader ./stack/instrument/ 20
	GO=$(GO) bash scripts/fuzz.sh FuzzLimitReader ./protocol/netrpcgob/ 20

# Regenerates the wire code from contract/schema (needs protoc, capnp, thrift and the Go
# plugins: `make tools`) and the http-json bodies' easyjson code (go.mod's easyjson tool).
generate:
	bash contract/schema/generate-proto.sh
	bash contract/schema/generate-capnp.sh
	bash contract/schema/generate-thrift.sh
	bash control/controlpb/generate.sh
	bash protocol/httpjson/generate.sh

# Fails when regenerating would change the committed code; skipped with a message
# where the generators are not installed (failed in CI).
check-generate:
	bash scripts/check-generate.sh

# The static checks of the Dockerfile and the Kubernetes manifests (docs/distributed.md):
# a Go module of their own, deploy/deploytest, so that wirebench's module does not
# depend on BuildKit's parser and the Kubernetes API types; `./...` above does not
# reach it.
deploy-check:
	cd deploy/deploytest && $(GO) vet ./... && $(GO) test -count=1 ./...

demo: build
	bash scripts/demo.sh

# Codec micro-benchmarks of every protocol (docs/codecs.md), with the benchmarks that
# sit beside the stacks: capnp-go's frame reading, coder-websocket's stream, and
# go-tuned-json's codec and GetPerson call.
bench-codecs:
	$(GO) test -run '^$$' -bench . -benchmem -count 5 ./protocol/... ./stack/capnpgo ./stack/coderwebsocket ./stack/gotunedjson

# Installs the generators and the outside clients the tests use when present
# (Debian packages need root).
tools:
	bash scripts/install-tools.sh

# wirebench's generator against wrk, h2load, fortio, ghz and cmd/peers/floor, a minimal
# Go epoll client (docs/peers.md): installs the missing peers, pins the server to CPU 0
# and each client to CPU 1, and takes about ten minutes. A manual measurement, not part
# of CI. PEERS_FLAGS e.g. -duration 4s.
peers: build
	$(GO) run ./cmd/peers $(PEERS_FLAGS)

# The JVM worker (workers/java, docs/java-worker.md): one runnable jar per stack family,
# in workers/java/target: wirebench-worker.jar (the Java stacks and today's Scala ones)
# and wirebench-worker-originals-2.12.jar (the original experiments' Scala 2.12 stacks).
# Needs mvn and java (JDK 17); without them the JVM stacks are unavailable and this says
# so (and fails in CI: scripts/missing.sh). Builds under the shared CPU lock.
MVN ?= mvn
CPU_LOCK := $(shell command -v flock >/dev/null && echo flock -s /tmp/wirebench-cpu.lock)
java:
	@if command -v $(MVN) >/dev/null && command -v java >/dev/null; then \
		$(CPU_LOCK) $(MVN) -q -B -f workers/java/pom.xml package -DskipTests; \
	else \
		bash scripts/missing.sh "java: mvn or java not found: the JVM stacks are unavailable (install a JDK 17 and Maven 3.8)"; \
	fi

# stack/jvm/stacks.json: the JVM stacks as the built jars announce them (each jar's
# `list --json`: names, sides, TLS, summaries, libraries with the versions the jar
# carries), merged. wirebench embeds the file, so it lists and validates JVM stacks
# without Java; commit it after changing a JVM stack. The stack/jvm tests fail when the
# file and the built jars disagree.
jvm-stacks: java
	$(GO) test -count=1 -run '^TestStacksFileIsAnnounced$$' ./stack/jvm/ -args -update

# The JVM worker's jars and its own tests (JUnit) in one Maven pass, for `make test`:
# `package` runs the tests before it shades the jars, so this is `make java` then `make
# test-java-unit` (whose `verify` adds no step to `package` here) without compiling,
# checking and shading twice. Fails at the first failed JUnit test, before any Go test.
java-tested:
	@if command -v $(MVN) >/dev/null && command -v java >/dev/null; then \
		$(CPU_LOCK) $(MVN) -q -B -f workers/java/pom.xml package; \
	else \
		bash scripts/missing.sh "java: mvn or java not found: the JVM stacks are unavailable and the JVM worker's tests skipped (install a JDK 17 and Maven 3.8)"; \
	fi

# The JVM worker's own tests (JUnit), then the Go interop tests against it.
test-java: java test-java-unit
	$(GO) test -count=1 ./stack/jvm/

test-java-unit:
	@if command -v $(MVN) >/dev/null && command -v java >/dev/null; then \
		$(CPU_LOCK) $(MVN) -q -B -f workers/java/pom.xml verify; \
	else \
		bash scripts/missing.sh "test-java: mvn or java not found: the JVM worker's tests skipped"; \
	fi

# The Rust worker (workers/rust, docs/rust-worker.md): one release binary,
# workers/rust/target/release/wirebench-worker, that runs the Rust stacks. Needs cargo
# (Rust 1.95; rustup's ~/.cargo/bin is looked in when cargo is not on PATH); without it
# the Rust stacks are unavailable and this says so (and fails in CI). --locked: the
# committed Cargo.lock is the build's, never updated. Builds under the shared CPU lock;
# cargo rebuilds only what changed (a first build takes a few minutes).
CARGO ?= $(shell command -v cargo 2>/dev/null || ls $(HOME)/.cargo/bin/cargo 2>/dev/null)
RUST_MANIFEST := workers/rust/Cargo.toml
rust:
	@if [ -n "$(CARGO)" ]; then \
		$(CPU_LOCK) $(CARGO) build -q --release --locked --manifest-path $(RUST_MANIFEST) -p wirebench-worker; \
	else \
		bash scripts/missing.sh "rust: cargo not found: the Rust stacks are unavailable (install Rust 1.95 with rustup)"; \
	fi

# The Rust worker's own tests (cargo test, in release mode so that they reuse the
# worker's build), then the Go interop tests against it.
test-rust: rust test-rust-unit
	$(GO) test -count=1 ./stack/rust/

test-rust-unit:
	@if [ -n "$(CARGO)" ]; then \
		$(CPU_LOCK) $(CARGO) test -q --release --locked --manifest-path $(RUST_MANIFEST) -p wirebench-worker; \
	else \
		bash scripts/missing.sh "test-rust: cargo not found: the Rust worker's tests skipped"; \
	fi

# Regenerates the Rust worker's committed gRPC code from the two .proto files (needs
# protoc).
rust-generate:
	$(CARGO) run -q --release --locked --manifest-path $(RUST_MANIFEST) -p wirebench-codegen

# The Python worker (workers/python, docs/python-worker.md): a venv under the worker's
# directory with requirements.txt (every package ==), made or updated by
# scripts/python-worker.sh; pip runs only when the requirements changed. Without a
# Python 3.11+ the Python stacks are unavailable and this says so (and fails in CI).
PYTHON_VENV := workers/python/.venv/bin/python
python:
	@bash scripts/python-worker.sh

# The Python worker's own tests (unittest: the data set against contract/testdata, the
# engine's load model), then the Go interop tests against it.
test-python: python test-python-unit
	$(GO) test -count=1 -timeout 15m ./stack/python/

test-python-unit:
	@if [ -x $(PYTHON_VENV) ]; then \
		cd workers/python && .venv/bin/python -m unittest discover -q -s tests; \
	else \
		bash scripts/missing.sh "test-python: no workers/python/.venv (make python; needs Python 3.11+): the Python worker's tests skipped"; \
	fi

# Regenerates the Python worker's committed protobuf and gRPC code (grpcio-tools from
# the venv).
python-generate: python
	bash workers/python/generate.sh

# The Node worker (workers/node, docs/node-worker.md): its packages installed with
# `npm ci` from the committed package-lock.json by scripts/node-worker.sh; npm runs only
# when the lock changed. Without Node 20+ and npm the Node stacks are unavailable and
# this says so (and fails in CI).
node:
	@bash scripts/node-worker.sh

# The Node worker's own tests (node --test: the data set against contract/testdata, the
# engine's load model), then the Go interop tests against it.
test-node: node test-node-unit
	$(GO) test -count=1 -timeout 15m ./stack/node/

test-node-unit:
	@if [ -d workers/node/node_modules/@grpc/grpc-js ] && command -v node >/dev/null; then \
		cd workers/node && node --test test/; \
	else \
		bash scripts/missing.sh "test-node: no workers/node/node_modules (make node; needs Node.js 20+): the Node worker's tests skipped"; \
	fi

clean:
	rm -rf bin

# A local Kubernetes cluster of three nodes on this machine, built from the module proxy
# (etcd, Kubernetes, CoreDNS; cached by version under /var/cache/wirebench-k8s), with
# wirebench's images imported into every node (deploy/k8s, docs/distributed.md). Needs
# root. k8s-down stops everything k8s-up started and restores the machine. k8s-e2e: up,
# a suite across pods on different nodes, the fault cases, down, and a check that the
# machine was left as found; its last line is the results directory it copied back.
.PHONY: k8s-up k8s-down k8s-e2e
k8s-up:
	bash deploy/k8s/cluster.sh up

k8s-down:
	bash deploy/k8s/cluster.sh down

k8s-e2e:
	bash deploy/k8s/e2e.sh
