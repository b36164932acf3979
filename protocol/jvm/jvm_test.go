package jvm_test

import (
	"encoding/xml"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wirebench/wirebench/protocol"
	_ "github.com/wirebench/wirebench/protocol/all"
	"github.com/wirebench/wirebench/protocol/jvm"
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

// readPom returns the pom's dependency versions by "group:artifact" (properties
// substituted) and its properties.
func readPom(t *testing.T) (deps, props map[string]string) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "workers", "java", "pom.xml"))
	if err != nil {
		t.Fatal(err)
	}
	var p pom
	if err := xml.Unmarshal(b, &p); err != nil {
		t.Fatalf("workers/java/pom.xml: %v", err)
	}
	props = map[string]string{}
	for _, e := range p.Properties.Entries {
		props[e.XMLName.Local] = strings.TrimSpace(e.Value)
	}
	deps = map[string]string{}
	for _, d := range p.Dependencies {
		v := strings.TrimSpace(d.Version)
		if strings.HasPrefix(v, "${") && strings.HasSuffix(v, "}") {
			v = props[v[2:len(v)-1]]
		}
		deps[d.GroupID+":"+d.ArtifactID] = v
	}
	return deps, props
}

// TestVersionsMatchPom: every library version a stack declares is the one the pom
// pins, so results never name a version the worker was not built with.
func TestVersionsMatchPom(t *testing.T) {
	deps, props := readPom(t)
	if got := props["maven.compiler.release"]; got != jvm.Java {
		t.Errorf("pom compiles for Java %q, jvm.go says %q", got, jvm.Java)
	}
	for _, s := range jvm.Stacks {
		for lib, v := range s.Libraries {
			if lib == "java" {
				continue
			}
			pinned, ok := deps[lib]
			switch {
			case !ok:
				t.Errorf("stack %s names %s, which workers/java/pom.xml does not depend on", s.Name, lib)
			case pinned != v:
				t.Errorf("stack %s: %s is %s in jvm.go, %s in workers/java/pom.xml", s.Name, lib, v, pinned)
			}
		}
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
