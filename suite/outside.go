package suite

import (
	"context"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/wirebench/wirebench/internal/protoload"
	"github.com/wirebench/wirebench/spec"
	"github.com/wirebench/wirebench/stack/outside"
)

// outsideKeys are a target entry's keys of an outside server's own call
// (spec.OutsideKeys): url, then the call's.
var outsideKeys = spec.KeyNames(spec.OutsideKeys)

// readOutside reads a target entry's outside call, when it has url: (formerly
// target:, read as url: by checker.fields). Its schema
// comes from proto or protoset (a suite asks no reflection service while it is
// read); paths are relative to the suite's file.
func (c *checker) readOutside(t *target, fs map[string]field) {
	f, ok := fs["url"]
	if !ok {
		for _, k := range outsideKeys[1:] {
			if g, ok := fs[k]; ok {
				c.at(g.key, "%s: a key of an outside server's call; give its URL too, url: grpc://HOST:PORT or http://HOST:PORT/PATH", k)
				return
			}
		}
		return
	}
	if g, ok := fs["address"]; ok {
		c.at(g.key, "address: a target with url: has its address there")
		return
	}
	if g, ok := fs["transports"]; ok {
		c.at(g.key, "transports: an outside target's transport is its URL's (grpcs:// and https:// are tls)")
		return
	}
	raw, ok := c.str("url", f.val)
	if !ok {
		return
	}
	at := resolve(f.val)
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" {
		c.at(at, "url: %q, want grpc://HOST:PORT, grpcs://, http://HOST:PORT/PATH or https://", raw)
		return
	}
	host := u.Host
	if _, _, err := net.SplitHostPort(host); err != nil {
		c.at(at, "url: %q: give the port", raw)
		return
	}
	tr := "tcp"
	switch u.Scheme {
	case "grpcs", "https":
		tr = "tls"
	case "grpc", "http":
	default:
		c.at(at, "url: %q, want grpc://, grpcs://, http:// or https://", raw)
		return
	}
	t.address, t.transports, t.transportNodes = "tcp://"+host, []string{tr}, []*yaml.Node{at}
	get := func(k string) (string, *yaml.Node, bool) {
		g, ok := fs[k]
		if !ok {
			return "", nil, false
		}
		v, ok := c.str(k, g.val)
		return v, resolve(g.val), ok
	}
	path := func(p string) string {
		if p == "" || filepath.IsAbs(p) {
			return p
		}
		return filepath.Join(filepath.Dir(c.file), p)
	}
	expect, expectAt, _ := get("expect")
	if expect != "" {
		if _, err := outside.Messages("expect", []byte(expect), false); err != nil {
			c.at(expectAt, "expect: %v", err)
			return
		}
	}
	method, _, hasCall := get("call")
	if !hasCall {
		if u.Scheme != "http" && u.Scheme != "https" {
			c.at(f.key, "url %s: give the method, call: package.Service/Method", raw)
			return
		}
		c.readHTTPCall(t, fs, u.RequestURI(), expect, path)
		return
	}
	src := protoload.Source{Protoset: path(str0(get("protoset")))}
	if p, _, ok := get("proto"); ok {
		src.Protos = []string{path(p)}
	}
	if g, ok := fs["import_paths"]; ok {
		if items, ok := c.list("import_paths", g.val); ok {
			for _, it := range items {
				if s, ok := c.str("import_paths", it); ok {
					src.ImportPaths = append(src.ImportPaths, path(s))
				}
			}
		}
	}
	if src.Empty() {
		c.at(f.key, "url %s: give the method's schema, proto: FILE or protoset: FILE (a suite asks no reflection service)", raw)
		return
	}
	name, schema, from, err := outside.Schema(context.Background(), src, method, nil)
	if err != nil {
		c.at(resolve(fs["call"].val), "call %s: %v", method, err)
		return
	}
	var data []string
	if d, dAt, ok := get("data"); ok {
		if data, err = outside.Messages("data", []byte(d), false); err != nil {
			c.at(dAt, "%v", err)
			return
		}
	}
	if d, dAt, ok := get("data_file"); ok {
		b, err := os.ReadFile(path(d))
		if err == nil {
			data, err = outside.Messages(d, b, true)
		}
		if err != nil {
			c.at(dAt, "data_file: %v", err)
			return
		}
	}
	md, err := outside.MethodOf(schema, name)
	if err == nil {
		_, err = outside.Requests(md, data)
	}
	if err != nil {
		c.at(f.key, "%v", err)
		return
	}
	t.call = &spec.Call{Kind: spec.CallRPC, Method: name, Schema: schema, SchemaFrom: from, Data: data, Expect: expect}
	if g, ok := fs["metadata"]; ok {
		t.call.Metadata, _ = c.stringMap("metadata", g.val)
	}
}

// readHTTPCall reads the call of an HTTP endpoint at path: http_method, headers (a map)
// and body (JSON, or @FILE).
func (c *checker) readHTTPCall(t *target, fs map[string]field, path, expect string, rel func(string) string) {
	for _, k := range []string{"proto", "protoset", "import_paths", "data", "data_file", "metadata"} {
		if g, ok := fs[k]; ok {
			c.at(g.key, "%s: a method's key (with call:); an HTTP endpoint takes http_method, headers and body", k)
			return
		}
	}
	call := &spec.Call{Kind: spec.CallHTTP, Path: path, Expect: expect, HTTPMethod: "GET"}
	if g, ok := fs["body"]; ok {
		if b, ok := c.str("body", g.val); ok {
			if file, isFile := strings.CutPrefix(b, "@"); isFile {
				raw, err := os.ReadFile(rel(file))
				if err != nil {
					c.at(resolve(g.val), "body: %v", err)
					return
				}
				b = string(raw)
			}
			call.Body, call.HTTPMethod = b, "POST"
		}
	}
	if g, ok := fs["http_method"]; ok {
		if m, ok := c.str("http_method", g.val); ok {
			call.HTTPMethod = strings.ToUpper(m)
		}
	}
	if g, ok := fs["headers"]; ok {
		call.Metadata, _ = c.stringMap("headers", g.val)
	}
	t.call = call
}

func str0(s string, _ *yaml.Node, _ bool) string { return s }
