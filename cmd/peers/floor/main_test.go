package main

import (
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/sys/unix"
)

func TestAnswerSize(t *testing.T) {
	for _, tc := range []struct {
		in           string
		size, status int
		bad          bool
	}{
		{in: "HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello", size: 43, status: 200},
		{in: "HTTP/1.1 404 Not Found\r\ncontent-length:  0 \r\n\r\n", size: 47, status: 404},
		{in: "HTTP/1.1 200 OK\r\nContent-Length: 5\r\n", size: 0},
		{in: "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n", bad: true},
		{in: "HTTP/1.0 200 OK\r\nContent-Length: 1\r\n\r\n", bad: true},
		{in: "HTTP/1.1 2x0 OK\r\nContent-Length: 1\r\n\r\n", bad: true},
		{in: "HTTP/1.1 200 OK\r\nContent-Length: -1\r\n\r\n", bad: true},
	} {
		size, status, err := answerSize([]byte(tc.in))
		if (err != nil) != tc.bad || size != tc.size || (!tc.bad && status != tc.status) {
			t.Errorf("answerSize(%q) = %d, %d, %v; want %d, %d, bad %v", tc.in, size, status, err, tc.size, tc.status, tc.bad)
		}
	}
}

// TestReadsAnswers drives one real connection to a net/http server through the
// reading code, with an answer that spans several reads.
func TestReadsAnswers(t *testing.T) {
	body := strings.Repeat("x", 12<<10)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/missing" {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Length", strconv.Itoa(len(body)))
		w.Write([]byte(body))
	}))
	defer srv.Close()
	host, port, _ := net.SplitHostPort(srv.Listener.Addr().String())
	sa, err := sockaddr(host, port)
	if err != nil {
		t.Fatal(err)
	}
	fd, err := dial(sa)
	if err != nil {
		t.Fatal(err)
	}
	defer unix.Close(fd)
	c := &conn{fd: fd, buf: make([]byte, 16<<10)}
	for _, tc := range []struct {
		path string
		ok   bool
	}{{"/", true}, {"/missing", false}, {"/", true}} {
		if _, err := unix.Write(fd, []byte("GET "+tc.path+" HTTP/1.1\r\nHost: x\r\n\r\n")); err != nil {
			t.Fatal(err)
		}
		for {
			pfd := []unix.PollFd{{Fd: int32(fd), Events: unix.POLLIN}}
			if n, err := unix.Poll(pfd, 5000); err != nil || n == 0 {
				t.Fatalf("GET %s: no answer within 5 s (%v)", tc.path, err)
			}
			done, ok, err := c.read()
			if err != nil {
				t.Fatal(err)
			}
			if done {
				if ok != tc.ok {
					t.Errorf("GET %s: ok = %v, want %v", tc.path, ok, tc.ok)
				}
				break
			}
		}
	}
}
