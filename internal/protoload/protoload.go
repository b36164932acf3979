// Package protoload reads a user's protobuf schema at run time, the way ghz and grpcurl
// do: from .proto files compiled in memory (github.com/bufbuild/protocompile, no protoc
// needed) or from a protoset (a serialized FileDescriptorSet, `protoc
// --descriptor_set_out --include_imports`). It then finds a message or a method in it by
// its full name. What a server's reflection service returns is resolved by the caller
// into the same *protoregistry.Files.
//
// Errors name the file and line (a .proto that does not compile) or the name that was
// not found, with the names that were; they never panic on bad input.
package protoload

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/bufbuild/protocompile"
	"github.com/bufbuild/protocompile/reporter"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protodesc"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"
	"google.golang.org/protobuf/types/descriptorpb"
)

// Source says where a schema comes from: .proto files (with their import paths) or one
// protoset. Exactly one of Protos and Protoset is set.
type Source struct {
	Protos      []string // .proto files, as given on the command line or in a suite
	ImportPaths []string // directories searched for Protos and their imports
	Protoset    string   // a FileDescriptorSet file
}

// Empty reports whether the source names no schema (then the caller may ask the
// server's reflection service).
func (s Source) Empty() bool { return len(s.Protos) == 0 && s.Protoset == "" }

// Load compiles or reads the source's files. Google's well-known types
// (google/protobuf/timestamp.proto, struct.proto, ...) are always importable.
func Load(ctx context.Context, src Source) (*protoregistry.Files, error) {
	switch {
	case len(src.Protos) > 0 && src.Protoset != "":
		return nil, errors.New("give --proto or --protoset, not both")
	case src.Protoset != "":
		return loadProtoset(src.Protoset)
	case len(src.Protos) > 0:
		return compile(ctx, src)
	}
	return nil, errors.New("no schema: give --proto FILE or --protoset FILE")
}

func compile(ctx context.Context, src Source) (*protoregistry.Files, error) {
	paths := src.ImportPaths
	names := make([]string, len(src.Protos))
	for i, p := range src.Protos {
		if _, err := os.Stat(p); err != nil && len(paths) == 0 {
			return nil, fmt.Errorf("proto file %s: %w", p, errors.Unwrap(err))
		}
		names[i] = relativeTo(p, paths)
	}
	if len(paths) == 0 {
		// As protoc with no -I: each file's own directory is its import path.
		seen := map[string]bool{}
		for i, p := range src.Protos {
			dir := filepath.Dir(p)
			if !seen[dir] {
				seen[dir] = true
				paths = append(paths, dir)
			}
			names[i] = filepath.Base(p)
		}
	}
	var msgs []string
	rep := reporter.NewReporter(func(err reporter.ErrorWithPos) error {
		msgs = append(msgs, err.Error())
		return nil // go on, to report every error of the file at once
	}, nil)
	c := protocompile.Compiler{
		Resolver: protocompile.WithStandardImports(&protocompile.SourceResolver{
			ImportPaths: paths,
		}),
		Reporter:       rep,
		SourceInfoMode: protocompile.SourceInfoStandard,
	}
	linked, err := c.Compile(ctx, names...)
	if len(msgs) > 0 {
		return nil, fmt.Errorf("proto does not compile:\n  %s", strings.Join(msgs, "\n  "))
	}
	if err != nil {
		return nil, fmt.Errorf("proto: %w", err)
	}
	files := new(protoregistry.Files)
	for _, f := range linked {
		if err := register(files, f); err != nil {
			return nil, err
		}
	}
	return files, nil
}

// register adds f and, first, its imports (protocompile links them but returns only
// the files asked for).
func register(files *protoregistry.Files, f protoreflect.FileDescriptor) error {
	if _, err := files.FindFileByPath(f.Path()); err == nil {
		return nil
	}
	imps := f.Imports()
	for i := 0; i < imps.Len(); i++ {
		if err := register(files, imps.Get(i).FileDescriptor); err != nil {
			return err
		}
	}
	if err := files.RegisterFile(f); err != nil {
		return fmt.Errorf("proto %s: %w", f.Path(), err)
	}
	return nil
}

// relativeTo names p as the compiler must see it: relative to the first import path
// that holds it, or as given.
func relativeTo(p string, paths []string) string {
	abs, err := filepath.Abs(p)
	if err != nil {
		return p
	}
	for _, dir := range paths {
		d, err := filepath.Abs(dir)
		if err != nil {
			continue
		}
		if rel, err := filepath.Rel(d, abs); err == nil && !strings.HasPrefix(rel, "..") {
			return filepath.ToSlash(rel)
		}
	}
	return p
}

func loadProtoset(path string) (*protoregistry.Files, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("protoset: %w", err)
	}
	var set descriptorpb.FileDescriptorSet
	if err := proto.Unmarshal(b, &set); err != nil {
		return nil, fmt.Errorf("protoset %s: not a FileDescriptorSet: %w", path, err)
	}
	files, err := protodesc.NewFiles(&set)
	if err != nil {
		return nil, fmt.Errorf("protoset %s: %w (was it written with --include_imports?)", path, err)
	}
	return files, nil
}

// Message finds a message by its full name (pkg.Msg; a leading dot is allowed).
func Message(files *protoregistry.Files, name string) (protoreflect.MessageDescriptor, error) {
	name = strings.TrimPrefix(name, ".")
	d, err := files.FindDescriptorByName(protoreflect.FullName(name))
	if err == nil {
		if md, ok := d.(protoreflect.MessageDescriptor); ok {
			return md, nil
		}
		return nil, fmt.Errorf("%s is a %s, not a message", name, kind(d))
	}
	return nil, fmt.Errorf("no message %s in the schema; its messages: %s", name,
		strings.Join(names(files, messagesOf), ", "))
}

// Method finds a method by ghz's and grpcurl's spellings: pkg.Service/Method or
// pkg.Service.Method.
func Method(files *protoregistry.Files, call string) (protoreflect.MethodDescriptor, error) {
	svc, m, ok := SplitCall(call)
	if !ok {
		return nil, fmt.Errorf("call %q: want package.Service/Method", call)
	}
	d, err := files.FindDescriptorByName(protoreflect.FullName(svc))
	if err != nil {
		return nil, fmt.Errorf("no service %s in the schema; its services: %s", svc,
			strings.Join(names(files, servicesOf), ", "))
	}
	sd, ok := d.(protoreflect.ServiceDescriptor)
	if !ok {
		return nil, fmt.Errorf("%s is a %s, not a service", svc, kind(d))
	}
	md := sd.Methods().ByName(protoreflect.Name(m))
	if md == nil {
		var ms []string
		for i := 0; i < sd.Methods().Len(); i++ {
			ms = append(ms, string(sd.Methods().Get(i).Name()))
		}
		return nil, fmt.Errorf("service %s has no method %s; its methods: %s", svc, m,
			strings.Join(ms, ", "))
	}
	return md, nil
}

// SplitCall splits pkg.Service/Method (or pkg.Service.Method) into the service's full
// name and the method's name.
func SplitCall(call string) (service, method string, ok bool) {
	call = strings.TrimPrefix(call, "/")
	i := strings.LastIndex(call, "/")
	if i < 0 {
		i = strings.LastIndex(call, ".")
	}
	if i <= 0 || i == len(call)-1 {
		return "", "", false
	}
	return call[:i], call[i+1:], true
}

func kind(d protoreflect.Descriptor) string {
	switch d.(type) {
	case protoreflect.MessageDescriptor:
		return "message"
	case protoreflect.ServiceDescriptor:
		return "service"
	case protoreflect.EnumDescriptor:
		return "enum"
	case protoreflect.MethodDescriptor:
		return "method"
	case protoreflect.FieldDescriptor:
		return "field"
	}
	return "descriptor"
}

func messagesOf(f protoreflect.FileDescriptor, add func(string)) {
	var walk func(protoreflect.MessageDescriptors)
	walk = func(ms protoreflect.MessageDescriptors) {
		for i := 0; i < ms.Len(); i++ {
			m := ms.Get(i)
			if m.IsMapEntry() {
				continue
			}
			add(string(m.FullName()))
			walk(m.Messages())
		}
	}
	walk(f.Messages())
}

func servicesOf(f protoreflect.FileDescriptor, add func(string)) {
	for i := 0; i < f.Services().Len(); i++ {
		add(string(f.Services().Get(i).FullName()))
	}
}

// names lists what of collects in the user's files (not google/protobuf's), sorted.
func names(files *protoregistry.Files, of func(protoreflect.FileDescriptor, func(string))) []string {
	var out []string
	files.RangeFiles(func(f protoreflect.FileDescriptor) bool {
		if !strings.HasPrefix(f.Path(), "google/protobuf/") {
			of(f, func(s string) { out = append(out, s) })
		}
		return true
	})
	sort.Strings(out)
	if len(out) == 0 {
		return []string{"(none)"}
	}
	return out
}
