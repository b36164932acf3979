package jvm_test

import (
	"encoding/xml"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/wirebench/wirebench/protocol"
	_ "github.com/wirebench/wirebench/stack/all"
	"github.com/wirebench/wirebench/stack/jvm"
)

// pom is the part of a Maven POM the version check reads.
type pom struct {
	Properties struct {
		Entries []struct {
			XMLName xml.Name
			Value   string `xml:",chardata"`
		} `xml:",any"`
	} `xml:"properties"`
	Dependencies []struct {
		GroupID    string `xml:"groupId"`
		ArtifactID string `xml:"artifactId"`
		Version    string `xml:"version"`
	} `xml:"dependencies>dependency"`
}

// readPom returns the dependency versions of workers/java/MODULE/pom.xml by
// "group:artifact" (properties substituted, the module's over the parent's) and its
// properties with the parent's.
func readPom(t *testing.T, module string) (deps, props map[string]string) {
	t.Helper()
	props = map[string]string{}
	deps = map[string]string{}
	for _, f := range []string{"pom.xml", filepath.Join(module, "pom.xml")} {
		b, err := os.ReadFile(filepath.Join("..", "..", "workers", "java", f))
		if err != nil {
			t.Fatal(err)
		}
		var p pom
		if err := xml.Unmarshal(b, &p); err != nil {
			t.Fatalf("workers/java/%s: %v", f, err)
		}
		for _, e := range p.Properties.Entries {
			props[e.XMLName.Local] = strings.TrimSpace(e.Value)
		}
		for _, d := range p.Dependencies {
			v := strings.TrimSpace(d.Version)
			if strings.HasPrefix(v, "${") && strings.HasSuffix(v, "}") {
				v = props[v[2:len(v)-1]]
			}
			deps[d.GroupID+":"+d.ArtifactID] = v
		}
	}
	return deps, props
}

// moduleOf is the Maven module (workers/java/MODULE) that holds a family's stacks: the
// main jar's Scala stacks are in scala-2.13, its Java ones in core.
func moduleOf(s *protocol.Stack) string {
	switch {
	case s.Family != "":
		return s.Family
	case s.Language == "scala":
		return "scala-2.13"
	}
	return "core"
}

// TestVersionsMatchPom: every library version a stack declares is the one its module's
// pom pins, so results never name a version the worker was not built with.
func TestVersionsMatchPom(t *testing.T) {
	_, props := readPom(t, "core")
	if got := props["maven.compiler.release"]; got != jvm.Java {
		t.Errorf("pom compiles for Java %q, jvm.go says %q", got, jvm.Java)
	}
	for _, s := range jvm.Stacks {
		module := moduleOf(s)
		deps, _ := readPom(t, module)
		for lib, v := range s.Libraries {
			if lib == "java" {
				continue
			}
			pinned, ok := deps[lib]
			if !ok && module != "core" {
				pinned, ok = must(readPom(t, "core"))[lib]
			}
			switch {
			case !ok:
				t.Errorf("stack %s names %s, which workers/java/%s/pom.xml does not depend on", s.Name, lib, module)
			case pinned != v:
				t.Errorf("stack %s: %s is %s in jvm.go, %s in workers/java/%s/pom.xml", s.Name, lib, v, pinned, module)
			}
		}
	}
}

func must(deps, _ map[string]string) map[string]string { return deps }

// TestJarsRunTheirFamilies: each built jar lists exactly the Java stacks (core's, in
// every jar) and its family's, so the driver starts the right jar for each stack.
// Skipped for a jar that is not built (make java).
func TestJarsRunTheirFamilies(t *testing.T) {
	families := map[string]bool{"": true}
	for _, s := range jvm.Stacks {
		families[s.Family] = true
	}
	for family := range families {
		t.Run("family="+family, func(t *testing.T) {
			jar := familyJar(t, family)
			out, err := exec.Command("java", "-jar", jar, "list").Output()
			if err != nil {
				t.Fatalf("%s list: %v", jar, err)
			}
			var got []string
			tlsListed := map[string]string{} // PROTOCOL/NAME: the tls entry of its transports
			for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
				cols := strings.Split(line, "\t")
				got = append(got, cols[0])
				if len(cols) > 2 {
					for _, tr := range strings.Split(cols[2], ", ") {
						if strings.HasPrefix(tr, "tls") {
							tlsListed[cols[0]] = tr
						}
					}
				}
			}
			for _, s := range jvm.Stacks {
				if want := tlsEntry(s); (s.Family == family || moduleOf(s) == "core") && tlsListed[s.Protocol+"/"+s.Name] != want {
					t.Errorf("%s lists %s with TLS %q; jvm.go says %q", filepath.Base(jar), s.Name, tlsListed[s.Protocol+"/"+s.Name], want)
				}
			}
			var want []string
			for _, s := range jvm.Stacks {
				if s.Family == family || moduleOf(s) == "core" {
					want = append(want, s.Protocol+"/"+s.Name)
				}
			}
			slices.Sort(got)
			slices.Sort(want)
			if !slices.Equal(got, want) {
				t.Errorf("%s lists %q; jvm.go places %q in it", filepath.Base(jar), got, want)
			}
		})
	}
}

// tlsEntry is how the worker's list shows a stack's TLS among its transports: "tls"
// when every side it has speaks TLS, "tls (server)" or "tls (client)" when one does,
// "" when none does.
func tlsEntry(s *protocol.Stack) string {
	server, client := s.SpeaksTLS(protocol.ServerSide), s.SpeaksTLS(protocol.ClientSide)
	switch {
	case !server && !client:
		return ""
	case server == s.Has(protocol.ServerSide) && client == s.Has(protocol.ClientSide):
		return "tls"
	case server:
		return "tls (server)"
	default:
		return "tls (client)"
	}
}

// TestStacksRegistered: each stack is found for each side it claims, as a Java one.
func TestStacksRegistered(t *testing.T) {
	for _, s := range jvm.Stacks {
		for _, side := range []protocol.Side{protocol.ServerSide, protocol.ClientSide} {
			if !s.Has(side) {
				continue
			}
			got, err := protocol.LookupStack(s.Protocol, s.Name, side)
			if err != nil {
				t.Errorf("%s %s: %v", s.Name, side, err)
				continue
			}
			if got.Worker != protocol.WorkerJava || (got.Language != "java" && got.Language != "scala") || got.Tier != protocol.Production ||
				got.Libraries["java"] != jvm.Java || got.NewServer != nil || got.NewClient != nil {
				t.Errorf("%s: registered as %+v", s.Name, got)
			}
		}
	}
	if _, err := protocol.LookupStack("http-json", "java-httpclient", protocol.ServerSide); err == nil {
		t.Error("java-httpclient has no server side, yet LookupStack found one")
	}
}
