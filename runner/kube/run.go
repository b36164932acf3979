package kube

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"time"
)

// Kubectl runs kubectl against one context of the current kubeconfig.
type Kubectl struct {
	Path    string // the kubectl binary
	Context string // --context, "" for the current one
	Stderr  io.Writer
}

func (k Kubectl) args(a ...string) []string {
	if k.Context != "" {
		a = append([]string{"--context", k.Context}, a...)
	}
	return a
}

// Run runs kubectl with stdin and returns its standard output; an error carries its
// standard error.
func (k Kubectl) Run(ctx context.Context, stdin []byte, a ...string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, k.Path, k.args(a...)...)
	if stdin != nil {
		cmd.Stdin = bytes.NewReader(stdin)
	}
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		return out.Bytes(), fmt.Errorf("kubectl %s: %w: %s", strings.Join(a, " "), err, strings.TrimSpace(errb.String()))
	}
	return out.Bytes(), nil
}

// Run is one suite run on a cluster.
type Run struct {
	Kubectl Kubectl
	Spec    Spec
	Out     string        // the local directory the run's directory is copied into
	RunsDir string        // where the driver's run writes run directories, under its working directory: run's default, runner.RunsDir
	Resume  string        // a local run directory to finish (copied into the driver pod's RunsDir)
	Keep    bool          // leave the namespace (and its pods) when done
	Ready   time.Duration // how long the workers may take to be ready
	Timeout time.Duration // how long the driver may run
	Log     io.Writer     // progress lines and the driver's output

	nodeGone bool // a node of the run's pods is not Ready: its pods will not confirm their end
}

// NewToken is a random token of 64 hex digits.
func NewToken() (string, error) {
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		return "", err
	}
	return hex.EncodeToString(b), nil
}

// Failed is a run whose driver exited with an error; the results it finished were
// copied to Dir (empty when nothing was).
type Failed struct {
	Dir  string
	Exit int
	// Reason is the kubelet's word for the container's end (OOMKilled, Error).
	Reason string
}

func (f Failed) Error() string {
	status := fmt.Sprintf("exit status %d", f.Exit)
	if f.Reason != "" {
		status += ", " + f.Reason
	}
	if f.Dir == "" {
		return fmt.Sprintf("the driver failed (%s) and wrote no results", status)
	}
	return fmt.Sprintf("the driver failed (%s); what it finished is in %s: `wirebench kube --resume %s` finishes it on new pods", status, f.Dir, f.Dir)
}

// Do makes the run's objects, waits for the workers, runs the driver, copies the
// results back and deletes the namespace (also when ctx is cancelled, with a context
// of its own). It returns the local results directory.
func (r *Run) Do(ctx context.Context) (dir string, err error) {
	s := r.Spec
	if r.RunsDir == "" || path.IsAbs(r.RunsDir) {
		return "", fmt.Errorf("kube: RunsDir %q, want the folder run writes into under its working directory", r.RunsDir)
	}
	if s.LocalWorkers {
		r.logf("namespace %s: a driver pod that spawns its own workers (image %s)", s.Namespace, s.Image)
	} else {
		r.logf("namespace %s: token Secret, 1 server worker, %d client workers (image %s)", s.Namespace, s.Clients, s.Image)
	}
	if _, err := r.Kubectl.Run(ctx, nil, "get", "namespace", s.Namespace); err == nil {
		return "", fmt.Errorf("namespace %s exists already: another run's? (kubectl delete namespace %s)", s.Namespace, s.Namespace)
	}
	defer func() {
		if r.Keep {
			r.logf("namespace %s kept (--keep)", s.Namespace)
			return
		}
		r.deleteNamespace()
	}()
	workers, err := s.Workers()
	if err != nil {
		return "", err
	}
	if _, err := r.Kubectl.Run(ctx, workers, "apply", "-f", "-"); err != nil {
		return "", err
	}
	if !s.LocalWorkers {
		placed, err := r.waitWorkers(ctx)
		if err != nil {
			return "", err
		}
		r.logf("workers ready: %s", placed)
	}
	s.Stage = r.Resume != ""
	if s.Stage {
		s.RunArgs = []string{"run", "--resume", path.Join(r.RunsDir, filepath.Base(r.Resume))}
	}
	driver, err := s.Driver()
	if err != nil {
		return "", err
	}
	if _, err := r.Kubectl.Run(ctx, driver, "apply", "-f", "-"); err != nil {
		return "", err
	}
	if s.Stage {
		if err := r.stage(ctx); err != nil {
			return "", err
		}
	}
	exit, reason, err := r.follow(ctx)
	if err != nil {
		return "", err
	}
	dir, cerr := r.copyOut(ctx)
	if cerr != nil {
		return "", fmt.Errorf("copying the results off: %w", cerr)
	}
	if err := keepSuite(dir, s.SuiteFile); err != nil {
		return dir, err
	}
	if exit != 0 {
		return dir, Failed{Dir: dir, Exit: exit, Reason: reason}
	}
	return dir, nil
}

// deleteNamespace deletes the run's namespace and waits until it is gone, with a
// context of its own (ctx may be cancelled: Ctrl-C cleans up too). Pods on a node that
// went away never confirm their end: they are deleted by force at once when the run
// saw a node go, else after a minute (the node's kubelet, if it comes back, stops their
// containers).
func (r *Run) deleteNamespace() {
	ns := r.Spec.Namespace
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	r.logf("deleting namespace %s", ns)
	if _, err := r.Kubectl.Run(ctx, nil, "delete", "namespace", ns, "--wait=false"); err != nil {
		r.logf("could not delete namespace %s: %v", ns, err)
		return
	}
	gone := func(d time.Duration) bool {
		_, err := r.Kubectl.Run(ctx, nil, "wait", "--for=delete", "namespace/"+ns, "--timeout="+d.String())
		return err == nil
	}
	if !r.nodeGone && gone(time.Minute) {
		return
	}
	r.logf("deleting the pods of namespace %s by force (a node is gone, or they did not end in a minute)", ns)
	if _, err := r.Kubectl.Run(ctx, nil, "-n", ns, "delete", "pods", "--all", "--force", "--grace-period=0"); err != nil {
		r.logf("%v", err)
	}
	if !gone(time.Minute) {
		r.logf("namespace %s is still terminating: see kubectl get all -n %s", ns, ns)
	}
}

func (r *Run) logf(format string, a ...any) {
	fmt.Fprintf(r.Log, "kube: "+format+"\n", a...)
}

// pod is what Do reads of a pod.
type pod struct {
	Metadata struct {
		Name   string            `json:"name"`
		Labels map[string]string `json:"labels"`
	} `json:"metadata"`
	Spec struct {
		NodeName string `json:"nodeName"`
	} `json:"spec"`
	Status struct {
		Phase      string `json:"phase"`
		Conditions []struct {
			Type    string `json:"type"`
			Status  string `json:"status"`
			Reason  string `json:"reason"`
			Message string `json:"message"`
		} `json:"conditions"`
		ContainerStatuses []struct {
			Name         string `json:"name"`
			RestartCount int    `json:"restartCount"`
			State        struct {
				Waiting *struct {
					Reason  string `json:"reason"`
					Message string `json:"message"`
				} `json:"waiting"`
				Terminated *struct {
					ExitCode int    `json:"exitCode"`
					Reason   string `json:"reason"`
				} `json:"terminated"`
			} `json:"state"`
		} `json:"containerStatuses"`
	} `json:"status"`
}

func (p pod) condition(t string) (status, why string) {
	for _, c := range p.Status.Conditions {
		if c.Type == t {
			return c.Status, strings.TrimSpace(c.Reason + " " + c.Message)
		}
	}
	return "", ""
}

func (r *Run) pods(ctx context.Context) ([]pod, error) {
	out, err := r.Kubectl.Run(ctx, nil, "-n", r.Spec.Namespace, "get", "pods", "-o", "json")
	if err != nil {
		return nil, err
	}
	var l struct{ Items []pod }
	if err := json.Unmarshal(out, &l); err != nil {
		return nil, fmt.Errorf("kubectl get pods: %w", err)
	}
	return l.Items, nil
}

// notReadyNodes are the nodes whose Ready condition is not True, with why.
func (r *Run) notReadyNodes(ctx context.Context) (map[string]string, error) {
	out, err := r.Kubectl.Run(ctx, nil, "get", "nodes", "-o", "json")
	if err != nil {
		return nil, err
	}
	var l struct{ Items []pod } // a node's metadata.name and status.conditions read the same
	if err := json.Unmarshal(out, &l); err != nil {
		return nil, fmt.Errorf("kubectl get nodes: %w", err)
	}
	bad := map[string]string{}
	for _, n := range l.Items {
		if st, why := n.condition("Ready"); st != "True" {
			bad[n.Metadata.Name] = why
		}
	}
	return bad, nil
}

func role(p pod) string {
	switch p.Metadata.Labels["app.kubernetes.io/component"] {
	case "server-worker":
		return "server worker " + p.Metadata.Name
	case "client-worker":
		return "client worker " + p.Metadata.Name
	}
	return p.Metadata.Name
}

// checkNodes fails when a node one of the pods is on is not Ready: a node that went
// away is reported, not waited on.
func (r *Run) checkNodes(ctx context.Context, pods []pod) error {
	bad, err := r.notReadyNodes(ctx)
	if err != nil {
		return err
	}
	for _, p := range pods {
		if why, ok := bad[p.Spec.NodeName]; ok && p.Spec.NodeName != "" {
			r.nodeGone = true
			return fmt.Errorf("node %s, where the %s runs, is not Ready (%s): its kubelet stopped reporting or the node went away", p.Spec.NodeName, role(p), why)
		}
	}
	return nil
}

// waitWorkers waits until every worker pod is Ready, and checks that no client worker
// shares the server worker's node. It says where each runs.
func (r *Run) waitWorkers(ctx context.Context) (string, error) {
	want := 1 + r.Spec.Clients
	deadline := time.Now().Add(r.Ready)
	for {
		pods, err := r.pods(ctx)
		if err != nil {
			return "", err
		}
		var ready []pod
		var waiting []string
		for _, p := range pods {
			if _, isWorker := map[string]bool{"server-worker": true, "client-worker": true}[p.Metadata.Labels["app.kubernetes.io/component"]]; !isWorker {
				continue
			}
			if st, _ := p.condition("Ready"); st == "True" {
				ready = append(ready, p)
				continue
			}
			w := role(p) + ": " + p.Status.Phase
			if st, why := p.condition("PodScheduled"); st == "False" {
				w += " (not scheduled: " + why + ")"
			}
			for _, c := range p.Status.ContainerStatuses {
				if c.State.Waiting != nil && c.State.Waiting.Reason != "" {
					w += " (" + c.State.Waiting.Reason + ": " + c.State.Waiting.Message + ")"
				}
				if c.State.Terminated != nil {
					w += fmt.Sprintf(" (exited %d: %s)", c.State.Terminated.ExitCode, c.State.Terminated.Reason)
				}
			}
			waiting = append(waiting, w)
		}
		if err := r.checkNodes(ctx, pods); err != nil {
			return "", err
		}
		if len(ready) == want {
			return placement(ready)
		}
		if time.Now().After(deadline) {
			sort.Strings(waiting)
			return "", fmt.Errorf("the workers were not ready in %v: %s", r.Ready, strings.Join(waiting, "; "))
		}
		select {
		case <-ctx.Done():
			return "", ctx.Err()
		case <-time.After(2 * time.Second):
		}
	}
}

func placement(ready []pod) (string, error) {
	server := ""
	for _, p := range ready {
		if p.Metadata.Labels["app.kubernetes.io/component"] == "server-worker" {
			server = p.Spec.NodeName
		}
	}
	var parts []string
	for _, p := range ready {
		if p.Metadata.Labels["app.kubernetes.io/component"] == "client-worker" && p.Spec.NodeName == server {
			return "", fmt.Errorf("%s is on the server worker's node %s (the anti-affinity did not hold)", role(p), server)
		}
		parts = append(parts, role(p)+" on "+p.Spec.NodeName)
	}
	sort.Strings(parts)
	return strings.Join(parts, ", "), nil
}

// stage copies the local results directory to resume into the driver pod and lets the
// driver start.
func (r *Run) stage(ctx context.Context) error {
	if err := r.waitContainer(ctx, "stage"); err != nil {
		return err
	}
	dst := fmt.Sprintf("%s/%s:%s", r.Spec.Namespace, DriverPod, path.Join(Results, r.RunsDir, filepath.Base(r.Resume)))
	if _, err := r.Kubectl.Run(ctx, nil, "exec", "-n", r.Spec.Namespace, DriverPod, "-c", "stage", "--", "mkdir", "-p", path.Join(Results, r.RunsDir)); err != nil {
		return err
	}
	if _, err := r.Kubectl.Run(ctx, nil, "cp", "-c", "stage", r.Resume, dst); err != nil {
		return err
	}
	r.logf("copied %s into the driver pod", r.Resume)
	_, err := r.Kubectl.Run(ctx, nil, "exec", "-n", r.Spec.Namespace, DriverPod, "-c", "stage", "--", "touch", Results+"/.staged")
	return err
}

// waitContainer waits until the driver pod's (init) container name runs.
func (r *Run) waitContainer(ctx context.Context, name string) error {
	deadline := time.Now().Add(r.Ready)
	for time.Now().Before(deadline) {
		out, err := r.Kubectl.Run(ctx, nil, "-n", r.Spec.Namespace, "get", "pod", DriverPod, "-o",
			"jsonpath={.status.initContainerStatuses[?(@.name==\""+name+"\")].state.running.startedAt}{.status.containerStatuses[?(@.name==\""+name+"\")].state.running.startedAt}")
		if err == nil && len(bytes.TrimSpace(out)) > 0 {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(time.Second):
		}
	}
	return fmt.Errorf("the driver pod's %s container did not start in %v", name, r.Ready)
}

// follow streams the driver's output to Log until it exits, and returns its exit
// status. Meanwhile it checks every few seconds that the nodes of the run's pods are
// Ready; one that is not ends the wait with an error saying which.
func (r *Run) follow(ctx context.Context) (exit int, reason string, err error) {
	if err := r.waitContainerOrDone(ctx); err != nil {
		return 0, "", err
	}
	lctx, stopLogs := context.WithCancel(ctx)
	defer stopLogs()
	logs := exec.CommandContext(lctx, r.Kubectl.Path, r.Kubectl.args("-n", r.Spec.Namespace, "logs", "-f", DriverPod, "-c", "driver")...)
	logs.Stdout, logs.Stderr = r.Log, r.Log
	logsDone := make(chan error, 1)
	if err := logs.Start(); err != nil {
		return 0, "", err
	}
	go func() { logsDone <- logs.Wait() }()
	deadline := time.Now().Add(r.Timeout)
	for {
		select {
		case <-ctx.Done():
			return 0, "", ctx.Err()
		case <-time.After(2 * time.Second):
		}
		pods, err := r.pods(ctx)
		if err != nil {
			return 0, "", err
		}
		for _, p := range pods {
			if p.Metadata.Name != DriverPod {
				continue
			}
			for _, c := range p.Status.ContainerStatuses {
				if c.Name == "driver" && c.State.Terminated != nil {
					select { // the rest of its output
					case <-logsDone:
					case <-time.After(5 * time.Second):
					}
					return c.State.Terminated.ExitCode, c.State.Terminated.Reason, nil
				}
			}
		}
		if err := r.checkNodes(ctx, pods); err != nil {
			return 0, "", err
		}
		if time.Now().After(deadline) {
			return 0, "", fmt.Errorf("the driver did not finish in %v", r.Timeout)
		}
	}
}

// waitContainerOrDone waits until the driver container has started (or already ended).
func (r *Run) waitContainerOrDone(ctx context.Context) error {
	deadline := time.Now().Add(r.Ready)
	for time.Now().Before(deadline) {
		out, err := r.Kubectl.Run(ctx, nil, "-n", r.Spec.Namespace, "get", "pod", DriverPod, "-o",
			`jsonpath={.status.containerStatuses[?(@.name=="driver")].state}`)
		if err == nil && (bytes.Contains(out, []byte("running")) || bytes.Contains(out, []byte("terminated"))) {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(time.Second):
		}
	}
	pods, _ := r.pods(ctx)
	for _, p := range pods {
		if p.Metadata.Name == DriverPod {
			for _, c := range p.Status.ContainerStatuses {
				if c.State.Waiting != nil {
					return fmt.Errorf("the driver did not start in %v: %s: %s", r.Ready, c.State.Waiting.Reason, c.State.Waiting.Message)
				}
			}
		}
	}
	return fmt.Errorf("the driver did not start in %v", r.Ready)
}

// copyOut copies the driver pod's RunsDir into a temporary directory beside Out, then
// each run directory in it into Out; it returns the run's directory (the newest).
func (r *Run) copyOut(ctx context.Context) (string, error) {
	if err := os.MkdirAll(r.Out, 0o755); err != nil {
		return "", err
	}
	tmp, err := os.MkdirTemp(r.Out, ".kube-copy-")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(tmp)
	src := fmt.Sprintf("%s/%s:%s", r.Spec.Namespace, DriverPod, path.Join(Results, r.RunsDir))
	if _, err := r.Kubectl.Run(ctx, nil, "cp", "-c", "results", src, filepath.Join(tmp, "runs")); err != nil {
		return "", err
	}
	entries, err := os.ReadDir(filepath.Join(tmp, "runs"))
	if err != nil {
		return "", nil // the driver wrote nothing
	}
	newest := ""
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		dst := filepath.Join(r.Out, e.Name())
		if _, err := os.Stat(dst); err == nil {
			// A resumed run: the copy that came back holds everything the local one did.
			if err := os.RemoveAll(dst); err != nil {
				return "", err
			}
		}
		if err := os.Rename(filepath.Join(tmp, "runs", e.Name()), dst); err != nil {
			return "", err
		}
		if e.Name() > filepath.Base(newest) {
			newest = dst
		}
	}
	if newest == "" {
		return "", fmt.Errorf("the driver's %s/ holds no run directory", r.RunsDir)
	}
	r.logf("results copied to %s", newest)
	return newest, nil
}

// KeptSuiteDir is the directory of a run's results where the suite file it ran is
// kept (Spec.SuiteFile), so that `kube --resume` can mount it again: the journal
// names it by its path in the driver pod.
const KeptSuiteDir = "kube-suite"

func keepSuite(dir string, f SuiteFile) error {
	if f.Name == "" {
		return nil
	}
	if err := os.MkdirAll(filepath.Join(dir, KeptSuiteDir), 0o755); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, KeptSuiteDir, f.Name), f.Data, 0o644)
}

// KeptSuite is the suite file a run in dir ran, when it was one (a bundled suite: the
// zero SuiteFile).
func KeptSuite(dir string) (SuiteFile, error) {
	entries, err := os.ReadDir(filepath.Join(dir, KeptSuiteDir))
	if errors.Is(err, fs.ErrNotExist) {
		return SuiteFile{}, nil
	}
	if err != nil {
		return SuiteFile{}, err
	}
	if len(entries) != 1 || !entries[0].Type().IsRegular() {
		return SuiteFile{}, fmt.Errorf("%s: want the one suite file the run ran", filepath.Join(dir, KeptSuiteDir))
	}
	data, err := os.ReadFile(filepath.Join(dir, KeptSuiteDir, entries[0].Name()))
	return SuiteFile{Name: entries[0].Name(), Data: data}, err
}
