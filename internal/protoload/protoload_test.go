package protoload

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"google.golang.org/protobuf/reflect/protoregistry"
)

func load(t *testing.T, src Source) *Files {
	t.Helper()
	f, err := Load(context.Background(), src)
	if err != nil {
		t.Fatal(err)
	}
	return &Files{registry: f}
}

// Files wraps the registry for the tests' lookups.
type Files struct{ registry *protoregistry.Files }

func TestLoadProtoWithImportsAndWellKnownTypes(t *testing.T) {
	f := load(t, Source{Protos: []string{"testdata/shop.proto"}, ImportPaths: []string{"testdata"}})
	md, err := Message(f.registry, "shop.v1.Order")
	if err != nil {
		t.Fatal(err)
	}
	// The fields as written in testdata/shop.proto: lines is repeated, tags a map,
	// placed a Timestamp from the standard imports, total from the imported file.
	if got := md.Fields().ByName("placed").Message().FullName(); got != "google.protobuf.Timestamp" {
		t.Errorf("placed is %s", got)
	}
	if got := md.Fields().ByName("total").Message().FullName(); got != "common.Money" {
		t.Errorf("total is %s", got)
	}
	if !md.Fields().ByName("tags").IsMap() || !md.Fields().ByName("lines").IsList() {
		t.Error("tags should be a map and lines a list")
	}
	m, err := Method(f.registry, "shop.v1.Orders/Watch")
	if err != nil {
		t.Fatal(err)
	}
	if !m.IsStreamingServer() || m.IsStreamingClient() {
		t.Error("Watch is server-streaming only")
	}
	if _, err := Method(f.registry, "shop.v1.Orders.Get"); err != nil {
		t.Errorf("grpcurl's dotted spelling: %v", err)
	}
}

func TestLoadWithoutImportPathUsesTheFilesDirectory(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "one.proto")
	if err := os.WriteFile(p, []byte("syntax = \"proto3\";\npackage one;\nmessage M { string s = 1; }\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	f := load(t, Source{Protos: []string{p}})
	if _, err := Message(f.registry, "one.M"); err != nil {
		t.Fatal(err)
	}
}

func TestErrorsNameFileLineAndWhatExists(t *testing.T) {
	_, err := Load(context.Background(), Source{Protos: []string{"testdata/broken.proto"}, ImportPaths: []string{"testdata"}})
	// Missing is used on line 6, column 3 of broken.proto.
	if err == nil || !strings.Contains(err.Error(), "broken.proto:6:3") {
		t.Errorf("want the file and line of the unknown type, got %v", err)
	}
	_, err = Load(context.Background(), Source{Protos: []string{"testdata/nope.proto"}})
	if err == nil || !strings.Contains(err.Error(), "nope.proto") {
		t.Errorf("missing file: %v", err)
	}
	f := load(t, Source{Protos: []string{"testdata/shop.proto"}, ImportPaths: []string{"testdata"}})
	_, err = Message(f.registry, "shop.v1.Ordr")
	if err == nil || !strings.Contains(err.Error(), "shop.v1.Order") {
		t.Errorf("want the messages listed, got %v", err)
	}
	_, err = Method(f.registry, "shop.v1.Orders/Put")
	if err == nil || !strings.Contains(err.Error(), "Get, Watch") {
		t.Errorf("want the methods listed, got %v", err)
	}
	if _, err = Method(f.registry, "Orders"); err == nil {
		t.Error("a call without a method should be refused")
	}
	if _, err = Message(f.registry, "shop.v1.Orders"); err == nil || !strings.Contains(err.Error(), "service") {
		t.Errorf("a service is not a message: %v", err)
	}
}

func TestProtoset(t *testing.T) {
	protoc, err := exec.LookPath("protoc")
	if err != nil {
		t.Skip("protoc not installed (make tools): the protoset is written with it")
	}
	// A schema with an import of its own and none of Google's: Debian's protoc finds
	// the well-known types only with libprotobuf-dev installed.
	out := filepath.Join(t.TempDir(), "till.protoset")
	cmd := exec.Command(protoc, "-Itestdata", "--include_imports", "--descriptor_set_out="+out, "till.proto")
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("protoc: %v\n%s", err, b)
	}
	f := load(t, Source{Protoset: out})
	m, err := Method(f.registry, "till.v1.Till/Pay")
	if err != nil {
		t.Fatal(err)
	}
	// Pay takes a Payment whose amount is common.Money, from the imported file.
	if got := m.Input().Fields().ByName("amount").Message().FullName(); got != "common.Money" {
		t.Errorf("amount is %s", got)
	}
	bad := filepath.Join(t.TempDir(), "bad.protoset")
	os.WriteFile(bad, []byte("not a descriptor set"), 0o644)
	if _, err := Load(context.Background(), Source{Protoset: bad}); err == nil {
		t.Error("garbage accepted as a protoset")
	}
}
