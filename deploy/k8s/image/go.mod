// Writes container images without a Docker engine (deploy/k8s): the wirebench images
// the local cluster's nodes import with `ctr images import`. A module of its own so that
// wirebench's module does not depend on go-containerregistry.
module github.com/wirebench/wirebench/deploy/k8s/image

go 1.26.8

require github.com/google/go-containerregistry v0.22.1

require (
	github.com/klauspost/compress v1.19.2 // indirect
	github.com/opencontainers/go-digest v1.0.0 // indirect
	github.com/opencontainers/image-spec v1.1.1 // indirect
)
