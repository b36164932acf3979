package spec

import "strings"

// Key is one key of a suite file that is not a benchmark setting: a key of the file
// itself (FileKeys), of a target entry (TargetKeys, OutsideKeys), of a workload entry
// (WorkloadKeys), of a load block (LoadKeys) or of the workers block (WorkersKeys),
// with the command line's flag that says the same thing.
//
// These are not Settings, whose one type could not hold them honestly: a Setting is
// one value of a Spec field, with a Kind read the same way at every level and a
// default Default gives, overridden per target or workload and sent to workers. The
// entry keys are the suite's structure instead (lists crossed into benchmarks, names
// checked against the registries, blocks read on their own), and the workers keys
// fill the run's Hosts, one for the whole run, never set per target nor sent to a
// worker. What they share with a Setting is written once, here: the key, its flag
// and the flag's help. The suite reader's valid keys and its hints for a key in the
// wrong place or under a flag's name, the command line's flags' help, and the key
// tables of docs/suites.md (held to these by suite's TestDocKeys) derive from them.
type Key struct {
	// Key is the name in a suite file.
	Key string
	// Flag is the bench command's flag (run's too, for the workers keys and link)
	// that sets the same, without the dashes; "" for none.
	Flag string
	// Short is the flag's one-letter form; 0 for none.
	Short rune
	// Help is the flag's help; "" for a key without a flag.
	Help string
	// Also are other names users write for the key (a singular for a list), which
	// the suite reader answers with "did you mean KEY?"; the flag's name, with
	// underscores, is one without being listed.
	Also []string
	// OldKey is the key's former name, still read as it with a note naming the file,
	// line and new key, as a setting's (Setting.OldKey); "" for none.
	OldKey string
}

// Aliases are the names the suite reader takes for a mistyped k: its Also, and its
// flag with underscores for dashes when that is not the key itself.
func (k Key) Aliases() []string {
	out := append([]string(nil), k.Also...)
	if f := strings.ReplaceAll(k.Flag, "-", "_"); f != "" && f != k.Key {
		out = append(out, f)
	}
	return out
}

// RenamedKey returns the key that key is the former name of: a setting's
// (Setting.OldKey) or another key's (Key.OldKey); "" when it is none's. Where the
// new key is valid, the suite reader reads the former as it, with a note.
func RenamedKey(key string) string {
	if st := RenamedSetting(key); st != nil {
		return st.Key
	}
	for _, table := range [][]Key{FileKeys, TargetKeys, OutsideKeys, WorkloadKeys, WorkersKeys, LoadKeys} {
		for _, k := range table {
			if k.OldKey != "" && k.OldKey == key {
				return k.Key
			}
		}
	}
	return ""
}

// KeyNames returns the keys of a table, in its order.
func KeyNames(table []Key) []string {
	keys := make([]string, len(table))
	for i, k := range table {
		keys[i] = k.Key
	}
	return keys
}

// FileKeys are the keys of a suite file's top level, in the order a suite's "valid:"
// list and docs/suites.md name them.
var FileKeys = []Key{
	{Key: "name"}, {Key: "description"}, {Key: "views"}, {Key: "original"}, {Key: "deviations"},
	{Key: "baseline"}, {Key: "interleave_by"}, {Key: "process"}, {Key: "skip"}, {Key: "defaults"},
	{Key: "load"},
	{Key: "targets", Also: []string{"target"}},
	{Key: "workloads", Also: []string{"workload"}},
	{Key: "workers"},
	{Key: "link", Flag: "link",
		Help: "Network conditions between clients and server, e.g. delay=1ms,jitter=100us,rate=1gbit,loss=0.1% (delay in each direction; loss needs --netns)."},
}

// TargetKeys are the keys of a suite's target entry that say what is called and
// where (then come OutsideKeys, the settings and load), in the order of a target's
// "valid:" list.
var TargetKeys = []Key{
	{Key: "protocol", Flag: "protocol", Short: 'p',
		Help: "Protocol to benchmark (see 'wirebench list'); required but with an outside server's URL of its own scheme (grpc://, http://)."},
	{Key: "server_stack", Flag: "server-stack", Also: []string{"stack", "stacks", "server_stacks"},
		Help: "Server stack (default: the protocol's production stack; see 'wirebench list')."},
	{Key: "client_stack", Flag: "client-stack", Also: []string{"client_stacks"},
		Help: "Client stack (default: the protocol's production stack; see 'wirebench list')."},
	{Key: "label"},
	{Key: "transports", Flag: "transport",
		Help: "Transport between client and server: tcp (loopback), unix, tls (tcp with TLS 1.3, as --tls), or quic (UDP with TLS 1.3, for HTTP/3 stacks only)."},
	{Key: "tls", Flag: "tls",
		Help: "TLS 1.3 between client and server (--transport tls): a certificate is made for each server started, unless --tls-bench-cert gives one; the handshake is made when a connection opens (see the connect workload for its cost). --transport quic has TLS 1.3 always."},
	// An outside server's address: one of the contract here (tcp://, unix://, udp://),
	// and bench's --address, which takes an outside call's URL (the key url) too.
	{Key: "address", Flag: "address", Short: 'a',
		Help: "Load this running server instead of starting one: one of the contract, tcp://HOST:PORT, unix:///PATH, or udp://HOST:PORT (HTTP/3); or anyone's own method with --call (grpc://HOST:PORT, grpcs://, or http(s)://HOST:PORT for Connect and gRPC-Web), or an HTTP endpoint, http(s)://HOST:PORT/PATH (docs/your-service.md). Formerly --target (-t), still read with a note."},
	{Key: "options", Flag: "option", Also: []string{"client_options"},
		Help: "Client stack option KEY=VALUE (repeatable); any option makes the client's tier tuned."},
	{Key: "server_options", Flag: "server-option",
		Help: "Server stack option KEY=VALUE (repeatable); any option makes the server's tier tuned."},
}

// OutsideKeys are a target entry's keys of an outside server's own call
// (docs/your-service.md): url, the server's URL (grpc://, grpcs://, http://,
// https://; bench's --address), and the call's keys, named as bench's flags. Such a
// target runs the workload call. --proto, --import-paths and --data-file are the
// message workload's files too.
var OutsideKeys = []Key{
	// Formerly target, a word that names the compared thing too (2026-11-29).
	{Key: "url", OldKey: "target"},
	{Key: "call", Flag: "call",
		Help: "Call this method of an outside server (--address grpc://HOST:PORT, or http://HOST:PORT with -p connect-proto, connect-json or grpc-web): package.Service/Method, as ghz's --call."},
	{Key: "proto", Flag: "proto",
		Help: "The .proto file(s) of --call's method, compiled at run time (no protoc needed; without --proto or --protoset the server's reflection service is asked), or the one .proto of --message with -w message."},
	{Key: "import_paths", Flag: "import-paths",
		Help: "Directories searched for --proto and its imports (google/protobuf's well-known types are always there)."},
	{Key: "protoset", Flag: "protoset",
		Help: "A protoset of --call's method (protoc --descriptor_set_out --include_imports)."},
	{Key: "data", Flag: "data",
		Help: "--call's request as JSON: one message, or an array of messages taken in turn (a client or bidirectional stream sends them all)."},
	{Key: "data_file", Flag: "data-file", Short: 'D',
		Help: "--data from a file: one JSON message, an array, or JSON lines (one message a line); with -w message, the messages echoed, one protojson message a line (default: generated from the schema and --seed)."},
	{Key: "metadata", Flag: "metadata", Short: 'm',
		Help: "gRPC metadata (or HTTP headers) of every call, as a JSON object of strings."},
	{Key: "expect", Flag: "expect",
		Help: "JSON every reply must contain (a subset: objects by key, arrays by index); a reply that does not is a wrong answer."},
	{Key: "http_method", Flag: "method",
		Help: "The HTTP method of an HTTP endpoint (--address http://HOST:PORT/PATH); GET, or POST with --body."},
	{Key: "headers", Flag: "header", Short: 'H',
		Help: "A header of every HTTP call (repeatable)."},
	{Key: "body", Flag: "body",
		Help: "The body of every HTTP call, or @FILE for a file's content."},
}

// WorkloadKeys are the keys of a suite's workload entry that say what is called
// with which parameters (then come the settings and load), in the order of a
// workload's "valid:" list. The parameters' keys are lists crossed into benchmarks;
// their flags take one value.
var WorkloadKeys = []Key{
	{Key: "name", Flag: "workload", Short: 'w',
		Help: "Workload to run (see 'wirebench list')."},
	{Key: "payloads", Flag: "payload",
		Help: "echo, echo+stats: payload size (e.g. 11B, 1KiB, 100KiB)."},
	{Key: "increments", Flag: "increments",
		Help: "pingpong: sequential increments per op."},
	{Key: "trades", Flag: "trades",
		Help: "stream: trades streamed per op."},
	{Key: "trade", Flag: "trade",
		Help: "stream: the trade's shape, compact (6 fields) or original (REST vs gRPC's 23 fields; stacks that carry it only)."},
}

// WorkersKeys are the keys of a suite's workers block: where the run's workers are
// (Hosts; docs/distributed.md). Each has the bench and run flag of the same meaning,
// which replaces it key by key. File paths are read relative to the directory
// wirebench runs in, as the command line's are.
var WorkersKeys = []Key{
	{Key: "server", Flag: "server-worker",
		Help: "Control URL of a remote server worker (wirebench worker --listen tcp://ADDR:PORT --token-file FILE, on that host) instead of starting one here."},
	{Key: "clients", Flag: "client-worker", Also: []string{"client"},
		Help: "Control URL of a remote client worker (repeatable: the workers share the load, their histograms merge)."},
	{Key: "client_workers", Flag: "client-workers", Also: []string{"client"},
		Help: "Start this many client workers here, all pinned to the client CPUs, sharing the load (default 1)."},
	{Key: "token_file", Flag: "token-file", Also: []string{"token"},
		Help: "Send the token in this file to the remote workers."},
	{Key: "tls_ca", Flag: "tls-ca",
		Help: "Reach the remote workers over TLS, trusting this CA (PEM)."},
	{Key: "tls_cert", Flag: "tls-cert",
		Help: "The driver's certificate for workers with mutual TLS (PEM), with --tls-key."},
	{Key: "tls_key", Flag: "tls-key",
		Help: "The key of --tls-cert (PEM)."},
	{Key: "tls_server_name", Flag: "tls-server-name",
		Help: "The name the workers' certificates carry (default: the host of each URL)."},
	{Key: "server_listen_host", Flag: "server-listen-host",
		Help: "Host the benchmark server listens on, which the client workers must reach (default: the server worker's host; 127.0.0.1 when it runs here)."},
	{Key: "netns", Flag: "netns",
		Help: "Start the server worker and the client workers in two network namespaces joined by a veth pair that carries the link (needs root)."},
}
