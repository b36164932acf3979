package grpcx

import (
	"strings"
	"testing"
)

func TestOptions(t *testing.T) {
	for _, tc := range []struct {
		name   string
		opts   map[string]string
		server bool
		n      int    // options produced
		err    string // a substring of the error, "" for none
	}{
		{"none", nil, false, 0, ""},
		{"all client", map[string]string{"initial_window_size": "1MiB", "initial_conn_window_size": "16MiB", "read_buffer_size": "64KiB", "write_buffer_size": "0"}, false, 4, ""},
		{"all server", map[string]string{"initial_window_size": "64KiB", "initial_conn_window_size": "2047MiB", "read_buffer_size": "0", "write_buffer_size": "1GiB", "num_stream_workers": "4"}, true, 5, ""},
		{"workers off", map[string]string{"num_stream_workers": "0"}, true, 1, ""},
		// Unknown names are refused, naming the option; workers are a server option.
		{"unknown", map[string]string{"window": "1MiB"}, false, 0, `unknown option "window"`},
		{"workers on a client", map[string]string{"num_stream_workers": "4"}, false, 0, `unknown option "num_stream_workers"`},
		// Bad values name the option.
		{"bad size", map[string]string{"read_buffer_size": "lots"}, false, 0, "option read_buffer_size"},
		{"negative size", map[string]string{"write_buffer_size": "-1"}, true, 0, "option write_buffer_size"},
		// grpc-go ignores windows under 64KiB: refused rather than silently ignored.
		{"small window", map[string]string{"initial_window_size": "32KiB"}, false, 0, "option initial_window_size"},
		{"huge window", map[string]string{"initial_conn_window_size": "2GiB"}, true, 0, "option initial_conn_window_size"},
		{"huge buffer", map[string]string{"read_buffer_size": "2GiB"}, true, 0, "option read_buffer_size"},
		{"workers not a number", map[string]string{"num_stream_workers": "4KiB"}, true, 0, "option num_stream_workers"},
		{"workers negative", map[string]string{"num_stream_workers": "-1"}, true, 0, "option num_stream_workers"},
		{"too many workers", map[string]string{"num_stream_workers": "100000"}, true, 0, "option num_stream_workers"},
	} {
		var n int
		var err error
		if tc.server {
			o, e := ServerOptions("grpc-x", tc.opts)
			n, err = len(o), e
		} else {
			o, e := ClientOptions("grpc-x", tc.opts)
			n, err = len(o), e
		}
		switch {
		case tc.err == "" && err != nil:
			t.Errorf("%s: %v", tc.name, err)
		case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err) || !strings.HasPrefix(err.Error(), "grpc-x")):
			t.Errorf("%s: error %v, want one naming the protocol and %q", tc.name, err, tc.err)
		case err == nil && n != tc.n:
			t.Errorf("%s: %d options, want %d", tc.name, n, tc.n)
		}
	}
}
