package main

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"time"

	"github.com/wirebench/wirebench/runner"
	"github.com/wirebench/wirebench/runner/kube"
	"github.com/wirebench/wirebench/suite"
)

// kubeCmd runs a suite on a Kubernetes cluster through kubectl (package kube).
type kubeCmd struct {
	Suite     string        `arg:"" optional:"" help:"A bundled suite's name (default quick) or a suite file (carried into the driver pod in a ConfigMap; files it names are not); the driver pod runs 'wirebench run SUITE' against the worker pods."`
	Filter    string        `help:"Run only the benchmarks whose name matches this regular expression (a unix-socket benchmark cannot cross pods: '/tcp/' keeps the TCP ones)."`
	Smoke     bool          `help:"Smoke mode: tiny durations (checks that the suite runs on the cluster)."`
	Resume    string        `help:"Finish the run in this local run directory on new pods: it is copied into the driver pod, which runs 'run --resume', and copied back."`
	Kubectl   string        `default:"kubectl" help:"The kubectl to drive (a client within one minor version of the cluster's)."`
	Context   string        `help:"The kubeconfig context (default: the current one)."`
	Namespace string        `default:"wirebench" help:"The namespace to create for the run (it must not exist; deleted at the end)."`
	Image     string        `default:"wirebench:dev" help:"The wirebench image of the workers and the driver."`
	Helper    string        `default:"busybox:1.37.0" help:"An image with sh, sleep and tar, for staging and copying the results."`
	Clients   int           `default:"2" help:"Client worker pods (each on a node of its own where the cluster has them; never on the server worker's node)."`
	WorkerCPU string        `name:"worker-cpu" default:"1" help:"Each worker's CPU request and limit."`
	WorkerMem string        `name:"worker-memory" default:"1Gi" help:"Each worker's memory request and limit."`
	DriverCPU string        `name:"driver-cpu" default:"500m" help:"The driver's CPU request and limit."`
	Local     bool          `name:"local-workers" help:"No worker pods: the driver pod spawns its workers itself, pinned to the suite's CPUs within its node (for the JVM stacks, whose worker takes no token: use --image wirebench-jvm:dev and --driver-cpu 2)."`
	DriverMem string        `name:"driver-memory" default:"1Gi" help:"The driver's memory request and limit (with --local-workers, the workers' too)."`
	Out       string        `short:"o" default:"${runs_dir}" help:"Where the run's directory (${runs_dir}/<time>/ in the driver pod) is copied back to."`
	Keep      bool          `help:"Leave the namespace and its pods after the run (to look at them)."`
	Ready     time.Duration `default:"5m" help:"How long the workers (and the driver) may take to start."`
	Timeout   time.Duration `default:"2h" help:"How long the driver may run."`
}

func (c *kubeCmd) Run(e *env) error {
	if c.Clients < 1 {
		return usagef("--clients %d: want 1 or more", c.Clients)
	}
	path, err := exec.LookPath(c.Kubectl)
	if err != nil {
		return usagef("--kubectl %s: %v", c.Kubectl, err)
	}
	args := []string{"run"}
	var sf kube.SuiteFile
	if c.Resume != "" {
		if c.Suite != "" || c.Filter != "" || c.Smoke {
			return usagef("--resume: the suite, --filter and --smoke come from the run's journal")
		}
		if st, err := os.Stat(c.Resume); err != nil || !st.IsDir() {
			return usagef("--resume %s: not a results directory of a run", c.Resume)
		}
		if sf, err = kube.KeptSuite(c.Resume); err != nil {
			return usagef("--resume: %v", err)
		}
	} else {
		suite := c.Suite
		if suite == "" {
			suite = "quick"
		}
		if _, err := os.Stat(suite); err == nil {
			if sf, err = suiteFile(suite); err != nil {
				return err
			}
			suite = kube.SuiteDir + "/" + sf.Name
		}
		args = append(args, suite)
		if c.Filter != "" {
			args = append(args, "--filter", c.Filter)
		}
		if c.Smoke {
			args = append(args, "--smoke")
		}
		args = append(args, "--plain")
	}
	tok, err := kube.NewToken()
	if err != nil {
		return err
	}
	r := &kube.Run{
		Kubectl: kube.Kubectl{Path: path, Context: c.Context, Stderr: e.stderr},
		Spec: kube.Spec{
			Namespace: c.Namespace, Image: c.Image, HelperImage: c.Helper, Clients: c.Clients,
			WorkerCPU: c.WorkerCPU, WorkerMemory: c.WorkerMem, DriverCPU: c.DriverCPU, DriverMemory: c.DriverMem,
			Token: tok, RunArgs: args, LocalWorkers: c.Local, SuiteFile: sf,
		},
		Out: c.Out, RunsDir: runner.RunsDir, Resume: c.Resume, Keep: c.Keep, Ready: c.Ready, Timeout: c.Timeout, Log: e.stderr,
	}
	dir, err := r.Do(e.ctx)
	if err != nil {
		if errors.Is(err, e.ctx.Err()) && e.ctx.Err() != nil {
			if c.Keep {
				return fmt.Errorf("interrupted; the namespace %s was kept (--keep)", c.Namespace)
			}
			return fmt.Errorf("interrupted; the namespace %s was deleted", c.Namespace)
		}
		return err
	}
	fmt.Fprintln(e.stdout, dir)
	return nil
}

// suiteFile reads a user's suite file for the driver pod. It is loaded here first, so
// that a mistake is reported with its file and line before anything is made on the
// cluster.
func suiteFile(path string) (kube.SuiteFile, error) {
	if _, err := suite.Load(path); err != nil {
		return kube.SuiteFile{}, usageError{err}
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return kube.SuiteFile{}, usageError{err}
	}
	if len(data) > kube.MaxSuiteFile {
		return kube.SuiteFile{}, usagef("%s: %d bytes; a suite file carried to the cluster may have %d at most", path, len(data), kube.MaxSuiteFile)
	}
	name := filepath.Base(path)
	if !configMapKey.MatchString(name) {
		name = "suite.yaml" // a ConfigMap's key is letters, digits, '-', '_' and '.'
	}
	return kube.SuiteFile{Name: name, Data: data}, nil
}

var configMapKey = regexp.MustCompile(`^[-._a-zA-Z0-9]+$`)
