package main

import (
	"context"
	"fmt"
	"time"

	"github.com/wirebench/wirebench/contract/usermsg"
	"github.com/wirebench/wirebench/internal/units"
	"github.com/wirebench/wirebench/protocol"
	"github.com/wirebench/wirebench/protocol/conform"
	"github.com/wirebench/wirebench/protocol/transport"
)

type conformCmd struct {
	Protocol       string        `short:"p" required:"" help:"Protocol the server speaks (see 'wirebench list')."`
	Address        string        `short:"a" env:"WIREBENCH_ADDRESS" placeholder:"ADDR" help:"Server address: tcp://HOST:PORT or unix:///PATH (required). Formerly --target (-t) and WIREBENCH_TARGET, still read with a note."`
	Stack          string        `help:"Go client stack that calls the server (default: the protocol's; see 'wirebench list')."`
	Timeout        time.Duration `default:"${call_timeout}" help:"Deadline of each call."`
	MaxMessageSize units.Size    `default:"${max_message_size}" help:"Largest response accepted."`
	Quiet          bool          `short:"q" help:"Print only the differences and the verdict, not each operation checked."`
	OriginalTrades bool          `help:"Also check StreamOriginalTrades, the REST vs gRPC original's 23-field trade (for a server that carries it)."`
	DataFile       string        `help:"With --message: the messages echoed, one protojson message a line (default: generated from the schema and --seed)." placeholder:"FILE"`
	dataFlags
	messageFlags
	formerAddress
}

func (c *conformCmd) Help() string {
	return "Calls every operation of the contract on a server, checks every answer against the " +
		"contract (the data set of --seed and --data-size, as the server was started with), and " +
		"prints each difference: the operation, the field, what was expected and what came back. " +
		"Exits 0 when the server conforms, 1 when it does not (docs/add-a-stack.md)."
}

func (c *conformCmd) Run(e *env) error {
	addr, note, err := c.formerAddress.address(c.Address, true)
	if err != nil {
		return err
	}
	if note != "" {
		fmt.Fprintf(e.stderr, "wirebench: %s\n", note)
	}
	if c.Address = addr; addr == "" {
		return usagef("--address (or WIREBENCH_ADDRESS) is required: the address the server printed, e.g. tcp://127.0.0.1:8080")
	}
	p, err := protocol.Lookup(c.Protocol)
	if err != nil {
		return usageError{err}
	}
	if p.InProcess {
		return usagef("%s runs in-process: there is no server to check", p.Name)
	}
	st, err := protocol.LookupStack(p.Name, c.Stack, protocol.ClientSide)
	if err != nil {
		return usageError{err}
	}
	if st.Worker != protocol.WorkerGo {
		return usagef("%s client %s runs in the %s worker; conform calls with a Go client (leave --stack out)", p.Name, st.Name, st.Worker)
	}
	ds, err := c.dataset()
	if err != nil {
		return err
	}
	target, err := transport.Parse(c.Address)
	if err != nil {
		return usageError{err}
	}
	cfg := protocol.ClientConfig{Address: target, MaxMessageSize: int(c.MaxMessageSize)}
	var messages *usermsg.Schema
	if c.messageFlags.set() {
		if !st.CarriesMessages(protocol.ClientSide) {
			return usagef("%s's %s client does not carry your message: %s", p.Name, st.Name, noMessagesWhy(p))
		}
		if messages, err = c.messageFlags.load(e.ctx, c.DataFile, c.Seed); err != nil {
			return err
		}
		cfg.Message = messages.Desc
	} else if c.DataFile != "" {
		return usagef("--data-file is the messages of --message")
	}
	ctx, cancel := context.WithTimeout(e.ctx, c.Timeout)
	cl, err := st.Dial(ctx, cfg)
	cancel()
	if err != nil {
		err = fmt.Errorf("connecting to %s with %s: %w", target, st.Name, err)
		if m := mismatch(e.ctx, p.Name, target, err); m != nil {
			return m
		}
		return err
	}
	defer cl.Close()
	// A first call that the server does not understand is a server of another
	// protocol, most often: one line says which, rather than a difference per call.
	ctx, cancel = context.WithTimeout(e.ctx, c.Timeout)
	_, err = cl.Stats(ctx)
	cancel()
	if m := mismatch(e.ctx, p.Name, target, err); m != nil {
		return m
	}
	fmt.Fprintf(e.stdout, "# %s server at %s, called with %s (data set seed %d, %d persons)\n", p.Name, target, st.Name, c.Seed, c.DataSize)
	ops := 0
	original := conform.OriginalUnchecked
	if c.OriginalTrades {
		original = conform.OriginalCarried
	}
	diffs, err := conform.Check(e.ctx, cl, ds, conform.Options{CallTimeout: c.Timeout, Original: original, Messages: messages,
		Observe: func(op string, d []conform.Difference) {
			ops++
			switch {
			case len(d) == 0 && !c.Quiet:
				fmt.Fprintf(e.stdout, "ok    %s\n", op)
			case len(d) > 0:
				fmt.Fprintf(e.stdout, "FAIL  %s\n", op)
				for _, x := range d {
					fmt.Fprintf(e.stdout, "        %s: expected %s, got %s\n", x.Field, x.Expected, x.Got)
				}
			}
		}})
	if err != nil {
		return err
	}
	if len(diffs) > 0 {
		return fmt.Errorf("the server does not conform: %d difference%s in %d operations checked", len(diffs), plural(len(diffs)), ops)
	}
	fmt.Fprintf(e.stdout, "conforms: %d operations checked, every answer as the contract says\n", ops)
	return nil
}

// mismatch returns conform.Mismatch's error, as a usage error (the command line
// names the wrong protocol), when a call of proto to target failed with err and the
// server there speaks another protocol; else nil.
func mismatch(ctx context.Context, proto string, target transport.Addr, err error) error {
	if m := conform.Mismatch(ctx, proto, target, err); m != nil {
		return usageError{m}
	}
	return nil
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// noMessagesWhy says why a protocol's client does not carry a user's message.
func noMessagesWhy(p *protocol.Protocol) string {
	if p.NoMessages != "" {
		return p.NoMessages
	}
	return "choose a client stack that does (wirebench list)"
}
