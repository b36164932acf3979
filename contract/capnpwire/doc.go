// Package capnpwire is the Go code generated from contract/schema/wirebench.capnp by
// contract/schema/generate-capnp.sh (capnpc-go v3.1.0-alpha.2): the Cap'n Proto wire
// types and the Wirebench and TradeSink interfaces of the capnp protocol. Do not edit
// wirebench.capnp.go; change the schema and regenerate.
package capnpwire
