package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/url"
	"os"
	"strings"

	"github.com/wirebench/wirebench/internal/protoload"
	"github.com/wirebench/wirebench/protocol/connectproto"
	"github.com/wirebench/wirebench/protocol/grpcproto"
	"github.com/wirebench/wirebench/protocol/httpjson"
	"github.com/wirebench/wirebench/protocol/transport"
	"github.com/wirebench/wirebench/spec"
	"github.com/wirebench/wirebench/stack/outside"
)

// outsideFlags load an outside server's own method or endpoint (docs/your-service.md)
// rather than wirebench's contract: a gRPC, Connect or gRPC-Web method of the user's
// schema (--call), or an HTTP endpoint (--address http://...). The long names are
// ghz's where ghz has the flag, so that a ghz command translates flag for flag.
type outsideFlags struct {
	Call        string   `group:"Your own service" help:"${help_call}"`
	Proto       []string `group:"Your own service" placeholder:"FILE" help:"${help_proto}"`
	ImportPaths []string `group:"Your own service" name:"import-paths" placeholder:"DIR,..." help:"${help_import_paths}"`
	Protoset    string   `group:"Your own service" placeholder:"FILE" help:"${help_protoset}"`
	Data        string   `group:"Your own service" placeholder:"JSON" help:"${help_data}"`
	DataFile    string   `group:"Your own service" name:"data-file" short:"D" placeholder:"FILE" help:"${help_data_file}"`
	Metadata    string   `group:"Your own service" short:"m" placeholder:"JSON" help:"${help_metadata}"`
	Insecure    bool     `group:"Your own service" help:"Plaintext to the server (the default without --tls; as ghz's --insecure)."`
	Expect      string   `group:"Your own service" placeholder:"JSON" help:"${help_expect}"`
	Method      string   `group:"Your own service" name:"method" placeholder:"M" help:"${help_method}"`
	Header      []string `group:"Your own service" short:"H" sep:"none" placeholder:"'K: V'" help:"${help_header}"`
	Body        string   `group:"Your own service" placeholder:"JSON|@FILE" help:"${help_body}"`

	call *spec.Call
}

// given reports whether any flag of an outside call was given.
func (f *outsideFlags) given() bool {
	return f.Call != "" || len(f.Proto) > 0 || len(f.ImportPaths) > 0 || f.Protoset != "" || f.Data != "" ||
		f.DataFile != "" || f.Metadata != "" || f.Expect != "" || f.Method != "" || len(f.Header) > 0 || f.Body != ""
}

// messageWorkload is the workload that echoes a user's own message (contract): it
// takes its .proto, import paths and data file from the flags an outside call uses.
const messageWorkload = "message"

// onlyMessageFiles reports whether the flags given are only those the message
// workload takes too: --proto, --import-paths and --data-file.
func (f *outsideFlags) onlyMessageFiles() bool {
	g := *f
	g.Proto, g.ImportPaths, g.DataFile = nil, nil, ""
	return !g.given()
}

// messageFiles sets the message workload's schema and data files on s from --proto,
// --import-paths and --data-file (suite keys message_proto, message_import_paths and
// message_data_file).
func (f *outsideFlags) messageFiles(s *spec.Spec) error {
	switch {
	case s.Workload != messageWorkload:
		return nil
	case len(f.Proto) > 1:
		return usagef("--proto: the message workload takes one .proto file, whose imports are found in --import-paths")
	case len(f.Proto) == 1:
		s.MessageProto = f.Proto[0]
	}
	s.MessageImportPaths = strings.Join(f.ImportPaths, ",")
	s.MessageDataFile = f.DataFile
	return nil
}

// prepareOutside reads an outside server's URL (grpc://, grpcs://, http:// or
// https://) into the protocol, transport and tcp:// address of the other flags, and builds the
// call (its schema loaded, from files or the server's reflection, its data checked
// against it). Nothing is done for an address of the contract (tcp://, unix://, udp://).
func (c *targetFlags) prepareOutside(ctx context.Context) error {
	if err := c.readAddress(); err != nil {
		return err
	}
	scheme, _, hasScheme := strings.Cut(c.Address, "://")
	outsideScheme := hasScheme && (scheme == "grpc" || scheme == "grpcs" || scheme == "http" || scheme == "https")
	if !outsideScheme && c.Call == "" {
		if c.outsideFlags.given() && !(c.Workload == messageWorkload && c.outsideFlags.onlyMessageFiles()) {
			return usagef("--proto, --data, --expect, --method, --body and the other flags of an outside call need --call, or --address http://HOST:PORT/PATH")
		}
		if c.Protocol == "" {
			return usagef("missing flags: --protocol=STRING")
		}
		return nil
	}
	if c.Address == "" {
		return usagef("--call: give the server's address, --address grpc://HOST:PORT")
	}
	path := ""
	if outsideScheme {
		u, err := url.Parse(c.Address)
		if err != nil || u.Host == "" {
			return usagef("--address %q: want %s://HOST:PORT%s", c.Address, scheme, map[bool]string{true: "/PATH"}[scheme == "http" || scheme == "https"])
		}
		host := u.Host
		if _, _, err := net.SplitHostPort(host); err != nil {
			switch scheme {
			case "http":
				host += ":80"
			case "https":
				host += ":443"
			default:
				return usagef("--address %q: give the port", c.Address)
			}
		}
		if scheme == "grpcs" || scheme == "https" {
			if c.Insecure {
				return usagef("--insecure is plaintext, and %s:// is TLS", scheme)
			}
			c.TLS = true
		}
		c.Address, path = "tcp://"+host, u.RequestURI()
	}
	if c.Insecure && (c.TLS || c.Transport == spec.TLS) {
		return usagef("--insecure is plaintext: not with --tls")
	}
	switch {
	case c.Call == "" && (scheme == "http" || scheme == "https"):
		if c.Protocol != "" && c.Protocol != httpjson.Name {
			return usagef("-p %s: an HTTP endpoint (--address %s://... without --call) is called over %s", c.Protocol, scheme, httpjson.Name)
		}
		c.Protocol = httpjson.Name
		return c.httpCall(path)
	case c.Call == "":
		return usagef("--address %s://...: give the method, --call package.Service/Method", scheme)
	case scheme == "grpc" || scheme == "grpcs" || !outsideScheme: // a tcp:// or unix:// address with --call
		if c.Protocol == "" {
			c.Protocol = grpcproto.Name
		}
	case c.Protocol == "" || c.Protocol == "connect":
		c.Protocol = connectproto.ConnectProto
	}
	switch c.Protocol {
	case grpcproto.Name, connectproto.ConnectProto, connectproto.ConnectJSON, connectproto.GRPCWeb:
	default:
		return usagef("-p %s: an outside method is called over %s, %s, %s or %s", c.Protocol,
			grpcproto.Name, connectproto.ConnectProto, connectproto.ConnectJSON, connectproto.GRPCWeb)
	}
	if c.Method != "" || len(c.Header) > 0 || c.Body != "" {
		return usagef("--method, --header and --body are an HTTP endpoint's (--address http://HOST:PORT/PATH without --call); a method's are --data and --metadata")
	}
	return c.rpcCall(ctx)
}

// rpcCall builds the call of --call: its schema, data, metadata and expectation.
func (c *targetFlags) rpcCall(ctx context.Context) error {
	data, err := c.data()
	if err != nil {
		return err
	}
	md, err := metadataFlag(c.Metadata)
	if err != nil {
		return err
	}
	if err := checkJSON("--expect", c.Expect); err != nil {
		return err
	}
	target, err := transport.Parse(c.Address)
	if err != nil {
		return usagef("--address: %v", err)
	}
	tr := spec.TCP
	if c.TLS || c.Transport == spec.TLS {
		tr = spec.TLS
	}
	tc, err := c.benchTLSFlags.load(tr)
	if err != nil {
		return err
	}
	if tr == spec.TLS && !tc.Enabled() {
		return usagef("a TLS target needs the CA its certificate is signed by: --tls-bench-ca FILE")
	}
	src := protoload.Source{Protos: c.Proto, ImportPaths: c.ImportPaths, Protoset: c.Protoset}
	name, schema, from, err := outside.LoadSchema(ctx, src, c.Call, target, tc)
	switch {
	case errors.Is(err, outside.ErrUnreachable):
		return err
	case err != nil:
		return usageError{err}
	}
	m, err := outside.MethodOf(schema, name)
	if err == nil {
		_, err = outside.Requests(m, data)
	}
	if err != nil {
		return usageError{err}
	}
	c.call = &spec.Call{Kind: spec.CallRPC, Method: name, Schema: schema, SchemaFrom: from, Data: data, Metadata: md, Expect: c.Expect}
	return nil
}

// httpCall builds the call of an HTTP endpoint at path.
func (c *targetFlags) httpCall(path string) error {
	if len(c.Proto) > 0 || c.Protoset != "" || len(c.ImportPaths) > 0 || c.Data != "" || c.DataFile != "" {
		return usagef("--proto, --protoset, --import-paths, --data and --data-file are a method's (--call); an HTTP endpoint takes --body")
	}
	if c.Metadata != "" {
		return usagef("--metadata is gRPC's; an HTTP endpoint takes --header 'K: V'")
	}
	body := c.Body
	if file, ok := strings.CutPrefix(body, "@"); ok {
		b, err := os.ReadFile(file)
		if err != nil {
			return usagef("--body: %v", err)
		}
		body = string(b)
	}
	if err := checkJSON("--expect", c.Expect); err != nil {
		return err
	}
	headers := map[string]string{}
	for _, h := range c.Header {
		k, v, ok := strings.Cut(h, ":")
		if !ok || strings.TrimSpace(k) == "" {
			return usagef("--header %q: want 'Name: value'", h)
		}
		headers[strings.TrimSpace(k)] = strings.TrimSpace(v)
	}
	method := strings.ToUpper(c.Method)
	if method == "" {
		method = "GET"
		if body != "" {
			method = "POST"
		}
	}
	c.call = &spec.Call{Kind: spec.CallHTTP, HTTPMethod: method, Path: path, Body: body, Expect: c.Expect}
	if len(headers) > 0 {
		c.call.Metadata = headers
	}
	return nil
}

// data returns the requests of --data or --data-file: one JSON message, an array of
// them, or (a file) JSON lines.
func (c *targetFlags) data() ([]string, error) {
	switch {
	case c.Data != "" && c.DataFile != "":
		return nil, usagef("give --data or --data-file, not both")
	case c.Data != "":
		msgs, err := outside.Messages("--data", []byte(c.Data), false)
		if err != nil {
			return nil, usageError{err}
		}
		return msgs, nil
	case c.DataFile != "":
		b, err := os.ReadFile(c.DataFile)
		if err != nil {
			return nil, usagef("--data-file: %v", err)
		}
		msgs, err := outside.Messages(c.DataFile, b, true)
		if err != nil {
			return nil, usageError{err}
		}
		return msgs, nil
	}
	return nil, nil
}

// metadataFlag reads --metadata: a JSON object of strings.
func metadataFlag(s string) (map[string]string, error) {
	if s == "" {
		return nil, nil
	}
	var md map[string]string
	if err := json.Unmarshal([]byte(s), &md); err != nil {
		return nil, usagef("--metadata: want a JSON object of strings: %v", err)
	}
	return md, nil
}

func checkJSON(flag, s string) error {
	if s != "" && !json.Valid([]byte(s)) {
		return usagef("%s: not JSON", flag)
	}
	return nil
}

// outsideSummary says what an outside call loads, for the progress line.
func outsideSummary(call *spec.Call) string {
	if call.Kind == spec.CallHTTP {
		return fmt.Sprintf("outside HTTP endpoint %s %s", call.HTTPMethod, call.Path)
	}
	return fmt.Sprintf("outside method %s (schema from %s, %d request message(s))", call.Method, call.SchemaFrom, max(len(call.Data), 1))
}
