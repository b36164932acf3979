package jvm_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/wirebench/wirebench/driver/launch"
	"github.com/wirebench/wirebench/internal/testtool"
	"github.com/wirebench/wirebench/stack/jvm"
)

// stacksFile is the checked-in announcement that the package embeds.
const stacksFile = "stacks.json"

// readStacksFile returns stacks.json as the package reads it.
func readStacksFile(t *testing.T) *jvm.File {
	t.Helper()
	b, err := os.ReadFile(stacksFile)
	if err != nil {
		t.Fatal(err)
	}
	f, err := jvm.Parse(b)
	if err != nil {
		t.Fatalf("%s: %v", stacksFile, err)
	}
	return f
}

// announcement is one jar's `list --json`.
type announcement struct {
	jar    string
	Family string          `json:"family"`
	Stacks []jvm.Announced `json:"stacks"`
}

// announce runs a built jar's `list --json` and checks that the jar is the one its
// family's stacks are started from.
func announce(jar string) (announcement, error) {
	out, err := exec.Command("java", append(slices.Clone(launch.JVMLogArgs), "-jar", jar, "list", "--json")...).Output()
	if err != nil {
		var stderr []byte
		if ee, ok := err.(*exec.ExitError); ok {
			stderr = ee.Stderr
		}
		return announcement{}, fmt.Errorf("%s list --json: %v\n%s", jar, err, stderr)
	}
	a := announcement{jar: jar}
	dec := json.NewDecoder(bytes.NewReader(out))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&a); err != nil {
		return announcement{}, fmt.Errorf("%s list --json: %v", jar, err)
	}
	if want := launch.JavaWorkerJarName(a.Family); filepath.Base(jar) != want {
		return announcement{}, fmt.Errorf("%s announces family %q, whose stacks the driver starts from %s", jar, a.Family, want)
	}
	return a, nil
}

// merge makes stacks.json from the jars' announcements, main jar first. Every jar runs
// core's stacks, so a stack announced by several jars must be announced alike by each;
// it belongs to the first of them (the main jar, else the family first by name), and
// stacks.json lists such stacks first, then
// each family's own in the order its jar announces them (the main family's, then the
// others by name): the order `wirebench list` shows.
func merge(anns []announcement) (*jvm.File, error) {
	slices.SortFunc(anns, func(a, b announcement) int { return strings.Compare(a.Family, b.Family) })
	count := map[string]int{}
	first := map[string]jvm.Announced{}
	for _, a := range anns {
		for _, s := range a.Stacks {
			key := s.Protocol + "/" + s.Name
			if s.Family != "" {
				return nil, fmt.Errorf("%s announces %s with a family of its own, %q", a.jar, key, s.Family)
			}
			s.Family = a.Family
			if prev, ok := first[key]; ok {
				prev.Family = s.Family
				if !reflect.DeepEqual(prev, s) {
					return nil, fmt.Errorf("%s announces %s unlike %s does:\n%+v\n%+v", a.jar, key, anns[0].jar, s, prev)
				}
			} else {
				first[key] = s
			}
			count[key]++
		}
	}
	f := &jvm.File{}
	for _, shared := range []bool{true, false} {
		for _, a := range anns {
			for _, s := range a.Stacks {
				key := s.Protocol + "/" + s.Name
				if (count[key] > 1) == shared && first[key].Family == a.Family {
					f.Stacks = append(f.Stacks, first[key])
				}
			}
		}
	}
	return f, nil
}

// encode is stacks.json's text: indented, HTML characters as they are.
func encode(f *jvm.File) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	err := enc.Encode(f)
	return b.Bytes(), err
}

// TestStacksFileIsAnnounced: stacks.json is what the built jars announce, so the stacks
// `wirebench list` shows and the driver starts are the worker's own, with the library
// versions its jars carry. With -update (make jvm-stacks) it writes the file instead.
// Skipped (failed in CI) when java or a family's jar is missing.
func TestStacksFileIsAnnounced(t *testing.T) {
	missing := testtool.Missing
	if *update {
		missing = func(t testing.TB, format string, args ...any) { t.Helper(); t.Fatalf(format, args...) }
	}
	if _, err := exec.LookPath("java"); err != nil {
		missing(t, "java is not installed (JDK 17+ runs the JVM worker)")
	}
	dir := filepath.Join("..", "..", "workers", "java", "target")
	jars, err := filepath.Glob(filepath.Join(dir, launch.JavaWorkerJarName("*")))
	if err != nil {
		t.Fatal(err)
	}
	if main := filepath.Join(dir, launch.JavaWorkerJarName("")); !slices.Contains(jars, main) {
		jars = append(jars, main)
	}
	var anns []announcement
	for _, jar := range jars {
		if _, err := os.Stat(jar); err != nil {
			missing(t, "%s is not built (run `make java`)", jar)
		}
		a, err := announce(jar)
		if err != nil {
			t.Fatal(err)
		}
		anns = append(anns, a)
	}
	merged, err := merge(anns)
	if err != nil {
		t.Fatal(err)
	}
	want, err := encode(merged)
	if err != nil {
		t.Fatal(err)
	}
	if *update {
		if err := os.WriteFile(stacksFile, want, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	got, err := os.ReadFile(stacksFile)
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Equal(got, want) {
		return
	}
	// Name what differs, then the rule.
	file := readStacksFile(t)
	families := map[string]bool{}
	for _, s := range file.Stacks {
		families[s.Family] = true
	}
	for _, a := range anns {
		delete(families, a.Family)
	}
	for family := range families {
		missing(t, "stacks.json has stacks of family %q, whose jar %s is not built (run `make java`)", family, launch.JavaWorkerJarName(family))
	}
	inFile := map[string]jvm.Announced{}
	for _, s := range file.Stacks {
		inFile[s.Protocol+"/"+s.Name] = s
	}
	for _, s := range merged.Stacks {
		key := s.Protocol + "/" + s.Name
		switch old, ok := inFile[key]; {
		case !ok:
			t.Errorf("%s is announced by the jars, not in stacks.json", key)
		case !reflect.DeepEqual(old, s):
			t.Errorf("%s differs:\nstacks.json: %+v\njars:        %+v", key, old, s)
		}
		delete(inFile, key)
	}
	for key := range inFile {
		t.Errorf("%s is in stacks.json, and no jar announces it", key)
	}
	t.Errorf("stacks.json is not what the built jars announce: run `make jvm-stacks` (after `make java`) and commit the file")
}
