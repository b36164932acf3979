// Package deploytest checks, statically, the container image and the Kubernetes
// manifests that deploy wirebench (Dockerfile, .dockerignore, deploy/kubernetes; the
// "Kubernetes" section of docs/distributed.md). It has no code of its own: its tests
// decode every manifest strictly with the Kubernetes API types, parse the Dockerfile
// with BuildKit's parser, and check that the pieces fit together (the worker's flags,
// the token Secret's mount, the workers' DNS names in the driver's URLs, whole CPUs,
// the results volume, the image's user and entrypoint). Neither a cluster nor a Docker
// engine is needed, and neither is used.
package deploytest
