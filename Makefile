# wirebench: build, test and regenerate.
GO ?= go
BIN := bin/wirebench

.PHONY: build run test vet check-generate generate demo bench-codecs tools peers clean

build:
	$(GO) build -o $(BIN) ./cmd/wirebench

# The main job of the README: the default suite (quick), a table on the terminal and
# reports in results/<time>/.
run: build
	$(BIN) run

# The test command of the README and of CI.
test: vet check-generate
	$(GO) test -count=1 -timeout 20m ./...

vet:
	$(GO) vet ./...

# Regenerates the wire code from contract/schema (needs protoc, capnp and the Go
# plugins: `make tools`).
generate:
	bash contract/schema/generate-proto.sh
	bash contract/schema/generate-capnp.sh
	bash cluster/controlpb/generate.sh

# Fails when regenerating would change the committed code; skipped with a message
# where the generators are not installed.
check-generate:
	bash scripts/check-generate.sh

demo: build
	bash scripts/demo.sh

# Codec micro-benchmarks of every protocol (docs/codecs.md).
bench-codecs:
	$(GO) test -run '^$$' -bench . -benchmem -count 5 ./protocol/...

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

clean:
	rm -rf bin
