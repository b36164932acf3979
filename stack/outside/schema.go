package outside

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protodesc"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"
	"google.golang.org/protobuf/types/descriptorpb"
	"google.golang.org/protobuf/types/dynamicpb"

	"github.com/wirebench/wirebench/internal/protoload"
	"github.com/wirebench/wirebench/protocol"
	"github.com/wirebench/wirebench/protocol/transport"
	"github.com/wirebench/wirebench/stack/internal/grpcx"
)

// FromReflection is spec.Call.SchemaFrom for a schema the server's reflection service
// gave.
const FromReflection = "reflection"

// LoadSchema is Schema with the reflection service asked, when src is empty, over a
// gRPC connection of its own to target (with tc's TLS when enabled), closed after.
func LoadSchema(ctx context.Context, src protoload.Source, method string, target transport.Addr, tc transport.TLS) (name string, schema []byte, from string, err error) {
	if !src.Empty() {
		return Schema(ctx, src, method, nil)
	}
	dctx, cancel := context.WithTimeout(ctx, reflectTimeout)
	defer cancel()
	conn, err := grpcx.Dial(dctx, "grpc-proto", protocol.ClientConfig{Address: target, TLS: tc})
	if err != nil {
		return "", nil, "", fmt.Errorf("asking %s for its schema (server reflection): %w: %w", target, ErrUnreachable, err)
	}
	defer conn.Close()
	return Schema(dctx, src, method, conn)
}

// ErrUnreachable is wrapped by LoadSchema's error when the server could not be
// reached (a failed run, not a wrong request).
var ErrUnreachable = errors.New("server unreachable")

// reflectTimeout bounds the connection to a reflection service and its answers.
const reflectTimeout = 10 * time.Second

// Schema loads the schema of method (pkg.Service/Method or pkg.Service.Method) from
// src, or, when src is empty, from the reflection service of the server conn reaches
// (nil: none, an error). It returns the method's canonical name (pkg.Service/Method),
// a serialized FileDescriptorSet of the method's file and its imports
// (spec.Call.Schema), and where it came from (spec.Call.SchemaFrom). A method that is
// not there is an error naming it and the services or methods that are.
func Schema(ctx context.Context, src protoload.Source, method string, conn grpc.ClientConnInterface) (name string, schema []byte, from string, err error) {
	var files *protoregistry.Files
	switch {
	case !src.Empty():
		if files, err = protoload.Load(ctx, src); err != nil {
			return "", nil, "", err
		}
		from = strings.Join(src.Protos, ",") + src.Protoset
	case conn == nil:
		return "", nil, "", errors.New("no schema: give --proto FILE or --protoset FILE (reflection is asked over gRPC only)")
	default:
		svc, _, ok := protoload.SplitCall(method)
		if !ok {
			return "", nil, "", fmt.Errorf("call %q: want package.Service/Method", method)
		}
		if files, err = reflectFiles(ctx, conn, svc); err != nil {
			return "", nil, "", err
		}
		from = FromReflection
	}
	md, err := protoload.Method(files, method)
	if err != nil {
		return "", nil, "", err
	}
	set := &descriptorpb.FileDescriptorSet{}
	seen := map[string]bool{}
	var add func(f protoreflect.FileDescriptor)
	add = func(f protoreflect.FileDescriptor) { // imports first, as protodesc.NewFiles needs none
		if seen[f.Path()] {
			return
		}
		seen[f.Path()] = true
		for i := 0; i < f.Imports().Len(); i++ {
			add(f.Imports().Get(i).FileDescriptor)
		}
		set.File = append(set.File, protodesc.ToFileDescriptorProto(f))
	}
	add(md.ParentFile())
	if schema, err = proto.Marshal(set); err != nil {
		return "", nil, "", err
	}
	return string(md.Parent().FullName()) + "/" + string(md.Name()), schema, from, nil
}

// MethodOf finds method in a serialized FileDescriptorSet (spec.Call.Schema).
func MethodOf(schema []byte, method string) (protoreflect.MethodDescriptor, error) {
	var set descriptorpb.FileDescriptorSet
	if err := proto.Unmarshal(schema, &set); err != nil {
		return nil, fmt.Errorf("the call's schema is not a FileDescriptorSet: %w", err)
	}
	files, err := protodesc.NewFiles(&set)
	if err != nil {
		return nil, fmt.Errorf("the call's schema: %w", err)
	}
	return protoload.Method(files, method)
}

// Requests parses the call's data (JSON messages, protojson) as md's input; an empty
// list is one empty message. A message that does not match says which (by its
// position) and why.
func Requests(md protoreflect.MethodDescriptor, data []string) ([]*dynamicpb.Message, error) {
	if len(data) == 0 {
		data = []string{"{}"}
	}
	out := make([]*dynamicpb.Message, len(data))
	for i, d := range data {
		m := dynamicpb.NewMessage(md.Input())
		if err := protojson.Unmarshal([]byte(d), m); err != nil {
			where := ""
			if len(data) > 1 {
				where = fmt.Sprintf(" %d", i+1)
			}
			return nil, fmt.Errorf("data%s is not a %s (the input of %s): %v", where, md.Input().FullName(), md.FullName(), err)
		}
		out[i] = m
	}
	return out, nil
}
