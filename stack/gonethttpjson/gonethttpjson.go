// Package gonethttpjson holds the standard library's stacks of the http-json wire
// mapping (protocol/httpjson), and the HTTP/3 one on quic-go:
//
//   - go-nethttp-json (production, the default of both sides): net/http's ServeMux
//     with method and wildcard patterns and encoding/json on the server
//     (stdserver.go); net/http's Client and encoding/json on the client
//     (stdclient.go), its Transport's idle pool sized for the calls the client
//     carries at once. Standard library only, stock settings but for the timeouts
//     every deployed server sets and that pool size.
//   - go-nethttp-json-h2 (production, client only): the production client over
//     net/http's HTTP/2 (h2c, h2 over TLS); the servers of go-nethttp-json and
//     go-tuned-json speak HTTP/2 too.
//   - go-quicgo-json-h3 (production): the production server's handler served by
//     quic-go's http3.Server, and the production client over quic-go's
//     http3.Transport, over the quic transport only (h3.go).
//
// The production client: net/http's Transport (DefaultTransport's settings) dialing
// through ClientConfig.Dial, its idle pool sized to ClientConfig.Concurrency (see
// NewStdClient for why). Answers over ClientConfig.MessageLimit() fail with
// ResourceExhausted; a call's context bounds it whole.
//
// The tests here run the mapping's black-box checks over every HTTP/1.1 server and
// client of the protocol in Go, go-tuned-json's (stack/gotunedjson) included.
package gonethttpjson

import (
	"net/http"

	"github.com/wirebench/wirebench/protocol"
	"github.com/wirebench/wirebench/protocol/httpjson"
)

// The stacks of this package.
const (
	// Name is the production stack and the default of both sides: net/http and
	// encoding/json, standard library only, written as a Go service would be.
	Name = "go-nethttp-json"
	// H2Name is the production client over HTTP/2 (h2c, or h2 over TLS): net/http's
	// own HTTP/2, encoding/json.
	H2Name = "go-nethttp-json-h2"
)

// Compile-time checks of the interfaces this package implements.
var (
	_ protocol.Client = (*StdClient)(nil)
	_ protocol.Server = (*StdServer)(nil)
	_ http.Handler    = (*StdServer)(nil)
)

func init() {
	std := httpjson.GoStack(Name, protocol.Production,
		"net/http ServeMux server and net/http Client, encoding/json on both sides",
		[]string{"net/http", "encoding/json"},
		httpjson.ServerOptions(NewStdServer), protocol.Clients(NewStdClient))
	std.OriginalTrades, std.Messages = true, true
	protocol.RegisterStack(std)
	protocol.RegisterStack(&protocol.Stack{
		Name: H2Name, Protocol: httpjson.Name, Language: "go", Tier: protocol.Production, Worker: protocol.WorkerGo,
		Summary:   "net/http Client over HTTP/2 (h2c prior knowledge; h2 over TLS), encoding/json",
		Libraries: protocol.GoLibraries("net/http", "encoding/json"),
		Sides:     protocol.ClientSide, TLS: true, OriginalTrades: true, Messages: true,
		NewClient: protocol.Clients(NewStdClientH2),
	})
	protocol.RegisterStack(h3Stack())
}
