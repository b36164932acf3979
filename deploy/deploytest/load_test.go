package deploytest

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/serializer"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	"sigs.k8s.io/yaml"
)

// manifestDir holds the manifests.
var manifestDir = filepath.Join(repoRoot, "deploy", "kubernetes")

// object is one YAML document of a manifest file, decoded.
type object struct {
	file string // base name of the file
	obj  runtime.Object
}

func (o object) String() string {
	gvk := o.obj.GetObjectKind().GroupVersionKind()
	return fmt.Sprintf("%s: %s %s", o.file, gvk.Kind, name(o.obj))
}

// name is an object's metadata.name.
func name(obj runtime.Object) string {
	if m, ok := obj.(interface{ GetName() string }); ok {
		return m.GetName()
	}
	return "?"
}

// strictDecoder decodes the kinds the manifests may hold, refusing unknown and
// duplicate fields, as `kubectl apply --validate=strict` does. Other kinds (a typo in
// apiVersion or kind) are an error too: the scheme does not know them.
func strictDecoder() runtime.Decoder {
	scheme := runtime.NewScheme()
	for _, add := range []func(*runtime.Scheme) error{corev1.AddToScheme, appsv1.AddToScheme, batchv1.AddToScheme} {
		if err := add(scheme); err != nil {
			panic(err)
		}
	}
	return serializer.NewCodecFactory(scheme, serializer.EnableStrict).UniversalDeserializer()
}

// yamlDocs splits a file into its YAML documents, dropping those with nothing but
// comments.
func yamlDocs(data []byte) ([][]byte, error) {
	r := utilyaml.NewYAMLReader(bufio.NewReader(bytes.NewReader(data)))
	var docs [][]byte
	for {
		doc, err := r.Read()
		if errors.Is(err, io.EOF) {
			return docs, nil
		}
		if err != nil {
			return nil, err
		}
		var v any
		if err := yaml.Unmarshal(doc, &v); err != nil {
			return nil, err
		}
		if v != nil {
			docs = append(docs, doc)
		}
	}
}

// manifestFiles lists the YAML files of deploy/kubernetes (base names, sorted).
func manifestFiles(t *testing.T) []string {
	t.Helper()
	entries, err := os.ReadDir(manifestDir)
	if err != nil {
		t.Fatal(err)
	}
	var files []string
	for _, e := range entries {
		if !e.IsDir() && (strings.HasSuffix(e.Name(), ".yaml") || strings.HasSuffix(e.Name(), ".yml")) {
			files = append(files, e.Name())
		}
	}
	slices.Sort(files)
	return files
}

// kustomizationFile is the one file that is not a Kubernetes object.
const kustomizationFile = "kustomization.yaml"

// loadObjects decodes every document of every manifest file but the kustomization,
// failing the test on the first that does not decode strictly.
func loadObjects(t *testing.T) []object {
	t.Helper()
	dec := strictDecoder()
	var objs []object
	for _, f := range manifestFiles(t) {
		if f == kustomizationFile {
			continue
		}
		data, err := os.ReadFile(filepath.Join(manifestDir, f))
		if err != nil {
			t.Fatal(err)
		}
		docs, err := yamlDocs(data)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		if len(docs) == 0 {
			t.Fatalf("%s: no object in it", f)
		}
		for i, doc := range docs {
			obj, _, err := dec.Decode(doc, nil, nil)
			if err != nil {
				t.Fatalf("%s, document %d: %v", f, i+1, err)
			}
			objs = append(objs, object{file: f, obj: obj})
		}
	}
	return objs
}

// kustomization is the part of kustomize's Kustomization the manifests use; any other
// key fails the strict decode, so a field added to kustomization.yaml is added here
// (and checked) too.
type kustomization struct {
	APIVersion string   `json:"apiVersion"`
	Kind       string   `json:"kind"`
	Resources  []string `json:"resources"`
	Images     []struct {
		Name    string `json:"name"`
		NewName string `json:"newName"`
		NewTag  string `json:"newTag"`
	} `json:"images"`
}

func loadKustomization(t *testing.T) kustomization {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(manifestDir, kustomizationFile))
	if err != nil {
		t.Fatal(err)
	}
	var k kustomization
	if err := yaml.UnmarshalStrict(data, &k); err != nil {
		t.Fatalf("%s: %v", kustomizationFile, err)
	}
	return k
}

// set is the decoded manifests, found by kind and name.
type set struct {
	t    *testing.T
	objs []object
}

func loadSet(t *testing.T) set { return set{t: t, objs: loadObjects(t)} }

// one returns the object of type T named n, failing the test when there is none.
func one[T runtime.Object](s set, n string) T {
	s.t.Helper()
	for _, o := range s.objs {
		if v, ok := o.obj.(T); ok && name(o.obj) == n {
			return v
		}
	}
	var zero T
	s.t.Fatalf("no %T named %q in %s", zero, n, manifestDir)
	return zero
}

// all returns every object of type T.
func all[T runtime.Object](s set) []T {
	var out []T
	for _, o := range s.objs {
		if v, ok := o.obj.(T); ok {
			out = append(out, v)
		}
	}
	return out
}

// flagValues returns the values of flag (such as "--listen") in args, in order, given
// as "--listen VALUE" or "--listen=VALUE".
func flagValues(args []string, flag string) []string {
	var vals []string
	for i := 0; i < len(args); i++ {
		if v, ok := strings.CutPrefix(args[i], flag+"="); ok {
			vals = append(vals, v)
		} else if args[i] == flag && i+1 < len(args) {
			vals = append(vals, args[i+1])
			i++
		}
	}
	return vals
}

// flagValue returns the one value of flag in args, failing the test unless there is
// exactly one.
func flagValue(t *testing.T, where string, args []string, flag string) string {
	t.Helper()
	v := flagValues(args, flag)
	if len(v) != 1 {
		t.Fatalf("%s: want one %s in its args, got %q (args %q)", where, flag, v, args)
	}
	return v[0]
}
