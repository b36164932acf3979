package spec

import (
	"errors"
	"fmt"
	"strings"
)

// CallWorkload is the workload of an outside call (Spec.Call): one call of a user's
// own method or endpoint per op.
const CallWorkload = "call"

// Call kinds: a method of a Protobuf service (over the spec's protocol: grpc-proto,
// connect-proto, connect-json or grpc-web), or an HTTP endpoint.
const (
	CallRPC  = "rpc"
	CallHTTP = "http"
)

// Call is one call of an outside server that does not speak wirebench's contract: a
// user's own gRPC, Connect or gRPC-Web method, or an HTTP endpoint
// (docs/your-service.md). It is data only, sent to the client workers as JSON
// (control.BenchmarkMessage): the schema travels as a serialized FileDescriptorSet,
// so a worker reads no file and asks no reflection service of its own. A benchmark
// with a Call runs the workload CallWorkload against Spec.Address.
type Call struct {
	// Kind is CallRPC or CallHTTP.
	Kind string `json:"kind"`
	// Method is the full name of an RPC method, "pkg.Service/Method".
	Method string `json:"method,omitempty"`
	// Schema is a FileDescriptorSet with Method's file and its imports, serialized;
	// SchemaFrom says where it came from (a file, or "reflection").
	Schema     []byte `json:"schema,omitempty"`
	SchemaFrom string `json:"schema_from,omitempty"`
	// Data are the requests (JSON, protojson for an RPC), taken in turn by the ops'
	// sequence numbers; a client-streaming or bidirectional call sends them all as its
	// stream. One empty message ("{}") when none is given.
	Data []string `json:"data,omitempty"`
	// Metadata are the gRPC metadata, or the HTTP headers, of every call.
	Metadata map[string]string `json:"metadata,omitempty"`
	// Expect, when set, is JSON that every reply must contain (a subset: objects by
	// key, arrays element by element, numbers, strings and booleans equal); a reply
	// that does not is a wrong answer.
	Expect string `json:"expect,omitempty"`
	// HTTPMethod and Path are an HTTP call's method and path with its query; Scheme
	// is "http" or "https" (over the spec's tls transport).
	HTTPMethod string `json:"http_method,omitempty"`
	Path       string `json:"path,omitempty"`
	// Body is an HTTP call's request body ("" sends none).
	Body string `json:"body,omitempty"`
}

// Name names the call in a benchmark's name: the method, or the HTTP method and path
// with its query. Slashes become dots, as a name's parts are separated by slashes,
// and commas semicolons, as its tags are separated by commas. Two calls that differ
// only in their data or body have one name: a label tells them apart.
func (c *Call) Name() string {
	if c.Kind == CallHTTP {
		p, q, hasQuery := strings.Cut(c.Path, "?")
		p = strings.Trim(strings.ReplaceAll(p, "/", "."), ".")
		if p == "" {
			p = "."
		}
		if hasQuery {
			p += "?" + strings.NewReplacer("/", ".", ",", ";").Replace(q)
		}
		return c.HTTPMethod + " " + p
	}
	return strings.ReplaceAll(c.Method, "/", ".")
}

// Validate checks the call on its own (what the schema says of the data is checked
// where the schema is read: package outside).
func (c *Call) Validate() error {
	switch c.Kind {
	case CallRPC:
		svc, m, ok := strings.Cut(c.Method, "/")
		if !ok || svc == "" || m == "" || strings.Contains(m, "/") {
			return fmt.Errorf("call %q: want pkg.Service/Method", c.Method)
		}
		if len(c.Schema) == 0 {
			return errors.New("call " + c.Method + ": no schema")
		}
	case CallHTTP:
		if c.HTTPMethod == "" || !strings.HasPrefix(c.Path, "/") {
			return fmt.Errorf("HTTP call %q %q: want a method and a path starting with /", c.HTTPMethod, c.Path)
		}
	default:
		return fmt.Errorf("call kind %q, want %s or %s", c.Kind, CallRPC, CallHTTP)
	}
	return nil
}

// checkCall says what is wrong between a spec's Call and its workload.
func (s Spec) checkCall() error {
	switch {
	case s.Call == nil && s.Workload == CallWorkload:
		return bad("workload", "%s is an outside server's own method or endpoint: give the call (--call, or --address http://...)", CallWorkload)
	case s.Call == nil:
		return nil
	case s.Workload != CallWorkload:
		return bad("workload", "an outside call runs the workload %s, not %s", CallWorkload, s.Workload)
	}
	// Its address is checked where it is known: a client worker is sent the
	// address apart from the spec.
	if err := s.Call.Validate(); err != nil {
		return bad("call", "%v", err)
	}
	return nil
}
