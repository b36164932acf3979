// Package usermsg is a user's own message in the message workload: the message type
// (a descriptor from the user's .proto, compiled at run time by internal/protoload),
// the messages a benchmark sends (read from protojson lines or generated from the
// schema and a seed), and the interface a protocol's client implements to echo one.
//
// Servers echo a message by decoding it into a dynamicpb message of the type and
// encoding that decoded value back; the client checks each answer equal to what it
// sent with proto.Equal, never by its bytes (a protocol may order fields or map
// entries as it likes).
package usermsg

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"strings"

	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protodesc"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"
	"google.golang.org/protobuf/types/descriptorpb"
	"google.golang.org/protobuf/types/dynamicpb"

	"github.com/wirebench/wirebench/internal/protoload"
)

// Echoer is the client side of the message workload: EchoMessage sends m to the
// server, which decodes it and sends the decoded value back, and returns the answer
// decoded into a new message of m's type. Implementations must be safe for
// concurrent use. A protocol client that does not carry a user's message does not
// implement it.
type Echoer interface {
	EchoMessage(ctx context.Context, m proto.Message) (proto.Message, error)
}

// Schema is a user's message type and the messages a benchmark sends. It is
// immutable once made, and safe for concurrent use.
type Schema struct {
	// Desc is the message type.
	Desc protoreflect.MessageDescriptor
	// Files holds the schema's files (for protojson's Any, and for a worker to pass
	// on).
	Files *protoregistry.Files
	// Messages are the messages sent, taken in turn; at least one.
	Messages []proto.Message
}

// New returns a new, empty message of the schema's type.
func (s *Schema) New() *dynamicpb.Message { return dynamicpb.NewMessage(s.Desc) }

// Source says where a benchmark's message comes from: its .proto, the message's
// name, and a data file or the generator's shape.
type Source struct {
	Proto       string
	ImportPaths []string
	Message     string
	DataFile    string // "": generate
	Seed        uint64
	Count       int
	Shape       Shape
}

// Load compiles the source's .proto, finds the message and reads or generates the
// messages. Errors name the file and line (a .proto that does not compile, a line of
// the data file that is not the message) or the message not found.
func Load(ctx context.Context, src Source) (*Schema, error) {
	if src.Proto == "" {
		return nil, errors.New("the message workload needs --proto FILE (message_proto in a suite)")
	}
	if src.Message == "" {
		return nil, errors.New("the message workload needs --message package.Message (message in a suite)")
	}
	files, err := protoload.Load(ctx, protoload.Source{Protos: []string{src.Proto}, ImportPaths: src.ImportPaths})
	if err != nil {
		return nil, err
	}
	md, err := protoload.Message(files, src.Message)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", src.Proto, err)
	}
	if err := Carried(md); err != nil {
		return nil, fmt.Errorf("%s: %w", src.Proto, err)
	}
	s := &Schema{Desc: md, Files: files}
	if src.DataFile != "" {
		s.Messages, err = ReadData(src.DataFile, md, files)
	} else {
		s.Messages, err = Generate(md, src.Seed, max(src.Count, 1), src.Shape)
	}
	if err != nil {
		return nil, err
	}
	return s, nil
}

// Carried returns an error for a message type the workload does not carry: proto2
// (required fields and explicit defaults do not survive every mapping) and groups.
func Carried(md protoreflect.MessageDescriptor) error {
	seen := map[protoreflect.FullName]bool{}
	var walk func(protoreflect.MessageDescriptor) error
	walk = func(m protoreflect.MessageDescriptor) error {
		if seen[m.FullName()] {
			return nil
		}
		seen[m.FullName()] = true
		if m.ParentFile().Syntax() != protoreflect.Proto3 && !strings.HasPrefix(m.ParentFile().Path(), "google/protobuf/") {
			return fmt.Errorf("%s is %s; the message workload carries proto3 messages", m.FullName(), m.ParentFile().Syntax())
		}
		fs := m.Fields()
		for i := 0; i < fs.Len(); i++ {
			f := fs.Get(i)
			if f.Kind() == protoreflect.GroupKind {
				return fmt.Errorf("%s: field %s is a group", m.FullName(), f.Name())
			}
			if f.Message() != nil {
				if err := walk(f.Message()); err != nil {
					return err
				}
			}
		}
		return nil
	}
	return walk(md)
}

// ReadData reads the messages of a JSON lines file: one protojson message a line
// (blank lines and lines starting with # skipped). An error names the file and line.
func ReadData(path string, md protoreflect.MessageDescriptor, files *protoregistry.Files) ([]proto.Message, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("data file: %w", err)
	}
	defer f.Close()
	opts := protojson.UnmarshalOptions{Resolver: resolver(files)}
	var out []proto.Message
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), 64<<20)
	for line := 1; sc.Scan(); line++ {
		b := bytes.TrimSpace(sc.Bytes())
		if len(b) == 0 || b[0] == '#' {
			continue
		}
		m := dynamicpb.NewMessage(md)
		if err := opts.Unmarshal(b, m); err != nil {
			return nil, fmt.Errorf("%s:%d: not a %s: %v", path, line, md.FullName(), err)
		}
		out = append(out, m)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("data file %s: %w", path, err)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("data file %s: no message in it", path)
	}
	return out, nil
}

// resolver finds the types of google.protobuf.Any values among the schema's
// messages.
func resolver(files *protoregistry.Files) *dynamicpb.Types {
	if files == nil {
		files = new(protoregistry.Files)
	}
	return dynamicpb.NewTypes(files)
}

// FileSet returns the schema of md as a serialized FileDescriptorSet holding its
// file and every file it imports, imports first: what a worker is sent.
func FileSet(md protoreflect.MessageDescriptor) ([]byte, error) {
	var set descriptorpb.FileDescriptorSet
	seen := map[string]bool{}
	var add func(protoreflect.FileDescriptor)
	add = func(f protoreflect.FileDescriptor) {
		if seen[f.Path()] {
			return
		}
		seen[f.Path()] = true
		imps := f.Imports()
		for i := 0; i < imps.Len(); i++ {
			add(imps.Get(i).FileDescriptor)
		}
		set.File = append(set.File, protodesc.ToFileDescriptorProto(f))
	}
	add(md.ParentFile())
	return proto.MarshalOptions{Deterministic: true}.Marshal(&set)
}

// FromWire is the schema a worker receives: the message named in the
// FileDescriptorSet set, and the messages, each in the binary encoding.
func FromWire(name string, set []byte, data [][]byte) (*Schema, error) {
	var fds descriptorpb.FileDescriptorSet
	if err := proto.Unmarshal(set, &fds); err != nil {
		return nil, fmt.Errorf("message schema: not a FileDescriptorSet: %w", err)
	}
	files, err := protodesc.NewFiles(&fds)
	if err != nil {
		return nil, fmt.Errorf("message schema: %w", err)
	}
	md, err := protoload.Message(files, name)
	if err != nil {
		return nil, err
	}
	if len(data) == 0 {
		return nil, errors.New("message workload: no messages sent with the schema")
	}
	s := &Schema{Desc: md, Files: files, Messages: make([]proto.Message, len(data))}
	for i, b := range data {
		m := dynamicpb.NewMessage(md)
		if err := proto.Unmarshal(b, m); err != nil {
			return nil, fmt.Errorf("message %d of the data: not a %s: %w", i, name, err)
		}
		s.Messages[i] = m
	}
	return s, nil
}

// Wire returns what FromWire reads back: the FileDescriptorSet and the messages in
// the binary encoding.
func (s *Schema) Wire() (set []byte, data [][]byte, err error) {
	if set, err = FileSet(s.Desc); err != nil {
		return nil, nil, err
	}
	data = make([][]byte, len(s.Messages))
	for i, m := range s.Messages {
		if data[i], err = (proto.MarshalOptions{Deterministic: true}).Marshal(m); err != nil {
			return nil, nil, err
		}
	}
	return set, data, nil
}
