// Package jvm registers the stacks of the JVM worker (workers/java) with the protocol
// registry, so the driver knows which worker runs them and `wirebench list` shows them.
// The stacks run in a JVM worker process that serves the control API; this package
// holds only their metadata.
//
// That metadata is the worker's own: each jar announces its stacks (`list --json`:
// names, protocol, sides, the sides that speak TLS, transports, language, tier,
// summary, and libraries with the versions the jar carries), `make jvm-stacks` merges
// the built jars' announcements into stacks.json, and this package embeds that file, so
// that listing and validating JVM stacks needs no Java. A test runs each built jar and
// fails when stacks.json is not what they announce. Adding a JVM stack touches only
// workers/java and stacks.json (docs/add-a-stack.md).
//
// The worker is built as one jar per stack family (workers/java's Maven modules, which
// cannot share a class path: Scala 2.12 and 2.13): a stack's Family names the jar that
// runs it ("" for the main jar). A benchmark over TLS with a stack whose side does not
// speak it is refused before anything starts (control.Resolve names the stack).
package jvm

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"

	"github.com/wirebench/wirebench/protocol"
)

//go:embed stacks.json
var stacksJSON []byte

// Announced is one stack as a jar announces it (`list --json`, without Family) and as
// stacks.json keeps it.
type Announced struct {
	Name     string `json:"name"`
	Protocol string `json:"protocol"`
	// Family is the stack family whose jar runs the stack ("" for the main jar); in a
	// jar's own announcement it is the jar's, beside the stacks.
	Family   string `json:"family"`
	Language string `json:"language"`
	Tier     string `json:"tier"`
	// Sides are "server" and/or "client"; TLS are those of them that speak TLS.
	Sides      []string `json:"sides"`
	TLS        []string `json:"tls"`
	Transports []string `json:"transports"`
	Summary    string   `json:"summary"`
	// Libraries are Maven "groupId:artifactId" coordinates with their versions, and
	// "java" with the release the worker is compiled for.
	Libraries map[string]string `json:"libraries"`
	// OriginalTrades says that the stack carries the REST vs gRPC original's trade
	// (protocol.Stack.OriginalTrades); absent is false.
	OriginalTrades bool `json:"original_trades,omitempty"`
	// Messages are the sides that echo a user's own message (the message workload;
	// protocol.Stack.Messages); absent is none.
	Messages []string `json:"messages,omitempty"`
}

// File is stacks.json: the JVM worker's stacks, in registration order.
type File struct {
	Stacks []Announced `json:"stacks"`
}

// Stacks are the JVM worker's stacks, in registration order.
var Stacks []*protocol.Stack

func init() {
	f, err := Parse(stacksJSON)
	if err != nil {
		panic("stack/jvm: stacks.json: " + err.Error())
	}
	for _, a := range f.Stacks {
		s := a.Stack()
		Stacks = append(Stacks, s)
		protocol.RegisterStack(s)
	}
}

// Parse reads stacks.json (or a jar's announcement), checking every entry.
func Parse(b []byte) (*File, error) {
	var f File
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&f); err != nil {
		return nil, err
	}
	if dec.More() {
		return nil, errors.New("data after the JSON object")
	}
	seen := map[string]bool{}
	for i, a := range f.Stacks {
		if err := a.check(); err != nil {
			return nil, fmt.Errorf("stack %d (%s): %w", i, a.Name, err)
		}
		key := a.Protocol + "/" + a.Name
		if seen[key] {
			return nil, fmt.Errorf("stack %s listed twice", key)
		}
		seen[key] = true
	}
	return &f, nil
}

// sides are the side names of an announcement.
var sides = map[string]protocol.Side{"server": protocol.ServerSide, "client": protocol.ClientSide}

// check reports what makes the entry unusable.
func (a Announced) check() error {
	switch {
	case a.Name == "" || a.Protocol == "" || a.Language == "" || a.Summary == "":
		return errors.New("name, protocol, language and summary are required")
	case a.Tier != string(protocol.Production) && a.Tier != string(protocol.Tuned):
		return fmt.Errorf("tier %q, want production or tuned", a.Tier)
	case len(a.Sides) == 0:
		return errors.New("no sides")
	case len(a.Transports) == 0:
		return errors.New("no transports")
	case a.Libraries["java"] == "":
		return errors.New(`no "java" release among the libraries`)
	}
	for _, s := range a.Sides {
		if _, ok := sides[s]; !ok || !onceEach(a.Sides) {
			return fmt.Errorf("sides %q: want server and/or client, once each", a.Sides)
		}
	}
	for _, s := range a.TLS {
		if !slices.Contains(a.Sides, s) || !onceEach(a.TLS) {
			return fmt.Errorf("tls %q: want sides among %q, once each", a.TLS, a.Sides)
		}
	}
	for _, s := range a.Messages {
		if !slices.Contains(a.Sides, s) || !onceEach(a.Messages) {
			return fmt.Errorf("messages %q: want sides among %q, once each", a.Messages, a.Sides)
		}
	}
	for lib, v := range a.Libraries {
		if lib == "" || v == "" {
			return fmt.Errorf("library %q at version %q", lib, v)
		}
	}
	return nil
}

// onceEach reports whether no name is in names twice.
func onceEach(names []string) bool {
	seen := map[string]bool{}
	for _, n := range names {
		if seen[n] {
			return false
		}
		seen[n] = true
	}
	return true
}

// Stack is the registry's entry for a checked announcement: a production or tuned
// stack of the Java worker, TLS on the sides announced (TLSExcept the others).
func (a Announced) Stack() *protocol.Stack {
	s := &protocol.Stack{
		Name: a.Name, Protocol: a.Protocol, Language: a.Language, Tier: protocol.Tier(a.Tier),
		Summary: a.Summary, Libraries: maps.Clone(a.Libraries), Worker: protocol.WorkerJava, Family: a.Family,
		TLS: len(a.TLS) > 0, OriginalTrades: a.OriginalTrades, Messages: len(a.Messages) > 0,
	}
	for _, name := range a.Sides {
		s.Sides |= sides[name]
		if s.TLS && !slices.Contains(a.TLS, name) {
			s.TLSExcept |= sides[name]
		}
		if s.Messages && !slices.Contains(a.Messages, name) {
			s.MessagesExcept |= sides[name]
		}
	}
	return s
}
