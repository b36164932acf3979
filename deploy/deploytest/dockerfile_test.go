package deploytest

import (
	"encoding/json"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/moby/buildkit/frontend/dockerfile/instructions"
	dfparser "github.com/moby/buildkit/frontend/dockerfile/parser"
	"github.com/moby/patternmatcher"
	"github.com/moby/patternmatcher/ignorefile"
	"golang.org/x/mod/modfile"

	"github.com/wirebench/wirebench/driver/launch"
)

// repoRoot is the repository, from this package's directory (where go test runs).
var repoRoot = filepath.Join("..", "..")

// Stage names of the Dockerfile, in order; the default target is the last.
var wantStages = []string{"build", "jvm-build", "wirebench-jvm", "wirebench"}

// What the images are built from.
const (
	goImage         = "golang:"                                   // + go.mod's go version
	mavenImage      = "maven:3.8.7-eclipse-temurin-17"            // Maven and JDK `make java` is checked with
	jreImagePrefix  = "eclipse-temurin:17-jre"                    // a JRE 17, for the JVM worker
	runtimeImage    = "gcr.io/distroless/static-debian12:nonroot" // no shell, no libc: the static binary only
	binaryInImage   = "/usr/local/bin/wirebench"                  // on the PATH of both bases
	pomFile         = "workers/java/pom.xml"
	wantEntrypoint0 = "wirebench"
)

// dockerfile is the parsed Dockerfile.
type dockerfile struct {
	stages   []instructions.Stage
	metaArgs []instructions.ArgCommand // ARGs before the first FROM
}

func loadDockerfile(t *testing.T) dockerfile {
	t.Helper()
	f, err := os.Open(filepath.Join(repoRoot, "Dockerfile"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	res, err := dfparser.Parse(f)
	if err != nil {
		t.Fatalf("Dockerfile: %v", err)
	}
	for _, w := range res.Warnings {
		t.Errorf("Dockerfile: parser warning: %s", w.Short)
	}
	stages, meta, err := instructions.Parse(res.AST, nil)
	if err != nil {
		t.Fatalf("Dockerfile: %v", err)
	}
	return dockerfile{stages: stages, metaArgs: meta}
}

// stage returns the stage named n.
func (d dockerfile) stage(t *testing.T, n string) instructions.Stage {
	t.Helper()
	for _, s := range d.stages {
		if s.Name == n {
			return s
		}
	}
	t.Fatalf("Dockerfile: no stage %q", n)
	return instructions.Stage{}
}

// metaArg returns the default of a global ARG.
func (d dockerfile) metaArg(t *testing.T, key string) string {
	t.Helper()
	for _, a := range d.metaArgs {
		for _, kv := range a.Args {
			if kv.Key == key && kv.Value != nil {
				return *kv.Value
			}
		}
	}
	t.Fatalf("Dockerfile: no global ARG %s with a default", key)
	return ""
}

// base is a stage's FROM, with the global ARGs' defaults put in.
func (d dockerfile) base(t *testing.T, s instructions.Stage) string {
	t.Helper()
	return regexp.MustCompile(`\$\{?(\w+)\}?`).ReplaceAllStringFunc(s.BaseName, func(m string) string {
		return d.metaArg(t, strings.Trim(m, "${}"))
	})
}

// commands returns a stage's instructions of type T, in order.
func commands[T instructions.Command](s instructions.Stage) []T {
	var out []T
	for _, c := range s.Commands {
		if v, ok := c.(T); ok {
			out = append(out, v)
		}
	}
	return out
}

// imageUser is the user a stage's image runs as: its last USER ("" for none).
func imageUser(s instructions.Stage) string {
	users := commands[*instructions.UserCommand](s)
	if len(users) == 0 {
		return ""
	}
	return users[len(users)-1].User
}

// numericNonRoot parses USER UID[:GID] and says whether UID is a number other than 0:
// Kubernetes' runAsNonRoot can check only a numeric user without a runAsUser.
func numericNonRoot(user string) (int64, bool) {
	uid, _, _ := strings.Cut(user, ":")
	n, err := strconv.ParseInt(uid, 10, 64)
	return n, err == nil && n > 0
}

// copyFrom returns the COPY --from=from of a stage that copies src, and its
// destination; "" when there is none.
func copyFrom(s instructions.Stage, from, src string) string {
	for _, c := range commands[*instructions.CopyCommand](s) {
		if c.From == from && slices.Contains(c.SourcePaths, src) {
			return c.DestPath
		}
	}
	return ""
}

// checkImageStage checks what every image stage must have: a numeric non-root user,
// the binary from the build stage on the PATH, and wirebench as exec-form entrypoint.
func checkImageStage(t *testing.T, s instructions.Stage, builtAt string) {
	t.Helper()
	if u := imageUser(s); u == "" {
		t.Errorf("stage %s: no USER: it would run as root", s.Name)
	} else if _, ok := numericNonRoot(u); !ok {
		t.Errorf("stage %s: USER %q: want a numeric user other than 0", s.Name, u)
	}
	if dst := copyFrom(s, "build", builtAt); dst != binaryInImage {
		t.Errorf("stage %s: the binary %s of stage build is copied to %q, want %s", s.Name, builtAt, dst, binaryInImage)
	}
	eps := commands[*instructions.EntrypointCommand](s)
	if len(eps) != 1 {
		t.Fatalf("stage %s: %d ENTRYPOINTs, want 1", s.Name, len(eps))
	}
	if ep := eps[0]; ep.PrependShell || !slices.Equal(ep.CmdLine, []string{wantEntrypoint0}) {
		t.Errorf("stage %s: ENTRYPOINT %q (shell form %v), want exec form [%q]: the pods' args follow it", s.Name, ep.CmdLine, ep.PrependShell, wantEntrypoint0)
	}
}

// buildOutput checks the build stage's go build and returns where it writes the binary.
func buildOutput(t *testing.T, d dockerfile) string {
	t.Helper()
	s := d.stage(t, "build")
	var build string
	for _, r := range commands[*instructions.RunCommand](s) {
		if line := strings.Join(r.CmdLine, " "); strings.Contains(line, "go build") {
			build = line
		}
	}
	if build == "" {
		t.Fatal("stage build: no RUN with go build")
	}
	for _, want := range []string{"CGO_ENABLED=0", "-trimpath", `-ldflags "-X main.version=${VERSION}"`, "./cmd/wirebench"} {
		if !strings.Contains(build, want) {
			t.Errorf("stage build: go build lacks %s: %s", want, build)
		}
	}
	// VERSION must be an ARG of the stage (a global ARG is not seen inside a stage).
	hasVersion := slices.ContainsFunc(commands[*instructions.ArgCommand](s), func(a *instructions.ArgCommand) bool {
		return slices.ContainsFunc(a.Args, func(kv instructions.KeyValuePairOptional) bool { return kv.Key == "VERSION" })
	})
	if !hasVersion {
		t.Error("stage build: no ARG VERSION, so -X main.version=${VERSION} would stamp an empty version")
	}
	m := regexp.MustCompile(`-o\s+(\S+)`).FindStringSubmatch(build)
	if m == nil {
		t.Fatalf("stage build: go build has no -o: %s", build)
	}
	return m[1]
}

func TestDockerfileStages(t *testing.T) {
	d := loadDockerfile(t)
	var names []string
	for _, s := range d.stages {
		names = append(names, s.Name)
	}
	if !slices.Equal(names, wantStages) {
		t.Fatalf("stages %q, want %q (the default image, wirebench, last)", names, wantStages)
	}
}

func TestDockerfileBuildStage(t *testing.T) {
	d := loadDockerfile(t)
	data, err := os.ReadFile(filepath.Join(repoRoot, "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	mf, err := modfile.ParseLax("go.mod", data, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := d.base(t, d.stage(t, "build")), goImage+mf.Go.Version; got != want {
		t.Errorf("stage build FROM %s, want %s (go.mod's go line)", got, want)
	}
	buildOutput(t, d)
	// -X main.version sets nothing, silently, if the variable is gone or renamed.
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, filepath.Join(repoRoot, "cmd", "wirebench", "main.go"), nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, decl := range f.Decls {
		g, ok := decl.(*ast.GenDecl)
		if !ok || g.Tok != token.VAR {
			continue
		}
		for _, spec := range g.Specs {
			for _, id := range spec.(*ast.ValueSpec).Names {
				found = found || id.Name == "version"
			}
		}
	}
	if f.Name.Name != "main" || !found {
		t.Error("cmd/wirebench/main.go: no package-level var version in package main, which -X main.version sets")
	}
}

func TestDockerfileRuntimeImage(t *testing.T) {
	d := loadDockerfile(t)
	built := buildOutput(t, d)
	last := d.stages[len(d.stages)-1]
	if last.Name != "wirebench" {
		t.Fatalf("the last stage (the default target) is %q, want wirebench", last.Name)
	}
	if got := d.base(t, last); got != runtimeImage {
		t.Errorf("stage wirebench FROM %s, want %s", got, runtimeImage)
	}
	checkImageStage(t, last, built)
	if n := len(last.Commands); n != 3 {
		t.Errorf("stage wirebench has %d instructions, want 3 (COPY, USER, ENTRYPOINT): keep the runtime image to the binary", n)
	}
}

func TestDockerfileJVMImage(t *testing.T) {
	d := loadDockerfile(t)
	built := buildOutput(t, d)

	// The jar's build: Maven on the pom, with every input the pom reads from outside
	// workers/java copied to the same place relative to the pom.
	jb := d.stage(t, "jvm-build")
	if got := d.base(t, jb); got != mavenImage {
		t.Errorf("stage jvm-build FROM %s, want %s", got, mavenImage)
	}
	workdirs := commands[*instructions.WorkdirCommand](jb)
	if len(workdirs) != 1 {
		t.Fatalf("stage jvm-build: %d WORKDIRs, want 1", len(workdirs))
	}
	root := workdirs[0].Path
	var copied []string
	for _, c := range commands[*instructions.CopyCommand](jb) {
		for _, src := range c.SourcePaths {
			if path.Clean(c.DestPath) != path.Clean(src) {
				t.Errorf("stage jvm-build: COPY %s %s: want it at the same path as in the repository (the pom finds files relative to itself)", src, c.DestPath)
			}
			copied = append(copied, path.Clean(src))
		}
	}
	// The parent pom and its modules' poms (workers/java/MODULE/pom.xml).
	pom, err := os.ReadFile(filepath.Join(repoRoot, filepath.FromSlash(pomFile)))
	if err != nil {
		t.Fatal(err)
	}
	inputs := []string{pomFile}
	var poms [][]byte
	for _, m := range regexp.MustCompile(`<module>([^<]+)</module>`).FindAllSubmatch(pom, -1) {
		dir := path.Join(path.Dir(pomFile), string(m[1]))
		b, err := os.ReadFile(filepath.Join(repoRoot, filepath.FromSlash(dir), "pom.xml"))
		if err != nil {
			t.Fatal(err)
		}
		poms = append(poms, b)
		inputs = append(inputs, dir+"/pom.xml", dir+"/src")
	}
	for _, b := range poms {
		for _, m := range regexp.MustCompile(`\$\{wirebench\.root\}/([^<\s"]+)`).FindAllStringSubmatch(string(b), -1) {
			inputs = append(inputs, m[1])
		}
		for _, m := range regexp.MustCompile(`<include>([^<]+)</include>`).FindAllStringSubmatch(string(b), -1) {
			// protoc's includes, relative to ${wirebench.root}; a bare name is a file the
			// build copies into its own target directory first (the Pekko copy of the schema).
			if strings.Contains(m[1], "/") && !strings.Contains(m[1], "*") { // not surefire's patterns
				inputs = append(inputs, m[1])
			}
		}
	}
	if len(inputs) < 5 {
		t.Fatalf("%s: found only %q as inputs: has the pom's layout changed?", pomFile, inputs)
	}
	for _, in := range inputs {
		if _, err := os.Stat(filepath.Join(repoRoot, filepath.FromSlash(in))); err != nil {
			t.Errorf("%s reads %s, which is not in the repository", pomFile, in)
		}
		if !slices.ContainsFunc(copied, func(c string) bool { return in == c || strings.HasPrefix(in, c+"/") }) {
			t.Errorf("stage jvm-build does not COPY %s, which %s reads", in, pomFile)
		}
	}
	var mvn string
	for _, r := range commands[*instructions.RunCommand](jb) {
		if line := strings.Join(r.CmdLine, " "); strings.Contains(line, "mvn ") {
			mvn = line
		}
	}
	for _, want := range []string{"-f " + pomFile, " package", "-DskipTests"} {
		if !strings.Contains(mvn, want) {
			t.Errorf("stage jvm-build: mvn lacks %q: %q", want, mvn)
		}
	}
	// The runnable jars: each module's shaded jar, written to workers/java/target.
	var jars []string
	for _, b := range poms {
		for _, m := range regexp.MustCompile(`<outputFile>\$\{project\.basedir\}/\.\./target/([^<]+\.jar)</outputFile>`).FindAllSubmatch(b, -1) {
			jars = append(jars, path.Join(root, "workers/java/target", string(m[1])))
		}
	}
	jar := path.Join(root, "workers/java/target", launch.JavaWorkerJarName(""))
	if !slices.Contains(jars, jar) {
		t.Fatalf("no module of %s makes %s (its shade plugin's outputFile): found %q", pomFile, jar, jars)
	}
	// The image: the binary, the jar, and the variable that tells the driver where it is.
	jvm := d.stage(t, "wirebench-jvm")
	if got := d.base(t, jvm); !strings.HasPrefix(got, jreImagePrefix) {
		t.Errorf("stage wirebench-jvm FROM %s, want %s...", got, jreImagePrefix)
	}
	checkImageStage(t, jvm, built)
	jarAt := copyFrom(jvm, "jvm-build", jar)
	if jarAt == "" {
		t.Fatalf("stage wirebench-jvm does not COPY --from=jvm-build %s", jar)
	}
	env := map[string]string{}
	for _, e := range commands[*instructions.EnvCommand](jvm) {
		for _, kv := range e.Env {
			env[kv.Key] = kv.Value
		}
	}
	if got := env[launch.JavaWorkerEnv]; got != jarAt {
		t.Errorf("stage wirebench-jvm: ENV %s=%q, want %q, where the jar is copied", launch.JavaWorkerEnv, got, jarAt)
	}
	// The other families' jars beside it, under their names: the driver looks for them there.
	for _, j := range jars {
		want := path.Join(path.Dir(jarAt), path.Base(j))
		if got := copyFrom(jvm, "jvm-build", j); got != want {
			t.Errorf("stage wirebench-jvm: %s copied to %q, want %s (beside %s)", j, got, want, jarAt)
		}
	}
}

// TestDockerignore checks that the build context keeps every file the binary and the
// jar are built from, and leaves out what must not go in (history, outputs).
func TestDockerignore(t *testing.T) {
	f, err := os.Open(filepath.Join(repoRoot, ".dockerignore"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	patterns, err := ignorefile.ReadAll(f)
	if err != nil {
		t.Fatal(err)
	}
	pm, err := patternmatcher.New(patterns)
	if err != nil {
		t.Fatal(err)
	}
	ignored := func(p string) bool {
		m, err := pm.MatchesOrParentMatches(p)
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	for _, p := range []string{".git/HEAD", "bin/wirebench", "runs/20260101-000000/results.json", "results/20260101-000000/results.json", "workers/java/target/wirebench-worker.jar", "workers/java/core/target/classes"} {
		if !ignored(p) {
			t.Errorf(".dockerignore keeps %s", p)
		}
	}
	// What go build reads: go.mod, go.sum, and the Go and embedded files of every
	// package of this module the command imports.
	needed := []string{"go.mod", "go.sum"}
	cmd := exec.Command("go", "list", "-deps", "-json=Dir,Module,GoFiles,EmbedFiles", "./cmd/wirebench")
	cmd.Dir = repoRoot
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	abs, err := filepath.Abs(repoRoot)
	if err != nil {
		t.Fatal(err)
	}
	dec := json.NewDecoder(strings.NewReader(string(out)))
	for dec.More() {
		var p struct {
			Dir                 string
			Module              *struct{ Path string }
			GoFiles, EmbedFiles []string
		}
		if err := dec.Decode(&p); err != nil {
			t.Fatal(err)
		}
		if p.Module == nil || p.Module.Path != "github.com/wirebench/wirebench" {
			continue
		}
		rel, err := filepath.Rel(abs, p.Dir)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range append(p.GoFiles, p.EmbedFiles...) {
			needed = append(needed, filepath.ToSlash(filepath.Join(rel, f)))
		}
	}
	if len(needed) < 50 {
		t.Fatalf("go list found only %d files of the module: %q", len(needed), needed)
	}
	// What the jar is built from (TestDockerfileJVMImage checks the COPYs).
	needed = append(needed, "workers/java/pom.xml", "workers/java/core/src/main/java/io/wirebench/worker/Main.java", "workers/java/originals-2.12/codegen/protoc-gen-scalapb08", "contract/schema/wirebench.proto", "control/controlpb/control.proto", "contract/schema/avro/Person.avsc")
	for _, p := range needed {
		if ignored(p) {
			t.Errorf(".dockerignore leaves out %s, which the image is built from", p)
		}
	}
}
