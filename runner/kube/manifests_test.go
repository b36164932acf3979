package kube

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
)

func testSpec() Spec {
	return Spec{Namespace: "wb-test", Image: "wirebench:dev", HelperImage: "busybox:1.37.0", Clients: 3,
		WorkerCPU: "1", WorkerMemory: "1Gi", DriverCPU: "500m", DriverMemory: "1Gi",
		Token: "0123456789abcdef0123", RunArgs: []string{"run", "quick", "--smoke"}}
}

type item struct {
	Kind     string
	Metadata struct{ Name, Namespace string }
	Spec     json.RawMessage
}

func items(t *testing.T, b []byte, err error) []item {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
	var l struct {
		Kind  string
		Items []item
	}
	if err := json.Unmarshal(b, &l); err != nil || l.Kind != "List" {
		t.Fatalf("not a List: %v", err)
	}
	return l.Items
}

// The driver dials exactly the pods the StatefulSets make, under their headless
// Services, in the run's namespace; the server and the clients never share a node.
func TestWorkersAndDriverAgree(t *testing.T) {
	s := testSpec()
	b, err := s.Workers()
	ws := items(t, b, err)
	var kinds []string
	replicas := map[string]int{}
	for _, it := range ws {
		kinds = append(kinds, it.Kind+"/"+it.Metadata.Name)
		if it.Kind != "Namespace" && it.Metadata.Namespace != s.Namespace {
			t.Errorf("%s/%s in namespace %q", it.Kind, it.Metadata.Name, it.Metadata.Namespace)
		}
		if it.Kind == "StatefulSet" {
			var sp struct {
				Replicas    int
				ServiceName string
				Template    struct {
					Spec struct {
						Affinity struct {
							PodAntiAffinity struct {
								Required []struct {
									TopologyKey   string
									LabelSelector struct{ MatchLabels map[string]string }
								} `json:"requiredDuringSchedulingIgnoredDuringExecution"`
							}
						}
					}
				}
			}
			if err := json.Unmarshal(it.Spec, &sp); err != nil {
				t.Fatal(err)
			}
			replicas[sp.ServiceName] = sp.Replicas
			req := sp.Template.Spec.Affinity.PodAntiAffinity.Required
			other := map[string]string{"wirebench-server": "client-worker", "wirebench-client": "server-worker"}[it.Metadata.Name]
			if len(req) != 1 || req[0].TopologyKey != "kubernetes.io/hostname" || req[0].LabelSelector.MatchLabels["app.kubernetes.io/component"] != other {
				t.Errorf("%s: required anti-affinity %+v, want one against the %ss on kubernetes.io/hostname", it.Metadata.Name, req, other)
			}
		}
	}
	want := []string{"Namespace/wb-test", "Secret/wirebench-token", "Service/wirebench-server", "StatefulSet/wirebench-server", "Service/wirebench-client", "StatefulSet/wirebench-client"}
	if !slices.Equal(kinds, want) {
		t.Errorf("objects %v, want %v", kinds, want)
	}
	if replicas["wirebench-server"] != 1 || replicas["wirebench-client"] != 3 {
		t.Errorf("replicas %v", replicas)
	}
	args := strings.Join(s.DriverArgs(), " ")
	for _, w := range []string{
		"--server-worker tcp://wirebench-server-0.wirebench-server.wb-test.svc:7070",
		"--client-worker tcp://wirebench-client-0.wirebench-client.wb-test.svc:7070",
		"--client-worker tcp://wirebench-client-2.wirebench-client.wb-test.svc:7070",
		"--token-file /etc/wirebench/token/token",
	} {
		if !strings.Contains(args, w) {
			t.Errorf("driver args %q: no %q", args, w)
		}
	}
	if strings.Contains(args, "client-3") {
		t.Errorf("driver args %q: a client worker beyond the replicas", args)
	}
	d, err := s.Driver()
	dr := items(t, d, err)
	if len(dr) != 1 || dr[0].Kind != "Pod" || dr[0].Metadata.Name != DriverPod {
		t.Fatalf("driver objects %+v", dr)
	}
	if strings.Contains(string(d), s.Token) {
		t.Error("the driver pod holds the token itself, not the Secret's file")
	}
}

// The Go runtime's limit is 90 % of the container's, in bytes: 1Gi is 1073741824
// bytes, 90 % of it 966367641; 500M is 500,000,000, 90 % 450000000.
func TestGoMemLimit(t *testing.T) {
	for mem, want := range map[string]string{"1Gi": "966367641", "500M": "450000000", "512Mi": "483183820"} {
		if got, ok := goMemLimit(mem); !ok || got != want {
			t.Errorf("goMemLimit(%q) = %q, %v; want %q", mem, got, ok, want)
		}
	}
	for _, mem := range []string{"", "lots", "0Gi", "1.5"} {
		if got, ok := goMemLimit(mem); ok {
			t.Errorf("goMemLimit(%q) = %q: want none", mem, got)
		}
	}
}

// A user's suite file travels in a ConfigMap of the run's namespace, mounted read-only
// into the driver container (and no other) where RunArgs names it; a bundled suite
// makes no ConfigMap.
func TestSuiteFileMountedIntoTheDriver(t *testing.T) {
	s := testSpec()
	s.SuiteFile = SuiteFile{Name: "mine.yaml", Data: []byte("name: mine\ntargets: [grpc-proto]\n")}
	s.RunArgs = []string{"run", "/etc/wirebench/suite/mine.yaml"}
	b, err := s.Workers()
	var cm map[string]any
	for _, it := range items(t, b, err) {
		if it.Kind == "ConfigMap" {
			if it.Metadata.Name != "wirebench-suite" || it.Metadata.Namespace != "wb-test" {
				t.Errorf("ConfigMap %s/%s", it.Metadata.Namespace, it.Metadata.Name)
			}
			cm = map[string]any{}
		}
	}
	if cm == nil {
		t.Fatal("no ConfigMap among the workers' objects")
	}
	var l struct{ Items []map[string]any }
	if err := json.Unmarshal(b, &l); err != nil {
		t.Fatal(err)
	}
	for _, it := range l.Items {
		if it["kind"] == "ConfigMap" {
			data := it["data"].(map[string]any)
			if data["mine.yaml"] != "name: mine\ntargets: [grpc-proto]\n" {
				t.Errorf("ConfigMap data %v", data)
			}
		}
	}
	d, err := s.Driver()
	if err != nil {
		t.Fatal(err)
	}
	var pod struct {
		Items []struct {
			Spec struct {
				Volumes []struct {
					Name      string
					ConfigMap *struct{ Name string }
				}
				Containers []struct {
					Name         string
					Args         []string
					VolumeMounts []struct {
						Name, MountPath string
						ReadOnly        bool
					}
				}
			}
		}
	}
	if err := json.Unmarshal(d, &pod); err != nil {
		t.Fatal(err)
	}
	ps := pod.Items[0].Spec
	found := false
	for _, v := range ps.Volumes {
		if v.Name == "suite" && v.ConfigMap != nil && v.ConfigMap.Name == "wirebench-suite" {
			found = true
		}
	}
	if !found {
		t.Errorf("no volume of the ConfigMap wirebench-suite in %+v", ps.Volumes)
	}
	for _, c := range ps.Containers {
		mounted := false
		for _, m := range c.VolumeMounts {
			if m.Name == "suite" {
				mounted = m.MountPath == "/etc/wirebench/suite" && m.ReadOnly
			}
		}
		if mounted != (c.Name == "driver") {
			t.Errorf("container %s: suite mounted read-only at /etc/wirebench/suite = %v", c.Name, mounted)
		}
		if c.Name == "driver" && !slices.Contains(c.Args, "/etc/wirebench/suite/mine.yaml") {
			t.Errorf("driver args %v", c.Args)
		}
	}

	s = testSpec()
	b, err = s.Workers()
	for _, it := range items(t, b, err) {
		if it.Kind == "ConfigMap" {
			t.Error("a bundled suite's run has a ConfigMap")
		}
	}
}

// The suite file a run ran is kept in its results so that a resume can mount it again.
func TestKeptSuite(t *testing.T) {
	dir := t.TempDir()
	if f, err := KeptSuite(dir); err != nil || f.Name != "" {
		t.Fatalf("a run of a bundled suite: %+v, %v", f, err)
	}
	want := SuiteFile{Name: "mine.yaml", Data: []byte("name: mine\n")}
	if err := keepSuite(dir, want); err != nil {
		t.Fatal(err)
	}
	got, err := KeptSuite(dir)
	if err != nil || got.Name != "mine.yaml" || string(got.Data) != "name: mine\n" {
		t.Fatalf("kept %+v, %v", got, err)
	}
}
