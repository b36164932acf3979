// Package schema holds the wire schemas of the contract: wirebench.proto (generated
// into contract/pb by generate-proto.sh), wirebench.capnp (into contract/capnpwire by
// generate-capnp.sh), wirebench.thrift (into contract/thriftwire by
// generate-thrift.sh) and the Avro schemas in avro/, one record per .avsc file, which
// are embedded here and parsed at run time by contract/avrowire (Avro needs no
// generated code).
package schema

import "embed"

// Avro holds avro/*.avsc. A record may name records of other files by their full
// name (wirebench.v1.Person), so they are parsed in the order of avrowire's list.
//
//go:embed avro/*.avsc
var Avro embed.FS
