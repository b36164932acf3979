// Package avrowire is the Avro wire form of the contract: a Go struct per record of
// contract/schema/avro/*.avsc, mirroring the messages of wirebench.proto field for
// field (the optional Picture is a ["null", Picture] union, a *Picture here), and the
// parsed schemas, each reached from its struct through the Message interface.
//
// The schemas are the .avsc files, embedded (contract/schema.Avro) and parsed once at
// init with github.com/twmb/avro; a file that does not parse, or a struct that does
// not match its record, is a panic at init (checked by the package's tests), never a
// failure at call time.
package avrowire

import (
	"fmt"
	"sync/atomic"

	"github.com/twmb/avro"

	"github.com/wirebench/wirebench/contract/schema"
)

// Message is a wire struct with its schema.
type Message interface {
	AvroType() *Type
}

// Type is the Avro schema of one record, with what encoders learn about it.
type Type struct {
	// Name is the record's full name, e.g. "wirebench.v1.Person".
	Name string
	// Schema encodes and decodes the record; safe for concurrent use.
	Schema *avro.Schema
	// sizeHint is the length of the latest encoding of this record, a capacity to
	// start the next one with so that it rarely grows.
	sizeHint atomic.Int64
}

// SizeHint returns the length of the latest encoding of this record (0 before the
// first), for sizing the next one's buffer.
func (t *Type) SizeHint() int { return int(t.sizeHint.Load()) }

// NoteSize records the length of an encoding of this record.
func (t *Type) NoteSize(n int) {
	if int64(n) != t.sizeHint.Load() {
		t.sizeHint.Store(int64(n))
	}
}

// files are the .avsc files in an order in which each names only records of earlier
// files.
var files = []string{
	"PersonName", "Location", "Picture", "Person", "PersonLink", "PersonList", "PersonLinkList",
	"ListPersonsRequest", "PersonId", "EchoMessage", "StatsRequest", "StatsReply", "Number",
	"Trade", "TradesRequest", "OriginalTrade",
}

// types maps each file name to its parsed record.
var types = parseAll()

func parseAll() map[string]*Type {
	var cache avro.SchemaCache
	out := make(map[string]*Type, len(files))
	for _, f := range files {
		text, err := schema.Avro.ReadFile("avro/" + f + ".avsc")
		if err != nil {
			panic(fmt.Sprintf("avrowire: %v", err))
		}
		s, err := cache.Parse(string(text))
		if err != nil {
			panic(fmt.Sprintf("avrowire: parse avro/%s.avsc: %v", f, err))
		}
		out[f] = &Type{Name: "wirebench.v1." + f, Schema: s}
	}
	return out
}

// Types returns every record type, in dependency order (for tests and tools).
func Types() []*Type {
	out := make([]*Type, len(files))
	for i, f := range files {
		out[i] = types[f]
	}
	return out
}
