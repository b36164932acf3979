package usermsg

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
)

const allKinds = "allkinds.proto"

func load(t *testing.T, src Source) *Schema {
	t.Helper()
	if src.Proto == "" {
		src.Proto = allKinds
	}
	if src.Message == "" {
		src.Message = "wbtest.v1.AllKinds"
	}
	s, err := Load(context.Background(), src)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestGenerateDeterministic: the same seed gives the same messages, another seed
// others, and every kind of the schema is set in some message (each oneof member
// in turn).
func TestGenerateDeterministic(t *testing.T) {
	shape := Shape{StringLen: 7, BytesLen: 5, Repeated: 2}
	a := load(t, Source{Seed: 1, Count: 4, Shape: shape})
	b := load(t, Source{Seed: 1, Count: 4, Shape: shape})
	c := load(t, Source{Seed: 2, Count: 4, Shape: shape})
	for i := range a.Messages {
		// Two loads are two descriptors, which proto.Equal tells apart: compare the
		// deterministic encodings.
		if !same(a.Messages[i], b.Messages[i]) {
			t.Fatalf("message %d differs between two runs of one seed", i)
		}
		if same(a.Messages[i], c.Messages[i]) {
			t.Fatalf("message %d is the same for seeds 1 and 2", i)
		}
	}
	set := map[protoreflect.Name]bool{}
	for _, m := range a.Messages {
		m.ProtoReflect().Range(func(f protoreflect.FieldDescriptor, _ protoreflect.Value) bool {
			set[f.Name()] = true
			return true
		})
	}
	fs := a.Desc.Fields()
	for i := 0; i < fs.Len(); i++ {
		f := fs.Get(i)
		// A bool or an enum may draw its zero value, which proto3 does not keep.
		if !set[f.Name()] && f.Kind() != protoreflect.BoolKind && f.Kind() != protoreflect.EnumKind {
			t.Errorf("field %s is set in none of the generated messages", f.Name())
		}
	}
	m := a.Messages[0].ProtoReflect()
	if got := len(m.Get(fs.ByName("text")).String()); got != 7 {
		t.Errorf("text of %d bytes, want the string length 7", got)
	}
	if got := m.Get(fs.ByName("words")).List().Len(); got != 2 {
		t.Errorf("words has %d elements, want 2", got)
	}
}

// TestWireRoundTrip: what a worker receives (FileSet, binary messages) gives the
// same type and messages as the driver's.
func TestWireRoundTrip(t *testing.T) {
	s := load(t, Source{Seed: 3, Count: 3, Shape: Shape{StringLen: 4, BytesLen: 4, Repeated: 2}})
	set, data, err := s.Wire()
	if err != nil {
		t.Fatal(err)
	}
	w, err := FromWire("wbtest.v1.AllKinds", set, data)
	if err != nil {
		t.Fatal(err)
	}
	for i := range s.Messages {
		if !same(s.Messages[i], w.Messages[i]) {
			t.Fatalf("message %d differs after the wire", i)
		}
	}
	if _, err := FromWire("wbtest.v1.Nope", set, data); err == nil || !strings.Contains(err.Error(), "wbtest.v1.AllKinds") {
		t.Errorf("an unknown message: %v, want an error naming the schema's messages", err)
	}
	if _, err := FromWire("wbtest.v1.AllKinds", []byte("junk"), data); err == nil {
		t.Error("a schema that is not a FileDescriptorSet was accepted")
	}
}

// same reports whether two messages, perhaps of two copies of one descriptor, have
// the same deterministic encoding.
func same(a, b proto.Message) bool {
	det := proto.MarshalOptions{Deterministic: true}
	x, err1 := det.Marshal(a)
	y, err2 := det.Marshal(b)
	return err1 == nil && err2 == nil && string(x) == string(y)
}

// TestReadData: JSON lines are read in order (blank lines and comments skipped); a
// line that is not the message is an error naming the file and line.
func TestReadData(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good.jsonl")
	os.WriteFile(good, []byte(`{"i64":"9007199254740993","text":"a","meta":{"k":[1,"x",null]},"at":"2026-11-29T01:02:03.5Z"}

# a comment
{"choicePoint":{"x":1.5},"color":"COLOR_BLUE","countsEntry":null}
`), 0o644)
	if _, err := Load(context.Background(), Source{Proto: allKinds, Message: "wbtest.v1.AllKinds", DataFile: good}); err == nil ||
		!strings.Contains(err.Error(), "good.jsonl:4") {
		t.Errorf("an unknown field on line 4: %v, want an error at good.jsonl:4", err)
	}
	os.WriteFile(good, []byte(`{"i64":"9007199254740993","text":"a","meta":{"k":[1,"x",null]},"at":"2026-11-29T01:02:03.5Z"}

# a comment
{"choicePoint":{"x":1.5},"color":"COLOR_BLUE"}
`), 0o644)
	s := load(t, Source{DataFile: good})
	if len(s.Messages) != 2 {
		t.Fatalf("%d messages, want 2", len(s.Messages))
	}
	if got := s.Messages[0].ProtoReflect().Get(s.Desc.Fields().ByName("i64")).Int(); got != 9007199254740993 {
		t.Errorf("i64 = %d, want 2^53+1 exactly", got)
	}
	empty := filepath.Join(dir, "empty.jsonl")
	os.WriteFile(empty, []byte("\n# nothing\n"), 0o644)
	if _, err := Load(context.Background(), Source{Proto: allKinds, Message: "wbtest.v1.AllKinds", DataFile: empty}); err == nil {
		t.Error("a data file with no message was accepted")
	}
}

// TestLoadErrors: bad input names what is wrong.
func TestLoadErrors(t *testing.T) {
	dir := t.TempDir()
	broken := filepath.Join(dir, "broken.proto")
	os.WriteFile(broken, []byte("syntax = \"proto3\";\nmessage A {\n  int32 x = 1\n}\n"), 0o644)
	proto2 := filepath.Join(dir, "old.proto")
	os.WriteFile(proto2, []byte("syntax = \"proto2\";\npackage p;\nmessage B { required int32 x = 1; }\n"), 0o644)
	for _, c := range []struct {
		src  Source
		want string
	}{
		{Source{Proto: broken, Message: "A"}, "broken.proto:4"},
		{Source{Proto: allKinds, Message: "wbtest.v1.Missing"}, "wbtest.v1.AllKinds"},
		{Source{Proto: allKinds, Message: "wbtest.v1.Color"}, "not a message"},
		{Source{Proto: proto2, Message: "p.B"}, "proto3"},
		{Source{Message: "p.B"}, "--proto"},
		{Source{Proto: allKinds}, "--message"},
	} {
		_, err := Load(context.Background(), c.src)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Load(%+v) = %v, want an error with %q", c.src, err, c.want)
		}
	}
}

// TestFirstDifference names the field that differs, also below an equal nested
// message, and nothing for equal messages.
func TestFirstDifference(t *testing.T) {
	s := load(t, Source{Seed: 5, Count: 1, Shape: Shape{StringLen: 4, BytesLen: 4, Repeated: 2}})
	want := s.Messages[0]
	got := proto.Clone(want)
	if f, _, _ := FirstDifference(want, got); f != "" {
		t.Fatalf("equal messages differ at %q", f)
	}
	fs := s.Desc.Fields()
	r := got.ProtoReflect()
	r.Set(fs.ByName("db"), protoreflectFloat(r.Get(fs.ByName("db")).Float()+1))
	if f, _, _ := FirstDifference(want, got); f != "db" {
		t.Errorf("a changed db: difference at %q, want db", f)
	}
	got = proto.Clone(want)
	pt := got.ProtoReflect().Mutable(fs.ByName("tree")).Message()
	pt.Set(pt.Descriptor().Fields().ByName("name"), protoreflectString("other"))
	if f, _, _ := FirstDifference(want, got); f != "tree.name" {
		t.Errorf("a changed tree.name: difference at %q", f)
	}
}

func protoreflectFloat(x float64) protoreflect.Value { return protoreflect.ValueOfFloat64(x) }
func protoreflectString(s string) protoreflect.Value { return protoreflect.ValueOfString(s) }
