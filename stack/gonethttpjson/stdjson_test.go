package gonethttpjson_test

// The production stack is encoding/json on the wire: its server's answers are, byte
// for byte, what encoding/json writes for the values the contract says they carry,
// and its client reads what encoding/json writes. The expected values are built here
// from the data set with types of this test, not the adapter's.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/wirebench/wirebench/contract"
	"github.com/wirebench/wirebench/protocol"
	"github.com/wirebench/wirebench/protocol/protocoltest"
	"github.com/wirebench/wirebench/stack/gonethttpjson"
)

// The bodies' shapes as docs/protocols.md gives them.
type (
	testPersons struct {
		Persons []contract.Person `json:"persons"`
	}
	testLinks struct {
		Links []contract.PersonLink `json:"links"`
	}
	testPayload struct {
		Payload string `json:"payload"`
	}
	testValue struct {
		Value int64 `json:"value"`
	}
	testError struct {
		Code    string `json:"code"`
		Message string `json:"message"`
	}
	testTrade struct {
		ID             int64   `json:"id"`
		Symbol         string  `json:"symbol"`
		Price          float64 `json:"price"`
		Quantity       int64   `json:"quantity"`
		TimestampNanos int64   `json:"timestamp_nanos"`
		Side           string  `json:"side"`
	}
	testEnd struct {
		End struct {
			Count int64 `json:"count"`
		} `json:"end"`
	}
)

func toTestTrade(t contract.Trade) testTrade {
	return testTrade{t.ID, t.Symbol, t.Price, t.Quantity, t.TimestampNanos, t.Side.String()}
}

// marshalLine is what json.Encoder.Encode writes for v: json.Marshal's bytes and a
// newline.
func marshalLine(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b) + "\n"
}

// htmlPayload has the characters encoding/json escapes by default (<, >, &) and some
// it writes as they are.
const htmlPayload = `<a href="x">&amp;</a> héllo ✓ 🚀`

func TestStdServerWritesEncodingJSON(t *testing.T) {
	s := startServer(t, gonethttpjson.Name, "tcp", protocol.ServerConfig{})
	hc := &http.Client{}
	t.Cleanup(hc.CloseIdleConnections)
	do := func(method, path, body string) (*http.Response, string) {
		t.Helper()
		req, err := http.NewRequestWithContext(protocoltest.Context(t), method, "http://"+s.addr.Address+path, strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		resp, err := hc.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, err := io.ReadAll(resp.Body)
		if err != nil {
			t.Fatal(err)
		}
		return resp, string(b)
	}
	check := func(method, path, body string, status int, want string) *http.Response {
		t.Helper()
		resp, got := do(method, path, body)
		if resp.StatusCode != status || got != want {
			t.Errorf("%s %s: %d\n%s\nwant %d and encoding/json's\n%s", method, path, resp.StatusCode, got, status, want)
		}
		return resp
	}

	resp := check("GET", "/persons", "", 200, marshalLine(t, testPersons{testData.Persons()}))
	if ct := resp.Header.Get("Content-Type"); ct != "application/json" {
		t.Errorf("GET /persons: Content-Type %q", ct)
	}
	for _, id := range []int64{3, 4} { // with and without a picture
		p, _ := testData.Person(id)
		check("GET", "/persons/"+strconv.FormatInt(id, 10), "", 200, marshalLine(t, p))
		links, _ := testData.Links(id)
		check("GET", fmt.Sprintf("/persons/%d/links", id), "", 200, marshalLine(t, testLinks{links}))
	}

	newP, _ := testData.Person(2)
	newP.ID = 0
	newP.Name.Last = htmlPayload
	_, got := do("POST", "/persons", marshalLine(t, newP))
	var created contract.Person
	if err := json.Unmarshal([]byte(got), &created); err != nil || created.ID <= int64(testData.Size()) {
		t.Fatalf("POST /persons: %q, %v", got, err)
	}
	newP.ID = created.ID
	if want := marshalLine(t, newP); got != want {
		t.Errorf("POST /persons: %s\nwant encoding/json's\n%s", got, want)
	}

	check("POST", "/echo", marshalLine(t, testPayload{htmlPayload}), 200, marshalLine(t, testPayload{htmlPayload}))
	check("GET", "/stats", "", 200, marshalLine(t, contract.Stats{Calls: 1, LastPayloadLen: int64(len(htmlPayload))}))
	check("POST", "/increment", `{"value":41}`, 200, marshalLine(t, testValue{42}))

	var stream strings.Builder
	for i := range int64(3) {
		stream.WriteString(marshalLine(t, toTestTrade(contract.TradeAt(i))))
	}
	var end testEnd
	end.End.Count = 3
	stream.WriteString(marshalLine(t, end))
	resp = check("GET", "/trades?count=3", "", 200, stream.String())
	if ct := resp.Header.Get("Content-Type"); ct != "application/x-ndjson" {
		t.Errorf("GET /trades: Content-Type %q", ct)
	}

	resp = check("DELETE", "/persons/1", "", 405, marshalLine(t, testError{"invalid_argument", "method DELETE is not allowed on /persons/1; allowed: GET, HEAD"}))
	if allow := resp.Header.Get("Allow"); allow != "GET, HEAD" {
		t.Errorf("DELETE /persons/1: Allow %q", allow)
	}
	resp = check("PUT", "/persons", "", 405, marshalLine(t, testError{"invalid_argument", "method PUT is not allowed on /persons; allowed: GET, HEAD, POST"}))
	if allow := resp.Header.Get("Allow"); allow != "GET, HEAD, POST" {
		t.Errorf("PUT /persons: Allow %q", allow)
	}
	check("GET", "/nowhere/<x>", "", 404, marshalLine(t, testError{"not_found", "no route /nowhere/<x>"}))
	check("GET", "/persons/x&y", "", 404, marshalLine(t, testError{"not_found", `no person with id "x&y"`}))
	check("POST", "/increment", `{}`, 400, marshalLine(t, testError{"invalid_argument", `increment body: missing "value"`}))
	// The service's own refusal: its message is the service's, the bytes encoding/json's.
	_, got = do("GET", "/persons/999", "")
	var e testError
	if err := json.Unmarshal([]byte(got), &e); err != nil || e.Code != "not_found" {
		t.Fatalf("GET /persons/999: %q, %v", got, err)
	}
	if want := marshalLine(t, e); got != want {
		t.Errorf("GET /persons/999: %s\nwant encoding/json's\n%s", got, want)
	}
}

// TestClientsReadEncodingJSON serves every route with a plain net/http handler that
// writes with encoding/json, indented and not: both stacks' clients read it all.
func TestClientsReadEncodingJSON(t *testing.T) {
	for _, indent := range []bool{false, true} {
		write := func(w http.ResponseWriter, v any) {
			enc := json.NewEncoder(w)
			if indent {
				enc.SetIndent("", "  ")
			}
			if err := enc.Encode(v); err != nil {
				panic(err)
			}
		}
		mux := http.NewServeMux()
		mux.HandleFunc("GET /persons", func(w http.ResponseWriter, r *http.Request) {
			write(w, testPersons{testData.Persons()})
		})
		mux.HandleFunc("GET /persons/{id}", func(w http.ResponseWriter, r *http.Request) {
			id, _ := strconv.ParseInt(r.PathValue("id"), 10, 64)
			p, ok := testData.Person(id)
			if !ok {
				w.WriteHeader(http.StatusNotFound)
				write(w, testError{"not_found", "no " + r.PathValue("id")})
				return
			}
			write(w, p)
		})
		mux.HandleFunc("GET /persons/{id}/links", func(w http.ResponseWriter, r *http.Request) {
			id, _ := strconv.ParseInt(r.PathValue("id"), 10, 64)
			links, _ := testData.Links(id)
			write(w, testLinks{links})
		})
		mux.HandleFunc("POST /persons", func(w http.ResponseWriter, r *http.Request) {
			var p contract.Person
			json.NewDecoder(r.Body).Decode(&p)
			p.ID = 1000
			write(w, p)
		})
		mux.HandleFunc("POST /echo", func(w http.ResponseWriter, r *http.Request) {
			var p testPayload
			json.NewDecoder(r.Body).Decode(&p)
			write(w, p)
		})
		mux.HandleFunc("GET /stats", func(w http.ResponseWriter, r *http.Request) {
			write(w, contract.Stats{Calls: 7, LastPayloadLen: 9})
		})
		mux.HandleFunc("POST /increment", func(w http.ResponseWriter, r *http.Request) {
			var v testValue
			json.NewDecoder(r.Body).Decode(&v)
			write(w, testValue{v.Value + 1})
		})
		mux.HandleFunc("GET /trades", func(w http.ResponseWriter, r *http.Request) {
			// NDJSON needs one value a line: never indented.
			enc := json.NewEncoder(w)
			for i := range int64(5) {
				enc.Encode(toTestTrade(contract.TradeAt(i)))
			}
			var end testEnd
			end.End.Count = 5
			enc.Encode(end)
		})
		addr := serveHTTP(t, mux)
		eachStack(t, func(t *testing.T, stack string) {
			cl := newClient(t, stack, addr, protocol.ClientConfig{})
			ctx := protocoltest.Context(t)
			ps, err := cl.ListPersons(ctx)
			if err != nil || len(ps) != testData.Size() || !ps[5].Equal(testData.Persons()[5]) {
				t.Errorf("indent %v: ListPersons: %d persons, %v", indent, len(ps), err)
			}
			want, _ := testData.Person(3)
			if p, err := cl.GetPerson(ctx, 3); err != nil || !p.Equal(want) {
				t.Errorf("indent %v: GetPerson(3) = %+v, %v", indent, p, err)
			}
			_, err = cl.GetPerson(ctx, 99)
			wantCode(t, "GetPerson(99)", err, contract.NotFound)
			wantLinks, _ := testData.Links(3)
			if links, err := cl.GetPersonLinks(ctx, 3); err != nil || len(links) != len(wantLinks) || !links[0].P2.Equal(wantLinks[0].P2) {
				t.Errorf("indent %v: GetPersonLinks(3) = %d links, %v", indent, len(links), err)
			}
			want.Name.First = htmlPayload
			if p, err := cl.CreatePerson(ctx, want); err != nil || p.ID != 1000 || p.Name.First != htmlPayload {
				t.Errorf("indent %v: CreatePerson = %+v, %v", indent, p, err)
			}
			if got, err := cl.Echo(ctx, htmlPayload); err != nil || got != htmlPayload {
				t.Errorf("indent %v: Echo = %q, %v", indent, got, err)
			}
			if st, err := cl.Stats(ctx); err != nil || st != (contract.Stats{Calls: 7, LastPayloadLen: 9}) {
				t.Errorf("indent %v: Stats = %+v, %v", indent, st, err)
			}
			if n, err := cl.Increment(ctx, -5); err != nil || n != -4 {
				t.Errorf("indent %v: Increment(-5) = %d, %v", indent, n, err)
			}
			var n int64
			err = cl.StreamTrades(ctx, 5, func(tr *contract.Trade) error {
				if *tr != contract.TradeAt(n) {
					return fmt.Errorf("trade %d = %+v", n, *tr)
				}
				n++
				return nil
			})
			if err != nil || n != 5 {
				t.Errorf("indent %v: StreamTrades(5) = %v after %d trades", indent, err, n)
			}
		})
	}
}

// TestStdClientWritesEncodingJSON checks the production client's request bodies: what
// encoding/json writes for the contract's values.
func TestStdClientWritesEncodingJSON(t *testing.T) {
	bodies := make(chan string, 3)
	mux := http.NewServeMux()
	mux.HandleFunc("POST /{op}", func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		bodies <- string(b)
		io.Copy(w, bytes.NewReader(b)) // every answer has the shape of its request
	})
	addr := serveHTTP(t, mux)
	cl := newClient(t, gonethttpjson.Name, addr, protocol.ClientConfig{})
	ctx := protocoltest.Context(t)
	p, _ := testData.Person(3)
	p.Name.First = htmlPayload
	cl.CreatePerson(ctx, p)
	cl.Echo(ctx, htmlPayload)
	cl.Increment(ctx, 41)
	for _, want := range []any{p, testPayload{htmlPayload}, testValue{41}} {
		b, _ := json.Marshal(want)
		if got := <-bodies; got != string(b) {
			t.Errorf("request body %s, want encoding/json's %s", got, b)
		}
	}
}
