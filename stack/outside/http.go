package outside

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"

	"github.com/wirebench/wirebench/protocol"
	"github.com/wirebench/wirebench/spec"
)

// HTTPVersion is the client option (protocol.ClientConfig.Options) that chooses an
// HTTP call's version: "1.1" (the default; a pool of connections, one per call in
// flight) or "2" (one connection, h2c or h2 over TLS, the calls multiplexed).
const HTTPVersion = "http"

// newHTTPClient calls an HTTP endpoint: call's method, path, headers and body, every
// answer's status checked (2xx, or a StatusError "http:NNN") and its body read whole
// (up to the message limit) and checked against expect.
func newHTTPClient(ctx context.Context, call *spec.Call, expect *expectation, cfg protocol.ClientConfig) (*Client, error) {
	if err := protocol.CheckOptions("outside HTTP", cfg.Options, HTTPVersion); err != nil {
		return nil, err
	}
	if cfg.Dial == nil {
		return nil, fmt.Errorf("outside HTTP: ClientConfig.Dial is nil")
	}
	dial := cfg.Dial
	tr := &http.Transport{
		DialContext:         func(ctx context.Context, _, _ string) (net.Conn, error) { return dial(ctx) },
		MaxIdleConnsPerHost: max(cfg.Concurrency, 1),
		DisableCompression:  true, // the bytes measured are the bytes the server sends
	}
	var protocols http.Protocols
	switch v := cfg.Options[HTTPVersion]; v {
	case "", "1.1":
		protocols.SetHTTP1(true)
	case "2":
		protocols.SetUnencryptedHTTP2(true)
		protocols.SetHTTP2(true)
		tr.MaxConnsPerHost = 1
	default:
		return nil, fmt.Errorf("outside HTTP: option %s=%q, want 1.1 or 2", HTTPVersion, v)
	}
	tr.Protocols = &protocols
	base := "http://" + hostOf(cfg)
	if cfg.TLS.Enabled() {
		alpn := "http/1.1"
		if protocols.HTTP2() {
			alpn = "h2"
		}
		var err error
		if tr.TLSClientConfig, err = cfg.TLS.ClientConfig(alpn); err != nil {
			return nil, fmt.Errorf("outside HTTP: %w", err)
		}
		base = "https://" + hostOf(cfg)
	}
	hc := &http.Client{Transport: tr, CheckRedirect: func(*http.Request, []*http.Request) error {
		return http.ErrUseLastResponse // a redirect is an answer of its own, counted by its status
	}}
	url := base + call.Path
	body := []byte(call.Body)
	limit := int64(cfg.MessageLimit())
	c := &Client{close: func() error { tr.CloseIdleConnections(); return nil }}
	c.call = func(ctx context.Context, _ uint64) error {
		var rd io.Reader
		if len(body) > 0 {
			rd = bytes.NewReader(body)
		}
		req, err := http.NewRequestWithContext(ctx, call.HTTPMethod, url, rd)
		if err != nil {
			return err
		}
		for k, v := range call.Metadata {
			req.Header.Set(k, v)
		}
		if len(body) > 0 && req.Header.Get("Content-Type") == "" {
			req.Header.Set("Content-Type", "application/json")
		}
		res, err := hc.Do(req)
		if err != nil {
			if ctx.Err() != nil {
				return context.Cause(ctx)
			}
			return err
		}
		defer res.Body.Close()
		b, err := io.ReadAll(io.LimitReader(res.Body, limit+1))
		if err != nil {
			if ctx.Err() != nil {
				return context.Cause(ctx)
			}
			return err
		}
		if res.StatusCode < 200 || res.StatusCode > 299 {
			return &StatusError{Status: "http:" + strconv.Itoa(res.StatusCode), Msg: clip(b)}
		}
		if int64(len(b)) > limit {
			return fmt.Errorf("the reply is over the message limit (%d bytes)", limit)
		}
		return expect.check(b)
	}
	return c, nil
}
