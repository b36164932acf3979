# syntax=docker/dockerfile:1
#
# wirebench's container images (docs/distributed.md, "Kubernetes").
#
#   docker build -t wirebench:dev --build-arg VERSION="$(git describe --tags --always --dirty)" .
#   docker build -t wirebench-jvm:dev --target wirebench-jvm --build-arg VERSION=... .
#
# Targets:
#   wirebench      (the default, the last stage) the static binary on distroless/static,
#                  as a non-root user: the driver and the workers of the Go stacks need
#                  nothing else.
#   wirebench-jvm  the same binary on a JRE 17 with the JVM worker's jar, for the JVM
#                  stacks, whose worker the driver starts beside itself (docs/java-worker.md).
# Building the default target does not build the JVM stages (BuildKit builds only the
# stages the target needs).
#
# deploy/deploytest parses this file and checks these facts; keep them in step.

# The Go of go.mod's go line: the binary is built with the toolchain the module asks for.
ARG GO_VERSION=1.26.8

# --- build: bin/wirebench, static ---
FROM golang:${GO_VERSION} AS build
WORKDIR /src
COPY . .
# VERSION is what `wirebench version` and the results' environment report
# (cmd/wirebench/main.go: main.version).
ARG VERSION=devel
# CGO_ENABLED=0: a static binary, which runs on distroless/static with no libc.
# -trimpath: no build machine paths in the binary (and reproducible builds).
# The cache mounts keep modules and the build cache between builds, outside the image.
RUN --mount=type=cache,target=/go/pkg/mod \
    --mount=type=cache,target=/root/.cache/go-build \
    CGO_ENABLED=0 go build -trimpath -ldflags "-X main.version=${VERSION}" \
        -o /src/bin/wirebench ./cmd/wirebench

# --- jvm-build: the JVM worker's jar (workers/java) ---
# The Maven and JDK that `make java` is checked with here (Maven 3.8.7, JDK 17).
FROM maven:3.8.7-eclipse-temurin-17 AS jvm-build
WORKDIR /src
# The pom generates code from the contract's schemas where they lie in the repository
# (${wirebench.root}/contract/schema and control/controlpb), so those come too.
COPY contract/schema/ contract/schema/
COPY control/controlpb/control.proto control/controlpb/control.proto
COPY workers/java/ workers/java/
RUN --mount=type=cache,target=/root/.m2 \
    mvn -q -B -f workers/java/pom.xml package -DskipTests

# --- wirebench-jvm: binary + JRE 17 + the JVM worker ---
FROM eclipse-temurin:17-jre-noble AS wirebench-jvm
# The same numeric non-root user as distroless's nonroot, so one securityContext
# (runAsUser: 65532) fits both images.
RUN groupadd --system --gid 65532 wirebench \
    && useradd --system --uid 65532 --gid 65532 --no-create-home --home-dir /nonexistent wirebench
COPY --from=build /src/bin/wirebench /usr/local/bin/wirebench
COPY --from=jvm-build /src/workers/java/target/wirebench-worker.jar /opt/wirebench/wirebench-worker.jar
# The original experiments' Scala 2.12 stacks, in their own jar beside the main one.
COPY --from=jvm-build /src/workers/java/target/wirebench-worker-originals-2.12.jar /opt/wirebench/wirebench-worker-originals-2.12.jar
# Where the driver looks for the JVM worker (launch.JavaWorkerEnv).
ENV WIREBENCH_JAVA_WORKER=/opt/wirebench/wirebench-worker.jar
USER 65532:65532
ENTRYPOINT ["wirebench"]

# --- wirebench: the default image ---
# distroless/static: CA certificates, /etc/passwd with nonroot (65532), a /tmp; no shell.
FROM gcr.io/distroless/static-debian12:nonroot AS wirebench
COPY --from=build /src/bin/wirebench /usr/local/bin/wirebench
# Numeric, so Kubernetes' runAsNonRoot can verify it without reading /etc/passwd.
USER 65532:65532
ENTRYPOINT ["wirebench"]
