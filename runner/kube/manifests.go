// Package kube runs a suite on a Kubernetes cluster (`wirebench kube`,
// docs/distributed.md "One command"): it writes the objects of one run (namespace, token
// Secret, server and client worker StatefulSets with their headless Services, a driver
// pod), applies them with kubectl against the current kubeconfig, follows the driver,
// copies its results back and deletes the namespace.
//
// It drives kubectl rather than linking client-go: measured here (2026-11-29), client-go
// v0.36.3's clientset, clientcmd and remotecommand are 323 packages that wirebench does
// not already build (it builds 674), and a program that only lists pods with them is
// 36 MB and took 230 s to build from an empty cache (docs/distributed.md, "Why kubectl");
// and kubectl's `cp`, `logs -f` and `apply` are what a user would run by hand, so each
// step can be repeated from the terminal. The objects are those of deploy/kubernetes, sized by Spec.
package kube

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
)

// Spec is one run's objects.
type Spec struct {
	Namespace    string
	Image        string   // the wirebench image of the workers and the driver
	HelperImage  string   // an image with sh, sleep and tar (busybox): stages and holds the results
	Clients      int      // client workers, each a pod (the anti-affinity keeps them off the server's node)
	WorkerCPU    string   // each worker's CPU request and limit (Guaranteed QoS)
	WorkerMemory string   // each worker's memory request and limit
	DriverCPU    string   // the driver's
	DriverMemory string   // the driver's
	Token        string   // the token the workers demand (written to the Secret only)
	RunArgs      []string // the driver's arguments after `wirebench`: run SUITE --filter ... or run --resume runs/<time>
	Stage        bool     // the driver waits for a results directory to be copied in (resume)
	// LocalWorkers: no worker pods; the driver spawns its workers in its own pod, as a
	// local run does (the JVM stacks: the JVM worker takes no token, docs/java-worker.md).
	LocalWorkers bool
	// SuiteFile is a user's suite file for the driver (its base name and content): a
	// ConfigMap the driver pod mounts at SuiteDir, so that RunArgs can name
	// SuiteDir/SuiteFile.Name. The zero value: a bundled suite, nothing mounted.
	SuiteFile SuiteFile
}

// SuiteFile is a suite file carried into the driver pod.
type SuiteFile struct {
	Name string // base name, the ConfigMap's key
	Data []byte
}

// SuiteDir is where the driver pod sees a user's suite file (Spec.SuiteFile).
const SuiteDir = "/etc/wirebench/suite"

// MaxSuiteFile is the largest suite file carried in a ConfigMap (the API server
// refuses objects over 1 MiB; a suite file is a few KiB).
const MaxSuiteFile = 512 << 10

// Port is the workers' control port.
const Port = 7070

// Results is the driver pod's working directory, where its run writes its run
// directories (Run.RunsDir; an emptyDir: no storage class needed).
const Results = "/wirebench"

// DriverPod is the driver pod's name; its containers are "driver" and "results".
const DriverPod = "wirebench-driver"

// WorkerURLs are the driver's --server-worker and --client-worker URLs: the pods' DNS
// names under their headless Services.
func (s Spec) WorkerURLs() (server string, clients []string) {
	server = fmt.Sprintf("tcp://wirebench-server-0.wirebench-server.%s.svc:%d", s.Namespace, Port)
	for i := 0; i < s.Clients; i++ {
		clients = append(clients, fmt.Sprintf("tcp://wirebench-client-%d.wirebench-client.%s.svc:%d", i, s.Namespace, Port))
	}
	return server, clients
}

// Workers is the namespace, the Secret and the workers, as a List kubectl applies.
func (s Spec) Workers() ([]byte, error) {
	objs := []obj{
		{"apiVersion": "v1", "kind": "Namespace", "metadata": obj{
			"name":   s.Namespace,
			"labels": obj{"app.kubernetes.io/name": "wirebench", "pod-security.kubernetes.io/enforce": "restricted"},
		}},
		{"apiVersion": "v1", "kind": "Secret", "type": "Opaque",
			"metadata":   s.meta("wirebench-token", ""),
			"stringData": obj{"token": s.Token}},
	}
	if s.SuiteFile.Name != "" {
		objs = append(objs, obj{"apiVersion": "v1", "kind": "ConfigMap", "metadata": s.meta("wirebench-suite", "driver"),
			"data": obj{s.SuiteFile.Name: string(s.SuiteFile.Data)}})
	}
	if !s.LocalWorkers {
		objs = append(objs, s.service("server"), s.statefulSet("server", 1),
			s.service("client"), s.statefulSet("client", s.Clients))
	}
	return list(objs...)
}

// Driver is the driver pod: an init container that waits for a staged results
// directory (with Stage), the driver, and a container that holds the results volume
// open so that kubectl cp can copy the results off once the driver has exited.
func (s Spec) Driver() ([]byte, error) {
	stage := "true"
	if s.Stage {
		stage = "until [ -e " + Results + "/.staged ]; do sleep 1; done"
	}
	mounts := []obj{{"name": "results", "mountPath": Results}}
	helper := func(name string, script string) obj {
		return s.container(name, s.HelperImage, []string{"sh", "-c", script}, nil, "100m", "64Mi", mounts)
	}
	driverMounts := append(mounts, obj{"name": "token", "mountPath": "/etc/wirebench/token", "readOnly": true},
		obj{"name": "tmp", "mountPath": "/tmp"})
	if s.SuiteFile.Name != "" {
		driverMounts = append(driverMounts, obj{"name": "suite", "mountPath": SuiteDir, "readOnly": true})
	}
	driver := s.container("driver", s.Image, []string{"wirebench"}, s.DriverArgs(), s.DriverCPU, s.DriverMemory, driverMounts)
	driver["workingDir"] = Results
	spec := s.podSpec("driver")
	if s.SuiteFile.Name != "" {
		spec["volumes"] = append(spec["volumes"].([]obj), obj{"name": "suite", "configMap": obj{"name": "wirebench-suite"}})
	}
	spec["restartPolicy"] = "Never"
	spec["initContainers"] = []obj{helper("stage", stage)}
	spec["containers"] = []obj{driver, helper("results", "trap 'exit 0' TERM; sleep 86400 & wait")}
	spec["volumes"] = append(spec["volumes"].([]obj), obj{"name": "results", "emptyDir": obj{}})
	return list(obj{"apiVersion": "v1", "kind": "Pod", "metadata": s.meta(DriverPod, "driver"), "spec": spec})
}

type obj = map[string]any

func list(items ...obj) ([]byte, error) {
	return json.MarshalIndent(obj{"apiVersion": "v1", "kind": "List", "items": items}, "", "  ")
}

func labels(component string) obj {
	l := obj{"app.kubernetes.io/name": "wirebench"}
	if component != "" {
		l["app.kubernetes.io/component"] = component
	}
	return l
}

func (s Spec) meta(name, component string) obj {
	return obj{"name": name, "namespace": s.Namespace, "labels": labels(component)}
}

func (s Spec) service(role string) obj {
	c := role + "-worker"
	return obj{"apiVersion": "v1", "kind": "Service", "metadata": s.meta("wirebench-"+role, c),
		"spec": obj{"clusterIP": "None", "selector": labels(c),
			"ports": []obj{{"name": "control", "port": Port, "targetPort": "control"}}}}
}

// podSpec is what every pod shares: no API token, the restricted profile's settings,
// the token and /tmp volumes.
func (s Spec) podSpec(component string) obj {
	return obj{
		"automountServiceAccountToken": false,
		"enableServiceLinks":           false,
		"securityContext": obj{"runAsNonRoot": true, "runAsUser": 65532, "runAsGroup": 65532, "fsGroup": 65532,
			"seccompProfile": obj{"type": "RuntimeDefault"}},
		"volumes": []obj{
			{"name": "token", "secret": obj{"secretName": "wirebench-token", "defaultMode": 0o440}},
			{"name": "tmp", "emptyDir": obj{}},
		},
	}
}

func (s Spec) container(name, image string, command, args []string, cpu, mem string, mounts []obj) obj {
	c := obj{
		"name": name, "image": image, "imagePullPolicy": "IfNotPresent", "command": command,
		"resources": obj{"requests": obj{"cpu": cpu, "memory": mem}, "limits": obj{"cpu": cpu, "memory": mem}},
		"securityContext": obj{"allowPrivilegeEscalation": false, "readOnlyRootFilesystem": true,
			"capabilities": obj{"drop": []string{"ALL"}}},
		"volumeMounts": mounts,
	}
	if args != nil {
		c["args"] = args
	}
	if limit, ok := goMemLimit(mem); ok {
		c["env"] = []obj{{"name": "GOMEMLIMIT", "value": limit}}
	}
	return c
}

// goMemLimit is the Go runtime's soft memory limit for a container whose memory limit
// is mem (a Kubernetes quantity: 1Gi, 512Mi, 2G): 90 % of it, in bytes, so that the
// garbage collector runs before the kernel kills the container; a driver holds every
// interval's histograms until it writes the reports. ok is false for a quantity it
// does not read (the runtime then has no limit, as before).
func goMemLimit(mem string) (string, bool) {
	units := []struct {
		suffix string
		factor float64
	}{{"Ki", 1 << 10}, {"Mi", 1 << 20}, {"Gi", 1 << 30}, {"Ti", 1 << 40}, {"k", 1e3}, {"M", 1e6}, {"G", 1e9}, {"T", 1e12}}
	for _, u := range units {
		if n, ok := strings.CutSuffix(mem, u.suffix); ok {
			v, err := strconv.ParseFloat(n, 64)
			if err != nil || !(v > 0) {
				return "", false
			}
			return strconv.FormatInt(int64(v*u.factor*0.9), 10), true
		}
	}
	return "", false
}

// statefulSet is a worker role's pods: the server never on a client's node (required,
// both ways), the clients each on a node of their own where they can.
func (s Spec) statefulSet(role string, replicas int) obj {
	c := role + "-worker"
	other := "client-worker"
	if role == "client" {
		other = "server-worker"
	}
	anti := obj{"requiredDuringSchedulingIgnoredDuringExecution": []obj{
		{"topologyKey": "kubernetes.io/hostname", "labelSelector": obj{"matchLabels": labels(other)}}}}
	if role == "client" {
		anti["preferredDuringSchedulingIgnoredDuringExecution"] = []obj{{"weight": 100, "podAffinityTerm": obj{
			"topologyKey": "kubernetes.io/hostname", "labelSelector": obj{"matchLabels": labels(c)}}}}
	}
	w := s.container("worker", s.Image, []string{"wirebench"},
		[]string{"worker", "--listen", fmt.Sprintf("tcp://0.0.0.0:%d", Port), "--token-file", "/etc/wirebench/token/token"},
		s.WorkerCPU, s.WorkerMemory, []obj{
			{"name": "token", "mountPath": "/etc/wirebench/token", "readOnly": true},
			{"name": "tmp", "mountPath": "/tmp"}})
	w["ports"] = []obj{{"name": "control", "containerPort": Port}}
	w["readinessProbe"] = obj{"tcpSocket": obj{"port": "control"}, "periodSeconds": 2}
	spec := s.podSpec(c)
	spec["terminationGracePeriodSeconds"] = 5
	spec["affinity"] = obj{"podAntiAffinity": anti}
	spec["containers"] = []obj{w}
	return obj{"apiVersion": "apps/v1", "kind": "StatefulSet", "metadata": s.meta("wirebench-"+role, c),
		"spec": obj{"serviceName": "wirebench-" + role, "replicas": replicas, "podManagementPolicy": "Parallel",
			"selector": obj{"matchLabels": labels(c)},
			"template": obj{"metadata": obj{"labels": labels(c)}, "spec": spec}}}
}

// DriverArgs are the driver container's arguments: RunArgs, the workers and the token.
func (s Spec) DriverArgs() []string {
	args := append([]string{}, s.RunArgs...)
	if s.LocalWorkers {
		return args
	}
	server, clients := s.WorkerURLs()
	args = append(args, "--server-worker", server)
	for _, c := range clients {
		args = append(args, "--client-worker", c)
	}
	return append(args, "--token-file", "/etc/wirebench/token/token")
}
