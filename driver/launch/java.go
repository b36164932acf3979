package launch

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"time"

	"github.com/wirebench/wirebench/protocol"
)

func init() {
	Register(protocol.WorkerJava, Launcher{Command: javaCommand, StartFactor: 3, ProfileGrace: 30 * time.Second,
		RuntimeArgs: JVMArgs, StartCost: JVMStartCost})
}

// JVMStartCost is what an estimate adds to a fork for each JVM worker process it
// starts: the JVM's own start, class loading and the contract check, in the interpreter,
// with the fork's other processes starting at the same time on the same CPUs. Measured
// on the 2-vCPU machine kind (docs/method.md, "2026-11-27: freezing"): rest-vs-grpc's
// ping-pong group, 10 JVM processes a fork, ran 22 s a fork longer than the estimate
// without this.
const JVMStartCost = 2 * time.Second

// javaCommand is the command line of a JVM worker: java with JVMLogArgs, JVMArgs (and
// JVMProfileArgs when profiled), the jar of the stack's family, and the wirebench
// executable, which runs the link proxy of a JVM client behind a link.
func javaCommand(c Command) ([]string, error) {
	jar, err := javaWorkerJar(c.Options, c.Stack.Family)
	if err != nil {
		return nil, err
	}
	java, err := exec.LookPath("java")
	if err != nil {
		return nil, errors.New("the JVM stacks need a JDK 17 or later: java is not on PATH")
	}
	argv := append([]string{java}, JVMLogArgs...)
	argv = append(argv, JVMArgs(c.RuntimeArgs, len(c.CPUs))...)
	if c.Profile != "" {
		argv = append(argv, JVMProfileArgs(c.Profile)...)
	}
	argv = append(argv, "-jar", jar, "worker", "--listen", "unix://"+c.Socket)
	if c.Binary != "" {
		argv = append(argv, "--wirebench", c.Binary)
	}
	return argv, nil
}

// JVMLogArgs send the JVM's own warnings (its unified logging, which writes them to
// stdout by default) to stderr, first on a JVM worker's command line: the worker's
// first line on stdout must be its address. Seen on 2026-11-29: of 36 JVMs started at
// once, one printed "[warning][perf,memops] Cannot use file /tmp/hsperfdata_root/PID
// because it is locked by another process" (another starting JVM was checking that
// stale file of a dead process with the same PID), and the driver, reading that line
// for the address, failed the fork. A user's -XX:+UseLargePages on a machine without
// large pages warns the same way. Where a warning goes changes nothing else; a user's
// own -Xlog options, after these, still apply.
var JVMLogArgs = []string{"-Xlog:disable", "-Xlog:all=warning:stderr:uptime,level,tags"}

// JVMDefaultArgs are the JVM options every JVM worker the driver starts gets before the
// user's own (Options.RuntimeArgs, which win where they set the same option): a fixed heap,
// so that no run's figures depend on how the JVM sized it from the machine's memory, and
// the collector named rather than chosen by the JVM's ergonomics (which pick Serial on
// fewer than 2 CPUs). docs/java-worker.md.
var JVMDefaultArgs = []string{"-Xms1g", "-Xmx1g", "-XX:+UseG1GC"}

// JVMArgs are the JVM options of a JVM worker pinned to cpus CPUs (0: not pinned):
// JVMDefaultArgs, -XX:ActiveProcessorCount=cpus so that the JVM sizes its GC, JIT and
// common pools for the CPUs it may run on rather than for the machine, then user.
func JVMArgs(user []string, cpus int) []string {
	args := slices.Clone(JVMDefaultArgs)
	if cpus > 0 {
		args = append(args, fmt.Sprintf("-XX:ActiveProcessorCount=%d", cpus))
	}
	return append(args, user...)
}

// JVMProfileArgs are the JVM options that profile a JVM worker as the Akka HTTP vs gRPC
// original did: a JFR recording with the profile settings, written when the JVM exits,
// to profile.jfr, and the GC log (every gc tag) to profile.gc.log. JFR's start-up note
// is turned off: it goes to stdout, where the worker's first line must be its address.
// It is turned off on stderr's output: after JVMLogArgs' -Xlog:disable, JDK 17's JFR
// adds the note back on stdout unless its tags are set on another output.
func JVMProfileArgs(profile string) []string {
	return []string{
		"-XX:StartFlightRecording=filename=" + profile + ".jfr,settings=profile,dumponexit=true",
		"-Xlog:jfr+startup=off:stderr",
		"-Xlog:gc*:file=" + profile + ".gc.log",
	}
}

// JavaWorkerEnv names the environment variable that points at the JVM worker's jar.
// The jars of the other stack families are looked for beside it.
const JavaWorkerEnv = "WIREBENCH_JAVA_WORKER"

// JavaWorkerJarDir is where `make java` builds the JVM worker's jars, from the
// repository root.
const JavaWorkerJarDir = "workers/java/target"

// JavaWorkerJarName is the file name of the jar that runs the JVM stacks of family
// ("" for the main jar: the Java stacks and today's Scala ones).
func JavaWorkerJarName(family string) string {
	if family == "" {
		return "wirebench-worker.jar"
	}
	return "wirebench-worker-" + family + ".jar"
}

// javaWorkerJar finds the jar that runs family's stacks: for the main jar
// Options.JavaWorker, then $WIREBENCH_JAVA_WORKER, then the build's place beside the
// binary's bin/ directory or under the current one; another family's jar is looked for
// in the same places, under its own name beside the main jar.
func javaWorkerJar(opt Options, family string) (string, error) {
	name := JavaWorkerJarName(family)
	sibling := func(main string) string {
		if main == "" {
			return ""
		}
		return filepath.Join(filepath.Dir(main), name)
	}
	cands := []string{sibling(opt.JavaWorker), sibling(os.Getenv(JavaWorkerEnv))}
	if opt.Binary != "" {
		cands = append(cands, filepath.Join(filepath.Dir(opt.Binary), "..", JavaWorkerJarDir, name))
	}
	cands = append(cands, filepath.Join(JavaWorkerJarDir, name))
	for _, c := range cands {
		if c == "" {
			continue
		}
		if _, err := os.Stat(c); err == nil {
			return c, nil
		}
	}
	return "", fmt.Errorf("the JVM worker is not built (no %s): run `make java` (needs a JDK 17 and Maven), or set %s", filepath.Join(JavaWorkerJarDir, name), JavaWorkerEnv)
}
