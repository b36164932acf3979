package connectgo_test

// Outside clients of the Connect server: curl speaking the Connect protocol's unary
// JSON by hand (POST the JSON request to /PACKAGE.SERVICE/METHOD), and buf curl with
// the .proto schema, each in Connect, gRPC-Web and gRPC, and over HTTP/3. Each test skips, saying so,
// when its tool is not installed (make tools installs them), and fails in CI.

import (
	"context"
	"encoding/json"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/wirebench/wirebench/internal/testtool"
	"github.com/wirebench/wirebench/protocol"
	"github.com/wirebench/wirebench/protocol/connectproto"
	"github.com/wirebench/wirebench/protocol/protocoltest"
	"github.com/wirebench/wirebench/stack/connectgo"
)

// A Person as protojson writes it: int64 as a string, lowerCamelCase names.
type jsonPerson struct {
	ID   string `json:"id"`
	Name struct{ First, Last string }
}

func TestCurlConnectJSON(t *testing.T) {
	for _, network := range []string{"tcp", "unix", protocoltest.TLSNetwork} {
		t.Run(network, func(t *testing.T) {
			tg := protocoltest.Start(t, connectproto.ConnectJSON, network, nil, protocol.ServerConfig{})
			curl := func(args ...string) (int, []byte) {
				if network == protocoltest.TLSNetwork {
					return protocoltest.CurlTLS(t, tg.Addr, tg.TLS, args...)
				}
				return protocoltest.Curl(t, tg.Addr, args...)
			}
			status, body := curl("-H", "Content-Type: application/json", "-d", `{"id":3}`, "/wirebench.v1.PersonService/GetPerson")
			var p jsonPerson
			if err := json.Unmarshal(body, &p); err != nil {
				t.Fatalf("GetPerson: %d %s: %v", status, body, err)
			}
			want, _ := tg.Dataset.Person(3)
			if status != 200 || p.ID != "3" || p.Name.First != want.Name.First || p.Name.Last != want.Name.Last {
				t.Errorf("GetPerson = %d %s, want person 3 (%s %s)", status, body, want.Name.First, want.Name.Last)
			}
			// A refusal: HTTP 404 with the Connect error body.
			status, body = curl("-H", "Content-Type: application/json", "-d", `{"id":999999}`, "/wirebench.v1.PersonService/GetPerson")
			var e struct{ Code, Message string }
			if err := json.Unmarshal(body, &e); err != nil || status != 404 || e.Code != "not_found" {
				t.Errorf("GetPerson of an unknown id = %d %s (%v), want 404 not_found", status, body, err)
			}
		})
	}
}

// schemaDir is contract/schema, where wirebench.proto is.
func schemaDir(t *testing.T) string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..", "contract", "schema")
}

func TestBufCurl(t *testing.T) {
	buf := testtool.Command(t, "buf")
	tg := protocoltest.Start(t, connectproto.ConnectProto, "tcp", nil, protocol.ServerConfig{})
	tls := protocoltest.Start(t, connectproto.ConnectProto, protocoltest.TLSNetwork, nil, protocol.ServerConfig{})
	h3 := protocoltest.StartStacks(t, connectproto.ConnectProto, connectgo.H3Name, connectgo.H3Name,
		protocoltest.QUICNetwork, nil, protocol.ServerConfig{})
	want, _ := tg.Dataset.Person(5)
	for _, c := range []struct {
		name, url string
		args      []string
	}{
		{"connect", "http://" + tg.Addr.Address, nil},
		{"grpcweb", "http://" + tg.Addr.Address, []string{"--protocol", "grpcweb"}},
		{"grpc", "http://" + tg.Addr.Address, []string{"--protocol", "grpc", "--http2-prior-knowledge"}},
		{"connect over TLS", "https://" + tls.Addr.Address, []string{"--cacert", protocoltest.CAFile(t, tls.TLS)}},
		// buf's own HTTP/3 (quic-go too, but a client nobody here wrote) against the
		// connect-go-h3 server.
		{"connect over HTTP/3", "https://" + h3.Addr.Address, []string{"--http3", "--cacert", protocoltest.CAFile(t, h3.TLS)}},
		{"grpcweb over HTTP/3", "https://" + h3.Addr.Address, []string{"--http3", "--protocol", "grpcweb", "--cacert", protocoltest.CAFile(t, h3.TLS)}},
	} {
		t.Run(c.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			args := append([]string{"curl", "--schema", schemaDir(t), "--data", `{"id":5}`}, c.args...)
			args = append(args, c.url+"/wirebench.v1.PersonService/GetPerson")
			out, err := exec.CommandContext(ctx, buf, args...).CombinedOutput()
			if err != nil {
				t.Fatalf("buf %s: %v\n%s", strings.Join(args, " "), err, out)
			}
			var p jsonPerson
			if err := json.Unmarshal(out, &p); err != nil || p.ID != "5" || p.Name.First != want.Name.First {
				t.Errorf("buf curl GetPerson = %s (%v), want person 5", out, err)
			}
		})
	}
}
