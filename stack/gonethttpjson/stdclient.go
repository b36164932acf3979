package gonethttpjson

// The production stack's client: net/http's Client and encoding/json, as a Go service
// calling another writes one.

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"sync/atomic"

	"github.com/wirebench/wirebench/contract"
	"github.com/wirebench/wirebench/protocol"
	"github.com/wirebench/wirebench/protocol/httpjson"
)

// defaultPoolSize is the idle pool of a client whose expected concurrency is unknown:
// net/http's own MaxIdleConns, the idle connections http.DefaultTransport keeps in all.
const defaultPoolSize = 100

// StdClient is a contract.Service over net/http's Client, with an http.Transport whose
// connections are all opened through ClientConfig.Dial. It is safe for concurrent use:
// the Transport gives each call an idle keep-alive connection or dials a new one, so N
// calls in flight use N connections. Close closes the idle connections and those of
// the calls in flight as they finish; calls after Close fail at once with ErrClosed.
type StdClient struct {
	hc *http.Client
	tr idleCloser // hc's Transport
	// shut closes, once, what the client owns beyond the Transport's idle
	// connections (nil: nothing).
	shut   func() error
	base   string // "http://host", the start of every URL
	limit  int
	closed atomic.Bool
}

// idleCloser is the part of an http.RoundTripper that Close and release use:
// net/http's Transport and quic-go's http3.Transport both have it.
type idleCloser interface{ CloseIdleConnections() }

// NewStdClient returns a client of cfg.Address, over TLS (https) when cfg.TLS is
// enabled. Unless cfg.NoProbe, it opens and closes one connection
// through cfg.Dial within ctx, so that a wrong or dead target fails here, as it does
// with the other stacks. No client option is known.
//
// The Transport is net/http's DefaultTransport with two kinds of change:
//   - Its connections come from cfg.Dial (which counts their bytes), whatever the
//     address net/http asks for, and no proxy from the environment is used: the
//     benchmark measures the connection to the target.
//   - Its idle pool holds cfg.Concurrency connections (defaultPoolSize when unknown),
//     in all and per host. The default of 2 per host (http.DefaultMaxIdleConnsPerHost)
//     keeps 2 of N connections after a burst of N calls and closes the rest, so a
//     client with 50 calls in flight would open and close connections all the time;
//     a service that calls another sizes its pool for the calls it makes at once,
//     which is what every deployed Go client sets. Nothing else changes a default:
//     this is the production tier.
func NewStdClient(ctx context.Context, cfg protocol.ClientConfig) (*StdClient, error) {
	return newStdClient(ctx, cfg, false)
}

// NewStdClientH2 is NewStdClient speaking HTTP/2 only, with net/http's own HTTP/2:
// h2c with prior knowledge over a plain connection, h2 by ALPN over TLS. Its calls
// are streams multiplexed on one connection (net/http opens another only when the
// server's limit of concurrent streams is reached), so the pool matters no more.
func NewStdClientH2(ctx context.Context, cfg protocol.ClientConfig) (*StdClient, error) {
	return newStdClient(ctx, cfg, true)
}

func newStdClient(ctx context.Context, cfg protocol.ClientConfig, h2 bool) (*StdClient, error) {
	if err := protocol.CheckOptions(httpjson.Name, cfg.Options); err != nil {
		return nil, err
	}
	dial := cfg.Dial
	if dial == nil {
		return nil, errors.New("http-json: ClientConfig.Dial is nil")
	}
	if !cfg.NoProbe {
		probe, err := dial(ctx)
		if err != nil {
			return nil, fmt.Errorf("dial %s: %w", cfg.Address, err)
		}
		probe.Close()
	}
	pool := cfg.Concurrency
	if pool <= 0 {
		pool = defaultPoolSize
	}
	tr := http.DefaultTransport.(*http.Transport).Clone()
	tr.Proxy = nil
	tr.DialContext = func(ctx context.Context, _, _ string) (net.Conn, error) { return dial(ctx) }
	tr.MaxIdleConns = pool
	tr.MaxIdleConnsPerHost = pool
	// HTTP/1.1 only, also over TLS: DefaultTransport's ForceAttemptHTTP2 would
	// otherwise offer h2 by ALPN, and the servers accept it.
	alpn := "http/1.1"
	var h1 http.Protocols
	h1.SetHTTP1(true)
	tr.Protocols = &h1
	if h2 {
		var protocols http.Protocols
		protocols.SetHTTP2(true)
		protocols.SetUnencryptedHTTP2(true)
		tr.Protocols, alpn = &protocols, "h2"
	}
	host := cfg.Address.Address
	if cfg.Address.Network != "tcp" || host == "" {
		host = "localhost" // a Unix socket has no host name; HTTP/1.1 needs one
	}
	scheme := "http://"
	if cfg.TLS.Enabled() {
		// net/http's own TLS over the dialed connection, as for any https URL: the
		// handshake when a connection is opened, the certificate checked against the
		// URL's host.
		var err error
		if tr.TLSClientConfig, err = cfg.TLS.ClientConfig(alpn); err != nil {
			return nil, fmt.Errorf("%s: %w", httpjson.Name, err)
		}
		scheme = "https://"
	}
	return &StdClient{
		hc:    &http.Client{Transport: tr},
		tr:    tr,
		base:  scheme + host,
		limit: cfg.MessageLimit(),
	}, nil
}

// Close closes the idle connections, and makes the Transport close those of calls in
// flight when they finish. It is safe to call more than once and concurrently with
// calls.
func (c *StdClient) Close() error {
	c.closed.Store(true)
	c.tr.CloseIdleConnections()
	if c.shut != nil {
		return c.shut()
	}
	return nil
}

// send makes a request with in (when not nil) as its JSON body and returns the answer,
// whose body the caller must release.
func (c *StdClient) send(ctx context.Context, op, method, path string, in any) (*http.Response, error) {
	if c.closed.Load() {
		return nil, fmt.Errorf("%w (%s)", httpjson.ErrClosed, op)
	}
	var body io.Reader
	if raw, ok := in.(rawJSON); ok {
		body = bytes.NewReader(raw)
	} else if in != nil {
		b, err := json.Marshal(in)
		if err != nil {
			return nil, fmt.Errorf("http-json %s: %w", op, err)
		}
		body = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, c.base+path, body)
	if err != nil {
		return nil, fmt.Errorf("http-json %s: %w", op, err)
	}
	if in != nil {
		req.Header.Set("Content-Type", httpjson.JSONType)
	}
	resp, err := c.hc.Do(req)
	if err != nil {
		return nil, c.fail(ctx, op, err)
	}
	return resp, nil
}

// release closes an answer's body: read to its end, its connection goes back to the
// pool; otherwise the Transport closes the connection. A Close that ran meanwhile
// could not close a connection that was busy, so it is asked again.
func (c *StdClient) release(resp *http.Response) {
	resp.Body.Close()
	if c.closed.Load() {
		c.tr.CloseIdleConnections()
	}
}

// readAll reads a whole body, refusing one over the limit (ResourceExhausted): from
// its Content-Length when it has one, before reading any of it.
func (c *StdClient) readAll(resp *http.Response) ([]byte, error) {
	if resp.ContentLength > int64(c.limit) {
		return nil, httpjson.TooLarge(c.limit)
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, int64(c.limit)+1))
	if err != nil {
		return nil, err
	}
	if len(body) > c.limit {
		return nil, httpjson.TooLarge(c.limit)
	}
	return body, nil
}

// call makes one call and unmarshals its 2xx answer into out. Any other answer is
// returned as an error (StatusError).
func (c *StdClient) call(ctx context.Context, op, method, path string, in, out any) error {
	resp, err := c.send(ctx, op, method, path, in)
	if err != nil {
		return err
	}
	defer c.release(resp)
	body, err := c.readAll(resp)
	if err != nil {
		return c.fail(ctx, op, err)
	}
	if resp.StatusCode/100 != 2 {
		return httpjson.StatusError(resp.StatusCode, body, httpjson.JSONDecodeError(body))
	}
	if err := json.Unmarshal(body, out); err != nil {
		return httpjson.DecodeFailed(op, err)
	}
	return nil
}

func (c *StdClient) fail(ctx context.Context, op string, err error) error {
	return httpjson.CallError(ctx, op, err, c.closed.Load())
}

// ListPersons calls GET /persons.
func (c *StdClient) ListPersons(ctx context.Context) ([]contract.Person, error) {
	var out httpjson.PersonList
	if err := c.call(ctx, httpjson.OpList, http.MethodGet, httpjson.PathPersons, nil, &out); err != nil {
		return nil, err
	}
	return out.Persons, nil
}

// GetPerson calls GET /persons/{id}; an unknown id fails with Code NotFound.
func (c *StdClient) GetPerson(ctx context.Context, id int64) (contract.Person, error) {
	var p contract.Person
	if err := c.call(ctx, httpjson.OpGet, http.MethodGet, personPath(id), nil, &p); err != nil {
		return contract.Person{}, err
	}
	return p, nil
}

// GetPersonLinks calls GET /persons/{id}/links; an unknown id fails with Code NotFound.
func (c *StdClient) GetPersonLinks(ctx context.Context, id int64) ([]contract.PersonLink, error) {
	var out httpjson.LinkList
	if err := c.call(ctx, httpjson.OpLinks, http.MethodGet, personPath(id)+"/links", nil, &out); err != nil {
		return nil, err
	}
	return out.Links, nil
}

func personPath(id int64) string { return httpjson.PathPersons + "/" + strconv.FormatInt(id, 10) }

// CreatePerson calls POST /persons; a bad person fails with Code InvalidArgument.
func (c *StdClient) CreatePerson(ctx context.Context, p contract.Person) (contract.Person, error) {
	var out contract.Person
	if err := c.call(ctx, httpjson.OpCreate, http.MethodPost, httpjson.PathPersons, &p, &out); err != nil {
		return contract.Person{}, err
	}
	return out, nil
}

// Echo calls POST /echo with {"payload": payload}.
func (c *StdClient) Echo(ctx context.Context, payload string) (string, error) {
	var out httpjson.EchoRead
	if err := c.call(ctx, httpjson.OpEcho, http.MethodPost, httpjson.PathEcho, httpjson.EchoBody{Payload: payload}, &out); err != nil {
		return "", err
	}
	if err := out.Validate(); err != nil {
		return "", httpjson.DecodeFailed(httpjson.OpEcho, err)
	}
	return *out.Payload, nil
}

// Stats calls GET /stats.
func (c *StdClient) Stats(ctx context.Context) (contract.Stats, error) {
	var st contract.Stats
	if err := c.call(ctx, httpjson.OpStats, http.MethodGet, httpjson.PathStats, nil, &st); err != nil {
		return contract.Stats{}, err
	}
	return st, nil
}

// Increment calls POST /increment with {"value": n}.
func (c *StdClient) Increment(ctx context.Context, n int64) (int64, error) {
	var out httpjson.ValueRead
	if err := c.call(ctx, httpjson.OpIncrement, http.MethodPost, httpjson.PathIncrement, httpjson.ValueBody{Value: n}, &out); err != nil {
		return 0, err
	}
	if err := out.Validate(); err != nil {
		return 0, httpjson.DecodeFailed(httpjson.OpIncrement, err)
	}
	return *out.Value, nil
}

// StreamTrades calls GET /trades?count=N and hands each trade line, unmarshalled, to
// yield. It returns nil once count trades and the end line {"end":{"count":N}} arrived
// and the body ended; the contract error of an {"error":...} line; an error for a
// stream cut short. When yield fails, the body is closed before its end, which makes
// the Transport close the connection (stopping the server at once, rather than
// draining the rest), and the yield's error is returned as it is.
func (c *StdClient) StreamTrades(ctx context.Context, count int64, yield func(*contract.Trade) error) error {
	return stream(c, ctx, httpjson.PathTrades+"?count="+strconv.FormatInt(count, 10), func(body io.Reader) (error, error) {
		return c.readStream(body, count, yield)
	})
}

// StreamOriginalTrades calls GET /trades?count=N&shape=original, whose lines are the
// original's trades, each unmarshalled by encoding/json; otherwise as StreamTrades.
func (c *StdClient) StreamOriginalTrades(ctx context.Context, count int64, yield func(*contract.OriginalTrade) error) error {
	path := httpjson.PathTrades + "?count=" + strconv.FormatInt(count, 10) + "&" + httpjson.ShapeParam + "=" + contract.TradeOriginal
	return stream(c, ctx, path, func(body io.Reader) (error, error) {
		return httpjson.ReadOriginalStream(body, c.limit, count, func(b []byte, line *httpjson.OriginalLine) error {
			if err := json.Unmarshal(b, line); err != nil {
				return httpjson.JSONError("stream line", err)
			}
			return nil
		}, yield)
	})
}

// stream calls GET path and reads the stream's body with read, which returns the
// yield's error and any other failure apart.
func stream(c *StdClient, ctx context.Context, path string, read func(io.Reader) (yerr, err error)) error {
	resp, err := c.send(ctx, httpjson.OpTrades, http.MethodGet, path, nil)
	if err != nil {
		return err
	}
	defer c.release(resp)
	if resp.StatusCode/100 != 2 {
		body, err := c.readAll(resp)
		if err != nil {
			return c.fail(ctx, httpjson.OpTrades, err)
		}
		return httpjson.StatusError(resp.StatusCode, body, httpjson.JSONDecodeError(body))
	}
	yerr, err := read(resp.Body)
	switch {
	case yerr != nil:
		return yerr
	case err != nil:
		return c.fail(ctx, httpjson.OpTrades, err)
	}
	return nil
}

// readStream reads the lines of a stream body (ReadStream), each decoded by
// encoding/json.
func (c *StdClient) readStream(body io.Reader, count int64, yield func(*contract.Trade) error) (yerr, err error) {
	return httpjson.ReadStream(body, c.limit, count, func(b []byte, line *httpjson.AnyLine) error {
		if err := json.Unmarshal(b, line); err != nil {
			return httpjson.JSONError("stream line", err)
		}
		return nil
	}, yield)
}
