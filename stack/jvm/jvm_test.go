package jvm_test

import (
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/wirebench/wirebench/driver/launch"
	"github.com/wirebench/wirebench/protocol"
	_ "github.com/wirebench/wirebench/stack/all"
	"github.com/wirebench/wirebench/stack/jvm"
)

// moduleOf is the Maven module (workers/java/MODULE) that holds a stack: the main jar's
// Scala stacks are in scala-2.13, its Java ones in core, whose stacks every jar runs.
func moduleOf(s *protocol.Stack) string {
	switch {
	case s.Family != "":
		return s.Family
	case s.Language == "scala":
		return "scala-2.13"
	}
	return "core"
}

// TestJarsRunTheirFamilies: each built jar's list (the lines people read, not the JSON
// that stacks.json is made from) shows exactly the Java stacks (core's, in every jar)
// and its family's, each with the TLS sides the registered stack has, so the driver
// starts the right jar for each stack and refuses TLS where the worker would. Skipped
// for a jar that is not built (make java).
func TestJarsRunTheirFamilies(t *testing.T) {
	families := map[string]bool{"": true}
	for _, s := range jvm.Stacks {
		families[s.Family] = true
	}
	for family := range families {
		t.Run("family="+family, func(t *testing.T) {
			jar := familyJar(t, family)
			out, err := exec.Command("java", append(slices.Clone(launch.JVMLogArgs), "-jar", jar, "list")...).Output()
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
					t.Errorf("%s lists %s with TLS %q; stacks.json says %q", filepath.Base(jar), s.Name, tlsListed[s.Protocol+"/"+s.Name], want)
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
				t.Errorf("%s lists %q; stacks.json places %q in it", filepath.Base(jar), got, want)
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
				got.Libraries["java"] != "17" || got.NewServer != nil || got.NewClient != nil {
				t.Errorf("%s: registered as %+v", s.Name, got)
			}
		}
	}
	if _, err := protocol.LookupStack("http-json", "java-httpclient", protocol.ServerSide); err == nil {
		t.Error("java-httpclient has no server side, yet LookupStack found one")
	}
}

// TestParse: an announcement becomes the registry's entry, its TLS sides TLS and
// TLSExcept; an entry the registry could not use is refused with the reason.
func TestParse(t *testing.T) {
	const okhttp = `{"stacks": [{"name": "grpc-java-okhttp", "protocol": "grpc-proto", "family": "f", "language": "java",
		"tier": "production", "sides": ["server", "client"], "tls": ["client"], "transports": ["tcp"],
		"summary": "s", "libraries": {"io.grpc:grpc-okhttp": "1.82.2", "java": "17"}}]}`
	f, err := jvm.Parse([]byte(okhttp))
	if err != nil {
		t.Fatal(err)
	}
	got := f.Stacks[0].Stack()
	want := &protocol.Stack{Name: "grpc-java-okhttp", Protocol: "grpc-proto", Language: "java", Tier: protocol.Production,
		Summary: "s", Libraries: map[string]string{"io.grpc:grpc-okhttp": "1.82.2", "java": "17"},
		Worker: protocol.WorkerJava, Family: "f", Sides: protocol.ServerSide | protocol.ClientSide,
		// The client speaks TLS, the server does not.
		TLS: true, TLSExcept: protocol.ServerSide}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Stack() = %+v\nwant %+v", got, want)
	}
	if got.SpeaksTLS(protocol.ServerSide) || !got.SpeaksTLS(protocol.ClientSide) {
		t.Errorf("SpeaksTLS: server %v, client %v; want false, true", got.SpeaksTLS(protocol.ServerSide), got.SpeaksTLS(protocol.ClientSide))
	}

	// A plain-text stack: no TLS, nothing excepted.
	plain := strings.Replace(okhttp, `"tls": ["client"]`, `"tls": []`, 1)
	if f, err := jvm.Parse([]byte(plain)); err != nil || f.Stacks[0].Stack().TLS || f.Stacks[0].Stack().TLSExcept != 0 {
		t.Errorf("no tls sides: %v, %+v", err, f)
	}

	for _, c := range []struct{ old, new, want string }{
		{`"tier": "production"`, `"tier": "fast"`, `tier "fast"`},
		{`"sides": ["server", "client"]`, `"sides": []`, "no sides"},
		{`"sides": ["server", "client"]`, `"sides": ["server", "server"]`, "once each"},
		{`"sides": ["server", "client"]`, `"sides": ["proxy"]`, "want server and/or client"},
		{`"tls": ["client"]`, `"tls": ["client", "proxy"]`, "want sides among"},
		{`"sides": ["server", "client"]`, `"sides": ["server"]`, "want sides among"},
		{`"transports": ["tcp"]`, `"transports": []`, "no transports"},
		{`"java": "17"`, `"jdk": "17"`, `no "java" release`},
		{`"1.82.2"`, `""`, `library "io.grpc:grpc-okhttp" at version ""`},
		{`"summary": "s"`, `"summary": ""`, "are required"},
		{`"summary": "s"`, `"summary": "s", "colour": "red"`, `unknown field "colour"`},
		{`}]}`, `}, {}]}`, "are required"},
		{`}]}`, `}]} {}`, "data after the JSON object"},
	} {
		_, err := jvm.Parse([]byte(strings.Replace(okhttp, c.old, c.new, 1)))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s instead of %s: %v, want an error with %q", c.new, c.old, err, c.want)
		}
	}
	twice := strings.Replace(okhttp, `}]}`, `}, `+okhttp[len(`{"stacks": [`):], 1)
	if _, err := jvm.Parse([]byte(twice)); err == nil || !strings.Contains(err.Error(), "grpc-proto/grpc-java-okhttp listed twice") {
		t.Errorf("a stack twice: %v", err)
	}
}
