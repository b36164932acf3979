package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/wirebench/wirebench/internal/suggest"
	"io"
	"strings"
	"syscall"
	"time"

	"github.com/wirebench/wirebench/contract"
	"github.com/wirebench/wirebench/internal/units"
	"github.com/wirebench/wirebench/protocol"
	"github.com/wirebench/wirebench/protocol/transport"
)

type callCmd struct {
	Protocol       string        `short:"p" required:"" help:"Protocol the server speaks (see 'wirebench list')."`
	Address        string        `short:"a" env:"WIREBENCH_ADDRESS" placeholder:"ADDR" help:"Server address: tcp://HOST:PORT or unix:///PATH (not needed for direct). Formerly --target (-t) and WIREBENCH_TARGET, still read with a note."`
	Operation      string        `arg:"" help:"One of: ${operations}, or demo to call each once."`
	ID             int64         `default:"1" help:"person.get, person.links: the person id."`
	Payload        string        `help:"echo: the size of a generated payload (e.g. 1KiB), as bench's --payload; default: the text of --payload-text."`
	PayloadText    string        `name:"payload-text" default:"Hello World" help:"echo: the payload as text."`
	PayloadSize    units.Size    `name:"payload-size" hidden:"" help:"Former name of --payload (a size)."`
	Value          int64         `default:"41" help:"increment: the number to increment."`
	Count          int64         `default:"3" help:"stream: how many trades to stream."`
	Person         string        `help:"person.create: the person as JSON (default: a copy of person 1)."`
	Timeout        time.Duration `default:"${call_timeout}" help:"Deadline of each call."`
	MaxMessageSize units.Size    `default:"${max_message_size}" help:"Largest response accepted."`
	dataFlags
	formerAddress
}

// operation calls one Service operation with the command's arguments and returns the
// answer to print.
type operation struct {
	// name is what users type: the workload's name where a workload makes this one
	// call (person.get), else the operation's (stats, increment).
	name string
	// former is the name it had before it took the workload's (get-person), still
	// read, with a note.
	former string
	call   func(ctx context.Context, s contract.Service, c *callCmd, ds *contract.Dataset) (any, error)
}

var operations = []operation{
	{"person.list", "list-persons", func(ctx context.Context, s contract.Service, _ *callCmd, _ *contract.Dataset) (any, error) {
		ps, err := s.ListPersons(ctx)
		return map[string]any{"persons": ps}, err
	}},
	{"person.get", "get-person", func(ctx context.Context, s contract.Service, c *callCmd, _ *contract.Dataset) (any, error) {
		return s.GetPerson(ctx, c.ID)
	}},
	{"person.links", "get-person-links", func(ctx context.Context, s contract.Service, c *callCmd, _ *contract.Dataset) (any, error) {
		ls, err := s.GetPersonLinks(ctx, c.ID)
		return map[string]any{"links": ls}, err
	}},
	{"person.create", "create-person", func(ctx context.Context, s contract.Service, c *callCmd, ds *contract.Dataset) (any, error) {
		p, _ := ds.Person(1)
		p.ID = 0
		if c.Person != "" {
			p = contract.Person{}
			if err := json.Unmarshal([]byte(c.Person), &p); err != nil {
				return nil, usagef("--person is not a JSON person: %v", err)
			}
		}
		return s.CreatePerson(ctx, p)
	}},
	{"echo", "", func(ctx context.Context, s contract.Service, c *callCmd, _ *contract.Dataset) (any, error) {
		payload := c.PayloadText
		if c.PayloadSize > 0 {
			payload = contract.Payload(int(c.PayloadSize))
		}
		got, err := s.Echo(ctx, payload)
		return map[string]any{"payload": got}, err
	}},
	{"stats", "", func(ctx context.Context, s contract.Service, _ *callCmd, _ *contract.Dataset) (any, error) {
		return s.Stats(ctx)
	}},
	{"increment", "", func(ctx context.Context, s contract.Service, c *callCmd, _ *contract.Dataset) (any, error) {
		n, err := s.Increment(ctx, c.Value)
		return map[string]any{"value": n}, err
	}},
	{"stream", "stream-trades", func(ctx context.Context, s contract.Service, c *callCmd, _ *contract.Dataset) (any, error) {
		var trades []contract.Trade
		err := s.StreamTrades(ctx, c.Count, func(t *contract.Trade) error {
			trades = append(trades, *t)
			return nil
		})
		return map[string]any{"trades": trades}, err
	}},
}

func operationNames() []string {
	names := make([]string, len(operations))
	for i, o := range operations {
		names[i] = o.name
	}
	return names
}

// lookupOperation accepts the operation's name (person.get), its former name
// (get-person, or the Service method's, GetPerson), and says which it was given.
func lookupOperation(name string) (op operation, former, ok bool) {
	norm := func(s string) string { return strings.ToLower(strings.ReplaceAll(s, "-", "")) }
	for _, o := range operations {
		switch {
		case o.name == name:
			return o, false, true
		case norm(o.name) == norm(name) || (o.former != "" && norm(o.former) == norm(name)):
			return o, true, true
		}
	}
	return operation{}, false, false
}

func (c *callCmd) Run(e *env) error {
	p, err := protocol.Lookup(c.Protocol)
	if err != nil {
		return usageError{err}
	}
	addr, note, err := c.formerAddress.address(c.Address, true)
	if err != nil {
		return err
	}
	if note != "" {
		fmt.Fprintf(e.stderr, "wirebench: %s\n", note)
	}
	c.Address = addr
	demo := strings.EqualFold(c.Operation, "demo")
	op, former, ok := lookupOperation(c.Operation)
	if !ok && !demo {
		known := append(operationNames(), "demo")
		return usagef("unknown operation %q%s (known: %s)", c.Operation, suggest.Hint(c.Operation, known), strings.Join(known, ", "))
	}
	if former {
		fmt.Fprintf(e.stderr, "wirebench call: note: %s is now %s, the workloads' name\n", c.Operation, op.name)
	}
	if c.Payload != "" {
		if c.PayloadSize > 0 {
			return usagef("--payload and --payload-size (its former name) both given: give --payload")
		}
		size, err := units.ParseSize(c.Payload)
		if err != nil {
			return usagef("--payload %q: it is a size now, as in bench (e.g. 1KiB); the payload as text is --payload-text", c.Payload)
		}
		c.PayloadSize = size
	}
	ds, err := c.dataset()
	if err != nil {
		return err
	}
	cfg := protocol.ClientConfig{MaxMessageSize: int(c.MaxMessageSize)}
	if p.InProcess {
		cfg.Local = contract.NewReference(ds)
	} else {
		if c.Address == "" {
			return usagef("--address (or WIREBENCH_ADDRESS) is required: the address the server printed, e.g. tcp://127.0.0.1:8080")
		}
		if cfg.Address, err = transport.Parse(c.Address); err != nil {
			return usageError{err}
		}
	}
	ctx, cancel := context.WithTimeout(e.ctx, c.Timeout)
	cl, err := p.Dial(ctx, cfg)
	cancel()
	if err != nil {
		return c.explain(e.ctx, cfg.Address, err)
	}
	defer cl.Close()
	if !demo {
		answer, err := c.callOne(e.ctx, op, cl, ds)
		if err != nil {
			return c.explain(e.ctx, cfg.Address, fmt.Errorf("%s: %w", op.name, err))
		}
		return printJSON(e.stdout, answer, "")
	}
	return c.demo(e, cfg.Address, cl, ds)
}

func (c *callCmd) callOne(parent context.Context, op operation, s contract.Service, ds *contract.Dataset) (any, error) {
	ctx, cancel := context.WithTimeout(parent, c.Timeout)
	defer cancel()
	return op.call(ctx, s, c, ds)
}

// demo calls every operation once, as the original projects' demo clients did, then
// shows a contract error: a person id that does not exist.
func (c *callCmd) demo(e *env, target transport.Addr, s contract.Service, ds *contract.Dataset) error {
	fmt.Fprintf(e.stdout, "# %s demo against %s\n", c.Protocol, c.targetName())
	for _, op := range operations {
		fmt.Fprintf(e.stdout, "\n## %s\n", op.name)
		answer, err := c.callOne(e.ctx, op, s, ds)
		if err != nil {
			return c.explain(e.ctx, target, fmt.Errorf("%s: %w", op.name, err))
		}
		if err := printJSON(e.stdout, answer, ""); err != nil {
			return err
		}
	}
	missing := int64(ds.Size() + 1000)
	fmt.Fprintf(e.stdout, "\n## person.get --id %d (an unknown id)\n", missing)
	_, err := s.GetPerson(e.ctx, missing)
	if contract.CodeOf(err) != contract.NotFound {
		return fmt.Errorf("person.get of unknown id %d: got %v, want a %s error", missing, err, contract.NotFound)
	}
	if err := printJSON(e.stdout, map[string]any{"error": map[string]any{"code": contract.CodeOf(err), "message": err.Error()}}, ""); err != nil {
		return err
	}
	// Each workload once, its answers checked against this side's copy of the data set:
	// the same check that precedes every benchmark.
	fmt.Fprintf(e.stdout, "\n## workloads (one op each, answers verified)\n")
	for _, w := range contract.Workloads() {
		if w.NeedsMessages() {
			continue // your own messages: conform --proto --message checks them
		}
		run, err := w.New(w.DefaultParams(), ds)
		if err == nil {
			ctx, cancel := context.WithTimeout(e.ctx, c.Timeout)
			err = run(ctx, s, 0)
			cancel()
		}
		if err != nil {
			return c.explain(e.ctx, target, fmt.Errorf("workload %s: %w", w.Name, err))
		}
		n := w.Calls(w.DefaultParams())
		fmt.Fprintf(e.stdout, "%-15s ok, %d call%s\n", w.Name, n, map[bool]string{true: "", false: "s"}[n == 1])
	}
	return nil
}

func (c *callCmd) targetName() string {
	if c.Address == "" {
		return "the in-process service"
	}
	return c.Address
}

// explain adds what to do to the errors users meet most: nobody there, no answer in
// time, and the server of another protocol (conform.Mismatch, a usage error).
func (c *callCmd) explain(ctx context.Context, target transport.Addr, err error) error {
	if target.Network != "" { // not in-process
		if m := mismatch(ctx, c.Protocol, target, err); m != nil {
			return m
		}
	}
	switch {
	case errors.Is(err, syscall.ECONNREFUSED), errors.Is(err, syscall.ENOENT):
		return fmt.Errorf("%w\nis a server running there? start one with: wirebench serve --protocol %s --listen %s",
			err, c.Protocol, c.Address)
	case errors.Is(err, context.DeadlineExceeded):
		return fmt.Errorf("%w (no answer within --timeout %s)", err, c.Timeout)
	}
	return err
}

func printJSON(w io.Writer, v any, prefix string) error {
	enc := json.NewEncoder(w)
	enc.SetIndent(prefix, "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}
