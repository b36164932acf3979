package suite

import (
	"go.yaml.in/yaml/v3"

	"github.com/wirebench/wirebench/protocol/transport"
	"github.com/wirebench/wirebench/spec"
	"github.com/wirebench/wirebench/spec/link"
)

// readWorkers reads the workers block (spec.WorkersKeys) into h. File paths are read
// relative to the directory wirebench runs in, as the command line's are.
func (c *checker) readWorkers(n *yaml.Node, h *spec.Hosts) {
	fs, ok := c.fields(n, "workers", workersPlace.keys, workersPlace.hint)
	if !ok {
		return
	}
	url := func(key string, n *yaml.Node) (string, bool) {
		v, ok := c.str(key, n)
		if !ok {
			return "", false
		}
		if _, err := transport.ParseStream(v); err != nil {
			c.at(resolve(n), "workers.%s: %v", key, err)
			return "", false
		}
		return v, true
	}
	if f, ok := fs["server"]; ok {
		h.Server, _ = url("server", f.val)
	}
	if f, ok := fs["clients"]; ok {
		if items, ok := c.list("clients", f.val); ok {
			if len(items) == 0 {
				c.at(f.key, "workers.clients: empty; list at least one URL, or drop the key")
			}
			for _, it := range items {
				if v, ok := url("clients", it); ok {
					h.Clients = append(h.Clients, v)
				}
			}
		}
	}
	if f, ok := fs["client_workers"]; ok {
		if v, ok := c.integer("client_workers", f.val, 1, spec.MaxClientWorkers); ok {
			h.LocalClients = int(v)
		}
		if _, both := fs["clients"]; both {
			c.at(f.key, "workers.client_workers: the clients list already says how many client workers there are")
		}
	}
	for key, dst := range map[string]*string{"token_file": &h.Auth.TokenFile, "tls_ca": &h.Auth.CAFile,
		"tls_cert": &h.Auth.CertFile, "tls_key": &h.Auth.KeyFile, "tls_server_name": &h.Auth.ServerName,
		"server_listen_host": &h.ServerListenHost} {
		if f, ok := fs[key]; ok {
			*dst, _ = c.str(key, f.val)
		}
	}
	if f, ok := fs["netns"]; ok {
		if r := resolve(f.val); r.Kind != yaml.ScalarNode || (r.Value != "true" && r.Value != "false") {
			c.at(r, "workers.netns: want true or false, got %s", describe(r))
		} else {
			h.Netns = r.Value == "true"
		}
	}
}

// readLink reads the top-level link: one line, as --link takes it.
func (c *checker) readLink(n *yaml.Node) link.Profile {
	v, ok := c.str("link", n)
	if !ok {
		return link.Profile{}
	}
	p, err := link.Parse(v)
	if err != nil {
		c.at(resolve(n), "%v", err)
	}
	return p
}
